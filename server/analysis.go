package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"scrabble/endgame"
	"scrabble/eval"
	"scrabble/lexica"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/peg"
	"scrabble/position"
	"scrabble/rules"
	"scrabble/sim"
)

// Request is the body of the position endpoints (moves, best, sim,
// endgame, peg). Only CGP is required.
type Request struct {
	// CGP is the position, one line; its rack is the player to move's.
	CGP string `json:"cgp"`
	// Rack, if set, replaces the CGP's rack of the player to move.
	Rack string `json:"rack,omitempty"`
	// Lexicon names an installed lexicon; default: the CGP's lex opcode if
	// installed, else the server's default.
	Lexicon string `json:"lexicon,omitempty"`
	// Top is how many moves to list (moves: 0 or absent lists all).
	Top *int `json:"top,omitempty"`
	// Exchanges adds the exchanges and the pass to moves' list.
	Exchanges bool `json:"exchanges,omitempty"`
	// Time bounds a sim, endgame or peg ("5s"), at most the server's limit.
	Time string `json:"time,omitempty"`
	// Iterations, Plies and Seed are a sim's; Plies also an endgame's
	// depth limit.
	Iterations int     `json:"iterations,omitempty"`
	Plies      int     `json:"plies,omitempty"`
	Seed       *uint64 `json:"seed,omitempty"`
	// Infer (sim and peg) draws the opponent's rack, or weights the bag's
	// tiles, by what their last move says they kept; Last is that move as
	// a CGP lm opcode writes it ("8D WO.D"; default: the CGP's lm). The
	// infer endpoint always infers.
	Infer bool   `json:"infer,omitempty"`
	Last  string `json:"last,omitempty"`
}

// Limits of a request's numbers.
const (
	maxTop        = 10000
	maxIterations = 1_000_000
)

// turn is a request's position made ready: the board, the mover's rack,
// the tiles in the bag and the lexicon.
type turn struct {
	pos  *position.Position
	rack rules.Rack
	bag  int
	lex  *Lexicon
}

// readRequest decodes and checks a position request.
func readRequest(r *http.Request) (*Request, error) {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	var req Request
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		if errors.Is(err, io.EOF) {
			return nil, badRequest("empty body: want a JSON object such as {\"cgp\": \"15/15/... AEINRST/ 0/0 0\"}")
		}
		return nil, badRequest("malformed JSON request: %v", err)
	}
	if dec.More() {
		return nil, badRequest("malformed JSON request: more than one value in the body")
	}
	if req.CGP == "" {
		return nil, badRequest("missing cgp: the position, as one line of CGP")
	}
	if len(req.CGP) > MaxCGP {
		return nil, badRequest("cgp is %d bytes long, more than the %d a position takes", len(req.CGP), MaxCGP)
	}
	if strings.ContainsAny(req.CGP, "\r\n") {
		return nil, badRequest("cgp must be one line")
	}
	if req.Top != nil && (*req.Top < 0 || *req.Top > maxTop) {
		return nil, badRequest("top must be from 0 to %d, not %d", maxTop, *req.Top)
	}
	if req.Iterations < 0 || req.Iterations > maxIterations {
		return nil, badRequest("iterations must be from 0 to %d, not %d", maxIterations, req.Iterations)
	}
	if req.Plies < 0 || req.Plies > sim.MaxPlies {
		return nil, badRequest("plies must be from 0 to %d, not %d", sim.MaxPlies, req.Plies)
	}
	return &req, nil
}

// top is the request's top, or def.
func (req *Request) top(def int) int {
	if req.Top == nil {
		return def
	}
	return *req.Top
}

// inference is how an endpoint takes a request's infer and last.
type inference int

const (
	noInference    inference = iota // refuses them
	inferIfAsked                    // infers with "infer"; "last" needs it
	alwaysInferred                  // the infer endpoint: "last" alone
)

// readTurn reads an analysis request and the position it asks about,
// checking its infer and last against how the endpoint takes them.
func (s *Server) readTurn(r *http.Request, inf inference) (*Request, *turn, error) {
	req, err := readRequest(r)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case inf == noInference && (req.Infer || req.Last != ""):
		return nil, nil, badRequest("%s makes no use of infer or last (they go to /api/sim, /api/peg and /api/infer)", r.URL.Path)
	case inf == inferIfAsked && req.Last != "" && !req.Infer:
		return nil, nil, badRequest("last goes with \"infer\": true")
	}
	t, err := s.turn(req)
	if err != nil {
		return nil, nil, err
	}
	return req, t, nil
}

// turn reads the request's position: the CGP, the rack and the lexicon.
func (s *Server) turn(req *Request) (*turn, error) {
	p, err := position.ParseCGP("cgp", req.CGP)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	if err := p.Validate(); err != nil {
		return nil, badRequest("%v", err)
	}
	rack := p.Racks[0]
	if req.Rack != "" {
		if rack, err = rules.ParseRack(req.Rack); err != nil {
			return nil, badRequest("rack: %v", err)
		}
	}
	if rack.Count() == 0 {
		return nil, badRequest("no rack: give \"rack\", or a CGP with the rack of the player to move")
	}
	if n := rack.Count(); n > rules.RackSize {
		return nil, badRequest("rack %s has %d tiles; a rack holds at most %d", rack, n, rules.RackSize)
	}
	unseen, err := rules.Unseen(&p.Board, rack)
	if err != nil {
		return nil, badRequest("rack %s does not fit the position: %v", rack, err)
	}
	var others rules.Rack // the other players' known tiles together
	for k := 1; k < p.Players(); k++ {
		for i, n := range p.Racks[k] {
			others[i] += n
		}
	}
	if !unseen.Contains(others) {
		return nil, badRequest("the other players' racks (%s) do not fit the unseen tiles %s", others, unseen)
	}
	lex, err := s.lexicon(req.Lexicon, p.Lexicon)
	if err != nil {
		return nil, err
	}
	// Each other player holds a full rack while the bag has tiles.
	return &turn{pos: p, rack: rack, bag: max(0, unseen.Count()-(p.Players()-1)*rules.RackSize), lex: lex}, nil
}

// twoPlayers refuses a position of more players for the solvers.
func (t *turn) twoPlayers(what string) error {
	if n := t.pos.Players(); n != 2 {
		return badRequest("%s: the solver handles two players, and the position has %d (use /api/best or /api/sim)", what, n)
	}
	return nil
}

// lexicon resolves the lexicon asked for, else the position's (when
// installed), else the default.
func (s *Server) lexicon(asked, fromPosition string) (*Lexicon, error) {
	if asked != "" {
		if !lexica.ValidName(asked) {
			return nil, badRequest("lexicon %q is not a lexicon name (letters, digits, '-' and '_')", asked)
		}
		lex, err := s.cfg.Lexicon(asked)
		if err != nil {
			return nil, badRequest("lexicon %s: %v", asked, err)
		}
		return lex, nil
	}
	if fromPosition != "" && lexica.ValidName(fromPosition) {
		if lex, err := s.cfg.Lexicon(fromPosition); err == nil {
			return lex, nil
		}
	}
	lex, err := s.cfg.Lexicon("")
	if err != nil {
		return nil, fmt.Errorf("the default lexicon: %w", err)
	}
	return lex, nil
}

// generator returns a move generator on the turn's board valuing moves by
// equity, as the commands and the self-play equity player do.
func (t *turn) generator() (*movegen.Generator, error) {
	unseen, err := rules.Unseen(&t.pos.Board, t.rack)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	gen := movegen.New(t.lex.Tables)
	gen.SetBoard(&t.pos.Board)
	gen.SetLeaves(eval.EquityWithAmong(t.lex.Leaves, eval.Terms{}, t.bag, unseen, t.pos.Players()))
	return gen, nil
}

// describe describes moves made from the turn's rack on its board.
func (t *turn) describe(ms []move.Move) []move.Description {
	out := make([]move.Description, len(ms))
	for i := range ms {
		out[i] = move.Describe(&t.pos.Board, t.rack, &ms[i])
	}
	return out
}

// MovesResponse is the answer of moves and best.
type MovesResponse struct {
	Lexicon string `json:"lexicon"`
	Rack    string `json:"rack"`
	Bag     int    `json:"bag"`
	Players int    `json:"players"`
	// Count is the number of moves generated (plays, and the exchanges and
	// pass when weighed); Moves lists the first Top of them.
	Count int                `json:"count"`
	Best  *move.Description  `json:"best,omitempty"` // best only: Moves[0]
	Moves []move.Description `json:"moves"`
}

// moves lists the plays (and, if asked, exchanges and the pass) by score.
func (s *Server) moves(_ context.Context, w http.ResponseWriter, r *http.Request) error {
	req, t, err := s.readTurn(r, noInference)
	if err != nil {
		return err
	}
	gen, err := t.generator()
	if err != nil {
		return err
	}
	var all movegen.AllMoves
	gen.Generate(&t.rack, t.bag, movegen.Options{Exchanges: req.Exchanges, Pass: req.Exchanges}, &all)
	move.SortByScore(all.Moves)
	shown := all.Moves
	if n := req.top(0); n > 0 && len(shown) > n {
		shown = shown[:n]
	}
	writeJSON(w, &MovesResponse{Lexicon: t.lex.Name, Rack: t.rack.String(), Bag: t.bag, Players: t.pos.Players(), Count: len(all.Moves), Moves: t.describe(shown)})
	return nil
}

// counter counts the moves handed to a recorder.
type counter struct {
	rec movegen.Recorder
	n   int
}

func (c *counter) Record(m *move.Move) { c.n++; c.rec.Record(m) }

// best ranks every play, exchange (when allowed) and the pass by equity,
// as scrabble best does statically.
func (s *Server) best(_ context.Context, w http.ResponseWriter, r *http.Request) error {
	req, t, err := s.readTurn(r, noInference)
	if err != nil {
		return err
	}
	gen, err := t.generator()
	if err != nil {
		return err
	}
	n := req.top(10)
	opts := movegen.Options{Exchanges: true, Pass: true}
	var ms []move.Move
	var c counter
	if n == 0 {
		var all movegen.AllMoves
		c.rec = &all
		gen.Generate(&t.rack, t.bag, opts, &c)
		move.SortByEquity(all.Moves)
		ms = all.Moves
	} else {
		top := &movegen.TopN{N: n, Better: move.ByEquity}
		c.rec = top
		gen.Generate(&t.rack, t.bag, opts, &c)
		ms = top.Moves()
	}
	out := &MovesResponse{Lexicon: t.lex.Name, Rack: t.rack.String(), Bag: t.bag, Players: t.pos.Players(), Count: c.n, Moves: t.describe(ms)}
	if len(out.Moves) > 0 {
		out.Best = &out.Moves[0]
	}
	writeJSON(w, out)
	return nil
}

// SimCandidate is a simulated move (the fields of scrabble sim --json).
type SimCandidate struct {
	move.Description
	SimEquity   float64 `json:"sim_equity"`
	SimEquitySE float64 `json:"sim_equity_se"`
	WinPct      float64 `json:"win_pct"`
	WinPctSE    float64 `json:"win_pct_se"`
	Iterations  int     `json:"iterations"`
	Pruned      bool    `json:"pruned"`
}

// SimResponse is a simulation's answer, and each of its progress events.
type SimResponse struct {
	Lexicon    string  `json:"lexicon"`
	Rack       string  `json:"rack"`
	Bag        int     `json:"bag"`
	Plies      int     `json:"plies"`
	Iterations int     `json:"iterations"`
	Rollouts   int64   `json:"rollouts"`
	Seconds    float64 `json:"seconds"`
	// InferredFrom is the opponent's last move their rack was drawn by
	// (infer), "" without.
	InferredFrom string         `json:"inferred_from,omitempty"`
	Stopped      string         `json:"stopped"` // "" in a progress event
	Done         bool           `json:"done"`
	Candidates   []SimCandidate `json:"candidates"`
}

// SimProgress is a progress event of a simulation.
type SimProgress struct {
	Iterations int              `json:"iterations"`
	Rollouts   int64            `json:"rollouts"`
	Live       int              `json:"live"`
	Seconds    float64          `json:"seconds"`
	Leader     move.Description `json:"leader"`
	LeaderMean float64          `json:"leader_sim_equity"`
}

// progressEvery is how often a streamed simulation reports.
const progressEvery = 200 * time.Millisecond

// defaultSimTime bounds a sim that names no iterations.
const defaultSimTime = 5 * time.Second

// sim ranks the best candidates by Monte Carlo simulation; with Accept:
// text/event-stream (or ?stream=1) its progress is streamed as events.
func (s *Server) sim(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	req, t, err := s.readTurn(r, inferIfAsked)
	if err != nil {
		return err
	}
	if t.bag == 0 {
		return badRequest("the bag is empty: solve the endgame instead (/api/endgame)")
	}
	budget, err := s.timeLimit(req.Time, defaultSimTime)
	if err != nil {
		return err
	}
	opts := sim.Options{Leaves: t.lex.Leaves, WinPct: eval.DefaultWinPct(), Candidates: sim.DefaultCandidates,
		Plies: sim.DefaultPlies, Iterations: req.Iterations, Time: budget, Confidence: 0.99, Threads: s.cfg.Threads, Seed: 1}
	if req.Plies > 0 {
		opts.Plies = req.Plies
	}
	if req.Seed != nil {
		opts.Seed = *req.Seed
	}
	if n := req.top(0); n > 0 {
		opts.Candidates = min(n, sim.MaxCandidates)
	}
	// Inferred before a stream starts, so that a bad request is a 400.
	var inf *inferred
	if req.Infer {
		if inf, err = t.inferOpponent(ctx, req); err != nil {
			return err
		}
	}
	stream := strings.Contains(r.Header.Get("Accept"), "text/event-stream") || r.URL.Query().Get("stream") == "1"
	var ev *eventStream
	if stream {
		if ev, err = newEventStream(w, budget+10*time.Second); err != nil {
			return err
		}
		var last time.Duration
		opts.Progress = func(p sim.Progress) {
			if p.Elapsed-last < progressEvery && last > 0 {
				return
			}
			last = p.Elapsed
			ev.send("progress", &SimProgress{Iterations: p.Iterations, Rollouts: p.Rollouts, Live: p.Live,
				Seconds: p.Elapsed.Seconds(), Leader: move.Describe(&t.pos.Board, t.rack, &p.Leader), LeaderMean: p.LeaderMean})
		}
	}
	pos := &sim.Position{Board: t.pos.Board, Rack: t.rack, Scores: t.pos.Scores, Scoreless: t.pos.ZeroTurns}
	if n := t.pos.Players(); n > 2 {
		pos.Seats = n
	} else {
		pos.Opponent = t.pos.Racks[1]
	}
	if inf != nil {
		pos.OpponentRacks = inf.res
	}
	res, err := sim.NewSimulator(t.lex.Tables).Simulate(ctx, pos, opts)
	if err != nil && (res == nil || !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)) {
		if ev != nil {
			ev.send("error", map[string]string{"error": err.Error()})
			return nil
		}
		return badRequest("sim: %v", err)
	}
	out := &SimResponse{Lexicon: t.lex.Name, Rack: t.rack.String(), Bag: t.bag, Plies: opts.Plies,
		Iterations: res.Iterations, Rollouts: res.Rollouts, Seconds: res.Elapsed.Seconds(), Stopped: res.Stopped, Done: true,
		Candidates: make([]SimCandidate, len(res.Candidates))}
	if inf != nil {
		out.InferredFrom = inf.last
	}
	for i := range res.Candidates {
		c := &res.Candidates[i]
		out.Candidates[i] = SimCandidate{Description: move.Describe(&t.pos.Board, t.rack, &c.Move),
			SimEquity: c.Mean, SimEquitySE: c.StdErr, WinPct: 100 * c.WinProb, WinPctSE: 100 * c.WinStdErr,
			Iterations: c.Iterations, Pruned: c.Pruned}
	}
	if ev != nil {
		ev.send("result", out)
		return nil
	}
	writeJSON(w, out)
	return nil
}

// eventStream writes server-sent events.
type eventStream struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// newEventStream starts an event stream on w, allowed to write for d (the
// server's write timeout is for answers, not streams).
func newEventStream(w http.ResponseWriter, d time.Duration) (*eventStream, error) {
	rc := http.NewResponseController(w)
	if err := rc.SetWriteDeadline(time.Now().Add(d)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, err
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	ev := &eventStream{w: w, rc: rc}
	ev.flush()
	return ev, nil
}

// send writes one event; a client gone away is noticed by the context.
func (e *eventStream) send(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
		name = "error"
	}
	fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, b)
	e.flush()
}

func (e *eventStream) flush() { _ = e.rc.Flush() }

// EndgameStep is a move of an endgame's principal variation.
type EndgameStep struct {
	Player     string           `json:"player"` // "mover" or "opponent"
	Rack       string           `json:"rack"`
	Move       move.Description `json:"move"`
	Scores     [2]int           `json:"scores"` // after the move and any end-of-game adjustment
	End        string           `json:"end,omitempty"`
	Adjustment int              `json:"adjustment,omitempty"`
}

// EndgameRank is a first move and its value.
type EndgameRank struct {
	Move  move.Description `json:"move"`
	Value int              `json:"value"`
}

// EndgameResponse is an endgame solve (the fields of scrabble endgame
// --json, less the ones a server does not know).
type EndgameResponse struct {
	Lexicon      string           `json:"lexicon"`
	Rack         string           `json:"rack"`
	OpponentRack string           `json:"opponent_rack"`
	Scores       [2]int           `json:"scores"`
	Best         move.Description `json:"best"`
	Value        int              `json:"value"`
	FinalSpread  int              `json:"final_spread"`
	Proven       bool             `json:"proven"`
	Depth        int              `json:"depth"`
	Nodes        uint64           `json:"nodes"`
	Seconds      float64          `json:"seconds"`
	PV           []EndgameStep    `json:"pv"`
	Ranked       []EndgameRank    `json:"ranked,omitempty"`
}

// Transposition tables of the server's solves: smaller than the commands'
// defaults, as several run at once.
const (
	endgameTTMB        = 64
	pegTTMB            = 128
	defaultEndgameTime = 10 * time.Second
	defaultPEGTime     = 20 * time.Second
)

// endgame solves a position with the bag empty.
func (s *Server) endgame(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	req, t, err := s.readTurn(r, noInference)
	if err != nil {
		return err
	}
	if err := t.twoPlayers("endgame"); err != nil {
		return err
	}
	if t.bag > 0 {
		return badRequest("the bag holds %d tiles; an endgame needs it empty (try /api/peg or /api/sim)", t.bag)
	}
	budget, err := s.timeLimit(req.Time, defaultEndgameTime)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	pos := *t.pos
	pos.Racks[0] = t.rack
	res, err := endgame.Solve(ctx, t.lex.Tables, &pos, endgame.Options{Threads: s.cfg.Threads, TTMB: endgameTTMB, Plies: req.Plies, Top: min(req.top(0), 20)})
	if err != nil {
		if ctx.Err() != nil {
			return &apiError{http.StatusServiceUnavailable, fmt.Errorf("endgame: no answer within %v", budget)}
		}
		return badRequest("endgame: %v", err)
	}
	// With the bag empty the opponent holds every unseen tile.
	opp, _ := rules.Unseen(&pos.Board, t.rack)
	out := &EndgameResponse{Lexicon: t.lex.Name, Rack: t.rack.String(), OpponentRack: opp.String(), Scores: [2]int(pos.Scores[:2]),
		Best: move.Describe(&pos.Board, t.rack, endgameEquity(res.Best, t.rack, opp)), Value: res.Value, FinalSpread: pos.Scores[0] - pos.Scores[1] + res.Value,
		Proven: res.Proven, Depth: res.Depth, Nodes: res.Nodes, Seconds: res.Elapsed.Seconds(), PV: []EndgameStep{}}
	// The line replayed, as scrabble endgame --json does: the scores
	// after each move, end-of-game adjustments on the side they fall on.
	for _, st := range res.Line(&pos) {
		who := "mover"
		if st.Player == 1 {
			who = "opponent"
		}
		out.PV = append(out.PV, EndgameStep{Player: who, Rack: st.Rack.String(), Move: move.Describe(&st.Board, st.Rack, &st.Move),
			Scores: st.Scores, End: st.End, Adjustment: st.Adjustment})
	}
	for _, rk := range res.Ranked {
		out.Ranked = append(out.Ranked, EndgameRank{Move: move.Describe(&pos.Board, t.rack, endgameEquity(rk.Move, t.rack, opp)), Value: rk.Value})
	}
	writeJSON(w, out)
	return nil
}

// endgameEquity gives m the static equity of a bag-empty position: the
// score, plus twice the opponent's tiles for going out, less twice the
// tiles kept (as scrabble endgame --json).
func endgameEquity(m move.Move, rack, opp rules.Rack) *move.Move {
	e := endgame.StaticEquity(m, rack, opp)
	return &e
}

// PEGCandidate is a pre-endgame move valued over every draw.
type PEGCandidate struct {
	Move       move.Description `json:"move"`
	Wins       int              `json:"wins"`
	Ties       int              `json:"ties"`
	Losses     int              `json:"losses"`
	Draws      int              `json:"draws"`
	WinPct     float64          `json:"win_pct"`
	MeanSpread float64          `json:"mean_spread"`
	// Spread is "exact", "estimate" or "" (not computed), as in scrabble
	// peg --json; Plies the depth of an estimate's endgame searches (0:
	// greedy playouts, or an exact record).
	Spread string `json:"spread"`
	Plies  int    `json:"plies,omitempty"`
	Proven bool   `json:"proven"`
}

// PEGResponse is a pre-endgame solve (the main fields of scrabble peg
// --json).
type PEGResponse struct {
	Lexicon  string  `json:"lexicon"`
	Rack     string  `json:"rack"`
	Unseen   string  `json:"unseen"`
	BagTiles int     `json:"bag_tiles"`
	Proven   bool    `json:"proven"`
	Stopped  string  `json:"stopped"`
	Moves    int     `json:"moves"`
	Endgames int     `json:"endgames"`
	Seconds  float64 `json:"seconds"`
	// InferredFrom is the opponent's last move the draws were weighted by
	// (infer), "" without; DrawUnit is the weight of one way of drawing in
	// the candidates' counts (1, or peg.InferredUnit with infer).
	InferredFrom string         `json:"inferred_from,omitempty"`
	DrawUnit     int            `json:"draw_unit"`
	Best         *PEGCandidate  `json:"best"`
	Candidates   []PEGCandidate `json:"candidates"`
}

// peg solves a pre-endgame: 1 to peg.MaxBag tiles in the bag.
func (s *Server) peg(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	req, t, err := s.readTurn(r, inferIfAsked)
	if err != nil {
		return err
	}
	if err := t.twoPlayers("peg"); err != nil {
		return err
	}
	if t.bag < 1 || t.bag > peg.MaxBag || t.rack.Count() != rules.RackSize {
		return badRequest("a pre-endgame is a full rack with 1 to %d tiles in the bag; here the rack holds %d and the bag %d", peg.MaxBag, t.rack.Count(), t.bag)
	}
	budget, err := s.timeLimit(req.Time, defaultPEGTime)
	if err != nil {
		return err
	}
	var inf *inferred
	if req.Infer {
		if inf, err = t.inferOpponent(ctx, req); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	pos := *t.pos
	pos.Racks[0] = t.rack
	opts := peg.Options{Threads: s.cfg.Threads, TTMB: pegTTMB, Top: max(1, min(req.top(10), 50))}
	if inf != nil {
		opts.OppRackProb = inf.res.RackProb
	}
	res, err := peg.Solve(ctx, t.lex.Tables, &pos, opts)
	if err != nil && (res == nil || ctx.Err() == nil) {
		return badRequest("peg: %v", err)
	}
	out := &PEGResponse{Lexicon: t.lex.Name, Rack: t.rack.String(), Unseen: res.Unseen.String(), BagTiles: res.BagTiles,
		Proven: res.Proven, Stopped: res.Stopped, Moves: res.Moves, Endgames: res.Endgames, Seconds: res.Elapsed.Seconds(),
		DrawUnit: res.DrawUnit, Candidates: []PEGCandidate{}}
	if inf != nil {
		out.InferredFrom = inf.last
	}
	for i := range res.Candidates {
		c := &res.Candidates[i]
		out.Candidates = append(out.Candidates, PEGCandidate{Move: move.Describe(&pos.Board, t.rack, &c.Move),
			Wins: c.Wins, Ties: c.Ties, Losses: c.Losses, Draws: c.Draws, WinPct: c.WinPct, MeanSpread: c.MeanSpread, Spread: c.Spread, Plies: c.Plies, Proven: c.Proven})
	}
	if len(out.Candidates) > 0 {
		out.Best = &out.Candidates[0]
	}
	writeJSON(w, out)
	return nil
}
