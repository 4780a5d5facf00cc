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

// TestSharedPEG solves the shared one-tile pre-endgames under MAGPIE's
// two-pass endgame rule: MAGPIE's move must get exactly MAGPIE's proven
// record, and our best a record at least as good.
func TestSharedPEG(t *testing.T) {
	ps := loadPEG(t)
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	for _, p := range ps {
		t.Run(p.ID, func(t *testing.T) {
			pos, err := position.ParseCGP(p.ID, p.CGP)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, Top: 1})
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
			// MAGPIE's move, valued alone.
			m, err := move.Parse(p.Best.Move, &pos.Board)
			if err != nil {
				t.Fatalf("MAGPIE's move %q: %v", p.Best.Move, err)
			}
			mine, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, Only: []move.Move{m}})
			if err != nil {
				t.Fatal(err)
			}
			c := mine.Candidates[0]
			ex := p.Exact[p.Best.Move]
			t.Logf("%s: MAGPIE's %s here %d-%d-%d mean %.3f (its exact record %d-%d-%d %.3f, proven %v)",
				p.ID, c.Notation, c.Wins, c.Ties, c.Losses, c.MeanSpread, ex.Wins, ex.Ties, ex.Losses, ex.Mean, ex.Proven)
			if ex.Proven && (c.Wins != ex.Wins || c.Ties != ex.Ties || c.Losses != ex.Losses || c.MeanSpread != ex.Mean) {
				t.Errorf("MAGPIE's %s: %d-%d-%d mean %.3f, its proven record %d-%d-%d %.3f", p.Best.Move, c.Wins, c.Ties, c.Losses, c.MeanSpread, ex.Wins, ex.Ties, ex.Losses, ex.Mean)
			}
			if 2*b.Wins+b.Ties < 2*c.Wins+c.Ties || (2*b.Wins+b.Ties == 2*c.Wins+c.Ties && b.MeanSpread < c.MeanSpread) {
				t.Errorf("our best %s (%d-%d-%d, %.3f) is worse than MAGPIE's %s (%d-%d-%d, %.3f)", b.Notation, b.Wins, b.Ties, b.Losses, b.MeanSpread, c.Notation, c.Wins, c.Ties, c.Losses, c.MeanSpread)
			}
			if !strings.EqualFold(b.Notation, p.Best.Move) {
				t.Logf("%s: a different best move than MAGPIE's", p.ID)
			}
		})
	}
}
