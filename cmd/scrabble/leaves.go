package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"

	"github.com/spf13/cobra"

	"scrabble/eval"
	"scrabble/internal/runrecord"
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
	cmd.AddCommand(newLeavesTrainCmd(a), newLeavesCSVCmd(a), newLeavesConvertCmd(a), newLeavesMergeCmd(a))
	cmd.PersistentFlags().Bool("allow-partial", false, "take a leave CSV that does not list every leave (those left out are worth 0)")
	return cmd
}

// loadLeaveFile loads the leave table in path (binary, compressed binary
// or CSV). A CSV that does not list every leave is refused, naming the file
// and how many are missing, unless partial (the flag named) allows it.
func loadLeaveFile(path string, partial bool, flag string) (*eval.LeaveTable, error) {
	load := eval.LoadAny
	if partial {
		load = eval.LoadAnyPartial
	}
	t, err := load(path)
	return t, partialHint(err, flag)
}

// partialHint adds to a refusal of a partial leave CSV the flag that takes
// it.
func partialHint(err error, flag string) error {
	var missing *eval.MissingLeavesError
	if errors.As(err, &missing) {
		return fmt.Errorf("%w; give --%s to take it, the missing leaves worth 0", err, flag)
	}
	return err
}

// allowPartial reads the leaves command's --allow-partial.
func allowPartial(cmd *cobra.Command) bool {
	v, _ := cmd.Flags().GetBool("allow-partial")
	return v
}

// trainChunk is how many games are played between checkpoints: an
// interrupted run loses at most the chunk in progress. (A variable so that
// tests can checkpoint a short run.)
var trainChunk = 500

func newLeavesTrainCmd(a *app) *cobra.Command {
	var (
		games, generations, prior int
		out, from, observe        string
		shardText                 string
		generation, chunk         int
		resume                    bool
		q                         trainQueueFlags
	)
	cmd := &cobra.Command{
		Use:         "train --games N --out FILE",
		Annotations: interruptible(),
		Short:       "Learn leave values from self-play",
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
values whatever --threads.

--queue nats://HOST:4222 plays the run on 'scrabble worker's on any machines
instead, over a NATS JetStream work queue, generation by generation: each
generation is cut into --items work items (shards of its chunks, which the
workers play with the values of the generation before), and when every
item's counts are in, they are added up into the generation's values, and
the next generation is published. FILE.train/ then holds what a run on one
machine writes there, byte for byte, and FILE is the same file. --resume
continues such a run: generations done are kept, and so are the counts of
the items stored. docs/distributed.md describes it.`,
		Example: `  scrabble --lexicon NWL23 leaves train --games 20000 --generations 4 --out nwl23.leaves
  scrabble --lexicon CSW24 leaves train --games 50000 --generations 3 --seed 9 --out csw24.leaves --resume
  scrabble --lexicon NWL23 leaves train --games 200000 --generations 4 --queue nats://queue.example:4222 --out nwl23.leaves`,
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
			var shard selfplay.Shard
			switch {
			case shardText != "":
				var err error
				if shard, err = selfplay.ParseShard(shardText); err != nil {
					return usagef("--shard: %v", err)
				}
				if generation < 1 || cmd.Flags().Changed("generations") {
					return usagef("--shard plays one generation: give --generation G (1 for the first), not --generations; --from is the values of generation G-1")
				}
			case cmd.Flags().Changed("generation"):
				return usagef("--generation is for a shard (--shard K/M)")
			}
			if chunk < 1 {
				return usagef("--chunk must be at least 1, not %d", chunk)
			}
			if q.url != "" {
				if err := q.check(cmd, out); err != nil {
					return err
				}
			}
			lex, seed, threads, err := a.lexiconSeedThreads(cmd)
			if err != nil {
				return err
			}
			work, lock, err := runrecord.WorkDir(out, resume)
			if err != nil {
				return err
			}
			defer lock.Release()
			var bar *gamesBar
			defer func() { bar.finish() }()
			var remote func(context.Context, int, *eval.LeaveTable, runrecord.Settings) (*eval.LeaveStats, error)
			var tq *trainQueue
			if q.url != "" {
				tq = &trainQueue{a: a, q: q, kind: "leaves train", work: work, games: games, chunk: chunk,
					args: []string{fmt.Sprintf("--games=%d", games), fmt.Sprintf("--seed=%d", seed), fmt.Sprintf("--prior=%d", prior),
						"--observe=" + observe, fmt.Sprintf("--chunk=%d", chunk)}}
				remote = func(ctx context.Context, g int, prev *eval.LeaveTable, shard runrecord.Settings) (*eval.LeaveStats, error) {
					parts, err := tq.play(ctx, g, shard, prev)
					if err != nil {
						return nil, err
					}
					stats, _, err := train.MergeLeaveStats(parts)
					return stats, err
				}
			}
			leaves, err := train.Leaves(cmd.Context(), train.LeavesConfig{Shard: shard, Generation: generation,
				Tables: a.tablesFor(lex, movegen.HugePages), Dir: work, Games: games, Generations: generations, Prior: prior, Seed: seed,
				Workers: threads, Observe: observe, From: from, AllowPartial: allowPartial(cmd), Chunk: chunk, Remote: remote,
				OnEvent: func(e train.Event) {
					switch e.Kind {
					case train.GenerationKept:
						fmt.Fprintf(a.stdout, "Generation %d: done earlier (%s)\n", e.Generation, e.Path)
					case train.Resumed:
						fmt.Fprintf(a.stdout, "Generation %d: resuming after %s\n", e.Generation, plural(e.Games, "game"))
					case train.Started:
						if tq == nil { // over the queue, the queue's bar
							bar = newGamesBar(a.stderr, fmt.Sprintf("generation %d", e.Generation), e.Games)
						}
					case train.Finished:
						bar.finish()
						where := ""
						if tq != nil {
							where = " over the queue"
						}
						fmt.Fprintf(a.stdout, "Generation %d: %s%s, %s turns observed, %s\n", e.Generation, plural(e.Games, "game"), where,
							thousands(int(e.Observations)), elapsed(e.Elapsed))
					}
				},
				Progress: func(_, done, total int) { bar.set(done, total) },
			})
			if tq != nil {
				defer func() { tq.close(err == nil) }()
			}
			if err != nil {
				bar.finish()
				var stopped *train.Interrupted
				if errors.As(err, &stopped) {
					if tq != nil {
						fmt.Fprintf(a.stderr, "scrabble: interrupted in generation %d; the parts stored are kept: continue with --resume (the workers go on meanwhile)\n", stopped.Generation)
						return exitStatus(130)
					}
					fmt.Fprintf(a.stderr, "scrabble: interrupted in generation %d; continue with --resume\n", stopped.Generation)
					return exitStatus(130)
				}
				return partialHint(err, "allow-partial")
			}
			if shard.M > 0 {
				fmt.Fprintf(a.stdout, "Shard %s of generation %d done: its counts are in %s; put the shards together with scrabble leaves merge --out FILE %s ...\n",
					shard, generation, work, work)
				return nil
			}
			if err := leaves.SaveAs(out); err != nil {
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
	f.StringVar(&shardText, "shard", "", "play only part K of M of one generation's chunks (K/M, with --generation), its counts kept in FILE.train/ for 'scrabble leaves merge'")
	f.IntVar(&generation, "generation", 0, "with --shard: the generation the shard plays (--from: the values of the one before)")
	f.IntVar(&chunk, "chunk", trainChunk, "games between checkpoints, and the unit shards and items are cut in")
	f.MarkHidden("chunk") // for tests of short runs
	addTrainQueueFlags(f, &q)
	f.Uint64("seed", 1, "base seed")
	addThreadsFlag(f, runtime.NumCPU(), "games played in parallel", true)
	return cmd
}

func newLeavesMergeCmd(a *app) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge --out FILE SHARD_DIR...",
		Short: "Put the shards of one generation of leave training together (leaves train --shard K/M)",
		Long: `Add up the counts of the shards of one generation of a leave-training run,
each played with 'scrabble leaves train --shard K/M --generation G --out PART'
on any machine (its counts in PART.train/), and write the generation's values
to FILE: those one machine playing the generation computes, byte for byte
(the counts are integers). FILE is then --from for generation G+1's shards.
The shards must be 1 to M of the same generation of the same run (lexicon,
--seed, --games, --prior, --observe, --from), each once and finished.`,
		Example: `  scrabble --lexicon NWL23 leaves train --games 20000 --shard 1/2 --generation 1 --out g1a   # machine 1
  scrabble --lexicon NWL23 leaves train --games 20000 --shard 2/2 --generation 1 --out g1b   # machine 2
  scrabble leaves merge --out gen1.leaves g1a.train g1b.train
  scrabble --lexicon NWL23 leaves train --games 20000 --shard 1/2 --generation 2 --from gen1.leaves --out g2a`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			if out == "" {
				return usagef("--out FILE is required")
			}
			table, st, err := train.MergeLeaveShards(dirs)
			if err != nil {
				return err
			}
			if err := table.SaveAs(out); err != nil {
				return err
			}
			g, _ := st.Get("generation")
			fmt.Fprintf(a.stdout, "Wrote %s (generation %s from %s)\n", out, g, plural(len(dirs), "shard"))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "FILE for the generation's leave values (.csv: CSV, .gz: compressed)")
	return cmd
}

func newLeavesCSVCmd(a *app) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "csv FILE",
		Short: "Print a leave table as CSV (leave,value)",
		Long: `Print the leave table in FILE (binary or CSV) as CSV: one line "leave,value"
per leave, letters sorted with ? for a blank, value in points. Leaves worth 0
are left out unless --all is given: only the output of --all loads back as a
table without --allow-partial.`,
		Example: `  scrabble leaves csv nwl23.leaves > nwl23.csv
  scrabble leaves csv nwl23.leaves | grep -E '^(S|\?|Q),'`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			table, err := loadLeaveFile(argv[0], allowPartial(cmd), "allow-partial")
			if err != nil {
				return err
			}
			return table.WriteCSV(a.stdout, !all)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "list leaves worth 0 too")
	return cmd
}

func newLeavesConvertCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "convert IN OUT",
		Short: "Convert a leave table between binary, CSV and compressed binary",
		Long: `Read the leave table IN (binary, compressed binary or CSV) and write it to
OUT in the form OUT's name gives: .csv for CSV (every leave, those worth 0
too), .gz for gzip-compressed binary, anything else binary. OUT is written
atomically: if the write fails (a full disk), the old OUT is left as it was.
A CSV IN must list every leave of 1 to 6 tiles, or the command refuses it,
naming the file and how many are missing; --allow-partial takes it, the
missing leaves worth 0.`,
		Example: `  scrabble leaves convert nwl23.leaves nwl23.csv
  scrabble leaves convert edited.csv eval/data/NWL23.leaves`,
		Args: args(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			t, err := loadLeaveFile(argv[0], allowPartial(cmd), "allow-partial")
			if err != nil {
				return err
			}
			return t.SaveAs(argv[1])
		},
	}
}
