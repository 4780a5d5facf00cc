package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"scrabble/eval"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/peg"
	"scrabble/rules"
)

// kindCounts counts the moves of each kind a search handed over, passing
// them on to a recorder.
type kindCounts struct {
	rec                    movegen.Recorder
	plays, exchanges, pass int
}

func (c *kindCounts) Record(m *move.Move) {
	switch m.Kind {
	case move.Play:
		c.plays++
	case move.Exchange:
		c.exchanges++
	default:
		c.pass++
	}
	c.rec.Record(m)
}

// String says how many moves of each kind there were: "10 plays, 53
// exchanges and the pass".
func (c *kindCounts) String() string {
	parts := []string{plural(c.plays, "play")}
	if c.exchanges > 0 {
		parts = append(parts, plural(c.exchanges, "exchange"))
	}
	if c.pass > 0 {
		parts = append(parts, "the pass")
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// rankBest lists the n best moves (all of them for n == 0) by equity, ties
// broken by move.Compare, weighing what the self-play equity player
// weighs (sim's staticPlayer calls gen.Best with these options): every play,
// every exchange when the bag allows one (rules.CanExchange) and the pass.
// gen must have the board and the equity valuer set.
func rankBest(gen *movegen.Generator, rack *rules.Rack, bag int, openCost rules.Equity, n int) ([]move.Move, kindCounts) {
	opts := movegen.Options{Exchanges: true, Pass: true, OpenCost: openCost}
	if n == 0 {
		var all movegen.AllMoves
		c := kindCounts{rec: &all}
		gen.Generate(rack, bag, opts, &c)
		move.SortByEquity(all.Moves)
		return all.Moves, c
	}
	top := &movegen.TopN{N: n, Better: move.ByEquity}
	c := kindCounts{rec: top}
	gen.Generate(rack, bag, opts, &c)
	return top.Moves(), c
}

func newBestCmd(a *app) *cobra.Command {
	var (
		board, rack    string
		top            int
		simMode, asJSN bool
		static         bool
		termsText      string
		sf             *simFlags
	)
	cmd := &cobra.Command{
		Use:   "best --board FILE [--rack TILES]",
		Short: "Show the best move of a position and the runners-up",
		Long: `Find the best move for the rack on the board, and list the next best
(--top N runners-up, 5 by default; --top 0 lists every move). Best means
highest equity: the score plus the engine's trained value of the tiles kept
(for NWL and Collins lexica; score alone for others); with the bag empty,
going out earns twice the opponent's rack and tiles kept cost twice their
value. Every play, every exchange (when the bag holds at least 7 tiles) and
the pass are weighed, as the self-play equity player weighs them, so the best
move of a poor rack can be an exchange.

The board, rack and lexicon are taken as by 'scrabble moves': --board is a
15-line grid or one line of CGP ('-' reads standard input); a CGP position
with a rack needs no --rack; the lexicon is --lexicon, else the CGP's lex
opcode if installed, else the default lexicon. A board holding words that
are not in the lexicon is used as it is, with one warning line on standard
error naming them.

With the bag empty (the unseen tiles fit on the opponent's rack) best solves
the endgame instead, as 'scrabble endgame' does, within --time (10s by
default; --threads, --plies apply): it says "solved exactly", or "best at
depth N, not proven" when the time ran out, and prints the principal
variation; --top N ranks N first moves by value, --json prints the endgame's
object (docs/json.md). With one to four tiles in the bag best solves the
pre-endgame, as 'scrabble peg' does, within --time (30s by default): every
move valued over every draw, ranked by win percentage, then mean spread.
With one tile the answer is exact; with more it is staged (every move
played out greedily, the best searched a few plies deep, the best of those
solved exactly as time allows) and says which records are estimates; with
two, the exact solve follows if time is left, and its answer is proven if
it finishes ('scrabble peg' without --time solves two tiles exactly).
--static ranks such positions by static equity.

A CGP of 3 or 4 racks is a game of that many players (the mover first, then
the others in turn order): the bag is the unseen tiles less a full rack for
each other player, and with it empty the end-of-game term weighs going out
and the tiles kept against the other players on average. The solvers are
two-player: where they would run, such a position is ranked by static
equity, and a line says so (--json: an object with "valuation": "static"
and the note).

When no play is possible it says so, and whether exchanging is allowed (the
bag holds at least 7 tiles) or only passing is.

--sim ranks the best candidates by Monte Carlo simulation instead, with the
options of 'scrabble sim' (--plies, --iterations, --time, --threads,
--candidates, --stop, --seed; see 'scrabble sim --help'). --json prints the
moves as 'moves --json' does, best first, or with --sim the simulation's JSON
object.`,
		Example: `  scrabble best --board examples/pos.txt --rack AEINRST
  scrabble best --board examples/pos.cgp
  scrabble best --board examples/pos.cgp --rack QUIXOTE --top 10
  scrabble --lexicon NWL23 best --board examples/pos.txt --rack IIUUVVW
  scrabble --lexicon NWL23 best --board game.cgp --top 0
  scrabble best --board examples/pos.txt --rack AEINRST --sim --iterations 2000 --threads 2
  scrabble best --board examples/pos.cgp --sim --time 10s --json`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if top < 0 {
				return usagef("--top must be 0 (all) or more, not %d", top)
			}
			terms, err := parseTermsFlag("terms", termsText)
			if err != nil {
				return err
			}
			if simMode {
				if !terms.IsZero() {
					return usagef("--terms is for the static ranking: the simulation takes no equity terms")
				}
				shown := 0 // all
				if top > 0 {
					shown = top + 1
				}
				return a.simulate(cmd, sf, board, rack, shown, asJSN)
			}
			t, err := a.loadTurn(board, rack)
			if err != nil {
				return err
			}
			// The solvers are two-player: with more players, static
			// equity ranks where they would solve, and a note says so.
			multi := t.players() > 2
			note := ""
			switch {
			case t.bag == 0 && t.rack.Count() > 0 && !static && multi:
				note = staticEndNote(t.players())
			case t.bag >= 1 && t.bag <= peg.MaxBag && t.rack.Count() == rules.RackSize && !static && multi:
				note = fmt.Sprintf("%s in the bag and %d players: the pre-endgame solver handles two players; ranked by static equity.",
					plural(t.bag, "tile"), t.players())
			}
			if t.bag == 0 && t.rack.Count() > 0 && !static && !multi {
				// The bag is empty: both racks are known, so solve.
				for _, name := range []string{"iterations", "candidates", "stop", "seed", "add"} {
					if cmd.Flags().Changed(name) {
						return usagef("--%s is a simulation option, and the bag is empty: best solves the endgame (--static: rank by equity)", name)
					}
				}
				if !terms.IsZero() {
					return usagef("--terms is for the static ranking: with the bag empty best solves the endgame (add --static)")
				}
				threads, err := a.threads(cmd)
				if err != nil {
					return err
				}
				return a.solveWithSimFlags(cmd, sf, t, board, threads, top, true, asJSN)
			}
			if t.bag >= 1 && t.bag <= peg.MaxBag && t.rack.Count() == rules.RackSize && !static && !multi {
				// A tile or two in the bag: value every draw (a pre-endgame).
				for _, name := range []string{"plies", "iterations", "candidates", "stop", "seed", "add"} {
					if cmd.Flags().Changed(name) {
						return usagef("--%s is a simulation option, and the bag holds %s: best solves the pre-endgame (--static: rank by equity, --sim: simulate)", name, plural(t.bag, "tile"))
					}
				}
				if !terms.IsZero() {
					return usagef("--terms is for the static ranking: with %s in the bag best solves the pre-endgame (add --static)", plural(t.bag, "tile"))
				}
				threads, err := a.threads(cmd)
				if err != nil {
					return err
				}
				pf := pegFlags{threads: threads, ttMB: peg.DefaultTTMB, scoreless: rules.MaxScorelessTurns, top: max(top+1, 1), budget: defaultBestPEGTime}
				if top == 0 {
					pf.top = peg.DefaultTop
				}
				if cmd.Flags().Changed("time") {
					pf.budget = sf.budget
				}
				opts, err := pf.options()
				if err != nil {
					return err
				}
				inferred, err := a.inferForPEG(cmd, &sf.opponentInference, t, board, &opts)
				if err != nil {
					return err
				}
				a.warnPhonies(board, &t.pos.Board, t.lex)
				settled, err := a.solvePEG(cmd.Context(), t, opts, pf.budget, asJSN, true, inferred)
				if settled || err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "scrabble: no pre-endgame candidate was settled within %v: ranking by static equity\n", pf.budget)
			} else {
				for _, name := range []string{"plies", "iterations", "time", "threads", "candidates", "stop", "seed", "add", "infer", "last"} {
					if cmd.Flags().Changed(name) {
						return usagef("--%s is a simulation option: add --sim", name)
					}
				}
			}
			a.warnPhonies(board, &t.pos.Board, t.lex)
			n := 0 // all
			if top > 0 {
				n = top + 1
			}
			return a.printBest(t, terms, n, asJSN, note)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP); '-' reads standard input")
	f.StringVarP(&rack, "rack", "r", "", "tiles on the rack, e.g. AEINRST or AEIRST? ('?' a blank); default: the CGP's rack")
	f.IntVarP(&top, "top", "n", 5, "how many runners-up to list (0: all moves)")
	f.BoolVar(&static, "static", false, "rank by static equity even with the bag empty (where best otherwise solves the endgame)")
	f.BoolVar(&simMode, "sim", false, "rank the best candidates by Monte Carlo simulation (see 'scrabble sim')")
	f.BoolVar(&asJSN, "json", false, "print JSON (fields in docs/json.md)")
	f.StringVar(&termsText, "terms", "", termsFlagUsage)
	sf = addSimFlags(f)
	return cmd
}

// staticEndNote says that a position of n players (more than two) with
// the bag empty is ranked by the static end-of-game valuation, where two
// players' would be solved.
func staticEndNote(n int) string {
	return fmt.Sprintf("Bag empty, %d players: the endgame solver handles two players; ranked by the static end-of-game valuation "+
		"(going out gains the others' tiles and tiles kept cost their value, weighed against the other players: %d/%d times the tiles).", n, n, n-1)
}

// staticEndJSON is best's --json object for a position of more than two
// players with the bag empty, ranked by the static end-of-game valuation
// (docs/json.md).
type staticEndJSON struct {
	Lexicon   string     `json:"lexicon"`
	Rack      string     `json:"rack"`
	Players   int        `json:"players"`
	Bag       int        `json:"bag"`
	Scores    []int      `json:"scores"` // the mover's, then the others' in turn order
	Valuation string     `json:"valuation"`
	Note      string     `json:"note"`
	Moves     []moveJSON `json:"moves"`
}

// printBest ranks t's moves by static equity (terms added) and prints the
// best n (0: all): the best move and the runners-up, or with asJSON the
// array of moves. A note (not "") is printed under the first line; with
// the bag empty and more than two players, --json prints a staticEndJSON
// object holding it.
func (a *app) printBest(t *turn, terms eval.Terms, n int, asJSN bool, note string) error {
	gen, err := t.generator(terms)
	if err != nil {
		return err
	}
	ms, c := rankBest(gen, &t.rack, t.bag, terms.OpenCost(t.bag), n)
	if asJSN && t.bag == 0 && t.players() > 2 {
		out := staticEndJSON{Lexicon: t.lexName(), Rack: t.rack.String(), Players: t.players(),
			Scores: t.pos.Scores[:t.players()], Valuation: "static", Note: note, Moves: make([]moveJSON, len(ms))}
		for i := range ms {
			out.Moves[i] = move.Describe(&t.pos.Board, t.rack, &ms[i])
		}
		return json.NewEncoder(a.stdout).Encode(out)
	}
	if asJSN {
		return writeMovesJSON(a.stdout, &t.pos.Board, t.rack, ms)
	}
	out := make([]moveJSON, len(ms))
	for i := range ms {
		out[i] = move.Describe(&t.pos.Board, t.rack, &ms[i])
	}
	w := a.stdout
	fmt.Fprintf(w, "Rack %s, lexicon %s: %s\n", t.rack, t.lexName(), c.String())
	if note != "" {
		fmt.Fprintln(w, note)
	}
	fmt.Fprintln(w)
	if c.plays == 0 {
		if rules.CanExchange(t.bag) {
			fmt.Fprintf(w, "No play: exchange or pass (the bag holds %s).\n", plural(t.bag, "tile"))
		} else {
			fmt.Fprintf(w, "No play: pass (the bag holds %s, too few to exchange).\n", plural(t.bag, "tile"))
		}
	}
	if len(out) == 0 {
		return nil // an empty rack
	}
	b := out[0]
	l := b.Leave
	if l == "" {
		l = "-"
	}
	switch b.Kind {
	case "play":
		fmt.Fprintf(w, "Best play: %s  %d points, equity %.1f\n", b.Move, b.Score, b.Equity)
		fmt.Fprintf(w, "  words:   %s\n", strings.Join(b.Words, ", "))
	case "exchange":
		fmt.Fprintf(w, "Best move: %s (exchange %s)  %d points, equity %.1f\n", b.Move, b.Tiles, b.Score, b.Equity)
	default:
		fmt.Fprintf(w, "Best move: %s (pass)  %d points, equity %.1f\n", b.Move, b.Score, b.Equity)
	}
	fmt.Fprintf(w, "  leave:   %s\n", l)
	if len(out) == 1 {
		return nil
	}
	fmt.Fprintln(w, "\nRunners-up:")
	return writeMovesTable(w, out[1:], 2)
}
