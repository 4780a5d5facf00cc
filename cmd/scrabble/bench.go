package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"scrabble/eval"
	"scrabble/internal/benchset"
	"scrabble/internal/crash"
	"scrabble/internal/readlimit"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// maxPresetGenerators is the most generators bench movegen sets up
// before the timing, one per position and thread.
const maxPresetGenerators = 4096

func newBenchCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the engine's throughput",
		Long: `Measure the engine's throughput on realistic positions: the committed set
(every turn of 12 seeded NWL23 games) or a file of your own.`,
		Example: `  scrabble bench movegen
  scrabble --lexicon NWL23 bench movegen --mode best --threads 4 --duration 10s`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newBenchMovegenCmd(a))
	return cmd
}

// playCounter counts the plays it is handed.
type playCounter struct{ n int }

func (c *playCounter) Record(*move.Move) { c.n++ }

func newBenchMovegenCmd(a *app) *cobra.Command {
	var (
		file, mode string
		threads    int
		duration   time.Duration
	)
	cmd := &cobra.Command{
		Use:   "movegen",
		Short: "Measure move-generation throughput (positions/s, plays/s)",
		Long: `Run the move generator over a set of positions, again and again for
--duration, and print positions/s (and plays/s in mode all).

The set is the committed benchmark positions (internal/benchset/positions.cgp,
278 positions from NWL23 games), or --positions FILE: one CGP position a line
with the rack of the player to move ('#' comments and blank lines skipped).

--mode all generates and scores every play, counting them; --mode best finds
only the highest-scoring one (the shadow-pruned search); --mode equity finds
the highest-equity move as the equity player does (score plus the built-in
leave values of the lexicon; exchanges and the pass too, the bag being the
unseen tiles less the opponent's rack). Each position's board is set up once,
and the search's shared tables built, before the clock starts, as 'go test
-bench' does in benchmarks/.
--threads K runs K goroutines, each with its own generators, taking the
positions in turn; the figures are the total throughput.

The lexicon is --lexicon, else the positions' lex opcode if installed (NWL23
for the committed set), else the default lexicon.`,
		Example: `  scrabble bench movegen
  scrabble --lexicon NWL23 bench movegen --mode best --duration 10s
  scrabble --lexicon NWL23 bench movegen --mode equity
  scrabble bench movegen --positions my-positions.cgp --threads 4`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if mode != "all" && mode != "best" && mode != "equity" {
				return usagef("--mode must be all, best or equity, not %q", mode)
			}
			if threads < 1 {
				return usagef("--threads must be at least 1, not %d", threads)
			}
			threads = capThreads(a.stderr, "--threads", threads)
			if duration <= 0 {
				return usagef("--duration must be positive, e.g. 5s, not %s", duration)
			}
			var (
				ps   []*position.Position
				err  error
				from = "committed set"
			)
			if file == "" {
				ps, err = benchset.Positions()
			} else {
				from = file
				var data []byte
				if data, err = readlimit.ReadFile(file, readlimit.Positions, "a positions file"); err != nil {
					return fmt.Errorf("reading positions: %w", err)
				}
				ps, err = benchset.Parse(file, data)
			}
			if err != nil {
				return err
			}
			if len(ps) == 0 {
				return fmt.Errorf("%s holds no positions (one CGP line per position)", from)
			}
			lexName := ps[0].Lexicon
			for i, p := range ps {
				if p.Racks[0].Count() == 0 {
					return fmt.Errorf("%s: position %d has no rack for the player to move", from, i+1)
				}
				if p.Lexicon != lexName {
					lexName = ""
				}
			}
			lex, err := a.positionLexicon(lexName)
			if err != nil {
				return err
			}

			// One generator per position and thread (a generator is not safe
			// for concurrent use), boards set up outside the timing.
			var table *eval.LeaveTable
			bags := make([]int, len(ps))
			valuers := make([]movegen.LeaveValuer, len(ps))
			if mode == "equity" {
				if table, err = eval.DefaultLeaves(lex.Header().Name); err != nil {
					return err
				}
				var leaves movegen.LeaveValuer
				if table != nil {
					leaves = table
				}
				for i, p := range ps {
					unseen, err := rules.Unseen(&p.Board, p.Racks[0])
					if err != nil {
						return fmt.Errorf("%s: position %d: %w", from, i+1, err)
					}
					bags[i] = max(0, unseen.Count()-rules.RackSize)
					valuers[i] = eval.Equity(leaves, bags[i], unseen)
				}
			}
			k := min(threads, len(ps))
			tables := a.tablesFor(lex, movegen.HugePages)
			// A generator per position and thread while that is a few
			// thousand at most; beyond, one generator a thread, its board
			// set inside the timing (a large file must not cost a
			// generator per line).
			preset := k*len(ps) <= maxPresetGenerators
			gens := make([][]*movegen.Generator, k)
			for w := range gens {
				if !preset {
					gens[w] = []*movegen.Generator{movegen.New(tables)}
					continue
				}
				gens[w] = make([]*movegen.Generator, len(ps))
				for i, p := range ps {
					gens[w][i] = movegen.New(tables)
					gens[w][i].SetBoard(&p.Board)
					gens[w][i].SetLeaves(valuers[i])
				}
			}
			// The first search builds the anagram index: not part of the
			// measure.
			tables.Prepare()
			fmt.Fprintf(a.stdout, "movegen, mode %s: %s (%s), lexicon %s, %s, %s\n",
				mode, plural(len(ps), "position"), from, lex.Header().Name, plural(k, "thread"), duration)
			fmt.Fprintf(a.stdout, "build: %s\n", buildTarget())
			if !preset {
				fmt.Fprintf(a.stdout, "(more than %s generators: one a thread, each position's board set up inside the timing)\n", thousands(maxPresetGenerators))
			}
			if mode == "equity" && table == nil {
				fmt.Fprintf(a.stdout, "(no built-in leave values for %s: equity is the score)\n", lex.Header().Name)
			}

			var stop atomic.Bool
			// Threads take positions in turn from one counter, so every
			// position is measured equally often whatever the thread count.
			var next atomic.Int64
			counts := make([]struct{ positions, plays int }, k)
			var g errgroup.Group
			start := time.Now()
			timer := time.AfterFunc(duration, func() { stop.Store(true) })
			defer timer.Stop()
			for w := range k {
				g.Go(func() (err error) {
					defer func() { // a bug: an error, not a goroutine dump
						if r := recover(); r != nil {
							stop.Store(true)
							err = crash.Error(r)
						}
					}()
					var c playCounter
					n := 0
					for !stop.Load() {
						i := int(next.Add(1)-1) % len(ps)
						gen := gens[w][0]
						if preset {
							gen = gens[w][i]
						} else {
							gen.SetBoard(&ps[i].Board)
							gen.SetLeaves(valuers[i])
						}
						switch mode {
						case "all":
							gen.GeneratePlays(&ps[i].Racks[0], &c)
						case "best":
							gen.ForgetRacks() // as on a new position
							gen.Best(&ps[i].Racks[0], 0, movegen.Options{})
						default:
							gen.ForgetRacks()
							gen.Best(&ps[i].Racks[0], bags[i], movegen.Options{Exchanges: true, Pass: true})
						}
						n++
					}
					counts[w].positions, counts[w].plays = n, c.n
					return nil
				})
			}
			if err := g.Wait(); err != nil {
				return err
			}
			took := time.Since(start)
			secs := took.Seconds()
			var positions, plays int
			for _, c := range counts {
				positions += c.positions
				plays += c.plays
			}
			w := a.stdout
			fmt.Fprintf(w, "%s in %s (%.1f passes over the set)\n",
				plural(positions, "position"), elapsed(took), float64(positions)/float64(len(ps)))
			fmt.Fprintf(w, "positions/s: %s\n", thousands(int(float64(positions)/secs)))
			if mode == "all" {
				fmt.Fprintf(w, "plays/s:     %s\n", thousands(int(float64(plays)/secs)))
				if positions > 0 {
					fmt.Fprintf(w, "plays/position: %.1f\n", float64(plays)/float64(positions))
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "positions", "", "file of CGP positions, one a line (default: the committed set)")
	f.StringVar(&mode, "mode", "all", "all: generate and count every play; best: keep only the top-scoring play; equity: the top-equity move")
	f.IntVarP(&threads, "threads", "j", 1, "goroutines, each with its own generators and share of the positions")
	f.DurationVarP(&duration, "duration", "d", 5*time.Second, "how long to run, e.g. 200ms, 5s, 1m")
	return cmd
}

// buildTarget names the toolchain and the code level the binary was built
// for (make builds x86-64-v3 code where the processor has it), so figures
// from two machines or builds can be told apart.
func buildTarget() string {
	target := fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if runtime.GOARCH != "amd64" {
		return target
	}
	level := "v1"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "GOAMD64" && s.Value != "" {
				level = s.Value
			}
		}
	}
	return target + " (GOAMD64=" + level + ")"
}
