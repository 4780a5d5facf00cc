package review

import (
	"context"
	"testing"

	"scrabble/endgame"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// TestReviewEndgames: with EndgameNodes, every turn played with the bag
// empty carries the solver's verdict, and a proven one checks out against
// solves made apart from the review: the position's value, and the move
// made valued by solving the position after it (the opponent to move),
// with the end of the game worked out here.
func TestReviewEndgames(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	checked := 0
	for _, name := range []string{"doug_v_emely.gcg", "utf8_dos.gcg"} {
		r := replay(t, testlex.Game(t, name))
		rep := mustReview(t, r, Options{Tables: lex, EndgameNodes: DefaultEndgameNodes})
		for i, tr := range rep.Turns {
			gt := &r.Turns[i]
			if !tr.Reviewed {
				continue
			}
			if (gt.BagLen == 0) != (tr.Endgame != nil) {
				t.Errorf("%s turn %d: bag %d, endgame %+v", name, tr.Turn, gt.BagLen, tr.Endgame)
				continue
			}
			e := tr.Endgame
			if e == nil || !e.Proven {
				continue
			}
			unseen, err := rules.Unseen(&gt.Board, gt.Rack)
			if err != nil {
				t.Fatal(err)
			}
			pos := &position.Position{Board: gt.Board, Racks: [rules.MaxPlayers]rules.Rack{gt.Rack, unseen},
				Scores: [rules.MaxPlayers]int{gt.Totals[gt.Player], gt.Totals[1-gt.Player]}, ZeroTurns: gt.Scoreless}
			all, err := endgame.Solve(context.Background(), lex, pos, endgame.Options{TTMB: 16})
			if err != nil {
				t.Fatal(err)
			}
			if !all.Proven || all.Value != e.Value || len(e.Line) == 0 {
				t.Errorf("%s turn %d: review %+v, solve %d (proven %v) %s", name, tr.Turn, e, all.Value, all.Proven, all.Notation)
			}
			if e.PlayedValue == nil {
				continue
			}
			if want := playedValue(t, lex, pos, gt.Move, gt.Score, gt.Withdrawn); *e.PlayedValue != want || tr.EquityLost != float64(e.Value-want) {
				t.Errorf("%s turn %d: the move made %s: review %d (lost %v), apart %d", name, tr.Turn, tr.Played.Move, *e.PlayedValue, tr.EquityLost, want)
			}
			checked++
		}
	}
	if checked < 2 {
		t.Errorf("only %d bag-empty turns checked", checked)
	}
}

// playedValue is the value of m for the player to move in pos: its score,
// then the end of the game if it comes, else less the opponent's value in
// the position after it.
func playedValue(t *testing.T, lex *movegen.Tables, pos *position.Position, m move.Move, score int, withdrawn bool) int {
	t.Helper()
	if withdrawn {
		m = move.Move{Kind: move.Pass}
	}
	after := *pos
	rack := pos.Racks[0]
	if m.Kind != move.Play {
		score = 0
	}
	if m.Kind == move.Play {
		rack.Sub(m.Used())
		after.Board.Apply(m.Placed())
	}
	opp := pos.Racks[1]
	if m.Kind == move.Play && rack.Count() == 0 {
		return score + 2*opp.Value()
	}
	after.ZeroTurns = 0
	if score == 0 {
		after.ZeroTurns = pos.ZeroTurns + 1
	}
	if after.ZeroTurns >= rules.MaxScorelessTurns {
		return score - rack.Value() + opp.Value()
	}
	after.Racks = [rules.MaxPlayers]rules.Rack{opp, rack}
	after.Scores = [rules.MaxPlayers]int{pos.Scores[1], pos.Scores[0] + score}
	res, err := endgame.Solve(context.Background(), lex, &after, endgame.Options{TTMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	return score - res.Value
}
