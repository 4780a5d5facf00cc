package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"scrabble/gaddag"
	"scrabble/internal/readlimit"
	"scrabble/internal/runlock"
	"scrabble/internal/runrecord"
	"scrabble/lexica"
	"scrabble/queue"
	"scrabble/selfplay"
)

// testWorkerHangEnv exists only for tests (TestQueue, TestQueueTrain): set
// to "1", a worker publishes the first game of its first item (a training
// item's part), says so on stderr and hangs there, holding the item
// unacknowledged, until it is killed; set to "before", it hangs in its first
// training item with the part put in the object store but not published.
// Never set it otherwise.
const testWorkerHangEnv = "SCRABBLE_TEST_WORKER_HANG"

func newWorkerCmd(a *app) *cobra.Command {
	var (
		url, id, workDir  string
		connectWait, idle time.Duration
	)
	cmd := &cobra.Command{
		Use:         "worker --queue nats://HOST:4222",
		Annotations: interruptible(),
		Short:       "Play the items of self-play and training runs coordinated over a NATS JetStream queue",
		Long: `worker takes work items from every run coordinated on the NATS server at
--queue (scrabble selfplay, leaves train or winpct train with --queue URL, on
any machine) and plays them, --threads games at once. A self-play item's
games are published one by one to the run's results stream, each game's
results line and GCG file. A training item is a shard of one generation:
the worker plays it with this build's train --shard K/M (a leave generation
with the values of the one before, which it takes from the run's object
store), puts the shard's counts in the object store and publishes a message
naming them. An item is acknowledged only when the server has stored all its
results: a worker killed in the middle of an item leaves it unacknowledged,
and the server gives it to another worker after the run's --ack-wait; the
coordinator keeps each game, and each part, once.

A worker refuses, saying why, an item of another build of scrabble (another
build may play other games), of a lexicon it does not have or whose word list
differs, of players it does not know, of a kind or with flags it does not
know, or whose settings it does not give (a --pN-leaves file missing or
different here): the item goes back to the queue for another worker, and
this one takes no more of that run for a while.

A server that cannot be reached at the start is tried again for
--connect-wait; one lost later is reconnected to, with backoff, for as long
as it takes. Ctrl-C stops the worker: the item in play goes back to the queue
at once.`,
		Example: `  scrabble worker --queue nats://queue.example:4222 --threads 8
  scrabble --data-dir /data worker --queue nats://queue.example:4222 --idle 10m`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if url == "" {
				return usagef("--queue URL is required: the NATS server of the runs (nats://HOST:4222)")
			}
			if connectWait < 0 || idle < 0 {
				return usagef("--connect-wait and --idle must not be negative")
			}
			threads, err := a.threads(cmd)
			if err != nil {
				return err
			}
			if workDir == "" {
				workDir = defaultWorkDir()
			}
			items, release, err := workerDir(workDir)
			if err != nil {
				return err
			}
			defer release()
			if id == "" {
				host, _ := os.Hostname()
				id = fmt.Sprintf("%s-%d", host, os.Getpid())
			}
			ctx := cmd.Context()
			logf := func(format string, args ...any) {
				fmt.Fprintf(a.stderr, "scrabble: worker %s: %s\n", id, fmt.Sprintf(format, args...))
			}
			nc, err := queue.Connect(ctx, url, "scrabble worker "+id, connectWait, logf)
			if err != nil {
				return err
			}
			defer nc.Close()
			js, err := jetstream.New(nc)
			if err != nil {
				return fmt.Errorf("queue: %w", err)
			}
			logf("connected to %s, %s", url, plural(threads, "thread"))
			w := &queue.Worker{Conn: nc, ID: id, Idle: idle, Logf: logf,
				Play: func(ctx context.Context, it *queue.Item, publish func(*queue.Game) error) error {
					return a.playItem(ctx, js, it, publish, threads, items, logf)
				}}
			err = w.Run(ctx)
			if err != nil && ctx.Err() != nil {
				logf("stopped")
				return nil
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&url, "queue", "", "the NATS server of the runs: nats://HOST:4222")
	addThreadsFlag(f, runtime.NumCPU(), "games played in parallel", false)
	f.StringVar(&id, "id", "", "the worker's name in the logs and the coordinator's count (default HOST-PID)")
	f.StringVar(&workDir, "work-dir", "", "directory for the items' games while they are played (default: /dev/shm where there is one, else the system's temporary directory)")
	f.DurationVar(&connectWait, "connect-wait", time.Minute, "how long to keep trying a server that cannot be reached at the start")
	f.DurationVar(&idle, "idle", 0, "stop when no item came for this long (0: never)")
	return cmd
}

// playItem plays an item's games with this build's selfplay, into a
// temporary directory, and publishes them; an item this worker cannot play
// as the run's coordinator would have is refused.
func (a *app) playItem(ctx context.Context, js jetstream.JetStream, it *queue.Item, publish func(*queue.Game) error, threads int, workDir string, logf func(string, ...any)) error {
	if b := buildID(); it.Build != b {
		return queue.Refusef("it is of another build (%s; this worker is %s), which may play other games", it.Build, b)
	}
	lex, err := a.resolveLexicon(it.Lexicon)
	if err != nil {
		return queue.Refusef("lexicon %s: %v", it.Lexicon, err)
	}
	itemLexica.Store(lexiconKey{a.reg, it.Lexicon}, lex)
	h := lex.Header()
	if sha := hex.EncodeToString(h.SourceSHA256[:]); sha != it.LexiconSHA256 {
		return queue.Refusef("lexicon %s here is another word list (sha256 %.12s..., the run's %.12s...)", it.Lexicon, sha, it.LexiconSHA256)
	}
	if it.Training() {
		return a.playTrainItem(ctx, js, it, publish, threads, workDir, logf)
	}
	var settings map[string]string
	if err := json.Unmarshal(it.Settings, &settings); err != nil {
		return queue.Refusef("its settings are not a run's: %v", err)
	}
	for k := 1; ; k++ {
		name, ok := settings[fmt.Sprintf("p%d", k)]
		if !ok {
			break
		}
		if !strings.HasPrefix(name, "external:") && !knownPlayer(name) {
			return queue.Refusef("player %d is %q, not a player of this build", k, name)
		}
	}

	tmp, err := os.MkdirTemp(workDir, "scrabble-item-")
	if err != nil {
		return fmt.Errorf("a directory for the item's games: %w", err)
	}
	defer os.RemoveAll(tmp)
	// This build's selfplay on the item's shard, as the coordinator's
	// machine would play it.
	wa := *a
	wa.stdout, wa.stderr = io.Discard, io.Discard
	wa.v.Set("lexicon", it.Lexicon)
	args := append(it.Args[:len(it.Args):len(it.Args)], "--shard", fmt.Sprintf("%d/%d", it.Shard, it.Shards), "--out", tmp, "--threads", fmt.Sprint(threads))
	if err := runItemCommand(ctx, newSelfplayCmd(&wa), args); err != nil {
		return err
	}
	got, err := runrecord.ReadSettings(tmp)
	if err != nil {
		return err
	}
	if mine, _ := got.Without("shard").MarshalJSON(); !bytes.Equal(mine, it.Settings) {
		return queue.Refusef("its settings are not the run's here: %s", settingsDiff(it.Settings, mine))
	}

	data, err := readlimit.ReadFile(filepath.Join(tmp, selfplay.ResultsFile), readlimit.Results, "a results file")
	if err != nil {
		return err
	}
	hang := os.Getenv(testWorkerHangEnv) == "1"
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct{ Game int }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return fmt.Errorf("the item's results: %w", err)
		}
		gcg, err := os.ReadFile(filepath.Join(tmp, selfplay.GCGName(r.Game)))
		if err != nil {
			return err
		}
		if err := publish(&queue.Game{Game: r.Game, Result: line, GCG: string(gcg)}); err != nil {
			return err
		}
		if hang {
			logf("hanging (%s)", testWorkerHangEnv)
			<-ctx.Done()
			return ctx.Err()
		}
	}
	return nil
}

// workerDir makes the worker's directory under workDir, where its items
// are played, locked for the worker's life (see runlock), after removing
// those of workers that were killed (nobody holds their lock). release
// unlocks and removes it.
func workerDir(workDir string) (dir string, release func(), err error) {
	old, _ := filepath.Glob(filepath.Join(workDir, "scrabble-worker-*"))
	for _, d := range old {
		if l, err := runlock.Acquire(d); err == nil {
			l.Release()
			os.RemoveAll(d)
		}
	}
	if dir, err = os.MkdirTemp(workDir, "scrabble-worker-"); err != nil {
		return "", nil, fmt.Errorf("the worker's directory: %w", err)
	}
	lock, err := runlock.Acquire(dir)
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("the worker's directory: %w", err)
	}
	return dir, func() { lock.Release(); os.RemoveAll(dir) }, nil
}

// defaultWorkDir is where a worker plays its items: in memory (/dev/shm)
// where there is such a directory. An item's games are written there
// with a sync each, as any run's, then published and removed: on a disk the
// syncs would cost a third of a worker's time.
func defaultWorkDir() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "scrabble-probe-"); err == nil {
			os.Remove(d)
			return "/dev/shm"
		}
	}
	return os.TempDir()
}

// itemLexica are the lexica a worker resolved, by registry and name: a
// worker plays many items of a lexicon, and resolving it afresh for each
// (hashing its word list, loading it, opening its move generator's tables)
// would take longer than an item's games. A lexicon reinstalled meanwhile
// is not seen: its items are refused as of another word list until the
// worker restarts.
var itemLexica sync.Map // lexiconKey -> *gaddag.GADDAG

type lexiconKey struct {
	reg  *lexica.Registry
	name string
}

// resolveLexicon is a.reg.Resolve, but a lexicon a worker resolved before
// is taken as it is (see itemLexica).
func (a *app) resolveLexicon(name string) (*gaddag.GADDAG, error) {
	if lex, ok := itemLexica.Load(lexiconKey{a.reg, name}); ok {
		return lex.(*gaddag.GADDAG), nil
	}
	return a.reg.Resolve(name)
}

func knownPlayer(name string) bool {
	for _, p := range selfplay.Players() {
		if p.Name == name {
			return true
		}
	}
	return false
}

// settingsDiff names the first setting that differs between two records.
func settingsDiff(want, got []byte) string {
	var w, g map[string]string
	json.Unmarshal(want, &w)
	json.Unmarshal(got, &g)
	for k, v := range w {
		if g[k] != v {
			return fmt.Sprintf("%s is %q for the run, %q here", k, v, g[k])
		}
	}
	for k, v := range g {
		if _, ok := w[k]; !ok {
			return fmt.Sprintf("%s is %q here, which the run does not record", k, v)
		}
	}
	return "they differ in their order"
}

// runItemCommand runs an item's command (this build's selfplay or train
// --shard K/M) with args, quietly. An argument the command refuses is a
// setting this build does not have: a refusal, for another worker.
func runItemCommand(ctx context.Context, c *cobra.Command, args []string) error {
	c.SilenceErrors, c.SilenceUsage = true, true
	c.SetOut(io.Discard)
	c.SetErr(io.Discard)
	c.SetArgs(args)
	c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	err := c.ExecuteContext(ctx)
	var ue usageError
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &ue):
		return queue.Refusef("its settings do not make a run here: %v", err)
	}
	return err
}

// buildID names this build for the queue's items: the commit it was built
// from and the toolchain and target, and for a build with uncommitted
// changes or from no checkout, the executable's digest. Workers of another
// build refuse an item: other code may play other games.
var buildID = sync.OnceValue(func() string {
	rev, modified := "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	id := "commit " + rev
	if rev == "" {
		id = "no commit"
	}
	if rev == "" || modified {
		id += " with changes, executable sha256 " + exeDigest()
	}
	return id + ", " + buildTarget()
})

// exeDigest is the first 16 hex digits of the SHA-256 of this executable.
func exeDigest() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "unknown"
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])[:16]
}
