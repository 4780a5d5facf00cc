package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"scrabble/eval"
	"scrabble/infer"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/referee"
	"scrabble/rules"
	"scrabble/sim"
)

// simFlags are the simulation options shared by `sim` and `best --sim`.
type simFlags struct {
	plies, playOut, iterations, threads, candidates int
	budget                                          time.Duration
	stop, rank, sampling                            string
	add                                             []string // --add: moves to simulate, as written
	endgameNodes                                    uint64   // --endgame-nodes (a bag-empty position is solved)
	opponentInference
}

// opponentInference is --infer, --last and the inference's options, shared
// by sim, best and peg.
type opponentInference struct {
	infer bool   // --infer: the opponent's rack from their last move
	last  string // --last: that move, when the position has no lm
	inferFlags
}

func addOpponentInferenceFlags(f *pflag.FlagSet, oi *opponentInference, usage string) {
	f.BoolVar(&oi.infer, "infer", false, usage)
	f.StringVar(&oi.last, "last", "", "with --infer: the opponent's move that led to the position, as a CGP lm opcode writes it")
	addInferFlags(f, &oi.inferFlags, "infer-")
}

// defaultSimIterations caps a run when neither --iterations nor --time is
// given.
const defaultSimIterations = 1000

func addSimFlags(f *pflag.FlagSet) *simFlags {
	s := &simFlags{}
	f.IntVar(&s.plies, "plies", sim.DefaultPlies, "moves played after each candidate (the opponent's answer, then ours, ...)")
	f.IntVar(&s.playOut, "play-out", 0, "with at most this many tiles in the bag, play every rollout to the end of the game, whatever --plies says (0: never)")
	f.IntVar(&s.iterations, "iterations", defaultSimIterations, "at most this many iterations (one rollout of every candidate still in the race)")
	f.DurationVar(&s.budget, "time", 0, "stop after this long, e.g. 10s (with --time alone, iterations are not capped)")
	addThreadsFlag(f, runtime.NumCPU(), "goroutines playing iterations", false)
	f.IntVar(&s.candidates, "candidates", sim.DefaultCandidates, "plays simulated, the best by static equity (the best 3 exchanges, the pass and --add moves come on top)")
	f.StringVar(&s.stop, "stop", "99", "prune candidates and stop once the leader is ahead of the rest at this confidence (%), or none")
	f.StringVar(&s.rank, "rank", sim.RankWin.String(), "rank, prune and stop by win (chance of winning; equity orders those within the noise) or equity")
	f.StringVar(&s.sampling, "sampling", sim.DefaultSampling.String(), "which candidates an iteration plays: paired (every one in the race) or toptwo (the leader and its closest challenger)")
	f.Uint64("seed", 1, "seed of the draws: the same seed, iterations and threads give the same table")
	f.Uint64Var(&s.endgameNodes, "endgame-nodes", 0, endgameNodesUsage)
	addOpponentInferenceFlags(f, &s.opponentInference, "draw the opponent's rack from what their last move (the CGP's lm opcode, or --last) says they kept (scrabble infer); best with 1 to 4 tiles in the bag: weight the pre-endgame's draws by it")
	f.StringArrayVar(&s.add, "add", nil, "also simulate this move, e.g. '8D WORD', 'H4 (Q)UIZ', -AEI (exchange) or - (pass); repeatable")
	return s
}

// addedMoves reads the --add moves against the turn's position: each must
// be legal for the rack (words in the lexicon, tiles on the rack, the bag
// allowing an exchange), else it is a usage error naming it.
func (s *simFlags) addedMoves(t *turn) ([]move.Move, error) {
	var out []move.Move
	for _, text := range s.add {
		m, err := move.Parse(text, &t.pos.Board)
		if err != nil {
			return nil, usagef("--add %q: %v", text, strings.TrimPrefix(err.Error(), fmt.Sprintf("move %q: ", text)))
		}
		if err := referee.ValidateMove(&m, &t.pos.Board, t.rack, t.bag, t.lex); err != nil {
			return nil, usagef("--add %q is not a legal move for rack %s in %s: %v", text, t.rack, t.lexName(), err)
		}
		out = append(out, m)
	}
	return out, nil
}

// options checks the flags and returns the simulation options.
func (s *simFlags) options(a *app, cmd *cobra.Command) (sim.Options, error) {
	f := cmd.Flags()
	conf, err := parseStop(s.stop)
	if err != nil {
		return sim.Options{}, usageError{err}
	}
	rank, err := sim.ParseRank(s.rank)
	if err != nil {
		return sim.Options{}, usagef("--%v", err)
	}
	sampling, err := sim.ParseSampling(s.sampling)
	if err != nil {
		return sim.Options{}, usagef("--%v", err)
	}
	switch {
	case s.plies < 1 || s.plies > sim.MaxPlies:
		return sim.Options{}, usagef("--plies must be from 1 to %d, not %d", sim.MaxPlies, s.plies)
	case s.playOut < 0:
		return sim.Options{}, usagef("--play-out must be 0 (never) or more tiles, not %d", s.playOut)
	case s.iterations < 1:
		return sim.Options{}, usagef("--iterations must be at least 1, not %d", s.iterations)
	case s.budget < 0 || (f.Changed("time") && s.budget == 0):
		return sim.Options{}, usagef("--time must be a positive duration such as 10s or 2m, not %v", s.budget)
	case s.candidates < 1 || s.candidates > sim.MaxCandidates:
		return sim.Options{}, usagef("--candidates must be from 1 to %d, not %d", sim.MaxCandidates, s.candidates)
	}
	if s.threads, err = a.threads(cmd); err != nil {
		return sim.Options{}, err
	}
	if err := a.v.BindPFlag("seed", f.Lookup("seed")); err != nil {
		return sim.Options{}, err
	}
	seed, err := strconv.ParseUint(fmt.Sprint(a.v.Get("seed")), 10, 64)
	if err != nil {
		return sim.Options{}, usagef("seed %q is not a whole number from 0 to 2^64-1", fmt.Sprint(a.v.Get("seed")))
	}
	o := sim.Options{Plies: s.plies, PlayOut: s.playOut, Iterations: s.iterations, Time: s.budget, Threads: s.threads,
		Candidates: s.candidates, Confidence: conf, Seed: seed, WinPct: eval.DefaultWinPct(),
		Rank: rank, Sampling: sampling}
	if s.budget > 0 && !f.Changed("iterations") {
		o.Iterations = 0 // the time decides
	}
	return o, nil
}

func newSimCmd(a *app) *cobra.Command {
	var (
		board, rack string
		top         int
		asJSON      bool
	)
	var sf *simFlags
	cmd := &cobra.Command{
		Use:         "sim --board FILE [--rack TILES]",
		Annotations: interruptible(),
		Short:       "Rank the candidate moves of a position by Monte Carlo simulation",
		Long: `Simulate the best candidate moves of a position and rank them by their
chance of winning, as a player would (--rank win, the default: candidates
whose chances are within one standard error of each other are ordered by
simulated equity), or by simulated equity (--rank equity).

The candidates are the --candidates best plays by static equity (score plus
the value of the tiles kept), plus the best 3 exchanges (when the bag holds
at least 7 tiles), the pass, and every move named with --add (repeatable,
written as 'scrabble moves' prints moves: '8D WORD', 'H4 (Q)UIZ', -AEI to
exchange AEI, - to pass; it must be legal for the rack). One iteration draws
the opponent's rack at random from the unseen tiles (or uses it when the CGP
gives it; a CGP rack of fewer tiles than the opponent holds while the bag
has tiles is partly known: those tiles plus random draws from the other
unseen tiles) and the order of the bag, then plays every candidate still in the race forward --plies moves, both
sides answering with their best static-equity move; every candidate of an
iteration gets the same draws (common random numbers), so their differences
are measured with far less noise than their values. Once the bag runs out in
a rollout, both sides play on to the end of the game; with --play-out N and
at most N tiles in the bag, every rollout does, whatever --plies says.

A candidate's simulated equity is the spread change over its rollout (its own
score included) plus, if the game goes on, the value of the player's leave at
the end less the opponent's. Its chance of winning comes from the built-in
table of P(win | spread, unseen tiles) (see 'scrabble winpct'), applied to
the final spread (scores from the CGP, else 0-0) plus that leave difference,
or is 0, 50 or 100% for a rollout that ends the game.

Stopping: at most --iterations iterations of any candidate, at most --time;
with --stop 99 (the default) a candidate is pruned once the leader is ahead
of it at 99% confidence (a paired test, on the iterations they shared, of
the statistic --rank ranks by), and the run stops when only the leader is
left; --stop none prunes nothing. --sampling says which candidates play:
toptwo (the default) plays every candidate 16 iterations, then each round
the leader and its closest challenger (the candidate it is least surely
ahead of) 8 iterations more; paired plays every candidate in the race every
iteration. The same --seed and --iterations give the same table on any
--threads (unless --time stopped the run). With the bag empty the position is an
endgame: the opponent's rack is known and one iteration is exact.

A CGP of 3 or 4 racks is a game of that many players: every other rack is
drawn in full each iteration, every player replies in turn (--plies counts
the moves of all players), a rollout's value is the spread against the
field (the mover's points and leave less the mean of the others'), and the
ranking is by simulated equity (the win table is of two players; WIN% is
the share of rollouts after which the mover stands first). With the bag
empty such a position is ranked by the static end-of-game valuation, as
'scrabble best' does.

The board, rack and lexicon are read as by 'scrabble moves'; a CGP's scores,
opponent's rack and scoreless-turn count are used. --json prints one JSON
object (fields in docs/json.md).`,
		Example: `  scrabble sim --board examples/pos.cgp
  scrabble sim --board examples/pos.txt --rack AEINRST --iterations 2000 --stop none --threads 2
  scrabble sim --board examples/pos.cgp --time 10s --plies 3 --json
  scrabble sim --board examples/pos.cgp --add 'M11 (R)ERAN' --add -AEI --add -`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if top < 0 {
				return usagef("--top must be 0 (all) or more, not %d", top)
			}
			return a.simulate(cmd, sf, board, rack, top, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP); '-' reads standard input")
	f.StringVarP(&rack, "rack", "r", "", "tiles on the rack, e.g. AEINRST or AEIRST? ('?' a blank); default: the CGP's rack")
	f.IntVarP(&top, "top", "n", 0, "show only the N best candidates (0: all)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object (fields in docs/json.md)")
	sf = addSimFlags(f)
	return cmd
}

// simCandidateJSON is one candidate in --json output: the move's fields as
// in `moves --json` (equity is the static equity) and the simulation's.
type simCandidateJSON struct {
	moveJSON
	SimEquity   float64 `json:"sim_equity"`    // points
	SimEquitySE float64 `json:"sim_equity_se"` // standard error
	WinPct      float64 `json:"win_pct"`       // percent
	WinPctSE    float64 `json:"win_pct_se"`
	Iterations  int     `json:"iterations"`
	Pruned      bool    `json:"pruned"`
	Added       bool    `json:"added"` // named by --add
}

// simJSON is the --json output of a simulation.
type simJSON struct {
	Lexicon      string             `json:"lexicon"`
	Rack         string             `json:"rack"`
	Bag          int                `json:"bag"`
	Opponent     string             `json:"opponent_rack"`     // "" when unknown
	Scores       []int              `json:"scores"`            // the mover's, then the others' in turn order
	Players      int                `json:"players,omitempty"` // 3 or 4; left out for two
	Endgame      bool               `json:"endgame"`
	Plies        int                `json:"plies"`
	PlayedOut    bool               `json:"played_out,omitempty"` // every rollout to the end of the game (--play-out)
	Seed         uint64             `json:"seed"`
	Threads      int                `json:"threads"`
	Stop         string             `json:"stop"`
	Rank         string             `json:"rank"`     // the statistic that ranked: "win" or "equity"
	Sampling     string             `json:"sampling"` // "paired" or "toptwo"
	Iterations   int                `json:"iterations"`
	Rollouts     int64              `json:"rollouts"`
	Generations  int64              `json:"generations"`
	Seconds      float64            `json:"seconds"`
	Stopped      string             `json:"stopped"`
	Interrupted  bool               `json:"interrupted"`
	Candidates   []simCandidateJSON `json:"candidates"`
	RolloutsPerS float64            `json:"rollouts_per_second"`

	// OpponentDrawn is how many of the opponent's tiles each iteration
	// draws at random: all when the rack is unknown, the rest of a partly
	// known one, 0 when it is known.
	OpponentDrawn int `json:"opponent_drawn"`
	// InferredFrom is the opponent's last move the rack was inferred from
	// (--infer), "" without.
	InferredFrom string `json:"inferred_from,omitempty"`
}

// simulate runs the simulation of the position in file and prints the
// ranking: the best move and the top runners-up (top 0: all).
func (a *app) simulate(cmd *cobra.Command, sf *simFlags, file, rackFlag string, top int, asJSON bool) error {
	opts, err := sf.options(a, cmd)
	if err != nil {
		return err
	}
	t, err := a.loadTurn(file, rackFlag)
	if err != nil {
		return err
	}
	added, err := sf.addedMoves(t)
	if err != nil {
		return err
	}
	if t.bag == 0 && t.rack.Count() > 0 && t.players() > 2 {
		// The solver is two-player, and how the unseen tiles split between
		// the other racks is unknown: the static end-of-game valuation.
		a.warnPhonies(file, &t.pos.Board, t.lex)
		return a.printBest(t, eval.Terms{}, top, asJSON, staticEndNote(t.players()))
	}
	if t.bag == 0 && t.rack.Count() > 0 {
		// Nothing is left to chance with the bag empty: the solver gives
		// the exact answer a simulation would only estimate.
		return a.solveWithSimFlags(cmd, sf, t, file, sf.threads, 0, false, asJSON)
	}
	leaves, err := eval.DefaultLeaves(t.lexName())
	if err != nil {
		return err
	}
	if leaves != nil {
		opts.Leaves = leaves
	}
	opts.Add = added
	pos := &sim.Position{Board: t.pos.Board, Rack: t.rack, Opponent: t.pos.Racks[1],
		Scores: t.pos.Scores, Scoreless: t.pos.ZeroTurns}
	if n := t.players(); n > 2 {
		for k := 1; k < n; k++ {
			if r := t.pos.Racks[k]; r.Count() > 0 {
				return fmt.Errorf("%s: a %d-player position gives rack %d (%s): with more than two players the simulation draws every other rack at random; leave them empty (best and moves take the position as it is)",
					positionName(file), n, k+1, r)
			}
		}
		pos.Seats, pos.Opponent = n, rules.Rack{}
	}
	inferred, err := sf.inferOpponent(cmd, t, file, opts.Leaves, opts.Seed)
	if err != nil {
		return err
	}
	if inferred != nil {
		pos.OpponentRacks = inferred.res
	}
	w := a.stdout
	if !asJSON {
		fmt.Fprintf(w, "Rack %s, lexicon %s: %s\n", t.rack, t.lexName(), simSetting(t, opts))
		if inferred != nil {
			fmt.Fprintf(w, "The opponent's rack inferred from their last move %s: %s\n", inferred.last, inferred.summary())
		}
	}
	bar := newSimBar(a.stderr, opts, &t.pos.Board)
	opts.Progress = bar.update
	ctx := cmd.Context() // cancelled by Ctrl-C (see interruptible)
	res, err := sim.NewSimulator(t.tables()).Simulate(ctx, pos, opts)
	bar.finish()
	interrupted := err != nil && errors.Is(err, context.Canceled) && ctx.Err() != nil
	if err != nil && !interrupted {
		return err
	}
	cands := make([]simCandidateJSON, len(res.Candidates))
	for i, c := range res.Candidates {
		cands[i] = simCandidateJSON{moveJSON: move.Describe(&t.pos.Board, t.rack, &c.Move),
			SimEquity: rules.RoundMilli(c.Mean), SimEquitySE: rules.RoundMilli(c.StdErr),
			WinPct: rules.RoundMilli(100 * c.WinProb), WinPctSE: rules.RoundMilli(100 * c.WinStdErr),
			Iterations: c.Iterations, Pruned: c.Pruned, Added: c.Added}
	}
	if top > 0 && len(cands) > top {
		// The moves the user named stay in the table, wherever they rank.
		kept := append([]simCandidateJSON(nil), cands[:top]...)
		for _, c := range cands[top:] {
			if c.Added {
				kept = append(kept, c)
			}
		}
		cands = kept
	}
	if asJSON {
		out := simJSON{Lexicon: t.lexName(), Rack: t.rack.String(), Bag: res.BagLen, Opponent: t.pos.Racks[1].String(),
			Scores: t.pos.Scores[:t.players()], Endgame: res.Endgame, Plies: opts.Plies, PlayedOut: res.PlayedOut, Seed: opts.Seed, Threads: opts.Threads,
			Stop: sf.stop, Rank: res.Rank.String(), Sampling: res.Sampling.String(), Iterations: res.Iterations, Rollouts: res.Rollouts, Generations: res.Generations,
			Seconds: res.Elapsed.Seconds(), Stopped: res.Stopped, Interrupted: interrupted, Candidates: cands,
			OpponentDrawn: t.opponentDrawn()}
		if inferred != nil {
			out.InferredFrom = inferred.last
		}
		if n := t.players(); n > 2 {
			out.Players = n
		}
		if s := res.Elapsed.Seconds(); s > 0 {
			out.RolloutsPerS = math.Round(float64(res.Rollouts) / s)
		}
		data, err := json.Marshal(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", data)
	} else if err := writeSimResult(w, t, res, cands, opts); err != nil {
		return err
	}
	if interrupted {
		fmt.Fprintln(a.stderr, "scrabble: interrupted; the table shows the iterations so far")
		return exitStatus(130)
	}
	return nil
}

// opponentDrawn is how many of the opponent's tiles a simulation draws at
// random each iteration: the tiles the opponent holds (a full rack, or
// every unseen tile with the bag empty) less those the position names.
func (t *turn) opponentDrawn() int {
	unseen, err := rules.Unseen(&t.pos.Board, t.rack)
	if err != nil || t.bag == 0 {
		return 0 // with the bag empty the opponent holds every unseen tile
	}
	if n := t.players(); n > 2 {
		return (n - 1) * rules.RackSize // every other rack, in full
	}
	return max(0, min(rules.RackSize, unseen.Count())-t.pos.Racks[1].Count())
}

// simSetting describes what is simulated: "simulating 15 plays ...".
func simSetting(t *turn, o sim.Options) string {
	var sb strings.Builder
	opp := "the opponent's rack unknown"
	if r := t.pos.Racks[1]; r.Count() > 0 {
		opp = "the opponent's rack " + r.String()
		if n := t.opponentDrawn(); n > 0 {
			opp = fmt.Sprintf("the opponent's rack partly known: %s and %d drawn at random", r, n)
		}
	}
	if t.bag == 0 {
		fmt.Fprintf(&sb, "endgame: the bag is empty and %s; every candidate is played out to the end by both sides' best static moves (one iteration is exact)", opp)
		return sb.String()
	}
	if n := t.players(); n > 2 {
		scores := make([]string, n)
		for k := range scores {
			scores[k] = strconv.Itoa(t.pos.Scores[k])
		}
		fmt.Fprintf(&sb, "%d players, %s in the bag, the other %d racks drawn at random, scores %s in turn order; ",
			n, plural(t.bag, "tile"), n-1, strings.Join(scores, "-"))
	} else {
		fmt.Fprintf(&sb, "%s in the bag, %s, score %d-%d; ", plural(t.bag, "tile"), opp, t.pos.Scores[0], t.pos.Scores[1])
	}
	if o.PlaysOut(t.bag) {
		fmt.Fprintf(&sb, "every rollout played to the end of the game (at most %s in the bag, --play-out), ", plural(o.PlayOut, "tile"))
	} else {
		fmt.Fprintf(&sb, "%s plies after each candidate, ", strconv.Itoa(o.Plies))
	}
	var budget []string
	if o.Iterations > 0 {
		budget = append(budget, "at most "+plural(o.Iterations, "iteration"))
	}
	if o.Time > 0 {
		budget = append(budget, "at most "+o.Time.String())
	}
	sb.WriteString(strings.Join(budget, " and "))
	if o.Confidence > 0 {
		fmt.Fprintf(&sb, ", stopping at %g%% confidence", 100*o.Confidence)
	}
	fmt.Fprintf(&sb, ", %s sampling", o.Sampling)
	fmt.Fprintf(&sb, ", seed %d, %s", o.Seed, plural(o.Threads, "thread"))
	return sb.String()
}

// writeSimResult prints the ranking as a table with a summary line.
func writeSimResult(w io.Writer, t *turn, res *sim.Result, cands []simCandidateJSON, o sim.Options) error {
	fmt.Fprintln(w)
	if len(cands) == 0 {
		_, err := fmt.Fprintln(w, "No candidates.")
		return err
	}
	b := cands[0]
	kind := "Best play"
	if b.Kind != "play" {
		kind = "Best move"
	}
	fmt.Fprintf(w, "%s by simulation: %s  %d points, simulated equity %.1f (static %.1f), win %.1f%%\n",
		kind, b.Move, b.Score, b.SimEquity, b.Equity, b.WinPct)
	fmt.Fprintln(w)
	rows := make([][]string, len(cands))
	for i, c := range cands {
		l := c.Leave
		if l == "" {
			l = "-"
		}
		var notes []string
		if c.Added {
			notes = append(notes, "added")
		}
		if c.Pruned {
			notes = append(notes, "pruned")
		}
		note := strings.Join(notes, ", ")
		rows[i] = []string{strconv.Itoa(i + 1), c.Move, strconv.Itoa(c.Score), l,
			strconv.FormatFloat(c.Equity, 'f', 1, 64),
			fmt.Sprintf("%.1f", c.SimEquity), fmt.Sprintf("%.2f", c.SimEquitySE),
			fmt.Sprintf("%.1f", c.WinPct), thousands(c.Iterations), note}
	}
	var table strings.Builder
	if err := writeTable(&table, []string{"#", "MOVE", "SCORE", "LEAVE", "STATIC", "SIM", "SE", "WIN%", "ITERATIONS", ""},
		[]bool{true, false, true, false, true, true, true, true, true, false}, rows); err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(table.String(), "\n") {
		// The last column (added, pruned or empty) is often blank.
		io.WriteString(w, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n")))
	}
	fmt.Fprintln(w)
	rate := ""
	if s := res.Elapsed.Seconds(); s > 0 && res.Rollouts > 0 {
		rate = fmt.Sprintf(": %s rollouts/s", thousands(int(float64(res.Rollouts)/s)))
	}
	why := map[string]string{
		"iterations": "the iteration budget was spent",
		"time":       "the time budget was spent",
		"confident":  fmt.Sprintf("the leader is ahead of every other candidate at %g%% confidence", 100*o.Confidence),
		"endgame":    "endgame: one iteration is exact",
		"single":     "only one candidate",
		"cancelled":  "interrupted",
	}[res.Stopped]
	ranked := "simulated equity"
	if res.Rank == sim.RankWin {
		ranked = "chance of winning (simulated equity orders those within one standard error)"
	}
	if n := t.players(); n > 2 {
		ranked = fmt.Sprintf("simulated equity, the spread against the field (the mover's points less the mean of the other %d players'); "+
			"WIN%% is the share of rollouts after which the mover stands first, not a chance of winning", n-1)
	}
	_, err := fmt.Fprintf(w, "%s, %s (%s move searches) in %s on %s%s; stopped: %s; ranked by %s.\n",
		plural(res.Iterations, "iteration"), plural(int(res.Rollouts), "rollout"), thousands(int(res.Generations)),
		elapsed(res.Elapsed), plural(o.Threads, "thread"), rate, why, ranked)
	return err
}

// simBar shows a running simulation: on a terminal a bar of iterations (a
// spinner with a time budget alone) with the current leader, elsewhere one
// line saying what is starting.
type simBar struct {
	bar   *progressbar.ProgressBar
	board *rules.Board
}

func newSimBar(w io.Writer, o sim.Options, board *rules.Board) *simBar {
	if !isTerminal(w) {
		fmt.Fprintln(w, "Simulating ...")
		return &simBar{}
	}
	total := o.Iterations
	if total == 0 {
		total = -1
	}
	return &simBar{board: board, bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("simulating"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("iterations"),
		progressbar.OptionShowIts(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

func (b *simBar) update(p sim.Progress) {
	if b.bar == nil {
		return
	}
	b.bar.Describe(fmt.Sprintf("leader %s %.1f, %d in the race", p.Leader.NotationOn(b.board), p.LeaderMean, p.Live))
	b.bar.Set(p.Iterations)
}

func (b *simBar) finish() {
	if b.bar != nil {
		if !b.bar.IsFinished() {
			b.bar.Clear()
		}
		b.bar.Exit()
	}
}

// inferredRack is what --infer worked out.
type inferredRack struct {
	last string // the move, as an lm opcode writes it
	res  *infer.Result
}

// summary says in a few words what the inference found.
func (r *inferredRack) summary() string {
	switch {
	case r.res.Uniform:
		return "it tells nothing (a uniform draw)"
	case len(r.res.Leaves) == 1:
		return "they kept " + leaveName(r.res.Leaves[0].Leave)
	}
	l := r.res.Leaves[0]
	return fmt.Sprintf("%s leaves, the likeliest %s (%.1f%%)", thousands(len(r.res.Leaves)), leaveName(l.Leave), 100*l.Prob)
}

func leaveName(r rules.Rack) string {
	if r.Count() == 0 {
		return "nothing"
	}
	return r.String()
}

// inferOpponent runs --infer on the turn: nil without the flag, or with
// the bag empty (the opponent's rack is then known).
func (sf *opponentInference) inferOpponent(cmd *cobra.Command, t *turn, file string, leaves movegen.LeaveValuer, seed uint64) (*inferredRack, error) {
	f := cmd.Flags()
	if !sf.infer {
		for _, name := range []string{"last", "infer-model", "infer-tau", "infer-margin", "infer-floor", "infer-racks"} {
			if f.Changed(name) {
				return nil, usagef("--%s goes with --infer", name)
			}
		}
		return nil, nil
	}
	if t.bag == 0 {
		return nil, nil
	}
	if n := t.players(); n > 2 {
		return nil, usagef("--infer: a %d-player position: inference handles two players (the last move is not the next player's)", n)
	}
	if t.pos.Racks[1].Count() > 0 {
		return nil, usagef("--infer: %s gives the opponent's rack (%s) already", positionName(file), t.pos.Racks[1])
	}
	pos := *t.pos
	if sf.last != "" {
		if err := pos.SetLastMoveText(sf.last); err != nil {
			return nil, usagef("--last (%s): %v", positionName(file), err)
		}
	}
	opts, err := sf.inferFlags.options("infer-", leaves)
	if err != nil {
		return nil, err
	}
	opts.Seed = seed
	inferred, err := t.inferLast(&pos, opts)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", positionName(file), err)
	case inferred == nil:
		return nil, usagef("--infer: %s has no last move: give it with --last MOVE (e.g. --last '8D WO.D')", positionName(file))
	}
	return inferred, nil
}

// inferLast infers the opponent's rack on the turn from pos's last move
// (its lm opcode); nil when pos has none.
func (t *turn) inferLast(pos *position.Position, opts infer.Options) (*inferredRack, error) {
	lm, err := pos.LastMove()
	if err != nil || lm == nil {
		return nil, err
	}
	sit, err := infer.FromPosition(pos, t.rack)
	if err != nil {
		return nil, err
	}
	res, err := infer.New(t.tables()).Infer(sit, opts)
	if err != nil {
		return nil, err
	}
	return &inferredRack{last: lm.String(), res: res}, nil
}
