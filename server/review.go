package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"scrabble/eval"
	"scrabble/gcg"
	"scrabble/review"
	"scrabble/rules"
)

// ReviewResponse is a game's review (the report of scrabble review --json)
// with what a page needs to step through it.
type ReviewResponse struct {
	*review.Report
	// Boards holds the board before each turn of the game (Boards[n-1]
	// before turn n) and, last, the board at the end: 15 rows of 15
	// squares, '.' empty, upper case tiles, lower case blanks.
	Boards [][]string `json:"boards"`
	// WinProb is the first player's chance of winning before each turn
	// and, last, at the end (1, 0.5 or 0), by the engine's win-probability
	// table; absent for a game of more than two players.
	WinProb []float64 `json:"win_prob,omitempty"`
}

// maxReviewTurns bounds the turns of a posted game (a real one has about
// 25): a body of 1 MB could otherwise ask for thousands of solves.
const maxReviewTurns = 200

// review reviews a posted GCG (the body, as text) turn by turn.
func (s *Server) review(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	g, err := gcg.Read("posted game", r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badRequest("%v", err)
	}
	replay := g.Replay()
	if len(replay.Turns) == 0 {
		return badRequest("the game has no moves")
	}
	if len(replay.Turns) > maxReviewTurns {
		return badRequest("the game has %d turns, more than the %d reviewed at once", len(replay.Turns), maxReviewTurns)
	}
	lex, err := s.lexicon(r.URL.Query().Get("lexicon"), g.Lexicon)
	if err != nil {
		return err
	}
	opts := review.Options{Tables: lex.Tables, Leaves: lex.Leaves, EndgameNodes: review.DefaultEndgameNodes}
	rep, err := review.Review(ctx, replay, opts)
	if err != nil && (rep == nil || ctx.Err() == nil) {
		return badRequest("review: %v", err)
	}
	rep.File = "posted game"
	out := &ReviewResponse{Report: rep}
	for i := range replay.Turns {
		out.Boards = append(out.Boards, rows(&replay.Turns[i].Board))
	}
	out.Boards = append(out.Boards, rows(&replay.Board))
	if len(g.Players) == 2 {
		out.WinProb = winProbs(replay, eval.DefaultWinPct())
	}
	writeJSON(w, out)
	return nil
}

// rows writes a board as 15 rows.
func rows(b *rules.Board) []string {
	return strings.Split(strings.TrimSuffix(b.GridString(), "\n"), "\n")
}

// winProbs is the first player's chance of winning before each turn of a
// two-player game, by the spread and the tiles the mover cannot see, and
// at the end.
func winProbs(r *gcg.Replay, wp *eval.WinPct) []float64 {
	out := make([]float64, 0, len(r.Turns)+1)
	for i := range r.Turns {
		t := &r.Turns[i]
		all, err := rules.Unseen(&t.Board, rules.Rack{})
		unseen := 0
		if err == nil {
			unseen = max(0, all.Count()-rules.RackSize) // less the mover's rack
		}
		mover, other := t.Totals[t.Player], t.Totals[1-t.Player]
		p := 0.5
		if wp != nil {
			p = wp.ProbToMove(float64(mover-other), unseen)
		}
		if t.Player == 1 {
			p = 1 - p
		}
		out = append(out, p)
	}
	switch d := r.Totals[0] - r.Totals[1]; {
	case d > 0:
		out = append(out, 1)
	case d < 0:
		out = append(out, 0)
	default:
		out = append(out, 0.5)
	}
	return out
}
