package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"scrabble/endgame"
	"scrabble/move"
	"scrabble/position"
	"scrabble/rules"
)

// defaultBestEndgameTime is best's budget for solving a bag-empty
// position: most endgames are proven well within it, and a depth-limited
// answer is given past it.
const defaultBestEndgameTime = 10 * time.Second

// endgameFlags are the solver's options, shared by endgame and best.
type endgameFlags struct {
	plies, threads, ttMB, scoreless int
	budget                          time.Duration
	nodes                           uint64 // a reproducible budget instead of the time (one thread)
}

// endgameNodesUsage is the help of --endgame-nodes (best, sim) and --nodes.
const endgameNodesUsage = "with the bag empty, search at most about N nodes on one thread instead of --time: the same answer on every machine (0: off)"

func addEndgameFlags(cmd *cobra.Command, ef *endgameFlags, defaultTime time.Duration) {
	f := cmd.Flags()
	f.IntVar(&ef.plies, "plies", 0, "search at most N plies, leaves valued by playing both sides out greedily (0: until the value is proven)")
	f.DurationVar(&ef.budget, "time", defaultTime, "stop the search after this long and give the deepest answer (0: no limit)")
	f.IntVar(&ef.ttMB, "tt-mb", endgame.DefaultTTMB, "transposition table size in MB")
	f.Uint64Var(&ef.nodes, "nodes", 0, strings.Replace(endgameNodesUsage, "with the bag empty, search", "search", 1))
	f.IntVar(&ef.scoreless, "scoreless-turns", rules.MaxScorelessTurns,
		"consecutive scoreless turns that end the game (6, NASPA's rule; 2 is MAGPIE's endgame rule)")
}

func (ef *endgameFlags) options(top int) (endgame.Options, error) {
	switch {
	case ef.plies < 0:
		return endgame.Options{}, usagef("--plies must be 0 (exact) or more, not %d", ef.plies)
	case ef.threads < 1:
		return endgame.Options{}, usagef("--threads must be at least 1, not %d", ef.threads)
	case ef.ttMB < 1:
		return endgame.Options{}, usagef("--tt-mb must be at least 1, not %d", ef.ttMB)
	case ef.scoreless < 1 || ef.scoreless > rules.MaxScorelessTurns:
		return endgame.Options{}, usagef("--scoreless-turns must be 1 to %d, not %d", rules.MaxScorelessTurns, ef.scoreless)
	case ef.budget < 0:
		return endgame.Options{}, usagef("--time must not be negative")
	}
	o := endgame.Options{TTMB: ef.ttMB, Threads: ef.threads, ScorelessTurns: ef.scoreless, Plies: ef.plies, Top: top}
	if ef.nodes > 0 {
		o.MaxNodes, o.Threads = ef.nodes, 1
		ef.budget = 0
	}
	return o, nil
}

func newEndgameCmd(a *app) *cobra.Command {
	var (
		board, rack string
		top         int
		asJSON      bool
		ef          endgameFlags
	)
	cmd := &cobra.Command{
		Use:         "endgame --board FILE [--rack TILES]",
		Annotations: interruptible(),
		Short:       "Solve an endgame exactly: the bag is empty, both racks are known",
		Long: `Solve the position on --board with the bag empty: both racks are known, so the
best move is a matter of search, not of chance. The solver searches every line
to the end of the game (negamax with alpha-beta, a transposition table and
iterative deepening) and gives the best first move, its value (the change in
spread, mover minus opponent, from now to the end of the game, end-of-game
adjustments included) and a principal variation, both sides playing
perfectly.

The position is read as by 'scrabble best': a CGP line gives both racks (the
mover's first); a grid file, or a CGP without the opponent's rack, takes the
unseen tiles as the opponent's rack (so they must number 7 or fewer). Going
out earns twice the tiles left on the opponent's rack; --scoreless-turns
consecutive scoreless turns (6 by NASPA rules, counted from the CGP's count)
end the game with each side losing its own tiles; passing is a move.

The answer is exact ("solved exactly") unless --plies or --time cut the
search: then it is the deepest iteration completed, its leaves valued by
playing both sides out greedily, and it says "not proven". Ctrl-C stops the
search and prints the best line found so far. --top N ranks the first N moves
by value; --json prints one object (docs/json.md). --threads (every CPU unless
set) searches in parallel: a proven answer (the move among moves of equal
value, its line, the ranking) is the same for any number.`,
		Example: `  scrabble --lexicon NWL23 endgame --board end.cgp
  scrabble --lexicon NWL23 endgame --board end.cgp --top 5 --threads 2
  scrabble --lexicon NWL23 endgame --board end.cgp --time 5s --json
  scrabble --lexicon NWL23 endgame --board end.cgp --scoreless-turns 2   # MAGPIE's rule`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if top < 0 {
				return usagef("--top must be 0 or more, not %d", top)
			}
			var err error
			if ef.threads, err = a.threads(cmd); err != nil {
				return err
			}
			opts, err := ef.options(top)
			if err != nil {
				return err
			}
			t, err := a.loadTurn(board, rack)
			if err != nil {
				return err
			}
			if n := t.players(); n > 2 {
				return fmt.Errorf("%s: endgame: a %d-player position: the solver handles two players (best ranks it by the static end-of-game valuation)", positionName(board), n)
			}
			if t.bag > 0 {
				return fmt.Errorf("%s: %d tiles are unseen, %d more than a rack holds: the bag is not empty, so this is no endgame (use best or sim)",
					positionName(board), t.bag+rules.RackSize, t.bag)
			}
			a.warnPhonies(board, &t.pos.Board, t.lex)
			return a.solveEndgame(cmd.Context(), t, opts, ef.budget, asJSON, false)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP); '-' reads standard input")
	f.StringVarP(&rack, "rack", "r", "", "tiles of the player to move; default: the CGP's rack")
	f.IntVarP(&top, "top", "n", 0, "rank the best N first moves by value")
	f.BoolVar(&asJSON, "json", false, "print JSON (fields in docs/json.md)")
	addEndgameFlags(cmd, &ef, 0)
	addThreadsFlag(f, runtime.NumCPU(), "search threads sharing the transposition table (a proven answer is the same for any number)", false)
	return cmd
}

// solveWithSimFlags solves the bag-empty position of best or sim with the
// options their flags give the solver: --time (defaultBestEndgameTime
// unless given), --threads, --endgame-nodes and, with withPlies, --plies
// (sim's --plies counts rollout moves, so sim leaves it out).
func (a *app) solveWithSimFlags(cmd *cobra.Command, sf *simFlags, t *turn, file string, threads, top int, withPlies, asJSON bool) error {
	ef := endgameFlags{threads: threads, ttMB: endgame.DefaultTTMB, scoreless: rules.MaxScorelessTurns,
		budget: defaultBestEndgameTime, nodes: sf.endgameNodes}
	if withPlies && cmd.Flags().Changed("plies") {
		ef.plies = sf.plies
	}
	if cmd.Flags().Changed("time") {
		ef.budget = sf.budget
	}
	opts, err := ef.options(top)
	if err != nil {
		return err
	}
	a.warnPhonies(file, &t.pos.Board, t.lex)
	return a.solveEndgame(cmd.Context(), t, opts, ef.budget, asJSON, true)
}

// endgameJSON is the JSON of an endgame solve (docs/json.md).
type endgameJSON struct {
	Lexicon        string            `json:"lexicon"`
	Rack           string            `json:"rack"`
	OpponentRack   string            `json:"opponent_rack"`
	Scores         [2]int            `json:"scores"`
	Scoreless      int               `json:"scoreless_turns"`
	ScorelessRule  int               `json:"scoreless_rule"`
	Best           moveJSON          `json:"best"`
	Value          int               `json:"value"`
	FinalSpread    int               `json:"final_spread"`
	Proven         bool              `json:"proven"`
	Depth          int               `json:"depth"`
	Nodes          uint64            `json:"nodes"`
	NodesPerSecond float64           `json:"nodes_per_second"`
	Seconds        float64           `json:"seconds"`
	Interrupted    bool              `json:"interrupted"`
	PV             []endgameStepJSON `json:"pv"`
	Ranked         []endgameRankJSON `json:"ranked,omitempty"`
}

// endgameStepJSON is a move of the principal variation.
type endgameStepJSON struct {
	Player     string   `json:"player"` // "mover" or "opponent"
	Rack       string   `json:"rack"`
	Move       moveJSON `json:"move"`
	Scores     [2]int   `json:"scores"` // after the move and any end-of-game adjustment
	End        string   `json:"end,omitempty"`
	Adjustment int      `json:"adjustment,omitempty"`
}

// endgameRankJSON is a first move and its value.
type endgameRankJSON struct {
	Move  moveJSON `json:"move"`
	Value int      `json:"value"`
}

// solveEndgame solves t's endgame and prints the answer. budget, if set,
// bounds the search's time; fromBest says the answer is best's (its text
// says so).
func (a *app) solveEndgame(ctx context.Context, t *turn, opts endgame.Options, budget time.Duration, asJSON, fromBest bool) error {
	pos := *t.pos
	pos.Racks[0] = t.rack
	sctx := ctx
	if budget > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	progress := newProgressLine(a.stderr)
	opts.Progress = func(pr endgame.Progress) {
		progress.show("depth %d: best %s, value %+d, %s nodes", pr.Depth, pr.Best, pr.Value, thousands(int(pr.Nodes)))
	}
	res, err := endgame.Solve(sctx, t.tables(), &pos, opts)
	progress.finish()
	if err != nil {
		return err
	}
	interrupted := ctx.Err() != nil
	out := describeEndgame(t, &pos, res, opts, interrupted)
	if asJSON {
		if err := json.NewEncoder(a.stdout).Encode(out); err != nil {
			return err
		}
	} else {
		writeEndgameText(a.stdout, out, fromBest)
	}
	if interrupted {
		fmt.Fprintln(a.stderr, "scrabble: interrupted: the best line found so far is shown")
		return exitStatus(130)
	}
	return nil
}

// describeEndgame turns a result into its JSON, replaying the principal
// variation on the board.
func describeEndgame(t *turn, pos *position.Position, res *endgame.Result, opts endgame.Options, interrupted bool) *endgameJSON {
	opp := pos.Racks[1]
	if opp.Count() == 0 {
		opp, _ = rules.Unseen(&pos.Board, pos.Racks[0])
	}
	rule := opts.ScorelessTurns
	if rule == 0 {
		rule = rules.MaxScorelessTurns
	}
	out := &endgameJSON{
		Lexicon: t.lexName(), Rack: pos.Racks[0].String(), OpponentRack: opp.String(),
		Scores: [2]int(pos.Scores[:2]), Scoreless: pos.ZeroTurns, ScorelessRule: rule,
		Best:  move.Describe(&pos.Board, pos.Racks[0], staticEquity(res.Best, pos.Racks[0], opp)),
		Value: res.Value, FinalSpread: pos.Scores[0] - pos.Scores[1] + res.Value,
		Proven: res.Proven, Depth: res.Depth, Nodes: res.Nodes,
		Seconds: res.Elapsed.Seconds(), Interrupted: interrupted, PV: []endgameStepJSON{},
	}
	if s := res.Elapsed.Seconds(); s > 0 {
		out.NodesPerSecond = float64(res.Nodes) / s
	}
	// The line replayed: scores after each move, end-of-game adjustments
	// applied to the side they fall on.
	for _, st := range res.Line(pos) {
		player := "mover"
		if st.Player == 1 {
			player = "opponent"
		}
		out.PV = append(out.PV, endgameStepJSON{Player: player, Rack: st.Rack.String(), Move: move.Describe(&st.Board, st.Rack, &st.Move),
			Scores: st.Scores, End: st.End, Adjustment: st.Adjustment})
	}
	for _, r := range res.Ranked {
		m := r.Move
		out.Ranked = append(out.Ranked, endgameRankJSON{Move: move.Describe(&pos.Board, pos.Racks[0], staticEquity(m, pos.Racks[0], opp)), Value: r.Value})
	}
	return out
}

// staticEquity gives m the static equity of a bag-empty position (score,
// plus twice the opponent's tiles for going out, less twice the tiles
// kept), as moves --json shows it.
func staticEquity(m move.Move, rack, opp rules.Rack) *move.Move {
	e := endgame.StaticEquity(m, rack, opp)
	return &e
}

// writeEndgameText prints the answer for a reader.
func writeEndgameText(w io.Writer, e *endgameJSON, fromBest bool) {
	fmt.Fprintf(w, "Endgame, lexicon %s: rack %s against %s, scores %d-%d", e.Lexicon, e.Rack, e.OpponentRack, e.Scores[0], e.Scores[1])
	if e.Scoreless > 0 {
		fmt.Fprintf(w, ", %s", plural(e.Scoreless, "scoreless turn"))
	}
	if e.ScorelessRule != rules.MaxScorelessTurns {
		fmt.Fprintf(w, " (the game ends after %s)", plural(e.ScorelessRule, "scoreless turn"))
	}
	fmt.Fprintln(w)
	how := "Solved exactly"
	if !e.Proven {
		how = fmt.Sprintf("Best at depth %d, not proven", e.Depth)
	}
	fmt.Fprintf(w, "%s: %s  %d points, value %+d (final spread %+d)\n", how, e.Best.Move, e.Best.Score, e.Value, e.FinalSpread)
	if len(e.PV) > 0 {
		fmt.Fprintln(w, "\nPrincipal variation:")
		rows := make([][]string, len(e.PV))
		for i, st := range e.PV {
			end := ""
			switch st.End {
			case "out":
				end = "goes out"
			case "scoreless":
				end = "game ends: scoreless turns"
			}
			rows[i] = []string{strconv.Itoa(i + 1), st.Player, st.Rack, st.Move.Move, strconv.Itoa(st.Move.Score),
				fmt.Sprintf("%d-%d", st.Scores[0], st.Scores[1]), end}
		}
		writeTable(w, []string{"#", "PLAYER", "RACK", "MOVE", "SCORE", "SCORES", ""}, []bool{true, false, false, false, true, false, false}, rows)
	}
	if len(e.Ranked) > 0 {
		fmt.Fprintln(w, "\nFirst moves by value:")
		rows := make([][]string, len(e.Ranked))
		for i, r := range e.Ranked {
			rows[i] = []string{strconv.Itoa(i + 1), r.Move.Move, strconv.Itoa(r.Move.Score), fmt.Sprintf("%+d", r.Value)}
		}
		writeTable(w, []string{"#", "MOVE", "SCORE", "VALUE"}, []bool{true, false, true, true}, rows)
	}
	fmt.Fprintf(w, "\nDepth %d, %s nodes, %s nodes/s, %s\n", e.Depth, thousands(int(e.Nodes)), thousands(int(e.NodesPerSecond)),
		elapsed(time.Duration(e.Seconds*float64(time.Second))))
	if !e.Proven {
		if fromBest {
			fmt.Fprintln(w, "The search stopped before proving the value (best's budget: --time).")
		} else {
			fmt.Fprintln(w, "The search stopped before proving the value (--plies or --time).")
		}
	}
}

// progressLine is a solver's progress on a terminal: one line, rewritten at
// most ten times a second, cleared at the end (endgame and peg share it).
type progressLine struct {
	w    io.Writer
	on   bool
	mu   sync.Mutex
	last time.Time
	any  bool
}

func newProgressLine(w io.Writer) *progressLine {
	return &progressLine{w: w, on: isTerminal(w)}
}

// show rewrites the line; it may be called from the solver's goroutines.
func (p *progressLine) show(format string, args ...any) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.any = time.Now(), true
	fmt.Fprintf(p.w, "\r\033[K"+format, args...)
}

func (p *progressLine) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.any {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
