package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/game"
	"scrabble/infer"
	"scrabble/internal/atomicfile"
	"scrabble/internal/runlock"
	"scrabble/internal/runrecord"
	"scrabble/movegen"
	"scrabble/peg"
	"scrabble/rules"
	"scrabble/selfplay"
)

// selfplayJSON is the --json output: the summary's fields and the run's
// settings.
type selfplayJSON struct {
	*selfplay.Summary
	Lexicon string `json:"lexicon"`
	Seed    uint64 `json:"seed"`
	Pairs   bool   `json:"pairs"`
	// The games' rules: the tiebreak, and the target score (omitted for
	// none).
	Tiebreak    string `json:"tiebreak"`
	TargetScore int    `json:"target_score,omitempty"`
	Threads     int    `json:"threads"`
	// Workers is Threads under its old name, kept for scripts that read it.
	Workers     int  `json:"workers"`
	Interrupted bool `json:"interrupted"`
}

func newSelfplayCmd(a *app) *cobra.Command {
	var (
		games              int
		p1, p2             string
		players            string
		endgameCaps        [2]time.Duration
		pegCaps            [2]time.Duration
		pegBags            [2]int
		pegInfer           [2]bool
		goArgs             [rules.MaxPlayers]string
		leaveFiles         [rules.MaxPlayers]string
		terms              [rules.MaxPlayers]string
		targetScore        int
		tiebreak           string
		challenge          string
		shardText          string
		shardIndex         int
		shardCount         int
		out                string
		pairs, resume      bool
		asJSON             bool
		allowPartialLeaves bool
		simFlags           [rules.MaxPlayers]*simPlayerFlags
		q                  queueFlags
	)
	var names []string
	for _, p := range selfplay.Players() {
		names = append(names, fmt.Sprintf("  %-8s %s", p.Name, p.Description))
	}
	cmd := &cobra.Command{
		Use:         "selfplay --games N [--p1 NAME --p2 NAME | --players NAME,NAME[,NAME[,NAME]]]",
		Annotations: interruptible(),
		Short:       "Play engine players against each other and summarize the results",
		Long: `Play --games complete games between player 1 (--p1) and player 2 (--p2),
or between the 2 to 4 players --players names (player 1 first), under the
NASPA rules and print a summary: wins, draws and losses, mean score and
spread with standard deviations, bingos and exchanges per game, and games
per second; for two players, player 1's win rate with its 95% confidence
interval (Wilson score interval, a draw counting half a win); for three or
four, each player's win share (a first place shared by k players counts 1/k
of a win), mean score, spread against the field (own score minus the mean of
the others') and finishing place with 95% intervals, and the win share and
mean score by place in the order of play.

Players:
` + strings.Join(names, "\n") + `
  external:'PROGRAM ARGS'
           a program speaking the engine protocol (docs/engine-protocol.md),
           such as external:'scrabble engine' or another build of this one;
           --p1-go/--p2-go say what it is asked each turn (go static, ...)
The full player, --p1-endgame and --p1-peg (the solvers) and --p1-infer
play two-player games only; the sim player's options (--p3-iterations ...)
and --p3-go are given per player as for players 1 and 2.

--p1-leaves to --p4-leaves give the equity player a leave table (binary,
compressed binary or CSV, as 'scrabble leaves' writes them); without one it
uses the engine's trained values for the lexicon (NWL and Collins lexica),
and "none" makes every leave worth 0.

--p1-terms to --p4-terms add equity terms to the equity player, each
name=weight (comma-separated); the leave values already hold what a leave is
worth on average, and a term adds what depends on the game at hand:
  balance=W  the vowel/consonant balance of the rack the leave will be drawn
             up to from the unseen tiles, against the same from a full bag:
             W points per unit of squared imbalance
  open=W     W points off a play for each triple-word square it opens to the
             opponent (a tile within 4 squares of one in its row or column,
             where there was none)
(docs/leaves.md: Equity terms, with what each was measured to be worth.)

Game i's tiles depend only on --seed and i, so the results do not depend on
--threads. Player k sits in seat k and play passes from seat to seat; the
first mover rotates: player 1 moves first in game 0, player N in game 1,
player N-1 in game 2 and so on (for two players: player 1 in even games,
player 2 in odd ones), so over any N games from a multiple of N every player
moves first, second, ... once. With --pairs those N games share a deal (for
two players: every deal is played twice, seats swapped).

--target-score N ends a game when a player has N or more at the end of a
turn (no end-of-game adjustments then). --tiebreak hasbro ranks players with
equal final scores by their scores before the end-of-game adjustments
(naspa, the default: a draw). --challenge RULE (double, NASPA's, the
default; single, void, 5pt or 10pt) is the challenge rule: the engine's
players never play phonies, but an external program may, and the other
players then challenge it off (taken back, the turn lost) under every rule
but void, where a phony is an error of its player.

--queue nats://HOST:4222 (with --out) plays the run on 'scrabble worker's
on any machines instead, over a NATS JetStream work queue: the games are cut
into --shards items (default: one per 50 games), and their results are
collected into --out as they arrive; --resume continues such a run too
(docs/distributed.md).

--out DIR writes DIR/results.jsonl (one JSON line per game, as games finish)
and every game as DIR/game-000123.gcg. Ctrl-C stops cleanly: games in
progress are abandoned, finished ones are kept and the summary so far is
printed (exit status 130); --resume continues from DIR/results.jsonl, with
the same players and settings.

--seed and --threads can also be set as seed and threads in the config file,
or SCRABBLE_SEED and SCRABBLE_THREADS (--workers, workers and
SCRABBLE_WORKERS, the old names of --threads, are still read).`,
		Example: `  scrabble --lexicon NWL23 selfplay --games 1000 --p1 equity --p2 score
  scrabble selfplay --games 2000 --pairs --p1-leaves leaves.csv --p2 equity --out runs/a
  scrabble selfplay --games 2000 --pairs --p1-leaves leaves.csv --p2 equity --out runs/a --resume
  scrabble selfplay --games 4000 --pairs --players equity,equity,equity,equity --p4-leaves none
  scrabble selfplay --games 300 --players equity,score,score --target-score 100 --tiebreak hasbro
  scrabble selfplay --games 200 --seed 7 --threads 4 --json`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if games < 1 {
				return usagef("--games must be at least 1, not %d", games)
			}
			if resume && out == "" {
				return usagef("--resume needs --out DIR: the directory of the run to continue")
			}
			seed, threads, err := a.seedAndThreads(cmd)
			if err != nil {
				return err
			}
			names, err := selfplayPlayers(cmd.Flags(), players, p1, p2)
			if err != nil {
				return err
			}
			np := len(names)
			if targetScore < 0 {
				return usagef("--target-score must be 0 (none) or more, not %d", targetScore)
			}
			tb, err := rules.ParseTiebreak(tiebreak)
			if err != nil {
				return usagef("--tiebreak: %v", err)
			}
			cr, err := rules.ParseChallengeRule(challenge)
			if err != nil {
				return usagef("--challenge: %v", err)
			}
			var shard selfplay.Shard
			fl := cmd.Flags()
			items := max(1, games/50) // a queue's items (--shards)
			if q.url != "" {
				if shardText != "" || fl.Changed("shard-index") || out == "" {
					return usagef("--queue needs --out DIR, where the results are collected, and takes --shards M (its items), not --shard")
				}
				if err := q.check(); err != nil {
					return err
				}
				if fl.Changed("shards") && shardCount < 1 {
					return usagef("--shards must be at least 1, not %d", shardCount)
				} else if fl.Changed("shards") {
					items = shardCount
				}
			} else if fl.Changed("shard-index") || fl.Changed("shards") {
				// A batch system's 0-based task index (Kubernetes'
				// JOB_COMPLETION_INDEX, Slurm's SLURM_ARRAY_TASK_ID).
				if shardText != "" || !fl.Changed("shard-index") || !fl.Changed("shards") {
					return usagef("--shard-index and --shards go together, instead of --shard K/M")
				}
				if shardCount < 1 || shardIndex < 0 || shardIndex >= shardCount {
					return usagef("--shard-index must be from 0 to --shards - 1 (%d), not %d", shardCount-1, shardIndex)
				}
				shardText = fmt.Sprintf("%d/%d", shardIndex+1, shardCount)
			}
			if shardText != "" {
				if shard, err = selfplay.ParseShard(shardText); err != nil {
					return usagef("--shard: %v", err)
				}
				if out == "" {
					return usagef("--shard needs --out DIR: a shard's results are merged from its directory (scrabble selfplay merge)")
				}
			}
			cfg := selfplay.Config{Players: names, Games: games, Seed: seed, Workers: threads,
				Rules: game.Rules{TargetScore: targetScore, Tiebreak: tb, Challenge: cr}, Pairs: pairs, Dir: out, Resume: resume, Shard: shard}
			// Per-player flags of players the run does not have.
			var absent error
			cmd.Flags().Visit(func(f *pflag.Flag) { // the flags given
				var k int
				if _, err := fmt.Sscanf(f.Name, "p%d-", &k); err == nil && k > np && absent == nil {
					absent = usagef("--%s: there is no player %d: the run has %d players", f.Name, k, np)
				}
			})
			if absent != nil {
				return absent
			}
			for i, file := range leaveFiles[:np] {
				if file == "" || file == "none" {
					continue
				}
				t, err := loadLeaveFile(file, allowPartialLeaves, "allow-partial-leaves")
				if err != nil {
					return err
				}
				cfg.Options[i].Leaves = t
			}
			for i, text := range terms[:np] {
				if cfg.Options[i].Terms, err = parseTermsFlag(fmt.Sprintf("p%d-terms", i+1), text); err != nil {
					return err
				}
			}
			for i, d := range endgameCaps {
				if d < 0 {
					return usagef("--p%d-endgame must not be negative", i+1)
				}
				cfg.Options[i].Endgame = d
			}
			for i, d := range pegCaps {
				if d < 0 {
					return usagef("--p%d-peg must not be negative", i+1)
				}
				cfg.Options[i].PEG = d
			}
			for i, n := range pegBags {
				if n < 1 || n > peg.MaxBag {
					return usagef("--p%d-peg-bag %d: want 1 to %d", i+1, n, peg.MaxBag)
				}
				cfg.Options[i].PEGBag = n
			}
			for i, on := range pegInfer {
				cfg.Options[i].PEGInfer = on
			}
			for i := range np {
				cfg.Options[i].Go, cfg.Options[i].EngineStderr = goArgs[i], a.stderr
				if cfg.Options[i].Sim, err = simFlags[i].options(cmd.Flags(), cfg.Players[i]); err != nil {
					return err
				}
				if simFlags[i].infer {
					cfg.Options[i].Infer = &infer.Options{}
				}
				if _, err := selfplay.NewPlayer(cfg.Players[i], cfg.Options[i]); err != nil {
					return usagef("%s: %v", playerFlag(players != "", i), err)
				}
				if err := selfplay.CheckSeats(cfg.Players[i], cfg.Options[i], np); err != nil {
					return usagef("%s (%s): %v", playerFlag(players != "", i), cfg.Players[i], err)
				}
			}
			lex, err := a.resolveLexicon(a.v.GetString("lexicon"))
			if err != nil {
				return err
			}
			// Huge pages pay for their set-up over a long run, not over a
			// game or two (see movegen.HugePages).
			mem := movegen.Mapped
			if games >= 100 {
				mem = movegen.HugePages
			}
			cfg.Tables = a.tablesFor(lex, mem)
			for i, file := range leaveFiles[:np] {
				if file != "" || (cfg.Players[i] != "equity" && cfg.Players[i] != "sim" && cfg.Players[i] != "full") {
					continue
				}
				// The engine's trained values for the lexicon, if any.
				t, err := eval.DefaultLeaves(cfg.Tables.Lexicon().Header().Name)
				if err != nil {
					return err
				}
				if t != nil {
					cfg.Options[i].Leaves = t
				}
			}
			if out != "" {
				// The lock is taken before the settings are recorded or
				// checked, and held until the run ends: a second run on
				// the directory is refused before it touches anything.
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				lock, err := runlock.Acquire(out)
				if err != nil {
					return err
				}
				defer lock.Release()
				// GCG files and settings half written when an earlier
				// run was killed.
				atomicfile.RemoveStale(out, atomicfile.RunPattern)
				if err := keepSelfplaySettings(&cfg, out, resume); err != nil {
					return err
				}
			}
			if q.url != "" {
				return runQueueCoordinator(cmd, a, &cfg, q, items, asJSON)
			}
			ctx := cmd.Context() // cancelled by Ctrl-C (see interruptible)
			lo, hi := shard.Range(games)
			bar := newGamesBar(a.stderr, strings.Join(names, " vs "), hi-lo)
			cfg.Progress = bar.set
			s, err := selfplay.Run(ctx, cfg)
			bar.finish()
			interrupted := err != nil && errors.Is(err, context.Canceled) && ctx.Err() != nil
			if err != nil && !interrupted {
				return err
			}
			if asJSON {
				data, err := json.Marshal(selfplayJSON{Summary: s, Lexicon: cfg.Tables.Lexicon().Header().Name,
					Seed: seed, Pairs: pairs, Tiebreak: tb.String(), TargetScore: targetScore, Threads: threads, Workers: threads, Interrupted: interrupted})
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", data)
			} else if err := writeSummary(a.stdout, s, &cfg); err != nil {
				return err
			}
			if interrupted {
				msg := fmt.Sprintf("interrupted after %s of %s", thousands(s.Games), plural(games, "game"))
				if out != "" {
					msg += "; continue with --resume"
				}
				fmt.Fprintf(a.stderr, "scrabble: %s\n", msg)
				return exitStatus(130)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&games, "games", 100, "number of games")
	f.StringVar(&p1, "p1", "equity", "player 1: "+playerNames())
	f.StringVar(&p2, "p2", "score", "player 2: "+playerNames())
	f.StringVar(&players, "players", "", fmt.Sprintf("the players, %d to %d names separated by commas, player 1 first (instead of --p1 and --p2): %s", rules.MinPlayers, rules.MaxPlayers, playerNames()))
	for i := range leaveFiles {
		f.StringVar(&leaveFiles[i], fmt.Sprintf("p%d-leaves", i+1), "", fmt.Sprintf("leave table FILE for player %d (default: the lexicon's trained values; none: zero)", i+1))
	}
	f.BoolVar(&allowPartialLeaves, "allow-partial-leaves", false, "take a --pN-leaves CSV that does not list every leave (those left out are worth 0)")
	for i := range terms {
		f.StringVar(&terms[i], fmt.Sprintf("p%d-terms", i+1), "", fmt.Sprintf("player %d's ", i+1)+termsFlagUsage)
	}
	f.IntVar(&targetScore, "target-score", 0, "end each game when a player reaches this score at the end of a turn (0: no target)")
	f.StringVar(&challenge, "challenge", rules.ChallengeDouble.String(), "the challenge rule: double (NASPA's), single, void, 5pt or 10pt (phonies are challenged off; under void a phony is an error)")
	f.StringVar(&tiebreak, "tiebreak", rules.TiebreakNASPA.String(), "equal final scores: naspa (a draw) or hasbro (the higher score before the end-of-game adjustments wins)")
	for i := range simFlags {
		simFlags[i] = addSimPlayerFlags(f, i+1)
	}
	for i := range endgameCaps {
		f.DurationVar(&endgameCaps[i], fmt.Sprintf("p%d-endgame", i+1), 0,
			fmt.Sprintf("player %d solves every bag-empty turn with the endgame solver, at most this long a move (e.g. 5s; 0: off; the full player: %v)", i+1, selfplay.FullEndgame))
	}
	for i := range pegCaps {
		f.DurationVar(&pegCaps[i], fmt.Sprintf("p%d-peg", i+1), 0,
			fmt.Sprintf("player %d solves every turn with 1 to --p%d-peg-bag tiles in the bag with the pre-endgame solver, at most this long a move (0: off; the full player: %v)", i+1, i+1, selfplay.FullPEG))
		f.BoolVar(&pegInfer[i], fmt.Sprintf("p%d-peg-infer", i+1), false,
			fmt.Sprintf("player %d weights its pre-endgames' draws by what the opponent's last move says they kept (scrabble infer)", i+1))
		f.IntVar(&pegBags[i], fmt.Sprintf("p%d-peg-bag", i+1), peg.MaxBag,
			fmt.Sprintf("with --p%d-peg: the most tiles in the bag for which the pre-endgame solver plays (1 to %d)", i+1, peg.MaxBag))
	}
	for i := range goArgs {
		f.StringVar(&goArgs[i], fmt.Sprintf("p%d-go", i+1), "",
			fmt.Sprintf("an external player %d's go command after \"go\", e.g. static or 'sim iterations 200' (default: the program's choice)", i+1))
	}
	f.Uint64("seed", 1, "base seed: game i's tiles depend on it and i only")
	addThreadsFlag(f, runtime.NumCPU(), "games played in parallel", true)
	f.StringVarP(&out, "out", "o", "", "directory for results.jsonl and the games' GCG files")
	f.IntVar(&shardIndex, "shard-index", 0, "with --shards M: play shard I+1 of M, I from 0 (a batch system's task index, e.g. $JOB_COMPLETION_INDEX)")
	f.IntVar(&shardCount, "shards", 0, "with --shard-index: the number of shards")
	f.StringVar(&shardText, "shard", "", "play only part K of M of the games (K/M, e.g. 2/8), into --out; put the parts together with 'scrabble selfplay merge'")
	f.BoolVar(&pairs, "pairs", false, "play every deal once per rotation of the seats (twice for two players, seats swapped)")
	f.BoolVar(&resume, "resume", false, "continue the run in --out, skipping finished games")
	f.BoolVar(&asJSON, "json", false, "print the summary as one JSON object")
	addQueueFlags(f, &q)
	cmd.AddCommand(newSelfplayMergeCmd(a))
	return cmd
}

// selfplayPlayers returns the names of the players: those of --players,
// or of --p1 and --p2 (which it may not be given with).
func selfplayPlayers(f *pflag.FlagSet, players, p1, p2 string) ([]string, error) {
	if players == "" {
		if f.Changed("players") {
			return nil, usagef("--players: no names: want %d to %d separated by commas, such as equity,equity,score", rules.MinPlayers, rules.MaxPlayers)
		}
		return []string{p1, p2}, nil
	}
	if f.Changed("p1") || f.Changed("p2") {
		return nil, usagef("--players names every player: give it or --p1 and --p2, not both")
	}
	names := strings.Split(players, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	if err := rules.CheckPlayers(len(names)); err != nil {
		return nil, usagef("--players %q: %v", players, err)
	}
	for i, n := range names {
		if n == "" {
			return nil, usagef("--players %q: player %d has no name", players, i+1)
		}
	}
	return names, nil
}

// playerFlag names the flag that chose player i: --players, or --p1/--p2.
func playerFlag(players bool, i int) string {
	if players {
		return fmt.Sprintf("--players: player %d", i+1)
	}
	return fmt.Sprintf("--p%d", i+1)
}

// keepSelfplaySettings records the settings of a run writing to dir (made
// and locked by the caller), or checks those of a resumed one. A resumed run may ask for more games than
// it began with: game i depends only on the seed and i, so the summary is
// that of one run of the new number.
func keepSelfplaySettings(cfg *selfplay.Config, dir string, resume bool) error {
	results, err := os.Stat(filepath.Join(dir, selfplay.ResultsFile))
	started := err == nil && results.Size() > 0
	s := runrecord.NewSettings("selfplay")
	s.AddLexicon(cfg.Tables.Lexicon())
	s.AddDefault("players", len(cfg.Players), 2)
	for i := range cfg.Players {
		p := fmt.Sprintf("p%d", i+1)
		s.Add(p, cfg.Players[i])
		leaves, _ := cfg.Options[i].Leaves.(*eval.LeaveTable)
		s.Add(p+"-leaves", runrecord.LeavesIdentity(leaves))
		s.Add(p+"-terms", termsSetting(cfg.Options[i].Terms))
		if d := cfg.Options[i].Endgame; d > 0 {
			s.Add(p+"-endgame", d)
		}
		if d := cfg.Options[i].PEG; d > 0 {
			s.Add(p+"-peg", d)
			s.Add(p+"-peg-bag", cfg.Options[i].PEGBag)
			if cfg.Options[i].PEGInfer {
				s.Add(p+"-peg-infer", true)
			}
		}
		if cfg.Players[i] == "sim" || cfg.Players[i] == "full" {
			o := cfg.Options[i].Sim
			s.Add(p+"-iterations", o.Iterations)
			s.Add(p+"-candidates", o.Candidates)
			s.Add(p+"-plies", o.Plies)
			if o.PlayOut > 0 {
				s.Add(p+"-play-out", o.PlayOut) // absent from runs begun before the option
			}
			s.Add(p+"-stop", stopSetting(o.Confidence))
			if cfg.Options[i].Infer != nil {
				s.Add(p+"-infer", true)
			}
			s.Add(p+"-rank", o.Rank.String())
			s.Add(p+"-sampling", o.Sampling.String())
		}
	}
	s.Add("seed", cfg.Seed)
	s.Add("pairs", cfg.Pairs)
	s.AddDefault("target-score", cfg.Rules.TargetScore, 0)
	s.AddDefault("tiebreak", cfg.Rules.Tiebreak, rules.TiebreakNASPA)
	s.AddDefault("challenge", cfg.Rules.Challenge, rules.ChallengeDouble)
	if cfg.Shard.M > 0 {
		// A shard's games are its range of the run's: a run of more
		// games would cut the shards elsewhere.
		s.Add("shard", cfg.Shard)
		s.Add("games", cfg.Games)
	} else {
		s.AddCount("games", cfg.Games)
	}
	return runrecord.Keep(dir, resume, started, s)
}

// termsSetting is the terms as recorded, "none" for none.
func termsSetting(t eval.Terms) string {
	if t.IsZero() {
		return "none"
	}
	return t.String()
}

// stopSetting is a --stop confidence as the flag takes it.
func stopSetting(confidence float64) string {
	if confidence == 0 {
		return "none"
	}
	return strconv.FormatFloat(100*confidence, 'f', -1, 64)
}

func playerNames() string {
	var ns []string
	for _, p := range selfplay.Players() {
		ns = append(ns, p.Name)
	}
	return strings.Join(ns, ", ")
}

// writeSummary prints the summary as a table: for two players the table
// of earlier versions, for more one with the win share, the spread against
// the field and the finishing place of each player, then the figures by
// seat.
func writeSummary(w io.Writer, s *selfplay.Summary, cfg *selfplay.Config) error {
	return writeSummaryOn(w, s, cfg, "on "+plural(cfg.Workers, "thread"))
}

// writeSummaryOn is writeSummary saying where the games were played.
func writeSummaryOn(w io.Writer, s *selfplay.Summary, cfg *selfplay.Config, where string) error {
	var head strings.Builder
	games := plural(s.Games, "game")
	if s.Games < s.Planned {
		games = fmt.Sprintf("%s of %s", thousands(s.Games), plural(s.Planned, "game"))
	}
	names := make([]string, len(s.Players))
	for i, p := range s.Players {
		names[i] = p.Name
	}
	fmt.Fprintf(&head, "%s: %s, lexicon %s, seed %d", strings.Join(names, " vs "),
		games, cfg.Tables.Lexicon().Header().Name, cfg.Seed)
	if cfg.Pairs {
		head.WriteString(", pairs")
	}
	if cfg.Rules.TargetScore > 0 {
		fmt.Fprintf(&head, ", target score %d", cfg.Rules.TargetScore)
	}
	if cfg.Rules.Tiebreak != rules.TiebreakNASPA {
		fmt.Fprintf(&head, ", tiebreak %s", cfg.Rules.Tiebreak)
	}
	for i, o := range cfg.Options[:len(s.Players)] {
		if !o.Terms.IsZero() {
			fmt.Fprintf(&head, "; player %d terms %s", i+1, o.Terms)
		}
		if o.Infer != nil {
			fmt.Fprintf(&head, "; player %d infers the opponent's rack", i+1)
		}
		if o.PEGInfer && o.PEG > 0 {
			fmt.Fprintf(&head, "; player %d weights its pre-endgames' draws by inference", i+1)
		}
	}
	fmt.Fprintln(w, head.String())
	resumed := ""
	if n := s.Games - s.Played; n > 0 {
		resumed = fmt.Sprintf(" (%s resumed)", thousands(n))
	}
	fmt.Fprintf(w, "Played %s in %s %s: %.1f games/s%s\n\n", plural(s.Played, "game"),
		elapsed(time.Duration(s.Seconds*float64(time.Second))), where, s.GamesPerSecond, resumed)
	return writeSummaryBody(w, s)
}

// writeSummaryBody is the summary's tables and figures, after its head.
func writeSummaryBody(w io.Writer, s *selfplay.Summary) error {
	if len(s.Players) > 2 {
		return writeFieldSummary(w, s)
	}

	rows := make([][]string, 2)
	for i, p := range s.Players {
		rows[i] = []string{
			fmt.Sprintf("%d %s", i+1, p.Name),
			thousands(p.Wins), thousands(p.Draws), thousands(p.Losses),
			fmt.Sprintf("%.1f (%.1f)", p.MeanScore, p.ScoreSD),
			fmt.Sprintf("%+.1f (%.1f)", p.MeanSpread, p.SpreadSD),
			fmt.Sprintf("%.2f", p.BingosPerGame),
			fmt.Sprintf("%.2f", p.ExchangesPerGame),
		}
	}
	if err := writeTable(w, []string{"PLAYER", "WINS", "DRAWS", "LOSSES", "SCORE (SD)", "SPREAD (SD)", "BINGOS/GAME", "EXCH/GAME"},
		[]bool{false, true, true, true, true, true, true, true}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nPlayer 1 win rate: %.1f%% (95%% CI %.1f%% to %.1f%%, Wilson score interval; a draw counts half)\n",
		100*s.WinRate, 100*s.WinRateCI95[0], 100*s.WinRateCI95[1])
	_, err := fmt.Fprintf(w, "Per game: %.2f bingos, %.2f exchanges, %.2f passes, %.1f turns; first mover's win rate %.1f%%\n",
		s.BingosPerGame, s.ExchangesPerGame, s.PassesPerGame, s.TurnsPerGame, 100*s.FirstWinRate)
	return err
}

// writeFieldSummary is the body of the summary of a game of three or four
// players.
func writeFieldSummary(w io.Writer, s *selfplay.Summary) error {
	ci := func(x [2]float64, format string) string {
		return fmt.Sprintf(format+" to "+format, x[0], x[1])
	}
	rows := make([][]string, len(s.Players))
	for i, p := range s.Players {
		rows[i] = []string{
			fmt.Sprintf("%d %s", i+1, p.Name),
			thousands(p.Wins), thousands(p.Draws), thousands(p.Losses),
			fmt.Sprintf("%.1f%% (%s)", 100*p.WinShare, ci([2]float64{100 * p.WinShareCI95[0], 100 * p.WinShareCI95[1]}, "%.1f")),
			fmt.Sprintf("%.1f (%s)", p.MeanScore, ci(p.ScoreCI95, "%.1f")),
			fmt.Sprintf("%+.1f (%s)", p.MeanSpread, ci(p.SpreadCI95, "%+.1f")),
			fmt.Sprintf("%.3f (%s)", p.MeanPlace, ci(p.PlaceCI95, "%.3f")),
			fmt.Sprintf("%.2f", p.BingosPerGame),
			fmt.Sprintf("%.2f", p.ExchangesPerGame),
		}
	}
	if err := writeTable(w, []string{"PLAYER", "WINS", "DRAWS", "LOSSES", "WIN SHARE (95% CI)", "SCORE (95% CI)", "SPREAD VS FIELD (95% CI)", "PLACE (95% CI)", "BINGOS/GAME", "EXCH/GAME"},
		[]bool{false, true, true, true, true, true, true, true, true, true}, rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	rows = make([][]string, len(s.Seats))
	for i, st := range s.Seats {
		rows[i] = []string{
			ordinal(i + 1),
			fmt.Sprintf("%.1f%% (%s)", 100*st.WinShare, ci([2]float64{100 * st.WinShareCI95[0], 100 * st.WinShareCI95[1]}, "%.1f")),
			fmt.Sprintf("%.1f (%s)", st.MeanScore, ci(st.ScoreCI95, "%.1f")),
			fmt.Sprintf("%.3f", st.MeanPlace),
		}
	}
	if err := writeTable(w, []string{"TO MOVE", "WIN SHARE (95% CI)", "SCORE (95% CI)", "PLACE"},
		[]bool{false, true, true, true}, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nA win share counts a first place shared by k players as 1/k of a win; the spread against the field is the score minus the mean of the others'; intervals are 95%% (Wilson score for the shares, normal for the means).\nPer game: %.2f bingos, %.2f exchanges, %.2f passes, %.1f turns\n",
		s.BingosPerGame, s.ExchangesPerGame, s.PassesPerGame, s.TurnsPerGame)
	return err
}

// ordinal is 1st, 2nd, 3rd or 4th.
func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// gamesBar shows the games finished: a progress bar on a terminal,
// elsewhere one line saying what is starting.
type gamesBar struct{ bar *progressbar.ProgressBar }

func newGamesBar(w io.Writer, what string, total int) *gamesBar {
	if !isTerminal(w) {
		fmt.Fprintf(w, "Playing %s (%s) ...\n", plural(total, "game"), what)
		return &gamesBar{}
	}
	return &gamesBar{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("games"),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// set and finish are no-ops on a nil bar, and finish on a finished one.
func (g *gamesBar) set(done, _ int) {
	if g != nil && g.bar != nil {
		g.bar.Set(done)
	}
}

// finish clears the bar (a finished one clears itself).
func (g *gamesBar) finish() {
	if g != nil && g.bar != nil {
		if !g.bar.IsFinished() {
			g.bar.Clear()
		}
		g.bar.Exit()
		g.bar = nil
	}
}

// lexiconSeedThreads is seedAndThreads for a command that plays games on
// the --lexicon it resolves.
func (a *app) lexiconSeedThreads(cmd *cobra.Command) (lex *gaddag.GADDAG, seed uint64, threads int, err error) {
	if seed, threads, err = a.seedAndThreads(cmd); err != nil {
		return nil, 0, 0, err
	}
	// A worker's lexicon, resolved once for its items (resolveLexicon).
	lex, err = a.resolveLexicon(a.v.GetString("lexicon"))
	return lex, seed, threads, err
}

// seedAndThreads reads the seed and threads settings of a command that has
// --seed and --threads flags: the seed from the flag, else SCRABBLE_SEED,
// else the config file, else the flag's default; the threads as a.threads.
func (a *app) seedAndThreads(cmd *cobra.Command) (seed uint64, threads int, err error) {
	if err := a.v.BindPFlag("seed", cmd.Flags().Lookup("seed")); err != nil {
		return 0, 0, err
	}
	seed, err = strconv.ParseUint(fmt.Sprint(a.v.Get("seed")), 10, 64)
	if err != nil {
		return 0, 0, usagef("seed %q is not a whole number from 0 to 2^64-1", fmt.Sprint(a.v.Get("seed")))
	}
	if threads, err = a.threads(cmd); err != nil {
		return 0, 0, err
	}
	return seed, threads, nil
}
