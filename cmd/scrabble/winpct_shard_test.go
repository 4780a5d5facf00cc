package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWinpctShardsMerge: a win-table training run cut into shards (chunks
// of 4 games: 22 games are 6 chunks) and merged writes the table one
// machine playing the whole run writes, byte for byte; shards missing,
// doubled, of another run or unfinished are refused.
func TestWinpctShardsMerge(t *testing.T) {
	e := nwlEnv(t)
	defer func(w int) { winpctChunk = w }(winpctChunk)
	winpctChunk = 4
	path := func(name string) string { return filepath.Join(e.root, name) }
	run := []string{"--lexicon", "NWL23", "winpct", "train", "--games", "22", "--seed", "3"}
	e.ok(append(run, "--out", path("whole.csv"), "--threads", "2")...)
	for k, threads := range []string{"2", "1", "2", "1"} {
		out := e.ok(append(run, "--shard", []string{"1/4", "2/4", "3/4", "4/4"}[k], "--out", path([]string{"p1", "p2", "p3", "p4"}[k]), "--threads", threads)...)
		if !strings.Contains(out, "done") {
			t.Fatalf("shard %d: %s", k+1, out)
		}
	}
	if _, err := os.Stat(path("p1")); err == nil {
		t.Error("a shard wrote a table")
	}
	e.ok("winpct", "merge", "--out", path("merged.csv"), path("p3.train"), path("p1.train"), path("p4.train"), path("p2.train"))
	whole, err1 := os.ReadFile(path("whole.csv"))
	merged, err2 := os.ReadFile(path("merged.csv"))
	if err1 != nil || err2 != nil || len(whole) == 0 || !bytes.Equal(whole, merged) {
		t.Fatalf("the merged table differs from the whole run's (%v, %v):\n%s\n---\n%s", err1, err2, merged, whole)
	}

	e.ok("--lexicon", "NWL23", "winpct", "train", "--games", "22", "--seed", "4", "--shard", "4/4", "--out", path("other"))
	e.ok("--lexicon", "NWL23", "selfplay", "--games", "2", "--out", path("selfplay"))
	for _, c := range []struct {
		dirs []string
		msg  string
	}{
		{[]string{"p1", "p2", "p3"}, "3 of the 4 shards given"},
		{[]string{"p1", "p2", "p3", "p3"}, "are both shard 3/4"},
		{[]string{"p1", "p2", "p3", "other"}, "is a shard of another run"},
		{[]string{"selfplay"}, `the work directory of a "selfplay" run`},
	} {
		args := []string{"winpct", "merge", "--out", path("bad.csv")}
		for _, d := range c.dirs {
			if d != "selfplay" {
				d += ".train"
			}
			args = append(args, path(d))
		}
		if r := e.run(args...); r.code != 1 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("merge %v: exit %d, stderr %q; want %q", c.dirs, r.code, r.stderr, c.msg)
		}
	}
	// An unfinished shard: its last checkpoint taken away.
	last, _ := filepath.Glob(path("p2.train") + "/*.winstats")
	if len(last) == 0 {
		t.Fatal("shard 2 kept no counts")
	}
	for _, f := range last {
		if strings.Contains(f, "c000003") {
			os.Remove(f)
		}
	}
	if r := e.run("winpct", "merge", "--out", path("bad.csv"), path("p1.train"), path("p2.train"), path("p3.train"), path("p4.train")); r.code != 1 || !strings.Contains(r.stderr, "resume it first") {
		t.Errorf("merge with an unfinished shard: exit %d, stderr %q", r.code, r.stderr)
	}
}
