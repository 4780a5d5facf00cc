package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/runrecord"
	"scrabble/movegen"
	"scrabble/selfplay"
	"scrabble/train"
)

func newWinpctCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "winpct",
		Short: "Learn and show the win-probability table (chance of winning by spread and tiles unseen)",
		Example: `  scrabble --lexicon NWL23 winpct train --games 50000 --out winpct.csv
  scrabble winpct show
  scrabble winpct show winpct.csv --spreads 0,10,50,100
  scrabble --lexicon NWL23 winpct check winpct.csv --games 5000 --seed 77`,
	}
	cmd.AddCommand(newWinpctTrainCmd(a), newWinpctShowCmd(a), newWinpctCheckCmd(a), newWinpctMergeCmd(a))
	return cmd
}

// winpctChunk is how many games are played between checkpoints. (A
// variable so that tests can checkpoint a short run.)
var winpctChunk = 500

func newWinpctTrainCmd(a *app) *cobra.Command {
	var (
		games     int
		out       string
		resume    bool
		shardText string
		chunk     int
		q         trainQueueFlags
	)
	cmd := &cobra.Command{
		Use:         "train --games N --out FILE",
		Annotations: interruptible(),
		Short:       "Learn the win-probability table from self-play",
		Long: `Play --games games between two equity players (the engine's trained leave
values for the lexicon), record at every turn the mover's lead, the tiles
they cannot see (bag plus the opponent's rack) and whether they went on to
win, and smooth those counts into a table of P(win | spread, unseen tiles):
symmetric (P(s, u) = 1 - P(-s, u)), never decreasing in the spread. docs/winpct.md
describes the method.

The run writes as it goes into FILE.train/: its settings (settings.json),
and every ` + strconv.Itoa(winpctChunk) + ` games the counts so far. Ctrl-C stops it; --resume
continues where it stopped, losing at most the games of the chunk in
progress. A resumed run must have the settings it began with (lexicon,
--seed, --games, and the built-in leave values its players use) or it stops,
naming the one that differs. The same --seed gives the same table whatever
--threads. FILE is a CSV table (see 'scrabble winpct show'); the engine's
built-in table is eval/data/winpct.csv.

--queue nats://HOST:4222 plays the run on 'scrabble worker's on any machines
instead, over a NATS JetStream work queue: the run is cut into --items work
items (shards of its chunks), and when every item's counts are in, they are
added up into the table: the table, and FILE.train/, are those of a run on
one machine, byte for byte. --resume continues such a run, keeping the
counts of the items stored. docs/distributed.md describes it.`,
		Example: `  scrabble --lexicon NWL23 winpct train --games 50000 --seed 2026 --out winpct.csv
  scrabble --lexicon NWL23 winpct train --games 50000 --seed 2026 --out winpct.csv --resume
  scrabble --lexicon NWL23 winpct train --games 1000000 --seed 2026 --queue nats://queue.example:4222 --out winpct.csv`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if games < 1 {
				return usagef("--games must be at least 1, not %d", games)
			}
			if out == "" {
				return usagef("--out FILE is required")
			}
			lex, seed, threads, err := a.lexiconSeedThreads(cmd)
			if err != nil {
				return err
			}
			var shard selfplay.Shard
			if shardText != "" {
				if shard, err = selfplay.ParseShard(shardText); err != nil {
					return usagef("--shard: %v", err)
				}
			}
			if chunk < 1 {
				return usagef("--chunk must be at least 1, not %d", chunk)
			}
			if q.url != "" {
				if err := q.check(cmd, out); err != nil {
					return err
				}
			}
			work, lock, err := runrecord.WorkDir(out, resume)
			if err != nil {
				return err
			}
			defer lock.Release()
			var remote func(context.Context, runrecord.Settings) (*eval.WinStats, error)
			var tq *trainQueue
			if q.url != "" {
				tq = &trainQueue{a: a, q: q, kind: "winpct train", work: work, games: games, chunk: chunk,
					args: []string{fmt.Sprintf("--games=%d", games), fmt.Sprintf("--seed=%d", seed), fmt.Sprintf("--chunk=%d", chunk)}}
				remote = func(ctx context.Context, shard runrecord.Settings) (*eval.WinStats, error) {
					parts, err := tq.play(ctx, 0, shard, nil)
					if err != nil {
						return nil, err
					}
					stats, _, err := train.MergeWinStats(parts)
					return stats, err
				}
			}
			var bar *gamesBar
			var took time.Duration
			table, observations, err := train.WinPct(cmd.Context(), train.WinPctConfig{
				Tables: a.tablesFor(lex, movegen.HugePages), Dir: work, Games: games, Seed: seed, Workers: threads, Chunk: chunk, Shard: shard,
				Remote: remote,
				OnEvent: func(e train.Event) {
					switch e.Kind {
					case train.Resumed:
						fmt.Fprintf(a.stdout, "Resuming after %s\n", plural(e.Games, "game"))
					case train.Started:
						if tq == nil { // over the queue, the queue's bar
							bar = newGamesBar(a.stderr, "win table", e.Games)
						}
					case train.Finished:
						bar.finish()
						took = e.Elapsed
					}
				},
				Progress: func(done, total int) { bar.set(done, total) },
			})
			bar.finish()
			if tq != nil {
				defer func() { tq.close(err == nil) }()
			}
			if err != nil {
				var stopped *train.Interrupted
				if errors.As(err, &stopped) {
					if tq != nil {
						fmt.Fprintf(a.stderr, "scrabble: interrupted; the parts stored are kept: continue with --resume (the workers go on meanwhile)\n")
						return exitStatus(130)
					}
					fmt.Fprintf(a.stderr, "scrabble: interrupted after %s; continue with --resume\n", plural(stopped.Games, "game"))
					return exitStatus(130)
				}
				return err
			}
			if shard.M > 0 {
				fmt.Fprintf(a.stdout, "Shard %s done: %s turns observed, %s; its counts are in %s: put the shards together with scrabble winpct merge --out FILE %s ...\n",
					shard, thousands(int(observations)), elapsed(took), work, work)
				return nil
			}
			if err := table.SaveCSV(out, winpctHeader(games, lex.Header().Name, seed, observations)); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "Wrote %s: %s, %s turns observed, %s\n", out, plural(games, "game"),
				thousands(int(observations)), elapsed(took))
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&games, "games", 50000, "self-play games to learn from")
	f.StringVarP(&out, "out", "o", "", "FILE for the table (CSV)")
	f.BoolVar(&resume, "resume", false, "continue the run in FILE.train/")
	f.StringVar(&shardText, "shard", "", "play only part K of M of the run's chunks (K/M), its counts kept in FILE.train/ for 'scrabble winpct merge'")
	f.IntVar(&chunk, "chunk", winpctChunk, "games between checkpoints, and the unit shards and items are cut in")
	f.MarkHidden("chunk") // for tests of short runs
	addTrainQueueFlags(f, &q)
	f.Uint64("seed", 1, "base seed")
	addThreadsFlag(f, runtime.NumCPU(), "games played in parallel", true)
	return cmd
}

// winpctHeader is the comment of a trained table's CSV file.
func winpctHeader(games int, lex string, seed uint64, observations int64) string {
	return fmt.Sprintf(
		"P(win | spread, unseen tiles) from %s of self-play (equity vs equity, lexicon %s, seed %d),\n"+
			"%s turns: scrabble --lexicon %s winpct train --games %d --seed %d\n"+
			"Rows: tiles unseen by the player to move; tempo: what being on move is worth, in points;\n"+
			"then P(win) in ten-thousandths of a lead (columns, points) with neither side on move:\n"+
			"symmetric (P(-s) = 1 - P(s)); the player to move wins with P(s + tempo).\n"+
			"Linear between columns; past the last column the last value holds.",
		plural(games, "game"), lex, seed, thousands(int(observations)), lex, games, seed)
}

func newWinpctMergeCmd(a *app) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge --out FILE SHARD_DIR...",
		Short: "Put the shards of a win-table training run together (winpct train --shard K/M)",
		Long: `Add up the counts of the shards of one win-table training run, each played
with 'scrabble winpct train --shard K/M --out PART' on any machine (its counts
in PART.train/), and write the table to FILE: the table one machine playing
the whole run writes, byte for byte (the counts are integers). The shards
must be 1 to M of the same run (lexicon, --seed, --games, leaves), each once
and finished (resume an unfinished one first).`,
		Example: `  scrabble --lexicon NWL23 winpct train --games 200000 --seed 9 --shard 1/2 --out part1   # machine 1
  scrabble --lexicon NWL23 winpct train --games 200000 --seed 9 --shard 2/2 --out part2   # machine 2
  scrabble winpct merge --out winpct.csv part1.train part2.train`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			if out == "" {
				return usagef("--out FILE is required")
			}
			table, observations, st, err := train.MergeWinShards(dirs)
			if err != nil {
				return err
			}
			get := func(name string) string { v, _ := st.Get(name); return v }
			games, _ := strconv.Atoi(get("games"))
			seed, _ := strconv.ParseUint(get("seed"), 10, 64)
			if err := table.SaveCSV(out, winpctHeader(games, get("lexicon"), seed, observations)); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "Wrote %s: %s from %s, %s turns observed\n", out, plural(games, "game"), plural(len(dirs), "shard"), thousands(int(observations)))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "FILE for the table (CSV)")
	return cmd
}

func newWinpctShowCmd(a *app) *cobra.Command {
	var (
		spreads, unseen string
		neutral         bool
	)
	cmd := &cobra.Command{
		Use:   "show [FILE]",
		Short: "Print chances of winning from the built-in table or FILE",
		Long: `Print the chance of winning, in percent, of the player to move for some
leads (--spreads, points ahead) and numbers of tiles they cannot see
(--unseen: bag plus the opponent's rack), from the engine's built-in table or
from FILE (a table 'winpct train' wrote), and the tempo: what being on move
is worth, in points. --neutral prints the stored symmetric table instead, the
chance of a lead with neither side on move.`,
		Example: `  scrabble winpct show
  scrabble winpct show winpct.csv --unseen 93,50,7 --spreads 0,5,10,20,50
  scrabble winpct show --neutral`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			table := eval.DefaultWinPct()
			if len(argv) == 1 {
				var err error
				if table, err = eval.LoadWinPct(argv[0]); err != nil {
					return err
				}
			}
			ss, err := intList("--spreads", spreads)
			if err != nil {
				return err
			}
			us, err := intList("--unseen", unseen)
			if err != nil {
				return err
			}
			for _, u := range us {
				if u < 0 || u > eval.MaxUnseen {
					return usagef("--unseen: %d tiles cannot be unseen: from 0 to %d (the 100 tiles less the rack of the player to move)", u, eval.MaxUnseen)
				}
			}
			header := []string{"UNSEEN", "TEMPO"}
			right := []bool{true, true}
			for _, s := range ss {
				header = append(header, fmt.Sprintf("%+d", s))
				right = append(right, true)
			}
			rows := make([][]string, len(us))
			for i, u := range us {
				rows[i] = []string{strconv.Itoa(u), fmt.Sprintf("%.1f", table.Tempo(u))}
				for _, s := range ss {
					p := table.ProbToMove(float64(s), u)
					if neutral {
						p = table.Prob(float64(s), u)
					}
					rows[i] = append(rows[i], fmt.Sprintf("%.1f", 100*p))
				}
			}
			if neutral {
				fmt.Fprintln(a.stdout, "Chance of winning (%), neither side on move, by lead in points (columns) and tiles unseen (rows):")
			} else {
				fmt.Fprintln(a.stdout, "Chance of winning (%) of the player to move by lead in points (columns) and tiles unseen (rows):")
			}
			return writeTable(a.stdout, header, right, rows)
		},
	}
	f := cmd.Flags()
	f.StringVar(&spreads, "spreads", "-50,-20,0,10,20,50,100,150", "comma-separated leads in points")
	f.StringVar(&unseen, "unseen", "93,80,60,40,20,10,7,3", "comma-separated numbers of unseen tiles")
	f.BoolVar(&neutral, "neutral", false, "print the symmetric table (neither side on move)")
	return cmd
}

// intList parses a comma-separated list of whole numbers.
func intList(flag, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, usagef("%s: %q is not a whole number", flag, f)
		}
		out = append(out, v)
	}
	return out, nil
}

func newWinpctCheckCmd(a *app) *cobra.Command {
	var games int
	cmd := &cobra.Command{
		Use:         "check [FILE] --games N",
		Annotations: interruptible(),
		Short:       "Check a win-probability table against new self-play games",
		Long: `Play --games games between two equity players (the engine's trained leave
values for the lexicon) and, at every turn, compare the chance of winning
the table (the built-in one, or FILE) gives the player to move with whether
they won (a draw counts half). Prints, by tenths of the prediction, how
many turns fell there, the mean prediction and the share won, and the
Brier score (mean squared error; always predicting 50% scores about 0.25).
Use a --seed other than the table's training seed, so the games are new.
The same --seed gives the same report whatever --threads.`,
		Example: `  scrabble --lexicon NWL23 winpct check --games 5000 --seed 77
  scrabble --lexicon NWL23 winpct check winpct.csv --games 5000 --seed 77`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if games < 1 {
				return usagef("--games must be at least 1, not %d", games)
			}
			table := eval.DefaultWinPct()
			if len(argv) == 1 {
				var err error
				if table, err = eval.LoadWinPct(argv[0]); err != nil {
					return err
				}
			}
			lex, seed, threads, err := a.lexiconSeedThreads(cmd)
			if err != nil {
				return err
			}
			cfg, err := train.EquityGames(a.tablesFor(lex, movegen.HugePages), threads)
			if err != nil {
				return err
			}
			cfg.Games, cfg.Seed = games, seed
			// Games finish in any order; their turns are added in game
			// order afterwards, so the sums do not depend on --threads.
			type turn struct {
				p    float64
				half int
			}
			turns := make([][]turn, games)
			cfg.OnGame = func(i int, rec *game.Record) {
				train.TurnOutcomes(rec, func(lead, unseen, half int) {
					turns[i] = append(turns[i], turn{table.ProbToMove(float64(lead), unseen), half})
				})
			}
			bar := newGamesBar(a.stderr, "win table check", games)
			cfg.Progress = func(d, _ int) { bar.set(d, games) }
			ctx := cmd.Context() // cancelled by Ctrl-C (see interruptible)
			_, err = selfplay.Run(ctx, cfg)
			bar.finish()
			if err != nil {
				if errors.Is(err, context.Canceled) && ctx.Err() != nil {
					return exitStatus(130)
				}
				return err
			}
			var c eval.WinCalibration
			for _, g := range turns {
				for _, t := range g {
					c.Add(t.p, t.half)
				}
			}
			fmt.Fprintf(a.stdout, "Chance of winning of the player to move, predicted and observed: %s (equity vs equity, lexicon %s, seed %d), %s turns\n",
				plural(games, "game"), lex.Header().Name, seed, thousands(int(c.N())))
			rows := [][]string{}
			for _, b := range c.Bins() {
				rows = append(rows, []string{fmt.Sprintf("%.0f-%.0f%%", 100*b.Low, 100*b.High), thousands(int(b.N)),
					fmt.Sprintf("%.1f", 100*b.Predicted), fmt.Sprintf("%.1f", 100*b.Outcome)})
			}
			if err := writeTable(a.stdout, []string{"PREDICTED", "TURNS", "MEAN PREDICTED %", "WON %"}, []bool{false, true, true, true}, rows); err != nil {
				return err
			}
			model, coin := c.Brier()
			fmt.Fprintf(a.stdout, "Brier score %.4f (always 50%%: %.4f)\n", model, coin)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&games, "games", 5000, "self-play games to check against")
	f.Uint64("seed", 77, "base seed (use one the table was not trained on)")
	addThreadsFlag(f, runtime.NumCPU(), "games played in parallel", true)
	return cmd
}
