package main

import (
	"os"
	"path/filepath"
	"testing"

	"scrabble/internal/atomicfile"
)

// TestStaleTemporaries: the temporary files a killed run left (here made
// as one leaves them: written, no process holding them) are removed by the
// next run writing there: lexicon add in the data directory, a resumed
// training run in FILE.train/, a resumed self-play run in --out. A live
// writer's temporary file, held by this process, is kept. (The same with
// a real process SIGKILLed mid-write: internal/atomicfile's
// TestRemoveStaleKilledWriter.)
func TestStaleTemporaries(t *testing.T) {
	e := movesEnv(t)
	leavesOut := filepath.Join(e.root, "l.leaves")
	selfplayDir := filepath.Join(e.root, "sp")
	e.ok("leaves", "train", "--games", "2", "--generations", "1", "--out", leavesOut)
	e.ok("selfplay", "--games", "2", "--out", selfplayDir)
	winpctOut := filepath.Join(e.root, "w.csv")
	e.ok("winpct", "train", "--games", "2", "--out", winpctOut)
	for _, c := range []struct {
		name         string
		dir          string
		stale, other []string // left by a killed run; not this program's temporaries
		live         string   // a live writer's target (its temporary is kept)
		livePattern  string
		args         []string
	}{
		{"lexicon add", filepath.Join(e.dataDir, "lexica"), []string{".tmp-123.gaddag", ".tmp-4.gaddag"}, []string{"notes.tmp", "x.gaddag.bak"},
			"OTHER.gaddag", ".tmp-*.gaddag", []string{"lexicon", "add", "MORE", e.file("more.txt", moveWords)}},
		{"lexicon add: the default's record", e.dataDir, []string{".tmp-default-9"}, []string{".tmp-other"},
			"default", ".tmp-default-*", []string{"lexicon", "add", "MORE", e.file("more.txt", moveWords)}},
		{"leaves train", leavesOut + ".train", []string{".c000001.stats.tmp4242", ".settings.json.tmp7"}, []string{"c.stats.tmp"},
			"c000009.stats", "", []string{"leaves", "train", "--games", "2", "--generations", "1", "--out", leavesOut, "--resume"}},
		{"winpct train", winpctOut + ".train", []string{".c000001.winstats.tmp99", ".settings.json.tmp3"}, []string{"c.winstats.tmp"},
			"c000009.winstats", "", []string{"winpct", "train", "--games", "2", "--out", winpctOut, "--resume"}},
		{"leaves convert --out", e.root, []string{".out.csv.tmp123", ".out.csv.tmp9"}, []string{"out.csv.tmp", ".other.csv.tmp4"},
			"out.csv", "", []string{"leaves", "convert", filepath.Join("..", "..", "eval", "data", "NWL23.leaves"), filepath.Join(e.root, "out.csv")}},
		{"selfplay", selfplayDir, []string{".game-000001.gcg.tmp31337", ".settings.json.tmp1"}, []string{"game.tmp"},
			"game-000005.gcg", "", []string{"selfplay", "--games", "2", "--out", selfplayDir, "--resume"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, name := range append(append([]string{}, c.stale...), c.other...) {
				if err := os.WriteFile(filepath.Join(c.dir, name), make([]byte, 4096), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			live, err := atomicfile.Create(filepath.Join(c.dir, c.live), atomicfile.Options{Pattern: c.livePattern})
			if err != nil {
				t.Fatal(err)
			}
			defer live.Abort()
			e.ok(c.args...)
			for _, name := range c.stale {
				if _, err := os.Stat(filepath.Join(c.dir, name)); err == nil {
					t.Errorf("%s is still there", name)
				}
			}
			for _, name := range append([]string{live.Name()}, c.other...) {
				if _, err := os.Stat(filepath.Join(c.dir, filepath.Base(name))); err != nil {
					t.Errorf("%s was removed: %v", name, err)
				}
			}
		})
	}
}
