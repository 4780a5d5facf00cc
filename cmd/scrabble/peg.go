package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"scrabble/move"
	"scrabble/movegen"
	"scrabble/peg"
	"scrabble/rules"
)

// defaultBestPEGTime is best's budget for a pre-endgame: past it, the
// leaders so far are the answer.
const defaultBestPEGTime = 30 * time.Second

// pegFlags are the pre-endgame solver's options, shared by peg and best.
type pegFlags struct {
	threads, ttMB, scoreless, top int
	budget                        time.Duration
}

func (pf *pegFlags) options() (peg.Options, error) {
	switch {
	case pf.threads < 1:
		return peg.Options{}, usagef("--threads must be at least 1, not %d", pf.threads)
	case pf.ttMB < 1:
		return peg.Options{}, usagef("--tt-mb must be at least 1, not %d", pf.ttMB)
	case pf.scoreless < 1 || pf.scoreless > rules.MaxScorelessTurns:
		return peg.Options{}, usagef("--scoreless-turns must be 1 to %d, not %d", rules.MaxScorelessTurns, pf.scoreless)
	case pf.budget < 0:
		return peg.Options{}, usagef("--time must not be negative")
	case pf.top < 1:
		return peg.Options{}, usagef("--top must be at least 1, not %d", pf.top)
	}
	return peg.Options{Threads: pf.threads, TTMB: pf.ttMB, ScorelessTurns: pf.scoreless, Top: pf.top}, nil
}

func newPEGCmd(a *app) *cobra.Command {
	var (
		board, rack string
		only        []string
		asJSON      bool
		pf          pegFlags
		oi          opponentInference
	)
	cmd := &cobra.Command{
		Use:         "peg --board FILE [--rack TILES]",
		Annotations: interruptible(),
		Short:       "Solve a pre-endgame: 1 to 4 tiles in the bag, every draw valued",
		Long: `Solve the position on --board with 1 to 4 tiles in the bag (a pre-endgame): the
opponent's rack is unknown, so every way the unseen tiles can split between
the bag and the opponent's rack is a draw, and each candidate move is valued
over all of them, each followed by the endgame, solved exactly. Candidates are
ranked by their win percentage (draws won, ties counting half; the final
spread, current scores included, above 0), then by their mean final spread.
Exchanges are not allowed with fewer than 7 tiles in the bag; the pass is a
candidate.

With one tile in the bag the answer is exact: the best --top moves with
their exact record ("solved exactly"); the others are pruned as soon as they
cannot enter the top. (With --time, if the exact solve is not done by two
thirds of it, the rest values the candidates it did not settle as the
stages below do.) With two tiles and no --time the answer is exact too,
every draw order valued: from a second to many minutes a thread. With
two tiles and --time, and with three or four tiles, the solve is staged,
so that an answer comes in time, each stage taking the best of the one
before: every candidate played out greedily with one draw, the best 400
with 16 draws, the best 48 with up to 256; the best 8 by endgame searches
2 plies deep (then played out) over up to 64 draws, the best 3 of those 3
plies deep; then the best solved exactly, draw by draw, while --time
allows. With two tiles, if that completes with time left, the exact solve
follows, and its proven answer replaces the staged one if it finishes in
time. The RECORD column says what valued each: "exact", "3 plies", "2
plies" or "playouts"; a deeper stage ranks first.
After a draw both sides are taken to know the bag's order (the game with
perfect information), as peer engines do.

--infer weights each draw by what the opponent's last move (the CGP's lm
opcode, or --last MOVE) says they kept, as scrabble infer works it out: the
chance of the opponent's rack the draw leaves, in place of the tile counts
alone. A player who just played off six tiles and kept an S makes the S
likelier on their rack and less likely in the bag. Win percentages and
records are then weighted by those chances (WINS, TIES and LOSSES in draws,
with fractions).

--move values only the moves given, each exactly with one tile in the bag
(or two, without --time).
--time stops the solve and shows the leaders so far (not proven), as
Ctrl-C does. --json prints one object (docs/json.md). --threads (every CPU
unless set) solves endgames in parallel: an exact answer is the same for any
number.`,
		Example: `  scrabble --lexicon NWL23 peg --board peg.cgp
  scrabble --lexicon NWL23 peg --board peg.cgp --threads 2 --top 10
  scrabble --lexicon NWL23 peg --board peg.cgp --time 60s --json
  scrabble --lexicon NWL23 peg --board peg.cgp --infer --last '8D WO.D'   # draws weighted by the opponent's last move
  scrabble --lexicon NWL23 peg --board peg.cgp --scoreless-turns 2   # MAGPIE's endgame rule`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if pf.threads, err = a.threads(cmd); err != nil {
				return err
			}
			opts, err := pf.options()
			if err != nil {
				return err
			}
			t, err := a.loadTurn(board, rack)
			if err != nil {
				return err
			}
			if n := t.players(); n > 2 {
				return fmt.Errorf("%s: peg: a %d-player position: the solver handles two players (best ranks it by static equity)", positionName(board), n)
			}
			if t.bag < 1 || t.bag > peg.MaxBag {
				return fmt.Errorf("%s: %d tiles in the bag: a pre-endgame has 1 to %d (an empty bag is an endgame: scrabble endgame)",
					positionName(board), t.bag, peg.MaxBag)
			}
			for _, text := range only {
				m, err := move.Parse(text, &t.pos.Board)
				if err != nil {
					return usagef("--move %q: %v", text, err)
				}
				opts.Only = append(opts.Only, m)
			}
			inferred, err := a.inferForPEG(cmd, &oi, t, board, &opts)
			if err != nil {
				return err
			}
			a.warnPhonies(board, &t.pos.Board, t.lex)
			_, err = a.solvePEG(cmd.Context(), t, opts, pf.budget, asJSON, false, inferred)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP); '-' reads standard input")
	f.StringVarP(&rack, "rack", "r", "", "tiles of the player to move; default: the CGP's rack")
	f.StringArrayVar(&only, "move", nil, "value only this move (repeatable), such as '8D WORD' or pass")
	f.BoolVar(&asJSON, "json", false, "print JSON (fields in docs/json.md)")
	addPEGFlags(cmd, &pf, 0)
	addOpponentInferenceFlags(f, &oi, "weight each draw by what the opponent's last move (the CGP's lm opcode, or --last) says they kept (scrabble infer), not by tile counts alone")
	addThreadsFlag(f, runtime.NumCPU(), "endgames solved at once (the answer is the same for any number)", false)
	return cmd
}

func addPEGFlags(cmd *cobra.Command, pf *pegFlags, defaultTime time.Duration) {
	f := cmd.Flags()
	f.DurationVar(&pf.budget, "time", defaultTime, "stop after this long and show the leaders so far (0: no limit)")
	f.IntVar(&pf.ttMB, "tt-mb", peg.DefaultTTMB, "size in MB of the transposition table the endgames share")
	f.IntVarP(&pf.top, "top", "n", peg.DefaultTop, "rank the best N moves with their exact record")
	f.IntVar(&pf.scoreless, "scoreless-turns", rules.MaxScorelessTurns,
		"consecutive scoreless turns that end the game (6, NASPA's rule; 2 is MAGPIE's endgame rule)")
}

// pegJSON is the JSON of a pre-endgame solve (docs/json.md).
type pegJSON struct {
	Lexicon       string         `json:"lexicon"`
	Rack          string         `json:"rack"`
	Unseen        string         `json:"unseen"`
	BagTiles      int            `json:"bag_tiles"`
	Scores        [2]int         `json:"scores"`
	Scoreless     int            `json:"scoreless_turns"`
	ScorelessRule int            `json:"scoreless_rule"`
	Proven        bool           `json:"proven"`
	Stopped       string         `json:"stopped"`
	Moves         int            `json:"moves"`
	Pruned        int            `json:"pruned"`
	Endgames      int            `json:"endgames"`
	Nodes         uint64         `json:"nodes"`
	Seconds       float64        `json:"seconds"`
	Candidates    []pegCandidate `json:"candidates"`
	Best          *pegCandidate  `json:"best"`
	Interrupted   bool           `json:"interrupted"`
	Threads       int            `json:"threads"`
	// InferredFrom is the opponent's last move the draws were weighted
	// by (--infer); DrawUnit the weight of one way of drawing in the
	// counts (1, or peg.InferredUnit with --infer).
	InferredFrom string `json:"inferred_from,omitempty"`
	DrawUnit     int    `json:"draw_unit"`
}

// pegCandidate is a ranked move and its record.
type pegCandidate struct {
	Move       moveJSON `json:"move"`
	Wins       int      `json:"wins"`
	Ties       int      `json:"ties"`
	Losses     int      `json:"losses"`
	Draws      int      `json:"draws"`
	WinPct     float64  `json:"win_pct"`
	MeanSpread *float64 `json:"mean_spread"` // null when not computed
	Spread     string   `json:"spread"`      // "exact", "estimate" or ""
	Proven     bool     `json:"proven"`
	// Plies: an estimate's endgame searches were this deep (0: greedy playouts).
	Plies   int       `json:"plies,omitempty"`
	PerDraw []pegDraw `json:"per_draw,omitempty"`
}

// pegDraw is a move's result with one bag tile.
type pegDraw struct {
	Tile   string  `json:"tile"`
	Weight int     `json:"weight"`
	Prob   float64 `json:"prob"` // the chance the bag holds it
	Result string  `json:"result"`
	Spread *int    `json:"spread"` // the exact final spread, null when not computed
}

// solvePEG solves t's pre-endgame and prints the answer; fromBest says it
// is best's (its text says so). For best, a solve that settled no
// candidate in its time prints nothing and says so (settled false), for
// best to rank by static equity instead.
func (a *app) solvePEG(ctx context.Context, t *turn, opts peg.Options, budget time.Duration, asJSON, fromBest bool, inferred *inferredRack) (settled bool, err error) {
	pos := *t.pos
	pos.Racks[0] = t.rack
	sctx := ctx
	if budget > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	progress := newProgressLine(a.stderr)
	opts.Progress = func(pr peg.Progress) {
		progress.show("%s: %d of %d %s, best %s (%.1f%%)", pr.Stage, pr.Done, pr.Of, pr.Counted(), pr.Best, pr.BestWinPct)
	}
	res, err := peg.Solve(sctx, t.tables(), &pos, opts)
	progress.finish()
	if err != nil {
		return false, err
	}
	interrupted := ctx.Err() != nil
	if fromBest && len(res.Candidates) == 0 && !interrupted {
		return false, nil
	}
	out := describePEG(t, res, opts, interrupted)
	if inferred != nil {
		out.InferredFrom = inferred.last
		if !asJSON {
			fmt.Fprintf(a.stdout, "Draws weighted by the opponent's last move %s: %s\n", inferred.last, inferred.summary())
		}
	}
	if asJSON {
		if err := json.NewEncoder(a.stdout).Encode(out); err != nil {
			return true, err
		}
	} else {
		writePEGText(a.stdout, out, fromBest)
	}
	if interrupted {
		fmt.Fprintln(a.stderr, "scrabble: interrupted: the leaders so far are shown")
		return true, exitStatus(130)
	}
	return true, nil
}

// describePEG turns a result into its JSON.
func describePEG(t *turn, res *peg.Result, opts peg.Options, interrupted bool) *pegJSON {
	pos := t.pos
	rule := opts.ScorelessTurns
	if rule == 0 {
		rule = rules.MaxScorelessTurns
	}
	out := &pegJSON{
		Lexicon: t.lexName(), Rack: t.rack.String(), Unseen: res.Unseen.String(), BagTiles: res.BagTiles,
		Scores: [2]int(pos.Scores[:2]), Scoreless: pos.ZeroTurns, ScorelessRule: rule,
		Proven: res.Proven, Stopped: res.Stopped, Moves: res.Moves, Pruned: res.Pruned,
		Endgames: res.Endgames, Nodes: res.Nodes, Seconds: res.Elapsed.Seconds(),
		Candidates: []pegCandidate{}, Interrupted: interrupted, Threads: max(opts.Threads, 1),
		DrawUnit: res.DrawUnit,
	}
	for _, c := range res.Candidates {
		m := c.Move
		m.Equity = rules.FromPoints(m.Score)
		pc := pegCandidate{
			Move: move.Describe(&pos.Board, t.rack, &m),
			Wins: c.Wins, Ties: c.Ties, Losses: c.Losses, Draws: c.Draws, WinPct: c.WinPct,
			Spread: c.Spread, Proven: c.Proven, Plies: c.Plies,
		}
		if c.Spread != "" {
			ms := c.MeanSpread
			pc.MeanSpread = &ms
		}
		for _, d := range c.PerDraw {
			pd := pegDraw{Tile: tileString(d.Tile), Weight: d.Weight, Prob: d.Prob, Result: d.Result}
			if d.SpreadKnown {
				s := d.Spread
				pd.Spread = &s
			}
			pc.PerDraw = append(pc.PerDraw, pd)
		}
		out.Candidates = append(out.Candidates, pc)
	}
	if len(out.Candidates) > 0 {
		out.Best = &out.Candidates[0]
	}
	return out
}

// drawCount writes a count of draws in units of unit a way: whole without
// inference, with two decimals when the draws are weighted by it.
func drawCount(n, unit int) string {
	if unit <= 1 {
		return strconv.Itoa(n)
	}
	return strconv.FormatFloat(float64(n)/float64(unit), 'f', 2, 64)
}

// inferForPEG runs --infer for a pre-endgame and weights opts' draws by
// it: nil without the flag.
func (a *app) inferForPEG(cmd *cobra.Command, oi *opponentInference, t *turn, file string, opts *peg.Options) (*inferredRack, error) {
	var leaves movegen.LeaveValuer
	if oi.infer {
		var err error
		if leaves, err = leavesFor(t.lex); err != nil {
			return nil, err
		}
	}
	inferred, err := oi.inferOpponent(cmd, t, file, leaves, 1)
	if err != nil || inferred == nil {
		return nil, err
	}
	opts.OppRackProb = inferred.res.RackProb
	return inferred, nil
}

// tileString names a tile as racks are written: ? for the blank.
func tileString(l rules.Letter) string {
	var r rules.Rack
	r.Add(l)
	return r.String()
}

// writePEGText prints the answer for a reader.
func writePEGText(w io.Writer, e *pegJSON, fromBest bool) {
	fmt.Fprintf(w, "Pre-endgame, lexicon %s: rack %s, %s in the bag, unseen %s, scores %d-%d",
		e.Lexicon, e.Rack, plural(e.BagTiles, "tile"), e.Unseen, e.Scores[0], e.Scores[1])
	if e.Scoreless > 0 {
		fmt.Fprintf(w, ", %s", plural(e.Scoreless, "scoreless turn"))
	}
	if e.ScorelessRule != rules.MaxScorelessTurns {
		fmt.Fprintf(w, " (the game ends after %s)", plural(e.ScorelessRule, "scoreless turn"))
	}
	fmt.Fprintln(w)
	if e.Best == nil {
		fmt.Fprintln(w, "No candidate was settled before the solve stopped: not proven (give it more --time).")
		return
	}
	how := "Solved exactly"
	switch {
	case !e.Proven && e.Best.Proven:
		how = "Best so far, not proven"
	case !e.Proven:
		how = "Best by estimate, not proven"
	}
	b := e.Best
	count := func(n int) string { return drawCount(n, e.DrawUnit) }
	fmt.Fprintf(w, "%s: %s  %d points, wins %s, ties %s, loses %s of %s draws (%.1f%%)", how, b.Move.Move, b.Move.Score,
		count(b.Wins), count(b.Ties), count(b.Losses), count(b.Draws), b.WinPct)
	if b.MeanSpread != nil {
		fmt.Fprintf(w, ", mean final spread %+.3f", *b.MeanSpread)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	rows := make([][]string, len(e.Candidates))
	for i, c := range e.Candidates {
		spread := "-"
		if c.MeanSpread != nil {
			spread = fmt.Sprintf("%+.3f", *c.MeanSpread)
			if c.Spread == "estimate" {
				spread += " (est.)"
			}
		}
		rec := "exact"
		switch {
		case c.Proven:
		case c.Plies > 0:
			rec = fmt.Sprintf("%d plies", c.Plies)
		default:
			rec = "playouts"
		}
		rows[i] = []string{strconv.Itoa(i + 1), c.Move.Move, strconv.Itoa(c.Move.Score), fmt.Sprintf("%.1f", c.WinPct),
			count(c.Wins), count(c.Ties), count(c.Losses), spread, rec}
	}
	writeTable(w, []string{"#", "MOVE", "SCORE", "WIN%", "WINS", "TIES", "LOSSES", "MEAN SPREAD", "RECORD"},
		[]bool{true, false, true, true, true, true, true, true, false}, rows)
	if len(b.PerDraw) > 0 {
		var parts []string
		for _, d := range b.PerDraw {
			p := fmt.Sprintf("%s %s", d.Tile, d.Result)
			switch {
			case e.InferredFrom != "":
				p = fmt.Sprintf("%s (%.0f%%) %s", d.Tile, 100*d.Prob, d.Result)
			case d.Weight > 1:
				p = fmt.Sprintf("%s x%d %s", d.Tile, d.Weight, d.Result)
			}
			if d.Spread != nil {
				p += fmt.Sprintf(" %+d", *d.Spread)
			}
			parts = append(parts, p)
		}
		fmt.Fprintf(w, "\nBag tile for %s: %s\n", b.Move.Move, strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "\n%s, %s pruned, %s endgames, %s nodes, %s, %s\n", plural(e.Moves, "candidate"), thousands(e.Pruned),
		thousands(e.Endgames), thousands(int(e.Nodes)), plural(e.Threads, "thread"), elapsed(time.Duration(e.Seconds*float64(time.Second))))
	if !e.Proven {
		switch {
		case e.Stopped == "time" && e.BagTiles == 2 && fromBest:
			fmt.Fprintln(w, "The solve stopped at best's budget (--time) before it was proven: with two tiles in the bag the stages come first, then the exact solve while time is left ('scrabble peg' without --time solves all).")
		case e.Stopped == "time" && e.BagTiles == 2:
			fmt.Fprintln(w, "The solve stopped at --time before it was proven: with two tiles in the bag the stages come first, then the exact solve while time is left (without --time it runs to the end).")
		case e.Stopped == "time" && fromBest:
			fmt.Fprintln(w, "The solve stopped at best's budget (--time) before it was complete.")
		case e.Stopped == "time":
			fmt.Fprintln(w, "The solve stopped at --time before it was complete.")
		case e.BagTiles > 2:
			fmt.Fprintln(w, "With more than two tiles in the bag only the best by estimate are solved exactly.")
		}
	}
}
