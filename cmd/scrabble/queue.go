package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"scrabble/internal/atomicfile"
	"scrabble/internal/readlimit"
	"scrabble/internal/runrecord"
	"scrabble/queue"
	"scrabble/selfplay"
)

// queueFlags are selfplay's flags of a run over a NATS JetStream queue.
type queueFlags struct {
	url         string
	ackWait     time.Duration
	connectWait time.Duration
}

func addQueueFlags(f *pflag.FlagSet, q *queueFlags) {
	f.StringVar(&q.url, "queue", "", "coordinate the run over the NATS JetStream server at URL (nats://HOST:4222): publish its games as --shards items for 'scrabble worker's and collect their results into --out")
	f.DurationVar(&q.ackWait, "ack-wait", 30*time.Second, "with --queue: how long a worker that stops answering keeps an item before it goes to another")
	f.DurationVar(&q.connectWait, "connect-wait", time.Minute, "with --queue: how long to keep trying a server that cannot be reached at the start")
}

// check says what is wrong with the flags, before anything is written.
func (q *queueFlags) check() error {
	if q.ackWait < time.Second {
		return usagef("--ack-wait must be at least 1s, not %s", q.ackWait)
	}
	if q.connectWait < 0 {
		return usagef("--connect-wait must not be negative")
	}
	return nil
}

// queueRunFlags are the flags of selfplay that are not the run's settings:
// a worker plays its items with the others.
var queueRunFlags = []string{"out", "resume", "json", "threads", "queue", "ack-wait", "connect-wait", "shards", "shard", "shard-index", "seed", "games", "help"}

// runQueueCoordinator is selfplay --queue: the run's settings are recorded
// in cfg.Dir (locked by the caller); items cover its games in m shards.
func runQueueCoordinator(cmd *cobra.Command, a *app, cfg *selfplay.Config, q queueFlags, m int, asJSON bool) error {
	ctx := cmd.Context()
	out := cfg.Dir
	settings, err := os.ReadFile(filepath.Join(out, runrecord.SettingsFile))
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	rs, err := runrecord.ReadSettings(out)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	run := queue.RunID(settings)
	args := []string{fmt.Sprintf("--games=%d", cfg.Games), fmt.Sprintf("--seed=%d", cfg.Seed)}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		// The root's flags (--data-dir, --lexicon) are the worker's own.
		if !slices.Contains(queueRunFlags, f.Name) && cmd.InheritedFlags().Lookup(f.Name) == nil {
			args = append(args, fmt.Sprintf("--%s=%s", f.Name, f.Value.String()))
		}
	})
	lexName, _ := rs.Get("lexicon")
	lexSHA, _ := rs.Get("lexicon sha256")
	m = min(m, cfg.Games)
	items := make([]queue.Item, m)
	for k := range items {
		items[k] = queue.Item{Run: run, Build: buildID(), Lexicon: lexName, LexiconSHA256: lexSHA,
			Settings: settings, Args: args, Games: cfg.Games, Shard: k + 1, Shards: m}
	}

	resultsPath := filepath.Join(out, selfplay.ResultsFile)
	stored, err := readStored(resultsPath, cfg.Games)
	if err != nil {
		return err
	}
	results, err := os.OpenFile(resultsPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	defer results.Close()

	logf := func(format string, args ...any) {
		fmt.Fprintf(a.stderr, "scrabble: queue: "+format+"\n", args...)
	}
	nc, err := queue.Connect(ctx, q.url, "scrabble selfplay coordinator", q.connectWait, logf)
	if err != nil {
		return err
	}
	defer nc.Close()
	done := 0
	for _, s := range stored {
		if s {
			done++
		}
	}
	logf("run %s: %d of %s stored, the rest in %s of the queue at %s", run, done, plural(cfg.Games, "game"), plural(m, "item"), q.url)
	what := strings.Join(cfg.Players, " vs ")
	bar := newQueueBar(a.stderr, what, "games", cfg.Games, done)
	start := time.Now()
	c := &queue.Coordinator{
		Conn:    nc,
		Items:   items,
		Stored:  stored,
		AckWait: q.ackWait,
		Store: func(g *queue.Game) error {
			line, err := checkQueueResult(cfg, g)
			if err != nil {
				return fmt.Errorf("%w: %w", queue.ErrBadGame, err)
			}
			// The GCG file first: a game in the results file always has
			// its record.
			if err := atomicfile.Write(filepath.Join(out, selfplay.GCGName(g.Game)), atomicfile.Options{Perm: 0o644, Sync: true},
				func(w io.Writer) error { _, err := io.WriteString(w, g.GCG); return err }); err != nil {
				return fmt.Errorf("writing its GCG file: %w", err)
			}
			if _, err = results.Write(line); err != nil {
				return fmt.Errorf("appending to %s: %w", resultsPath, err)
			}
			return nil
		},
		Flush:    results.Sync,
		Progress: bar.set,
		Logf:     logf,
	}
	// A run resumed with more games is another run to the queue (its
	// settings, so its RunID, changed): the games the earlier one left in
	// its results stream are this run's games too (a game depends on the
	// settings but the game count, and its number), so they are taken,
	// and its streams removed.
	runFile := filepath.Join(out, queueRunFile)
	if data, err := os.ReadFile(runFile); err == nil {
		if old := strings.TrimSpace(string(data)); old != run && old != "" {
			taken, err := c.Adopt(ctx, old)
			if err != nil {
				bar.finish()
				return err
			}
			done += taken
			bar.set(done, 0)
			logf("the earlier run %s of %s (another game count): took %s it left in its results stream, and removed its streams", old, out, plural(taken, "game"))
		}
	}
	if err := atomicfile.Write(runFile, atomicfile.Options{Perm: 0o644, Sync: true},
		func(w io.Writer) error { _, err := io.WriteString(w, run+"\n"); return err }); err != nil {
		bar.finish()
		return fmt.Errorf("queue: %w", err)
	}
	st, err := c.Run(ctx)
	bar.finish()
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(a.stderr, "scrabble: interrupted with %d of %s stored; continue with --resume (the workers go on meanwhile)\n",
				done+st.Stored, plural(cfg.Games, "game"))
			return exitStatus(130)
		}
		return err
	}
	took := time.Since(start)
	if err := results.Close(); err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	// The summary is the finished run's, read back as a resume reads it
	// (which checks every line), in game order.
	whole := *cfg
	whole.Resume, whole.Progress, whole.Workers = true, nil, 1
	s, err := selfplay.Run(ctx, whole)
	if err != nil {
		return err
	}
	s.Played, s.Seconds = st.Stored, took.Seconds()
	s.GamesPerSecond = 0
	if s.Seconds > 0 {
		s.GamesPerSecond = float64(st.Stored) / s.Seconds
	}
	if asJSON {
		data, err := json.Marshal(selfplayJSON{Summary: s, Lexicon: lexName, Seed: cfg.Seed, Pairs: cfg.Pairs,
			Tiebreak: cfg.Rules.Tiebreak.String(), TargetScore: cfg.Rules.TargetScore, Threads: st.Workers, Workers: st.Workers})
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "%s\n", data)
		return nil
	}
	return writeSummaryOn(a.stdout, s, cfg, fmt.Sprintf("by %s over the queue (%d duplicates dropped)", plural(st.Workers, "worker"), st.Duplicates))
}

// checkQueueResult checks a game from a worker is the run's game g.Game,
// and returns its results line.
func checkQueueResult(cfg *selfplay.Config, g *queue.Game) ([]byte, error) {
	line := []byte(strings.TrimSpace(g.Result))
	if len(line) > readlimit.ResultsLine || bytes.ContainsRune(line, '\n') {
		return nil, errors.New("not a results line")
	}
	var r selfplay.GameResult
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("its result: %w", err)
	}
	np := len(cfg.Players)
	switch {
	case r.Game != g.Game:
		return nil, fmt.Errorf("its result is game %d's", r.Game)
	case !slices.Equal(r.Players, cfg.Players):
		return nil, fmt.Errorf("played by %s, not %s", strings.Join(r.Players, ", "), strings.Join(cfg.Players, ", "))
	case r.Seed != selfplay.GameSeed(cfg.Seed, r.Game, np, cfg.Pairs) || r.First != selfplay.FirstPlayer(r.Game, np)+1:
		return nil, errors.New("played with another seed or seating")
	case !strings.HasPrefix(g.GCG, "#"):
		return nil, errors.New("its GCG file is not one")
	}
	return append(line, '\n'), nil
}

// queueRunFile, in a coordinator's directory, holds the RunID of the run it
// collects, so that a coordinator resumed with more games finds the
// earlier run's streams.
const queueRunFile = "queue.run"

// readStored reads which games a coordinator's results file holds; a last
// line cut short (the coordinator killed while writing it) is removed.
func readStored(path string, games int) ([]bool, error) {
	stored := make([]bool, games)
	data, err := readlimit.ReadFile(path, readlimit.Results, "a results file")
	if errors.Is(err, os.ErrNotExist) {
		return stored, nil
	}
	if err != nil {
		return nil, err
	}
	good := 0
	for n := 1; good < len(data); n++ {
		nl := bytes.IndexByte(data[good:], '\n')
		if nl < 0 {
			break
		}
		text := bytes.TrimSpace(data[good : good+nl])
		good += nl + 1
		if len(text) == 0 {
			continue
		}
		var r struct {
			Game *int `json:"game"`
		}
		if err := json.Unmarshal(text, &r); err != nil || r.Game == nil {
			return nil, fmt.Errorf("%s, line %d: not a game's result", path, n)
		}
		switch i := *r.Game; {
		case i < 0 || i >= games:
			return nil, fmt.Errorf("%s, line %d: game %d is beyond the %d games asked for", path, n, i, games)
		case stored[i]:
			return nil, fmt.Errorf("%s, line %d: game %d appears twice", path, n, i)
		default:
			stored[i] = true
		}
	}
	if good < len(data) {
		if err := os.Truncate(path, int64(good)); err != nil {
			return nil, err
		}
	}
	return stored, nil
}

// queueBar shows the games (or parts) stored, their rate and the workers seen: a
// progress bar on a terminal, elsewhere nothing.
type queueBar struct {
	bar  *progressbar.ProgressBar
	what string
}

func newQueueBar(w io.Writer, what, unit string, total, done int) *queueBar {
	if !isTerminal(w) {
		return &queueBar{}
	}
	b := &queueBar{what: what, bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what+", 0 workers"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
	b.bar.Set(done)
	return b
}

func (b *queueBar) set(done, workers int) {
	if b.bar != nil {
		b.bar.Describe(fmt.Sprintf("%s, %s", b.what, plural(workers, "worker")))
		b.bar.Set(done)
	}
}

func (b *queueBar) finish() {
	if b.bar != nil {
		if !b.bar.IsFinished() {
			b.bar.Clear()
		}
		b.bar.Exit()
		b.bar = nil
	}
}
