package review

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/move"
	"scrabble/rules"
)

// positionsRanker records the positions it is asked about and values
// nothing.
type positionsRanker struct{ seen *[]Position }

func (positionsRanker) Name() string { return "positions" }

func (p positionsRanker) Rank(_ context.Context, pos *Position, ms []move.Move) ([]float64, error) {
	*p.seen = append(*p.seen, *pos)
	return make([]float64, len(ms)), nil
}

// TestReviewThreePlayers reviews ../gcg/testdata/three_players.gcg: every
// per-player list has three entries, the ranker sees the mover's score
// first and the others' in turn order, the places are given, and the
// endgame solver (two-player) is said not to have been used.
func TestReviewThreePlayers(t *testing.T) {
	r := replay(t, filepath.Join("..", "gcg", "testdata", "three_players.gcg"))
	var seen []Position
	rep := mustReview(t, r, Options{Tables: testgen.Tables(tinyLexicon(t)), Ranker: positionsRanker{&seen}, EndgameNodes: DefaultEndgameNodes})
	if len(rep.Players) != 3 || rep.Players[2].Nick != "cal" || !slices.Equal(rep.Recorded, []int{105, 2, -3}) ||
		!slices.Equal(rep.Computed, rep.Recorded) || !slices.Equal(rep.Places, []int{1, 2, 3}) || rep.Tiebreak != "naspa" || rep.ChallengeRule != "double" {
		t.Errorf("report: players %v, recorded %v, computed %v, places %v %q, rule %q", rep.Players, rep.Recorded, rep.Computed, rep.Places, rep.Tiebreak, rep.ChallengeRule)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "solvers are for two players") {
		t.Errorf("notes %q", rep.Notes)
	}
	if len(rep.Turns) != 4 || len(rep.Timeline) != 4 || !slices.Equal(rep.Timeline[2].Recorded, []int{66, 13, 9}) {
		t.Fatalf("%d turns, timeline %+v", len(rep.Turns), rep.Timeline)
	}
	// The totals before each turn, the mover's first, then the others in
	// turn order: ann on 0 0 0; ben on 0 (ben), 0 (cal), 66 (ann); cal on
	// 0, 66, 13. (Turn 4 is skipped: ann's rack DQU is not all of it.)
	want := [][rules.MaxPlayers]int{{0, 0, 0}, {0, 0, 66}, {0, 66, 13}}
	if len(seen) != len(want) {
		t.Fatalf("the ranker saw %d positions, want %d", len(seen), len(want))
	}
	for i, pos := range seen {
		if pos.Players != 3 || pos.Scores != want[i] {
			t.Errorf("turn %d: %d players, scores %v; want 3, %v", i+1, pos.Players, pos.Scores, want[i])
		}
	}
	for _, tr := range rep.Turns {
		if tr.Endgame != nil || tr.PEG != nil {
			t.Errorf("turn %d solved: %+v %+v", tr.Turn, tr.Endgame, tr.PEG)
		}
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Review of ", ": Three players: the rule sheet's end of game\n", "Challenge rule double\n",
		"Final score: ann 105, ben 2, cal -3\nPlaces (naspa tiebreak): 1 ann, 2 ben, 3 cal\n"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, b.String())
		}
	}

	// One player's turns: cal's.
	rep = mustReview(t, r, Options{Tables: testgen.Tables(tinyLexicon(t)), Players: [rules.MaxPlayers]bool{2: true}})
	if len(rep.Turns) != 1 || rep.Turns[0].Player != "cal" || len(rep.Summary.Players) != 1 || len(rep.Timeline) != 4 || rep.Notes != nil {
		t.Errorf("cal's turns: %d, summary %+v, notes %q", len(rep.Turns), rep.Summary.Players, rep.Notes)
	}
}

// TestSimRankerPlayers: the simulation ranker values the turns of a
// four-player game as a four-player simulation does (every other rack
// drawn, every reply played), from the mover's score on in turn order.
func TestSimRankerPlayers(t *testing.T) {
	tables := testgen.Tables(tinyLexicon(t))
	r := replay(t, filepath.Join("..", "gcg", "testdata", "four_players.gcg"))
	rep, err := Review(context.Background(), r, Options{Tables: tables, Ranker: NewSimRanker(tables, nil, 4)})
	if err != nil {
		t.Fatalf("review with a sim ranker: %v", err)
	}
	valued := 0
	for _, turn := range rep.Turns {
		if turn.Played.Equity != 0 || len(turn.Best) > 0 {
			valued++
		}
	}
	if valued == 0 {
		t.Fatalf("no turn of the four-player game was valued: %+v", rep.Turns)
	}
}
