package endgame

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/position"
)

// sharedPosition is one line of the shared positions.jsonl (see its
// README.md): an endgame with the value MAGPIE proved under its two-pass
// rule.
type sharedPosition struct {
	ID      string   `json:"id"`
	CGP     string   `json:"cgp"`
	Lexicon string   `json:"lexicon"`
	Value   int      `json:"value"`
	PV      []string `json:"pv"`
	Depth   int      `json:"depth"`
	Seconds float64  `json:"magpie_seconds_1t"`
	Nodes   int      `json:"magpie_nodes"`
	Cats    []string `json:"category"`
}

// endgameDir finds the shared endgame positions: $SCRABBLE_ENDGAME_DIR, else
// endgame/ beside the lexica directory. "" when absent.
func endgameDir() string {
	if d := os.Getenv("SCRABBLE_ENDGAME_DIR"); d != "" {
		return d
	}
	if d := os.Getenv(testlex.EnvVar); d != "" {
		return filepath.Join(d, "..", "endgame")
	}
	return ""
}

// loadShared reads positions.jsonl, skipping the test when it is absent.
func loadShared(tb testing.TB) []sharedPosition {
	tb.Helper()
	dir := endgameDir()
	if dir == "" {
		tb.Skip("no shared endgame positions: set SCRABBLE_ENDGAME_DIR (or SCRABBLE_LEXICA_DIR, with endgame/ beside it)")
	}
	f, err := os.Open(filepath.Join(dir, "positions.jsonl"))
	if os.IsNotExist(err) {
		tb.Skipf("no shared endgame positions in %s", dir)
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []sharedPosition
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var p sharedPosition
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			tb.Fatalf("positions.jsonl: %v", err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// slowMAGPIE is the MAGPIE time above which a position is run only when
// not -short (or with SCRABBLE_ENDGAME_SLOW set).
const slowMAGPIE = 5.0

// TestSharedPositions solves the shared positions under MAGPIE's two-pass
// rule and checks each value against MAGPIE's, then (not -short) under the
// six-turn rule: the two rules give the same value unless both sides would
// rather pass, and on this set they agree on all 60, the positions with a
// pass in MAGPIE's line (category passes) included.
func TestSharedPositions(t *testing.T) {
	ps := loadShared(t)
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	slow := !testing.Short() || os.Getenv("SCRABBLE_ENDGAME_SLOW") != ""
	for _, rule := range []int{2, 6} {
		for _, p := range ps {
			t.Run(fmt.Sprintf("%d-turn/%s", rule, p.ID), func(t *testing.T) {
				if rule == 6 && !slow {
					t.Skip("the six-turn rule: run without -short (or set SCRABBLE_ENDGAME_SLOW)")
				}
				if p.Seconds > slowMAGPIE && !slow {
					t.Skipf("MAGPIE took %.1f s: run without -short (or set SCRABBLE_ENDGAME_SLOW)", p.Seconds)
				}
				pos, err := position.ParseCGP(p.ID, p.CGP)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: rule, TTMB: 64})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Proven {
					t.Fatalf("not proven")
				}
				t.Logf("%s: value %d (MAGPIE %d), %s, depth %d, %d nodes, %v (MAGPIE %.3f s, %d nodes)",
					p.ID, res.Value, p.Value, res.Notation, res.Depth, res.Nodes, res.Elapsed, p.Seconds, p.Nodes)
				if res.Value != p.Value {
					why := ""
					if rule != 2 && slices.Contains(p.Cats, "passes") {
						why = " (a pass in MAGPIE's line: the rules may differ here; check both lines)"
					}
					t.Errorf("value %d, MAGPIE %d%s (its line %v; ours %v)", res.Value, p.Value, why, p.PV, pvString(res.PV))
				}
				checkPV(t, res)
			})
		}
	}
}

// pvString writes a principal variation as notations.
func pvString(pv []Step) []string {
	out := make([]string, len(pv))
	for i, st := range pv {
		out[i] = st.Notation
	}
	return out
}

// checkPV checks that a proven line ends the game and adds up to the value.
func checkPV(t *testing.T, res *Result) {
	t.Helper()
	if !res.Proven {
		return
	}
	sum := 0
	for _, st := range res.PV {
		if st.Player == 0 {
			sum += st.Score
		} else {
			sum -= st.Score
		}
		sum += st.Adjustment
	}
	if len(res.PV) == 0 || res.PV[len(res.PV)-1].End == "" {
		t.Errorf("the principal variation %v does not end the game", pvString(res.PV))
		return
	}
	if sum != res.Value {
		t.Errorf("the principal variation %v adds up to %d, not the value %d", pvString(res.PV), sum, res.Value)
	}
}
