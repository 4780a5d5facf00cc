package endgame

import (
	"context"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/position"
)

// TestLine replays the proven lines of the quick shared positions: each
// step starts from the board and rack the steps before left, and the last
// step's scores are the position's spread plus the solved value.
func TestLine(t *testing.T) {
	ps := loadShared(t)
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	n := 0
	for _, p := range ps {
		if p.Seconds > 0.2 || n == 12 {
			continue
		}
		n++
		pos, err := position.ParseCGP(p.ID, p.CGP)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, TTMB: 16})
		if err != nil || !res.Proven {
			t.Fatalf("%s: %v, proven %v", p.ID, err, res != nil && res.Proven)
		}
		line := res.Line(pos)
		if len(line) != len(res.PV) || len(line) == 0 {
			t.Fatalf("%s: %d steps for a line of %d", p.ID, len(line), len(res.PV))
		}
		board := pos.Board
		for i, st := range line {
			if st.Board != board {
				t.Fatalf("%s step %d: the board before it is not the one the steps before left", p.ID, i)
			}
			if st.Rack != res.PV[i].Rack {
				t.Fatalf("%s step %d: rack %s, the solver's %s", p.ID, i, st.Rack, res.PV[i].Rack)
			}
			if st.Move.Kind == move.Play {
				board.Apply(st.Move.Placed())
			}
		}
		last := line[len(line)-1].Scores
		if got, want := last[0]-last[1], pos.Scores[0]-pos.Scores[1]+res.Value; got != want {
			t.Errorf("%s: the line ends on %d-%d, spread %d; the position's spread plus the value is %d", p.ID, last[0], last[1], got, want)
		}
	}
	if n < 5 {
		t.Fatalf("only %d quick positions", n)
	}
}
