package peg

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/position"
)

// sharedPEG is one line of the shared peg1.jsonl (see its README.md): a
// pre-endgame with one tile in the bag and MAGPIE's answers.
type sharedPEG struct {
	ID     string                 `json:"id"`
	CGP    string                 `json:"cgp"`
	Best   magpieRecord           `json:"magpie_best"`
	Exact  map[string]magpieExact `json:"exact"`
	Secs   float64                `json:"seconds"`
	Spread int                    `json:"initial_spread"`
}

type magpieRecord struct {
	Move   string  `json:"move"`
	Wins   int     `json:"win_count"`
	Ties   int     `json:"tie_count"`
	Losses int     `json:"loss_count"`
	Mean   float64 `json:"mean_spread"`
}

type magpieExact struct {
	magpieRecord
	Proven bool `json:"proven"`
}

// pegDir finds the shared pre-endgames, as the endgame tests do.
func loadPEG(tb testing.TB) []sharedPEG {
	tb.Helper()
	dir := os.Getenv("SCRABBLE_ENDGAME_DIR")
	if dir == "" {
		if d := os.Getenv(testlex.EnvVar); d != "" {
			dir = filepath.Join(d, "..", "endgame")
		}
	}
	if dir == "" {
		tb.Skip("no shared pre-endgames: set SCRABBLE_ENDGAME_DIR (or SCRABBLE_LEXICA_DIR, with endgame/ beside it)")
	}
	f, err := os.Open(filepath.Join(dir, "peg1.jsonl"))
	if os.IsNotExist(err) {
		tb.Skipf("no shared pre-endgames in %s", dir)
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []sharedPEG
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var p sharedPEG
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			tb.Fatalf("peg1.jsonl: %v", err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestSharedPEG checks the shared one-tile pre-endgames under MAGPIE's
// two-pass endgame rule: MAGPIE's move, valued alone, must get exactly
// MAGPIE's proven record (and where MAGPIE's is not proven, ours is the
// truth: logged); a full solve's best must have a record at least as good.
// Every position is solved in full (about a minute for the ten on two
// threads since the endgame's two-move-out order); -short keeps p009's
// and the proven records only.
func TestSharedPEG(t *testing.T) {
	ps := loadPEG(t)
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	full := !testing.Short()
	for _, p := range ps {
		pos, err := position.ParseCGP(p.ID, p.CGP)
		if err != nil {
			t.Fatal(err)
		}
		m, err := move.Parse(p.Best.Move, &pos.Board)
		if err != nil {
			t.Fatalf("%s: MAGPIE's move %q: %v", p.ID, p.Best.Move, err)
		}
		var mine Candidate
		t.Run("magpie-move/"+p.ID, func(t *testing.T) {
			if !p.Exact[p.Best.Move].Proven && !full {
				t.Skip("MAGPIE did not prove this record: its endgames are the hard ones (run without -short)")
			}
			res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, Only: []move.Move{m}})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Proven {
				t.Fatal("not proven")
			}
			mine = res.Candidates[0]
			ex := p.Exact[p.Best.Move]
			t.Logf("%s: MAGPIE's %s here %d-%d-%d mean %.3f in %v (MAGPIE's exact record %d-%d-%d %.3f, proven %v)",
				p.ID, mine.Notation, mine.Wins, mine.Ties, mine.Losses, mine.MeanSpread, res.Elapsed, ex.Wins, ex.Ties, ex.Losses, ex.Mean, ex.Proven)
			if ex.Proven && (mine.Wins != ex.Wins || mine.Ties != ex.Ties || mine.Losses != ex.Losses || mine.MeanSpread != ex.Mean) {
				t.Errorf("MAGPIE's %s: %d-%d-%d mean %.3f, its proven record %d-%d-%d %.3f", p.Best.Move, mine.Wins, mine.Ties, mine.Losses, mine.MeanSpread, ex.Wins, ex.Ties, ex.Losses, ex.Mean)
			}
		})
		t.Run("best/"+p.ID, func(t *testing.T) {
			if !full && p.ID != "p009" {
				t.Skip("a full solve (run without -short)")
			}
			if mine.Draws == 0 {
				t.Skip("MAGPIE's move was not valued")
			}
			res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, Top: 1, Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Proven || len(res.Candidates) == 0 {
				t.Fatalf("not proven (%s)", res.Stopped)
			}
			b := res.Candidates[0]
			t.Logf("%s: best %s %d-%d-%d mean %.3f; %d moves, %d pruned, %d endgames, %v (MAGPIE %s %d-%d-%d %.3f, %.0f s)",
				p.ID, b.Notation, b.Wins, b.Ties, b.Losses, b.MeanSpread, res.Moves, res.Pruned, res.Endgames, res.Elapsed,
				p.Best.Move, p.Best.Wins, p.Best.Ties, p.Best.Losses, p.Best.Mean, p.Secs)
			if 2*b.Wins+b.Ties < 2*mine.Wins+mine.Ties || (2*b.Wins+b.Ties == 2*mine.Wins+mine.Ties && b.MeanSpread < mine.MeanSpread) {
				t.Errorf("our best %s (%d-%d-%d, %.3f) is worse than MAGPIE's %s (%d-%d-%d, %.3f)", b.Notation, b.Wins, b.Ties, b.Losses, b.MeanSpread, mine.Notation, mine.Wins, mine.Ties, mine.Losses, mine.MeanSpread)
			}
			if !strings.EqualFold(b.Notation, p.Best.Move) {
				t.Logf("%s: a better move than MAGPIE's", p.ID)
			}
		})
	}
}
