package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"scrabble/movegen"
	"scrabble/rules"
)

// counting passes moves on to a recorder, counting them.
type counting struct {
	rec movegen.Recorder
	n   int
}

func (c *counting) Record(m *movegen.Move) {
	c.n++
	if c.rec != nil {
		c.rec.Record(m)
	}
}

func newBestCmd(a *app) *cobra.Command {
	var (
		board, rack    string
		top            int
		simMode, asJSN bool
		termsText      string
		sf             *simFlags
	)
	cmd := &cobra.Command{
		Use:   "best --board FILE [--rack TILES]",
		Short: "Show the best play of a position and the runners-up",
		Long: `Find the best play for the rack on the board, and list the next best
(--top N runners-up, 5 by default, 0 for all). Best means highest equity: the score plus
the engine's trained value of the tiles kept (for NWL and Collins lexica;
score alone for others); with the bag empty, going out earns twice the
opponent's rack and tiles kept cost twice their value.

The board, rack and lexicon are taken as by 'scrabble moves': --board is a
15-line grid or one line of CGP ('-' reads standard input); a CGP position
with a rack needs no --rack; the lexicon is --lexicon, else the CGP's lex
opcode if installed, else the default lexicon.

When no play is possible it says whether exchanging is allowed (the bag holds
at least 7 tiles) or only passing is.

--sim ranks the best candidates by Monte Carlo simulation instead, with the
options of 'scrabble sim' (--plies, --iterations, --time, --threads,
--candidates, --stop, --seed; see 'scrabble sim --help'). --json prints the
moves as 'moves --json' does, or with --sim the simulation's JSON object.`,
		Example: `  scrabble best --board examples/pos.txt --rack AEINRST
  scrabble best --board examples/pos.cgp
  scrabble best --board examples/pos.cgp --rack QUIXOTE --top 10
  scrabble --lexicon NWL23 best --board game.cgp --top 0
  scrabble best --board examples/pos.txt --rack AEINRST --sim --iterations 2000 --threads 2
  scrabble best --board examples/pos.cgp --sim --time 10s --json`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if top < 0 {
				return usagef("--top must be 0 (all runners-up) or more, not %d", top)
			}
			if top == 0 {
				top = topLimit(top) - 1 // all; top+1 (with the best) stays in range
			}
			terms, err := parseTermsFlag("terms", termsText)
			if err != nil {
				return err
			}
			if simMode {
				if !terms.IsZero() {
					return usagef("--terms is for the static ranking: the simulation takes no equity terms")
				}
				return a.simulate(cmd, sf, board, rack, top+1, asJSN)
			}
			for _, name := range []string{"plies", "iterations", "time", "threads", "candidates", "stop", "seed"} {
				if cmd.Flags().Changed(name) {
					return usagef("--%s is a simulation option: add --sim", name)
				}
			}
			t, err := a.loadTurn(board, rack)
			if err != nil {
				return err
			}
			gen, err := t.generator(terms)
			if err != nil {
				return err
			}
			best := &movegen.TopN{N: top + 1, Better: movegen.ByEquity}
			c := counting{rec: best}
			gen.Generate(&t.rack, t.bag, movegen.Options{OpenCost: terms.OpenCost(t.bag)}, &c) // plays only
			w := a.stdout
			ms := best.Moves()
			out := make([]moveJSON, len(ms))
			for i := range ms {
				out[i] = movegen.Describe(&t.pos.Board, t.rack, &ms[i])
			}
			if asJSN {
				return writeMovesJSON(a.stdout, out)
			}
			fmt.Fprintf(w, "Rack %s, lexicon %s: %s\n\n", t.rack, t.lexName(), plural(c.n, "play"))
			if len(ms) == 0 {
				if rules.CanExchange(t.bag) {
					fmt.Fprintf(w, "No play: exchange or pass (the bag holds %s).\n", plural(t.bag, "tile"))
				} else {
					fmt.Fprintf(w, "No play: pass (the bag holds %s, too few to exchange).\n", plural(t.bag, "tile"))
				}
				return nil
			}
			b := out[0]
			l := b.Leave
			if l == "" {
				l = "-"
			}
			fmt.Fprintf(w, "Best play: %s  %d points, equity %.1f\n", b.Move, b.Score, b.Equity)
			fmt.Fprintf(w, "  words:   %s\n", strings.Join(b.Words, ", "))
			fmt.Fprintf(w, "  leave:   %s\n", l)
			if len(out) == 1 {
				return nil
			}
			fmt.Fprintln(w, "\nRunners-up:")
			return writeMovesTable(w, out[1:], 2)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP); '-' reads standard input")
	f.StringVarP(&rack, "rack", "r", "", "tiles on the rack, e.g. AEINRST or AEIRST? ('?' a blank); default: the CGP's rack")
	f.IntVarP(&top, "top", "n", 5, "how many runners-up to list (0: all)")
	f.BoolVar(&simMode, "sim", false, "rank the best candidates by Monte Carlo simulation (see 'scrabble sim')")
	f.BoolVar(&asJSN, "json", false, "print JSON (fields in README.md)")
	f.StringVar(&termsText, "terms", "", termsFlagUsage)
	sf = addSimFlags(f)
	return cmd
}
