package protocol

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseCommand(t *testing.T) {
	cgp := "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 lex NWL23;"
	tests := []struct {
		line string
		want Command
	}{
		{"", Command{}},
		{"   \t ", Command{}},
		{"ucgi", Command{Name: "ucgi"}},
		{"  isready  ", Command{Name: "isready"}},
		{"joho isready", Command{Name: "isready"}}, // unknown words before a command are skipped, as in UCI
		{"debug on", Command{Name: "debug"}},
		{"setoption name Threads value 2", Command{Name: "setoption", Option: &Option{Name: "Threads", Value: "2"}}},
		{"setoption name Clear Hash", Command{Name: "setoption", Option: &Option{Name: "Clear Hash"}}},
		{"setoption name Data Path value /a b/c", Command{Name: "setoption", Option: &Option{Name: "Data Path", Value: "/a b/c"}}},
		{"position cgp " + cgp, Command{Name: "position", Position: &Position{CGP: cgp}}},
		{"position\tcgp   " + cgp + "  ", Command{Name: "position", Position: &Position{CGP: cgp}}},
		{"position gcg game.gcg turn 12", Command{Name: "position", Position: &Position{GCG: "game.gcg", Turn: 12}}},
		{"go", Command{Name: "go", Go: &Go{}}},
		{"go static", Command{Name: "go", Go: &Go{Mode: ModeStatic}}},
		{"go sim iterations 200 threads 2 plies 3 seed 9", Command{Name: "go", Go: &Go{Mode: ModeSim, Iterations: 200, Threads: 2, Plies: 3, Seed: 9, HasSeed: true}}},
		{"go time 1.5s endgame", Command{Name: "go", Go: &Go{Mode: ModeEndgame, Time: 1500 * time.Millisecond}}},
		{"go peg movetime 250", Command{Name: "go", Go: &Go{Mode: ModePEG, Time: 250 * time.Millisecond}}},
		{"go depth 4", Command{Name: "go", Go: &Go{Plies: 4}}},
		{"stop", Command{Name: "stop"}},
		{"quit\r", Command{Name: "quit"}},
	}
	for _, tt := range tests {
		got, err := ParseCommand(tt.line)
		if err != nil {
			t.Errorf("ParseCommand(%q): %v", tt.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseCommand(%q) = %+v, want %+v", tt.line, got, tt.want)
		}
	}
}

func TestParseCommandErrors(t *testing.T) {
	tests := []struct{ line, want string }{
		{"hello", `unknown command "hello"`},
		{"isready now", "isready takes no arguments"},
		{"debug maybe", "debug takes on or off"},
		{"setoption Threads 2", `want "setoption name ID [value X]"`},
		{"setoption name", "name is missing"},
		{"setoption name Threads value", "value is missing"},
		{"position", `want "position cgp CGP"`},
		{"position cgp", "the CGP is missing"},
		{"position fen x", `"fen" is not cgp or gcg`},
		{"position gcg a.gcg", "position gcg FILE turn N"},
		{"position gcg a.gcg turn 0", `turn "0" is not a turn number`},
		{"go static sim", "two modes"},
		{"go iterations", `"iterations" wants a value`},
		{"go iterations -3", "go iterations: bad value"},
		{"go threads x", "go threads: bad value"},
		{"go time 0s", "go time: bad value"},
		{"go movetime 0", "go movetime: bad value"},
		{"go seed -1", "go seed: bad value"},
		{"go nodes 100", `unknown word "nodes"`},
	}
	for _, tt := range tests {
		_, err := ParseCommand(tt.line)
		if err == nil {
			t.Errorf("ParseCommand(%q): no error, want one containing %q", tt.line, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseCommand(%q): %v, want it to contain %q", tt.line, err, tt.want)
		}
	}
}

// FuzzParseCommand: any line parses or errs, never panics, and what parses
// is consistent: a position carries a CGP or a game, a go its settings.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"ucgi", "go sim iterations 10", "position cgp 15/15 A/ 0/0 0", "position gcg x turn 3",
		"setoption name A value B", "joho debug on", "go time 1s movetime 5", "\x00position cgp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err != nil {
			if c != (Command{}) {
				t.Fatalf("error %v with a command %+v", err, c)
			}
			return
		}
		switch c.Name {
		case "position":
			p := c.Position
			if p == nil || (p.CGP == "") == (p.GCG == "") || (p.GCG != "" && p.Turn < 1) {
				t.Fatalf("position %+v from %q", p, line)
			}
		case "go":
			g := c.Go
			if g == nil || g.Time < 0 || g.Iterations < 0 || g.Threads < 0 || g.Plies < 0 {
				t.Fatalf("go %+v from %q", g, line)
			}
		case "setoption":
			if c.Option == nil || c.Option.Name == "" {
				t.Fatalf("setoption %+v from %q", c.Option, line)
			}
		}
	})
}
