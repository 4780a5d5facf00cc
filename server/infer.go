package server

import (
	"context"
	"fmt"
	"net/http"

	"scrabble/infer"
)

// inferred is what a request's inference found: the opponent's last move,
// as an lm opcode writes it, and what it says they kept.
type inferred struct {
	last string
	res  *infer.Result
}

// inferOpponent infers the opponent's rack from their last move: the
// request's "last", else the CGP's lm opcode. The leaves drawn past the
// inference's cap come from the request's seed. It stops when ctx does
// (the server's time limit).
func (t *turn) inferOpponent(ctx context.Context, req *Request) (*inferred, error) {
	if err := t.twoPlayers("infer"); err != nil {
		return nil, err
	}
	if opp := t.pos.Racks[1]; opp.Count() > 0 {
		return nil, badRequest("infer: the position gives the opponent's rack (%s) already", opp)
	}
	pos := *t.pos
	if req.Last != "" {
		if err := pos.SetLastMoveText(req.Last); err != nil {
			return nil, badRequest("last: %v", err)
		}
	}
	lm, err := pos.LastMove()
	if err != nil {
		return nil, badRequest("%v", err)
	}
	if lm == nil {
		return nil, badRequest("infer: the position has no last move: give \"last\" (such as \"8D WO.D\") or a CGP with an lm opcode")
	}
	sit, err := infer.FromPosition(&pos, t.rack)
	if err != nil {
		return nil, badRequest("infer: %v", err)
	}
	opts := infer.Options{Leaves: t.lex.Leaves, Seed: 1}
	if req.Seed != nil {
		opts.Seed = *req.Seed
	}
	res, err := infer.New(t.lex.Tables).InferContext(ctx, sit, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &apiError{http.StatusServiceUnavailable, fmt.Errorf("infer: no answer within the server's time limit: %w", err)}
		}
		return nil, badRequest("infer: %v", err)
	}
	return &inferred{last: lm.String(), res: res}, nil
}

// inference answers /api/infer: the leaves the opponent may have kept
// after their last move, likeliest first (top, default 10; 0 lists all),
// and each unseen letter's chance of being on their rack.
func (s *Server) inference(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	req, t, err := s.readTurn(r, alwaysInferred)
	if err != nil {
		return err
	}
	if t.bag == 0 {
		return badRequest("infer: the bag is empty, so the opponent holds every unseen tile")
	}
	inf, err := t.inferOpponent(ctx, req)
	if err != nil {
		return err
	}
	writeJSON(w, infer.NewReport(t.lex.Name, t.rack, inf.last, infer.Options{}, inf.res, req.top(10)))
	return nil
}
