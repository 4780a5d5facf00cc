package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/game"
	"scrabble/movegen"
	"scrabble/selfplay"
	"scrabble/train"
)

func newLeavesCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "leaves",
		Short: "Learn and convert leave values (what the tiles kept are worth)",
		Example: `  scrabble --lexicon NWL23 leaves train --games 20000 --generations 4 --out nwl23.leaves
  scrabble leaves csv nwl23.leaves > nwl23.csv`,
	}
	cmd.AddCommand(newLeavesTrainCmd(a), newLeavesCSVCmd(a), newLeavesConvertCmd(a))
	return cmd
}

// trainChunk is how many games are played between checkpoints: an
// interrupted run loses at most the chunk in progress. (A variable so that
// tests can checkpoint a short run.)
var trainChunk = 500

func newLeavesTrainCmd(a *app) *cobra.Command {
	var (
		games, generations, prior int
		out, from, observe        string
		resume                    bool
	)
	cmd := &cobra.Command{
		Use:   "train --games N --out FILE",
		Short: "Learn leave values from self-play",
		Long: `Learn leave values by self-play, starting from zero leaves (or from the
values in --from FILE, to train an existing table further). Each generation
plays --games games between two equity players using the previous
generation's values. For every turn played from a full rack with tiles
still to draw, every leave that rack holds (up to 126 of them) is credited
with what the move made was worth: its equity, the score plus the previous
generation's value of the tiles it kept. A leave's value is how far its mean
lies above the mean of all turns: what holding it is worth. (--observe next
credits only the leave kept, with the next turn's worth: one observation a
turn instead of up to 126, so rare leaves are seen far less.) A leave seen n
times keeps weight n against --prior for an estimate built from the tiles
and pairs of tiles it holds, so rare leaves lean on their parts.

The run writes as it goes into FILE.train/: every ` + strconv.Itoa(trainChunk) + ` games the statistics
of the generation so far (gen-G.stats), and each finished generation's
values (gen-G.leaves), with the --from values it began with (gen-0.leaves)
and its settings (settings.json). Ctrl-C stops it; --resume continues where
it stopped, losing at most the games of the chunk in progress. A resumed run
must have the settings it began with (lexicon, --seed, --games, --prior,
--observe, --from; --from may be left out) or it stops, naming the one that
differs; only --generations may grow, to train on from the last generation
(the result is that of one run of that many). The final values go to
FILE (binary; CSV if FILE ends in .csv, gzip-compressed binary if in .gz). The same --seed gives the same
values whatever --threads.`,
		Example: `  scrabble --lexicon NWL23 leaves train --games 20000 --generations 4 --out nwl23.leaves
  scrabble --lexicon CSW24 leaves train --games 50000 --generations 3 --seed 9 --out csw24.leaves --resume`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if games < 1 || generations < 1 {
				return usagef("--games and --generations must be at least 1")
			}
			if out == "" {
				return usagef("--out FILE is required")
			}
			if prior < 0 {
				return usagef("--prior must not be negative")
			}
			if observe != "rack" && observe != "next" {
				return usagef("--observe %q: want rack or next", observe)
			}
			lex, seed, threads, err := a.lexiconSeedThreads(cmd)
			if err != nil {
				return err
			}
			work, err := trainingDir(out, resume)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()

			t := trainer{a: a, work: work, games: games, prior: prior, seed: seed, threads: threads, observe: observe,
				cfg: selfplay.Config{Tables: movegen.NewTables(lex), Players: [2]string{"equity", "equity"}, Workers: threads}}
			leaves, err := t.startingValues(from, generations, lex)
			if err != nil {
				return err
			}
			for g := 1; g <= generations; g++ {
				if leaves, err = t.generation(ctx, g, leaves); err != nil {
					if errors.Is(err, context.Canceled) && ctx.Err() != nil {
						fmt.Fprintf(a.stderr, "scrabble: interrupted in generation %d; continue with --resume\n", g)
						return exitStatus(130)
					}
					return err
				}
			}
			if err := writeLeaves(leaves, out); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "Wrote %s (generation %d of %s, lexicon %s)\n", out, generations, work, lex.Header().Name)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&games, "games", 10000, "games per generation")
	f.IntVarP(&generations, "generations", "g", 3, "generations, each learning from the one before")
	f.IntVar(&prior, "prior", 100, "weight of the tile-and-pair model against a leave's observations")
	f.StringVarP(&out, "out", "o", "", "FILE for the final leave values (.csv: CSV, .gz: compressed)")
	f.BoolVar(&resume, "resume", false, "continue the run in FILE.train/")
	f.StringVar(&observe, "observe", "rack", "what a turn teaches: rack (every leave the rack held gets the move's equity) or next (the leave kept gets the next turn's)")
	f.StringVar(&from, "from", "", "leave table FILE the first generation plays with (default: zero leaves)")
	f.Uint64("seed", 1, "base seed")
	addThreadsFlag(f, runtime.NumCPU(), "games played in parallel", true)
	return cmd
}

type trainer struct {
	a                     *app
	work                  string
	games, prior, threads int
	observe               string
	seed                  uint64
	cfg                   selfplay.Config
}

// startingValues returns the values generation 1 plays with: nil (zero
// leaves), or those of from, kept in the run's directory as gen-0.leaves so
// that --resume goes on with them (a resumed run needs no --from). Before
// anything else is written it records the run's settings, or checks them
// against those of the run resumed: the values begun with are one of them.
func (t *trainer) startingValues(from string, generations int, lex *gaddag.GADDAG) (*eval.LeaveTable, error) {
	kept := filepath.Join(t.work, "gen-0.leaves")
	var start *eval.LeaveTable
	_, err := os.Stat(kept)
	hasKept := err == nil
	switch {
	case from != "":
		if start, err = eval.LoadAny(from); err != nil {
			return nil, err
		}
	case hasKept:
		if start, err = eval.LoadLeaves(kept); err != nil {
			return nil, err
		}
	}
	s := newRunSettings("leaves train")
	s.addLexicon(lex)
	s.add("seed", t.seed)
	s.add("games", t.games)
	s.add("prior", t.prior)
	s.add("observe", t.observe)
	s.add("from", leavesIdentity(start))
	// Generation g depends only on the settings and generation g-1, so a
	// run may be resumed to go on for more generations.
	s.addCount("generations", generations)
	// trainingDir has refused an earlier run without --resume.
	if err := keepSettings(t.work, true, startedIn(t.work), s); err != nil {
		return nil, err
	}
	if start != nil && !hasKept {
		if err := start.Save(kept); err != nil {
			return nil, err
		}
	}
	return start, nil
}

// generation plays (or resumes, or reads back) generation g, whose players
// use prev (nil: zero leaves), and returns its leave values.
func (t *trainer) generation(ctx context.Context, g int, prev *eval.LeaveTable) (*eval.LeaveTable, error) {
	done := filepath.Join(t.work, fmt.Sprintf("gen-%d.leaves", g))
	if table, err := eval.LoadLeaves(done); err == nil {
		fmt.Fprintf(t.a.stdout, "Generation %d: done earlier (%s)\n", g, done)
		return table, nil
	}
	stats, chunks, err := t.checkpoint(g)
	if err != nil {
		return nil, err
	}
	cfg := t.cfg
	for i := range cfg.Options {
		if prev != nil {
			cfg.Options[i].Leaves = prev
		}
	}
	total := (t.games + trainChunk - 1) / trainChunk
	bar := newGamesBar(t.a.stderr, fmt.Sprintf("generation %d", g), t.games)
	start := time.Now()
	for c := chunks; c < total; c++ {
		cfg.Games = min(trainChunk, t.games-c*trainChunk)
		// A chunk's games depend on the seed, the generation and the chunk.
		cfg.Seed = selfplay.GameSeed(t.seed, g<<20|c, false)
		base := c * trainChunk
		cfg.Progress = func(d, _ int) { bar.set(base+d, t.games) }
		var boot movegen.LeaveValuer
		if prev != nil {
			boot = prev
		}
		observe := train.ObserveRackLeaves
		if t.observe == "next" {
			observe = train.ObserveLeaves
		}
		cfg.OnGame = func(_ int, rec *game.Record) { observe(stats, rec, boot) }
		if _, err := selfplay.Run(ctx, cfg); err != nil {
			bar.finish()
			return nil, err
		}
		if err := t.saveCheckpoint(g, c+1, stats); err != nil {
			bar.finish()
			return nil, err
		}
	}
	bar.finish()
	table := stats.Table(t.prior)
	if err := table.Save(done); err != nil {
		return nil, err
	}
	fmt.Fprintf(t.a.stdout, "Generation %d: %s, %s turns observed, %s\n", g, plural(t.games, "game"),
		thousands(int(stats.Observations())), elapsed(time.Since(start)))
	return table, nil
}

// checkpoint returns generation g's statistics so far and the chunks they
// cover: the last checkpoint, or empty statistics.
func (t *trainer) checkpoint(g int) (*eval.LeaveStats, int, error) {
	last, c, err := lastCheckpoint(t.work, fmt.Sprintf("gen-%d.", g), ".stats")
	if err != nil {
		return nil, 0, err
	}
	if last == "" {
		return eval.NewLeaveStats(), 0, nil
	}
	stats, err := eval.LoadLeaveStats(last)
	if err != nil {
		return nil, 0, err
	}
	fmt.Fprintf(t.a.stdout, "Generation %d: resuming after %s\n", g, plural(min(c*trainChunk, t.games), "game"))
	return stats, c, nil
}

// saveCheckpoint writes generation g's statistics after chunks chunks.
func (t *trainer) saveCheckpoint(g, chunks int, stats *eval.LeaveStats) error {
	return saveCheckpoint(t.work, fmt.Sprintf("gen-%d.", g), ".stats", chunks, stats.Save)
}

func newLeavesCSVCmd(a *app) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "csv FILE",
		Short: "Print a leave table as CSV (leave,value)",
		Long: `Print the leave table in FILE (binary or CSV) as CSV: one line "leave,value"
per leave, letters sorted with ? for a blank, value in points. Leaves worth 0
are left out unless --all is given.`,
		Example: `  scrabble leaves csv nwl23.leaves > nwl23.csv
  scrabble leaves csv nwl23.leaves | grep -E '^(S|\?|Q),'`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			table, err := eval.LoadAny(argv[0])
			if err != nil {
				return err
			}
			return table.WriteCSV(a.stdout, !all)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "list leaves worth 0 too")
	return cmd
}

// writeLeaves writes a table in the form out's name asks for: CSV (.csv),
// gzip-compressed binary (.gz), else binary.
func writeLeaves(t *eval.LeaveTable, out string) error {
	if !strings.HasSuffix(out, ".csv") && !strings.HasSuffix(out, ".gz") {
		return t.Save(out)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	var werr error
	if strings.HasSuffix(out, ".csv") {
		werr = t.WriteCSV(f, true)
	} else {
		werr = t.SaveGzip(f)
	}
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	return nil
}

func newLeavesConvertCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "convert IN OUT",
		Short: "Convert a leave table between binary, CSV and compressed binary",
		Long: `Read the leave table IN (binary, compressed binary or CSV) and write it to
OUT in the form OUT's name gives: .csv for CSV, .gz for gzip-compressed
binary, anything else binary.`,
		Example: `  scrabble leaves convert nwl23.leaves nwl23.csv
  scrabble leaves convert edited.csv eval/data/NWL23.leaves.gz`,
		Args: args(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			t, err := eval.LoadAny(argv[0])
			if err != nil {
				return err
			}
			return writeLeaves(t, argv[1])
		},
	}
}
