package selfplay

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/internal/testlex"
)

// TestResumeStrict: resume refuses a results file with a line no run
// writes, naming the file and the line, and leaves the file as it was;
// a torn last line (no newline: the run was killed mid-write) is still
// dropped and its game played again. Each case's file is generated from a
// real tournament's results, one line changed.
func TestResumeStrict(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	const games = 4
	cfg := baseConfig(lex, games)
	cfg.Workers = 1
	cfg.Dir = t.TempDir()
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(cfg.Dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")[:games]

	// set changes fields of a line's object.
	set := func(line string, kv ...any) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(data) + "\n"
	}
	var r1 GameResult // the second line's game
	if err := json.Unmarshal([]byte(lines[1]), &r1); err != nil {
		t.Fatal(err)
	}
	s := r1.Scores
	loser, winner := min(s[0], s[1]), max(s[0], s[1])
	swapped := []int{s[1], s[0]}
	if s[0] == s[1] {
		t.Fatalf("game %d is a draw: pick another seed", r1.Game)
	}
	trim := func(line string) string { return strings.TrimSuffix(line, "\n") }
	cases := []struct {
		name string
		line string // the second line's replacement
		want string // after "FILE, line 2: "
	}{
		{"trailing garbage", trim(lines[1]) + "xyz\n", `"xyz" after the result's JSON object`},
		{"trailing brace", trim(lines[1]) + "}\n", `"}" after the result's JSON object`},
		{"two objects on a line", trim(lines[1]) + " " + lines[2], `after the result's JSON object`},
		{"two objects, no space", trim(lines[1]) + lines[2], `after the result's JSON object`},
		{"winner not matching the scores", set(lines[1], "scores", swapped), fmt.Sprintf("game %d: winner %d with scores %d-%d", r1.Game, r1.Winner, s[1], s[0])},
		{"a draw with unequal scores", set(lines[1], "winner", 0), fmt.Sprintf("game %d: winner 0 with scores", r1.Game)},
		{"winner 3", set(lines[1], "winner", 3), fmt.Sprintf("game %d: winner 3", r1.Game)},
		{"a win with equal scores", set(lines[1], "scores", []int{winner, winner}), fmt.Sprintf("game %d: winner %d with scores %d-%d", r1.Game, r1.Winner, winner, winner)},
		{"negative score", set(lines[1], "scores", []int{-100, -200}, "winner", 1), "scored -100"},
		{"negative score after going out", set(lines[1], "scores", []int{loser - 1000, -1}, "winner", 2), "scored"},
		{"absurd score", set(lines[1], "scores", []int{1 << 40, loser}, "winner", 1), fmt.Sprintf("player 1 scored %d", 1<<40)},
		{"score beyond what its turns allow", set(lines[1], "scores", []int{100000, loser}, "winner", 1), "player 1 scored 100000"},
		{"no turns", set(lines[1], "turns", 0), "0 turns: a game has 1 to"},
		{"too many turns", set(lines[1], "turns", 100000), "100000 turns"},
		{"negative bingos", set(lines[1], "bingos", []int{-1, 0}), "player 1 has -1 bingos"},
		{"more passes than turns", set(lines[1], "passes", []int{0, 1000}), "player 2 has"},
		{"unknown end", set(lines[1], "end", "resigned"), `end "resigned"`},
		{"game out of range", set(lines[1], "game", games), fmt.Sprintf("game %d is beyond the %d games", games, games)},
		{"negative game", set(lines[1], "game", -1), "game -1 is beyond"},
		{"first mover 7", set(lines[1], "first", 7), "first mover 7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ResultsFile)
			data := lines[0] + c.line + lines[2] + lines[3]
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			rc := cfg
			rc.Dir, rc.Resume = dir, true
			_, err := Run(context.Background(), rc)
			want := path + ", line 2: "
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %q...%q", err, want, c.want)
			}
			if after, _ := os.ReadFile(path); string(after) != data {
				t.Errorf("the refused resume changed %s", path)
			}
		})
	}

	// An impossible LAST line, whole (with its newline), is refused too: it
	// was written whole, so it is no crash's work.
	t.Run("impossible last line", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, ResultsFile)
		data := lines[0] + lines[1] + lines[2] + trim(lines[3]) + "garbage\n"
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		rc := cfg
		rc.Dir, rc.Resume = dir, true
		if _, err := Run(context.Background(), rc); err == nil || !strings.HasPrefix(err.Error(), path+", line 4: ") {
			t.Errorf("got %v", err)
		}
	})

	// A torn last line is dropped and its game played again: the result
	// is that of the whole run.
	for name, torn := range map[string]string{
		"torn last line":           lines[3][:len(lines[3])/2],
		"torn after trailing junk": trim(lines[3]) + "xy",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ResultsFile)
			if err := os.WriteFile(path, []byte(lines[0]+lines[1]+lines[2]+torn), 0o644); err != nil {
				t.Fatal(err)
			}
			rc := cfg
			rc.Dir, rc.Resume = dir, true
			s, err := Run(context.Background(), rc)
			if err != nil || s.Played != 1 || s.Games != games {
				t.Fatalf("resume: %v, %+v", err, s)
			}
			if after, _ := os.ReadFile(path); string(after) != string(good) {
				t.Errorf("results after the resume:\n%s\nwant\n%s", after, good)
			}
		})
	}
}
