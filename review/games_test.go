package review

import (
	"bytes"
	"cmp"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/gcg"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// TestReviewRealGames reviews every game in ../shared/games with
// testlex.Name (NWL23 in CI) and checks each reviewed turn against a full
// list of the turn's moves made apart from the review: the number of moves,
// the best moves' equities, the equity and rank of the move made, the
// equity lost, phonies (each word looked up) and missed bingos.
func TestReviewRealGames(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil || leaves == nil {
		t.Fatalf("NWL23 leaves: %v", err)
	}
	for _, path := range testlex.Games(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			r := replay(t, path)
			rep := mustReview(t, r, Options{Tables: testgen.Tables(lex), Leaves: leaves})
			if len(rep.Turns) != len(r.Turns) || len(rep.Problems) != 0 || !slices.Equal(rep.Computed, rep.Recorded) {
				t.Fatalf("%d turns of %d, problems %v, totals %v %v", len(rep.Turns), len(r.Turns), rep.Problems, rep.Computed, rep.Recorded)
			}
			reviewed := 0
			for _, tr := range rep.Turns {
				if tr.RecordedTotal != tr.ComputedTotal {
					t.Errorf("turn %d: recorded total %d, computed %d", tr.Turn, tr.RecordedTotal, tr.ComputedTotal)
				}
				if tr.Reviewed {
					reviewed++
					checkTurn(t, lex, leaves, &r.Turns[tr.Turn-1], &tr)
				}
			}
			if reviewed == 0 {
				t.Error("no turn reviewed")
			}
			checkSummary(t, rep)
		})
	}
}

func checkTurn(t *testing.T, lex *gaddag.GADDAG, leaves *eval.LeaveTable, gt *gcg.Turn, tr *Turn) {
	t.Helper()
	where := "turn " + tr.Played.Move + " (" + tr.Player + ")"
	unseen, err := rules.Unseen(&gt.Board, gt.Rack)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	valuer := eval.Equity(leaves, gt.BagLen, unseen)
	gen := movegen.New(testgen.Tables(lex))
	gen.SetBoard(&gt.Board)
	gen.SetLeaves(valuer)
	var all movegen.AllMoves
	gen.Generate(&gt.Rack, gt.BagLen, movegen.Options{Exchanges: true, Pass: true}, &all)
	ms := all.Moves
	slices.SortStableFunc(ms, func(a, b move.Move) int { return cmp.Compare(b.Equity, a.Equity) })
	if tr.Moves != len(ms) {
		t.Errorf("%s: %d moves, the generator lists %d", where, tr.Moves, len(ms))
	}
	for j, b := range tr.Best {
		if b.Equity != float64(ms[j].Equity)/1000 {
			t.Errorf("%s: best #%d %s equity %v, want %v", where, j+1, b.Move, b.Equity, float64(ms[j].Equity)/1000)
		}
	}
	// Phonies: every word of the play looked up.
	var phonies []string
	for _, w := range tr.Played.Words {
		if !lex.Contains(strings.ToUpper(w)) {
			phonies = append(phonies, w)
		}
	}
	if !slices.Equal(phonies, tr.Phonies) || (len(phonies) > 0) != slices.Contains(tr.Flags, FlagPhony) {
		t.Errorf("%s: phonies %v, flags %v; the words %v hold the phonies %v", where, tr.Phonies, tr.Flags, tr.Played.Words, phonies)
	}
	withdrawn := slices.Contains(tr.Flags, FlagWithdrawn)
	if withdrawn != gt.Withdrawn {
		t.Errorf("%s: withdrawn flag %v, the replay says %v", where, withdrawn, gt.Withdrawn)
	}
	legal := len(phonies) == 0 && !withdrawn
	var yielded rules.Equity
	switch {
	case withdrawn:
		whole := gt.Rack
		yielded = valuer.LeaveValue(&whole)
	case legal:
		i := slices.IndexFunc(ms, func(m move.Move) bool { return move.Same(&m, &gt.Move) })
		if i < 0 {
			t.Fatalf("%s: the move made is not among the generated moves", where)
		}
		yielded = ms[i].Equity
		better := 0
		for _, m := range ms {
			if m.Equity > yielded {
				better++
			}
		}
		if tr.Rank != better+1 {
			t.Errorf("%s: rank %d, %d moves are better", where, tr.Rank, better)
		}
	default:
		yielded = rules.RoundPoints(tr.Equity)
	}
	if tr.Equity != yielded.Points() {
		t.Errorf("%s: equity %v, the generator gives %v", where, tr.Equity, yielded.Points())
	}
	if want := (ms[0].Equity - yielded).Points(); tr.EquityLost != want {
		t.Errorf("%s: equity lost %v, want %v", where, tr.EquityLost, want)
	}
	bingo := slices.ContainsFunc(ms, func(m move.Move) bool { return m.Kind == move.Play && m.NumTiles == rules.RackSize })
	missed := bingo && !(legal && gt.Move.NumTiles == rules.RackSize)
	if missed != slices.Contains(tr.Flags, FlagMissedBingo) || missed != (tr.BestBingo != nil) {
		t.Errorf("%s: flags %v, best bingo %v; a bingo was possible: %v", where, tr.Flags, tr.BestBingo, bingo)
	}
	if tr.BestBingo != nil {
		for _, w := range tr.BestBingo.Words {
			if !lex.Contains(strings.ToUpper(w)) {
				t.Errorf("%s: missed bingo %s forms %s, no word", where, tr.BestBingo.Move, w)
			}
		}
	}
}

func checkSummary(t *testing.T, rep *Report) {
	t.Helper()
	for _, ps := range rep.Summary.Players {
		var lost float64
		var turns, skipped, missed, phonies int
		for _, tr := range rep.Turns {
			if tr.Player != ps.Player {
				continue
			}
			if !tr.Reviewed {
				skipped++
				continue
			}
			turns++
			lost += tr.EquityLost
			if slices.Contains(tr.Flags, FlagMissedBingo) {
				missed++
			}
			if slices.Contains(tr.Flags, FlagPhony) {
				phonies++
			}
		}
		if ps.Turns != turns || ps.Skipped != skipped || ps.MissedBingos != missed || ps.Phonies != phonies ||
			ps.EquityLost != rules.RoundMilli(lost) || turns > 0 && ps.MeanEquityLost != rules.RoundMilli(lost/float64(turns)) {
			t.Errorf("summary %+v; the turns give %d reviewed, %d skipped, %v lost, %d missed bingos, %d phonies",
				ps, turns, skipped, lost, missed, phonies)
		}
	}
	c := rep.Summary.Costliest
	if !slices.IsSortedFunc(c, func(a, b Costly) int { return cmp.Compare(b.EquityLost, a.EquityLost) }) || len(c) > MaxCostliest {
		t.Errorf("costliest turns not in order: %+v", c)
	}
}

// TestReviewRealGameFacts checks what reading the files shows.
func TestReviewRealGameFacts(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	rep := mustReview(t, replay(t, testlex.Game(t, "doug_v_emely.gcg")), Options{Tables: testgen.Tables(lex), Players: [rules.MaxPlayers]bool{false, true}})
	// emely's 4B TIL.. runs into the A of JAVE..N (E4) and the X of VOX
	// (F4): TILAX, taken back on the next line.
	t6 := rep.Turns[2]
	if t6.Turn != 6 || t6.Player != "emely" || !slices.Equal(t6.Phonies, []string{"TILAX"}) ||
		!slices.Contains(t6.Flags, FlagWithdrawn) || t6.Score != 0 || t6.RecordedTotal != 55 {
		t.Errorf("turn 6: %+v", t6)
	}
	// vs_andy records only the tiles andy played.
	rep = mustReview(t, replay(t, testlex.Game(t, "vs_andy.gcg")), Options{Tables: testgen.Tables(lex)})
	if t1 := rep.Turns[0]; t1.Player != "andy" || t1.Reviewed || t1.Skipped != "rack partly recorded (3 of 7 tiles)" {
		t.Errorf("vs_andy turn 1: %+v", t1)
	}
}

// TestReviewLostChallenges: a pass that is the turn lost to a challenge of
// a play that stood is skipped as no decision and kept out of the summary.
// Reading the shared games: the only such pass is doug's on line 30 of
// doug_v_emely_double_challenge.gcg, right after emely went out with
// 14L .aFS (she held ?FS); incomplete.gcg's passes (lines 20, 21) follow
// plays that nobody challenged, and josh2.gcg's challenge bonuses are each
// followed by a play.
func TestReviewLostChallenges(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	want := map[string][]int{"doug_v_emely_double_challenge.gcg": {30}}
	for _, path := range testlex.Games(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			rep := mustReview(t, replay(t, path), Options{Tables: testgen.Tables(lex)})
			var lines []int
			for _, tr := range rep.Turns {
				if !slices.Contains(tr.Flags, FlagLostChallenge) {
					continue
				}
				lines = append(lines, tr.Line)
				if tr.Reviewed || !strings.HasPrefix(tr.Skipped, "a lost challenge, not a decision") {
					t.Errorf("line %d: reviewed %v, skipped %q", tr.Line, tr.Reviewed, tr.Skipped)
				}
				for _, c := range rep.Summary.Costliest {
					if c.Turn == tr.Turn {
						t.Errorf("line %d is among the costliest turns: %+v", tr.Line, c)
					}
				}
			}
			if !slices.Equal(lines, want[name]) {
				t.Errorf("lost challenges on lines %v, want %v", lines, want[name])
			}
			checkSummary(t, rep)
		})
	}
}

// TestReviewLostChallengeForms: the game's last play challenged in vain is
// recognised with or without the end-of-game line and the passer's rack.
func TestReviewLostChallengeForms(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	data, err := os.ReadFile(testlex.Game(t, "doug_v_emely_double_challenge.gcg"))
	if err != nil {
		t.Fatal(err)
	}
	full := strings.ReplaceAll(string(data), "\r\n", "\n")
	for _, tc := range []struct{ name, text string }{
		{"as recorded", full},
		{"no end-of-game line", strings.Replace(full, ">emely:  (OPEG) +14 345\n", "", 1)},
		{"no rack on the pass", strings.Replace(full, ">doug: EGOP - +0 451", ">doug: - +0 451", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.text == full && tc.name != "as recorded" {
				t.Fatal("the file changed: the edit did not apply")
			}
			g, err := gcg.Parse("game.gcg", []byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			rep := mustReview(t, g.Replay(), Options{Tables: testgen.Tables(lex), Players: [rules.MaxPlayers]bool{true, false}})
			last := rep.Turns[len(rep.Turns)-1]
			if last.Line != 30 || last.Reviewed || !slices.Contains(last.Flags, FlagLostChallenge) ||
				last.Skipped != "a lost challenge, not a decision: emely went out with 14L .aFS, which was challenged and stood" {
				t.Errorf("line %d: reviewed %v, flags %v, skipped %q", last.Line, last.Reviewed, last.Flags, last.Skipped)
			}
			if s := rep.Summary.Players[0]; s.Player != "doug" || s.Skipped != 1 || s.Turns != 13 {
				t.Errorf("summary %+v, want doug's 13 plays reviewed and the pass skipped", s)
			}
			// Every output says why the turn was skipped.
			reason := "a lost challenge, not a decision: emely went out with 14L .aFS"
			for _, out := range []struct {
				name  string
				write func(io.Writer, *Report) error
				want  string
			}{
				{"text", WriteText, "not reviewed: " + reason},
				{"JSON", WriteJSON, `"skipped": "` + reason},
				{"HTML", WriteHTML, "Not reviewed: " + reason},
			} {
				var buf bytes.Buffer
				if err := out.write(&buf, rep); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(buf.String(), out.want) {
					t.Errorf("%s lacks %q", out.name, out.want)
				}
			}
		})
	}
}
