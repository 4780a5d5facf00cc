package runrecord

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/eval"
)

func TestCheckpoints(t *testing.T) {
	dir := t.TempDir()
	write := func(content string) func(string) error {
		return func(path string) error { return os.WriteFile(path, []byte(content), 0o644) }
	}
	if path, c, err := LastCheckpoint(dir, "gen-1.", ".stats"); path != "" || c != 0 || err != nil {
		t.Fatalf("empty dir: %q, %d, %v", path, c, err)
	}
	for _, c := range []int{1, 2, 12} {
		if err := SaveCheckpoint(dir, "gen-1.", ".stats", c, write("after "+string(rune('0'+c%10)))); err != nil {
			t.Fatal(err)
		}
	}
	// Another generation's checkpoint is left alone and not taken.
	if err := SaveCheckpoint(dir, "gen-2.", ".stats", 40, write("gen 2")); err != nil {
		t.Fatal(err)
	}
	path, c, err := LastCheckpoint(dir, "gen-1.", ".stats")
	if err != nil || c != 12 || filepath.Base(path) != "gen-1.c000012.stats" {
		t.Fatalf("last = %q, %d, %v; want gen-1.c000012.stats, 12", path, c, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 2 {
		t.Errorf("files %v: want only the newest of each run", files)
	}
	if err := os.WriteFile(filepath.Join(dir, "gen-1.cXYZ.stats"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LastCheckpoint(dir, "gen-1.", ".stats"); err == nil || !strings.Contains(err.Error(), "cannot tell which games") {
		t.Errorf("a badly named checkpoint: err = %v", err)
	}
}

func TestKeepSettings(t *testing.T) {
	settings := func(games int, extra ...string) Settings {
		s := NewSettings("test")
		s.Add("seed", 7)
		for _, x := range extra {
			s.Add(x, "on")
		}
		s.AddCount("games", games)
		return s
	}
	// withTiebreak adds a setting with a default, as a newer version adds
	// one that older records lack.
	withTiebreak := func(games int, tb string) Settings {
		s := settings(games)
		s.AddDefault("tiebreak", tb, "naspa")
		return s
	}
	for _, c := range []struct {
		name     string
		record   string // settings.json before; "" for none
		started  bool
		resume   bool
		now      Settings
		msg      string // error after "DIR"; "" for none
		recorded string // the games recorded after, if no error
		tiebreak string // the tiebreak recorded after, if no error ("" for none)
	}{
		{name: "fresh", now: settings(4), recorded: "4"},
		{name: "fresh, resumed", resume: true, now: settings(4), recorded: "4"},
		{name: "no work yet: starts afresh", record: "{\"command\": \"test\", \"seed\": \"8\", \"games\": \"9\"}", resume: true, now: settings(4), recorded: "4"},
		{name: "same", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\"}", started: true, resume: true, now: settings(4), recorded: "4"},
		{name: "more games", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\"}", started: true, resume: true, now: settings(6), recorded: "6"},
		{name: "fewer games", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\"}", started: true, resume: true, now: settings(3),
			msg: ": cannot resume: games was 4 (recorded in DIR/settings.json), now 3: a resumed run can go on to more, not fewer"},
		{name: "other seed", record: "{\"command\": \"test\", \"seed\": \"8\", \"games\": \"4\"}", started: true, resume: true, now: settings(4),
			msg: ": cannot resume: seed was 8 (recorded in DIR/settings.json), now 7"},
		{name: "other command", record: "{\"command\": \"other\", \"seed\": \"7\", \"games\": \"4\"}", started: true, resume: true, now: settings(4),
			msg: ": cannot resume: command was other (recorded in DIR/settings.json), now test"},
		{name: "a setting not recorded", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\"}", started: true, resume: true, now: settings(4, "pairs"),
			msg: ": cannot resume: DIR/settings.json does not record pairs (now on)"},
		{name: "a setting recorded, not now", record: "{\"command\": \"test\", \"seed\": \"7\", \"pairs\": \"on\", \"games\": \"4\"}", started: true, resume: true, now: settings(4),
			msg: ": cannot resume: DIR/settings.json records pairs, a setting this run does not have"},
		{name: "a setting with a default, at it, not recorded", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\"}", started: true, resume: true, now: withTiebreak(4, "naspa"), recorded: "4"},
		{name: "a setting with a default, not at it, not recorded", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\"}", started: true, resume: true, now: withTiebreak(4, "hasbro"),
			msg: ": cannot resume: tiebreak was naspa (the default: DIR/settings.json does not record it), now hasbro"},
		{name: "a setting with a default, recorded, now at the default", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\", \"tiebreak\": \"hasbro\"}", started: true, resume: true, now: withTiebreak(4, "naspa"),
			msg: ": cannot resume: tiebreak was hasbro (recorded in DIR/settings.json), now naspa"},
		{name: "a setting with a default, recorded, same", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\", \"tiebreak\": \"hasbro\"}", started: true, resume: true, now: withTiebreak(5, "hasbro"), recorded: "5", tiebreak: "hasbro"},
		{name: "a setting with a default, fresh, at it", now: withTiebreak(4, "naspa"), recorded: "4"},
		{name: "a setting with a default, fresh, not at it", now: withTiebreak(4, "hasbro"), recorded: "4", tiebreak: "hasbro"},
		{name: "damaged", record: "{\"command\": ", started: true, resume: true, now: settings(4),
			msg: ": cannot resume: DIR/settings.json is damaged"},
		{name: "no record", started: true, resume: true, now: settings(4),
			msg: ": cannot resume: it has no settings.json (a run from an older version of scrabble)"},
		{name: "not resumed", record: "{\"command\": \"test\", \"seed\": \"7\", \"games\": \"4\"}", started: true, now: settings(4),
			msg: " holds an earlier run: continue it with --resume, or remove it"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, SettingsFile)
		if c.record != "" {
			if err := os.WriteFile(path, []byte(c.record), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := Keep(dir, c.resume, c.started, c.now)
		if c.msg != "" {
			want := dir + strings.ReplaceAll(c.msg, "DIR", dir)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s: err = %v, want %q", c.name, err, want)
			}
			if data, _ := os.ReadFile(path); string(data) != c.record {
				t.Errorf("%s: the refused run changed the record to %q", c.name, data)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got map[string]string
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, &got)
		}
		if err != nil {
			t.Errorf("%s: %s: %v", c.name, data, err)
		}
		if got["games"] != c.recorded || got["seed"] != "7" || got["command"] != "test" || got["tiebreak"] != c.tiebreak {
			t.Errorf("%s: recorded %v, want games %s", c.name, got, c.recorded)
		}
		if files, _ := os.ReadDir(dir); len(files) != 1 {
			t.Errorf("%s: %d files left in the directory, want the record alone", c.name, len(files))
		}
	}
}

// TestLeavesIdentity: a table is known by its values, not its file.
func TestLeavesIdentity(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "a.csv")
	if err := os.WriteFile(csv, []byte("leave,value\nS,8\n?,25.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := eval.LoadAnyPartial(csv)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "a.leaves")
	if err := a.Save(bin); err != nil {
		t.Fatal(err)
	}
	b, err := eval.LoadAny(bin)
	if err != nil {
		t.Fatal(err)
	}
	other := eval.NewLeaveTable()
	if LeavesIdentity(nil) != "none" || LeavesIdentity(a) != LeavesIdentity(b) || LeavesIdentity(a) == LeavesIdentity(other) ||
		!strings.HasPrefix(LeavesIdentity(a), "sha256:") {
		t.Errorf("identities: nil %s, CSV %s, binary %s, zero %s", LeavesIdentity(nil), LeavesIdentity(a), LeavesIdentity(b), LeavesIdentity(other))
	}
}
