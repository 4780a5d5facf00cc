package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"scrabble/endgame"
	"scrabble/eval"
	"scrabble/infer"
	"scrabble/movegen"
	"scrabble/peg"
	"scrabble/position"
	"scrabble/protocol"
	"scrabble/rules"
	"scrabble/sim"
)

func newEngineCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:         "engine",
		Annotations: interruptible(),
		Short:       "Speak the engine protocol on standard input and output (for programs)",
		Long: `Read commands from standard input and answer on standard output, one line
each, as programs that use an engine expect: the protocol of
docs/engine-protocol.md, in the spirit of chess's UCI and the crossword-game
UCGI draft. One process answers any number of positions; the lexicon and its
tables load once.

  ucgi                       id name ..., option lines, then ucgiok
  isready                    readyok (at once, even while thinking)
  setoption name Lexicon value NWL23     (also Threads, Leaves default|none, Infer true|false)
  ucginewgame
  position cgp <CGP>         the position, rack of the player to move first
  position gcg <FILE> turn <N>
  go [static|sim|endgame|peg] [time D|movetime MS] [iterations N] [threads K] [plies N] [seed S]
                             info lines while thinking, then bestmove <move>
  stop                       bestmove now, the best found so far
  quit

Moves are written 8D.QUIXOTE (across), D8.QUIXOTE (down), ex.ABC (exchange)
and pass. A bad line is answered by "info string error: line N: ..." and the
engine goes on; a go that fails says why and answers "bestmove (none)".`,
		Example: `  echo 'position cgp 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0
  go' | scrabble engine
  scrabble --lexicon NWL23 selfplay --games 10 --p1 external:'scrabble engine' --p2 equity`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			e := &engineSession{a: a, threads: 1, leaves: "default"}
			err := protocol.Serve(cmd.Context(), a.stdin, a.stdout, e)
			if err != nil && errors.Is(err, context.Canceled) {
				return exitStatus(130)
			}
			return err
		},
	}
}

// engineSession is the engine's state between commands.
type engineSession struct {
	a       *app
	threads int
	leaves  string // "default" or "none"
	// infer: go sim and go peg draw the opponent's rack, or weight the
	// bag's tiles, by what their last move (the position's lm) says they
	// kept.
	infer bool
	t     *turn // the position set, nil before one
}

func (e *engineSession) ID() (string, string) {
	name := "scrabble"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 7 {
				name += " " + s.Value[:7]
			}
		}
	}
	return name, "the scrabble authors"
}

func (e *engineSession) Options() []string {
	lex := e.a.v.GetString("lexicon")
	if lex == "" {
		lex = "<default>"
	}
	return []string{
		"name Lexicon type string default " + lex,
		"name Threads type spin default 1 min 1 max " + strconv.Itoa(maxThreads()),
		"name Leaves type combo default default var default var none",
		"name Infer type check default false",
	}
}

func (e *engineSession) SetOption(name, value string) error {
	switch strings.ToLower(name) {
	case "lexicon":
		if _, err := e.a.reg.Resolve(value); err != nil {
			return err
		}
		e.a.v.Set("lexicon", value)
		e.t = nil // the position's lexicon changed: set it again
	case "threads":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > maxThreads() {
			return fmt.Errorf("want a number from 1 to %d, not %q", maxThreads(), value)
		}
		e.threads = n
	case "leaves":
		v := strings.ToLower(value)
		if v != "default" && v != "none" {
			return fmt.Errorf("want default (the lexicon's trained values) or none, not %q", value)
		}
		e.leaves = v
	case "infer":
		on, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("want true or false, not %q", value)
		}
		e.infer = on
	default:
		return errors.New("no such option (Lexicon, Threads, Leaves, Infer)")
	}
	return nil
}

func (e *engineSession) NewGame() {}

func (e *engineSession) SetPosition(p *protocol.Position) error {
	e.t = nil
	var pos *position.Position
	if p.CGP != "" {
		var err error
		if pos, err = position.ParseCGP("cgp", p.CGP); err != nil {
			return err
		}
	} else {
		g, err := e.a.readGame(p.GCG)
		if err != nil {
			return err
		}
		r := g.Replay()
		if last := len(r.Turns) + 1; p.Turn > last {
			return fmt.Errorf("turn %d: %s has %s (%d is the end of the game)", p.Turn, p.GCG, plural(len(r.Turns), "turn"), last)
		}
		pos, _ = positionBefore(g, r, p.Turn)
	}
	if pos.Racks[0].Count() == 0 {
		return errors.New("the position has no rack for the player to move")
	}
	t, err := e.a.newTurn(pos, pos.Racks[0])
	if err != nil {
		return err
	}
	e.t = t
	return nil
}

// infoEvery is how often a simulation reports.
const infoEvery = 250 * time.Millisecond

// The budgets of a go that names none, as best's.
const (
	engineEndgameTime = 10 * time.Second
	enginePEGTime     = defaultBestPEGTime
	engineSimIters    = defaultSimIterations
)

func (e *engineSession) Go(ctx context.Context, g *protocol.Go, info func(string)) (string, error) {
	t := e.t
	if t == nil {
		return "", errors.New("no position: send position cgp CGP first")
	}
	threads := e.threads
	if g.Threads > 0 {
		threads = g.Threads
	}
	mode := g.Mode
	if mode == protocol.ModeAuto {
		switch {
		case t.players() > 2 && t.bag <= peg.MaxBag:
			info(fmt.Sprintf("string %d players: the solvers handle two; ranking by static equity", t.players()))
			mode = protocol.ModeStatic
		case t.bag == 0 && t.rack.Count() > 0:
			mode = protocol.ModeEndgame
		case t.bag >= 1 && t.bag <= peg.MaxBag && t.rack.Count() == rules.RackSize:
			mode = protocol.ModePEG
		default:
			mode = protocol.ModeStatic
		}
	}
	if mode == protocol.ModeSim && t.bag == 0 && t.players() > 2 {
		info(fmt.Sprintf("string the bag is empty and %d players: ranking by static equity (the endgame solver handles two)", t.players()))
		mode = protocol.ModeStatic
	}
	if mode == protocol.ModeSim && t.bag == 0 {
		info("string the bag is empty: solving the endgame instead of simulating")
		mode = protocol.ModeEndgame
	}
	board := &t.pos.Board
	switch mode {
	case protocol.ModeStatic:
		gen, err := e.generator()
		if err != nil {
			return "", err
		}
		m, _ := gen.Best(&t.rack, t.bag, movegen.Options{Exchanges: true, Pass: true})
		best := protocol.FormatMove(&m, board)
		info(fmt.Sprintf("depth 1 score eq %.3f pv %s", m.Equity.Points(), best))
		return best, nil
	case protocol.ModeSim:
		return e.simulate(ctx, g, threads, info)
	case protocol.ModeEndgame:
		return e.solveEndgame(ctx, g, threads, info)
	case protocol.ModePEG:
		return e.solvePEG(ctx, g, threads, info)
	}
	return "", fmt.Errorf("mode %q is not static, sim, endgame or peg", mode)
}

// budget returns ctx cut at the go's time, or dflt when it names none.
func budget(ctx context.Context, g *protocol.Go, dflt time.Duration) (context.Context, context.CancelFunc, time.Duration) {
	d := dflt
	if g.Time > 0 {
		d = g.Time
	}
	c, cancel := context.WithTimeout(ctx, d)
	return c, cancel, d
}

// moverPosition is the position with the rack the position command set.
func (t *turn) moverPosition() *position.Position {
	pos := *t.pos
	pos.Racks[0] = t.rack
	return &pos
}

// solveEndgame answers go endgame: the exact solver within the budget.
func (e *engineSession) solveEndgame(ctx context.Context, g *protocol.Go, threads int, info func(string)) (string, error) {
	t := e.t
	if t.bag > 0 {
		return "", fmt.Errorf("go endgame: the bag holds %s; the endgame solver needs it empty", plural(t.bag, "tile"))
	}
	sctx, cancel, _ := budget(ctx, g, engineEndgameTime)
	defer cancel()
	pos := t.moverPosition()
	opts := endgame.Options{Threads: threads, Plies: g.Plies}
	opts.Progress = func(p endgame.Progress) {
		info(fmt.Sprintf("depth %d score spread %d nodes %d%s currmove %s", p.Depth, p.Value, p.Nodes, proven(p.Proven), wireNotation(p.Best)))
	}
	res, err := endgame.Solve(sctx, t.tables(), pos, opts)
	if err != nil {
		return "", err
	}
	var pv []string
	for _, st := range res.Line(pos) {
		pv = append(pv, protocol.FormatMove(&st.Move, &st.Board))
	}
	info(fmt.Sprintf("depth %d score spread %d nodes %d time %d%s pv %s", res.Depth, res.Value, res.Nodes, res.Elapsed.Milliseconds(), proven(res.Proven), strings.Join(pv, " ")))
	return protocol.FormatMove(&res.Best, &pos.Board), nil
}

// solvePEG answers go peg: the pre-endgame solver within the budget.
func (e *engineSession) solvePEG(ctx context.Context, g *protocol.Go, threads int, info func(string)) (string, error) {
	t := e.t
	if t.bag < 1 || t.bag > peg.MaxBag || t.rack.Count() != rules.RackSize {
		return "", fmt.Errorf("go peg: a pre-endgame is a full rack with 1 to %d tiles in the bag; here the rack holds %d and the bag %d", peg.MaxBag, t.rack.Count(), t.bag)
	}
	sctx, cancel, limit := budget(ctx, g, enginePEGTime)
	defer cancel()
	pos := t.moverPosition()
	opts := peg.Options{Threads: threads, TTMB: peg.DefaultTTMB, Top: 1}
	inferred, err := e.inference(info, 1)
	if err != nil {
		return "", err
	}
	if inferred != nil {
		opts.OppRackProb = inferred.res.RackProb
	}
	opts.Progress = func(p peg.Progress) {
		info(fmt.Sprintf("string %s: %d of %d %s, best %s (%.1f%%)", p.Stage, p.Done, p.Of, p.Counted(), p.Best, p.BestWinPct))
	}
	res, err := peg.Solve(sctx, t.tables(), pos, opts)
	if err != nil {
		return "", err
	}
	if len(res.Candidates) == 0 {
		return "", fmt.Errorf("no candidate was settled within %v", limit)
	}
	c := res.Candidates[0]
	best := protocol.FormatMove(&c.Move, &pos.Board)
	info(fmt.Sprintf("score wp %.3f spread %.3f wins %d ties %d losses %d draws %d time %d%s pv %s",
		c.WinPct, c.MeanSpread, c.Wins, c.Ties, c.Losses, c.Draws, res.Elapsed.Milliseconds(), proven(res.Proven), best))
	return best, nil
}

// wireNotation turns a move's notation ("8D QUI(X)OTE", "-" for a pass)
// into the protocol's ("8D.QUIXOTE", "pass").
func wireNotation(s string) string {
	switch {
	case s == "-":
		return "pass"
	case strings.HasPrefix(s, "-"):
		return "ex." + s[1:]
	}
	s = strings.NewReplacer("(", "", ")", "").Replace(s)
	return strings.Replace(s, " ", ".", 1)
}

// proven marks a proven value in an info line.
func proven(p bool) string {
	if p {
		return " proven"
	}
	return ""
}

// inference infers the opponent's rack from their last move when the Infer
// option is on; nil, with an info line saying why, when there is nothing to
// infer (the bag empty, their rack given, more players, no lm).
func (e *engineSession) inference(info func(string), seed uint64) (*inferredRack, error) {
	t := e.t
	if !e.infer || t.bag == 0 {
		return nil, nil
	}
	why := ""
	switch {
	case t.players() > 2:
		why = fmt.Sprintf("%d players (inference reads two)", t.players())
	case t.pos.Racks[1].Count() > 0:
		why = "the position gives the opponent's rack"
	}
	if why != "" {
		info("string infer: nothing to infer: " + why)
		return nil, nil
	}
	leaves, err := e.leaveValues()
	if err != nil {
		return nil, err
	}
	inferred, err := t.inferLast(t.pos, infer.Options{Leaves: leaves, Seed: seed})
	switch {
	case err != nil:
		return nil, fmt.Errorf("infer: %w", err)
	case inferred == nil:
		info("string infer: the position has no last move (lm opcode): the opponent's rack drawn at random")
		return nil, nil
	}
	info(fmt.Sprintf("string infer: the opponent's last move %s: %s", inferred.last, inferred.summary()))
	return inferred, nil
}

// leaveValues returns the leave values the Leaves option names.
func (e *engineSession) leaveValues() (movegen.LeaveValuer, error) {
	if e.leaves == "none" {
		return nil, nil
	}
	table, err := eval.DefaultLeaves(e.t.lexName())
	if err != nil || table == nil {
		return nil, err
	}
	return table, nil
}

// generator returns a generator on the position valuing moves by equity,
// as the self-play equity player does.
func (e *engineSession) generator() (*movegen.Generator, error) {
	t := e.t
	leaves, err := e.leaveValues()
	if err != nil {
		return nil, err
	}
	unseen, err := rules.Unseen(&t.pos.Board, t.rack)
	if err != nil {
		return nil, err
	}
	gen := movegen.New(t.tables())
	gen.SetBoard(&t.pos.Board)
	gen.SetLeaves(eval.EquityWithAmong(leaves, eval.Terms{}, t.bag, unseen, t.players()))
	return gen, nil
}

// simulate runs a simulation and returns its best move.
func (e *engineSession) simulate(ctx context.Context, g *protocol.Go, threads int, info func(string)) (string, error) {
	t := e.t
	leaves, err := e.leaveValues()
	if err != nil {
		return "", err
	}
	opts := sim.Options{Leaves: leaves, WinPct: eval.DefaultWinPct(), Candidates: sim.DefaultCandidates,
		Plies: sim.DefaultPlies, Iterations: engineSimIters, Time: g.Time, Confidence: 0.99,
		Threads: threads, Seed: 1}
	if g.Time > 0 {
		opts.Iterations = 0 // the time decides
	}
	if g.Iterations > 0 {
		opts.Iterations = g.Iterations
	}
	if g.Plies > 0 {
		if g.Plies > sim.MaxPlies {
			return "", fmt.Errorf("go sim: plies must be at most %d, not %d", sim.MaxPlies, g.Plies)
		}
		opts.Plies = g.Plies
	}
	if g.HasSeed {
		opts.Seed = g.Seed
	}
	board := &t.pos.Board
	var last time.Duration
	opts.Progress = func(p sim.Progress) {
		// A round of iterations takes milliseconds: a line every quarter
		// of a second is enough to watch.
		if p.Elapsed-last < infoEvery && last > 0 {
			return
		}
		last = p.Elapsed
		info(fmt.Sprintf("iterations %d nodes %d time %d score eq %.3f currmove %s",
			p.Iterations, p.Rollouts, p.Elapsed.Milliseconds(), p.LeaderMean, protocol.FormatMove(&p.Leader, board)))
	}
	pos := &sim.Position{Board: t.pos.Board, Rack: t.rack, Scores: t.pos.Scores, Scoreless: t.pos.ZeroTurns}
	if n := t.players(); n > 2 {
		pos.Seats = n
	} else {
		pos.Opponent = t.pos.Racks[1]
	}
	inferred, err := e.inference(info, opts.Seed)
	if err != nil {
		return "", err
	}
	if inferred != nil {
		pos.OpponentRacks = inferred.res
	}
	res, err := sim.NewSimulator(t.tables()).Simulate(ctx, pos, opts)
	if err != nil && (res == nil || !errors.Is(err, context.Canceled)) {
		return "", err
	}
	if len(res.Candidates) == 0 {
		return "", errors.New("the simulation has no candidate")
	}
	c := res.Candidates[0]
	best := protocol.FormatMove(&c.Move, board)
	info(fmt.Sprintf("iterations %d nodes %d time %d score eq %.3f wp %.3f pv %s",
		res.Iterations, res.Rollouts, res.Elapsed.Milliseconds(), c.Mean, 100*c.WinProb, best))
	return best, nil
}
