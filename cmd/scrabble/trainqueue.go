package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"scrabble/eval"
	"scrabble/internal/atomicfile"
	"scrabble/internal/readlimit"
	"scrabble/internal/runrecord"
	"scrabble/queue"
	"scrabble/selfplay"
)

// Training over the queue: a coordinator (leaves train or winpct train with
// --queue) publishes a generation's shards as work items; a worker plays
// one with this build's train --shard K/M and puts the shard's counts (its
// last checkpoint, gzip-compressed: a leave part is some 15 MB, more than
// a NATS message holds) in the run's object store, then publishes a
// message naming it; the coordinator stores each part once, in
// FILE.train/queue/, and merges them when all are in.

// trainQueueFlags are a training command's flags of a run over the queue.
type trainQueueFlags struct {
	queueFlags
	items int
}

func addTrainQueueFlags(f *pflag.FlagSet, q *trainQueueFlags) {
	f.StringVar(&q.url, "queue", "", "coordinate the run over the NATS JetStream server at URL (nats://HOST:4222): publish each generation's shards as --items work items for 'scrabble worker's, collect their counts and merge them")
	f.IntVar(&q.items, "items", 0, "with --queue: work items a generation is cut into (default: one per "+strconv.Itoa(trainItemChunks)+" chunks of games, at most one per chunk)")
	f.DurationVar(&q.ackWait, "ack-wait", 30*time.Second, "with --queue: how long a worker that stops answering keeps an item before it goes to another")
	f.DurationVar(&q.connectWait, "connect-wait", time.Minute, "with --queue: how long to keep trying a server that cannot be reached at the start")
}

// trainItemChunks is how many chunks of games a training item holds by
// default: a part's counts are the same size however many games it holds
// (a leave part some 15 MB, 1 MB or so compressed), so items of a few
// chunks keep the traffic small beside the play.
const trainItemChunks = 4

// check says what is wrong with the flags, before anything is written.
func (q *trainQueueFlags) check(cmd *cobra.Command, out string) error {
	if err := q.queueFlags.check(); err != nil {
		return err
	}
	if out == "" {
		return usagef("--queue needs --out FILE: the run's work directory is FILE.train")
	}
	if cmd.Flags().Changed("shard") || cmd.Flags().Changed("generation") {
		return usagef("--queue cuts the run into --items work items itself: it takes no --shard or --generation")
	}
	if cmd.Flags().Changed("items") && q.items < 1 {
		return usagef("--items must be at least 1, not %d", q.items)
	}
	return nil
}

// trainQueue is the coordinator of a training run over the queue.
type trainQueue struct {
	a     *app
	q     trainQueueFlags
	kind  string   // "leaves train" or "winpct train"
	args  []string // the training flags that give the run's settings
	work  string   // the run's work directory (FILE.train)
	games int
	chunk int
	nc    *nats.Conn
	js    jetstream.JetStream
}

func (t *trainQueue) logf(format string, args ...any) {
	fmt.Fprintf(t.a.stderr, "scrabble: queue: "+format+"\n", args...)
}

// close ends the connection, and removes the parts of a finished run.
func (t *trainQueue) close(finished bool) {
	if t.nc != nil {
		t.nc.Close()
	}
	if finished {
		os.RemoveAll(filepath.Join(t.work, "queue"))
	}
}

func (t *trainQueue) connect(ctx context.Context) error {
	if t.nc != nil {
		return nil
	}
	nc, err := queue.Connect(ctx, t.q.url, "scrabble "+t.kind+" coordinator", t.q.connectWait, t.logf)
	if err != nil {
		return err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return fmt.Errorf("queue: %w", err)
	}
	t.nc, t.js = nc, js
	return nil
}

// play has generation g (0 for the win table's one run) played over the
// queue: shard is the settings its shards record less the shard, from the
// values it plays with (nil: zero leaves). It returns the directories of
// its parts, 1 to M, each a shard's work directory as train --shard leaves
// it, for train.MergeLeaveStats or MergeWinStats.
func (t *trainQueue) play(ctx context.Context, g int, shard runrecord.Settings, from *eval.LeaveTable) ([]string, error) {
	settings, _ := shard.MarshalJSON()
	run := queue.RunID(settings)
	chunks := (t.games + t.chunk - 1) / t.chunk
	m := t.q.items
	if m <= 0 {
		m = (chunks + trainItemChunks - 1) / trainItemChunks
	}
	m = max(1, min(m, chunks)) // every item at least a chunk
	prefix, ext, what := "", ".winstats", "win table"
	if t.kind == "leaves train" {
		prefix, ext, what = fmt.Sprintf("gen-%d.", g), ".stats", fmt.Sprintf("generation %d", g)
	}
	name := fmt.Sprintf("%sparts-of-%d", prefix, m)
	root := filepath.Join(t.work, "queue")
	dir := filepath.Join(root, name)
	// Parts of generations merged already, or of another cut into items
	// (another --items): none of this run's.
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if e.Name() == name {
			continue
		}
		if strings.HasPrefix(e.Name(), prefix+"parts-of-") {
			t.logf("%s: removing the parts of another cut into items (%s), which this one cannot use", what, e.Name())
		}
		if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			return nil, fmt.Errorf("queue: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	stored := make([]bool, m)
	done := 0
	entries, _ = os.ReadDir(dir)
	for _, e := range entries {
		k, err := strconv.Atoi(e.Name())
		switch {
		case err == nil && k >= 1 && k <= m:
			stored[k-1] = true
			done++
		default: // a part half written when the coordinator was killed
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
	parts := make([]string, m)
	for k := range parts {
		parts[k] = filepath.Join(dir, strconv.Itoa(k+1))
	}
	bucket := queue.PartsBucket(run)
	if done == m {
		// Every part is here: a coordinator killed before it removed the
		// generation's streams and object store left them on the server.
		if err := t.connect(ctx); err != nil {
			t.logf("%s: every part is stored; the server is not there to remove what the generation may have left on it: %v", what, err)
			return parts, nil
		}
		t.remove(ctx, what, run)
		return parts, nil
	}
	if err := t.connect(ctx); err != nil {
		return nil, err
	}
	obs, err := t.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:      bucket,
		Description: "scrabble training parts and values",
		Storage:     jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("queue: making the object store %s: %w", bucket, err)
	}
	fromName := ""
	if from != nil {
		var b bytes.Buffer
		if _, err := from.WriteTo(&b); err != nil {
			return nil, err
		}
		fromName = "from"
		if _, _, err := putObject(ctx, obs, fromName, b.Bytes()); err != nil {
			return nil, fmt.Errorf("queue: putting the values %s plays with in %s: %w", what, bucket, err)
		}
	}
	rs, err := runrecord.ReadSettings(t.work)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	lexName, _ := rs.Get("lexicon")
	lexSHA, _ := rs.Get("lexicon sha256")
	items := make([]queue.Item, m)
	for k := range items {
		items[k] = queue.Item{Run: run, Build: buildID(), Lexicon: lexName, LexiconSHA256: lexSHA,
			Settings: settings, Args: t.args, Games: t.games, Shard: k + 1, Shards: m,
			Kind: t.kind, Generation: g, Bucket: bucket, From: fromName}
	}
	t.logf("%s: run %s: %d of %s stored, the rest in items of the queue at %s", what, run, done, plural(m, "part"), t.q.url)
	bar := newQueueBar(t.a.stderr, what, "parts", m, done)
	c := &queue.Coordinator{
		Conn:    t.nc,
		Items:   items,
		Stored:  stored,
		AckWait: t.q.ackWait,
		Store: func(gm *queue.Game) error {
			return t.storePart(ctx, obs, gm, shard, selfplay.Shard{K: gm.Game + 1, M: m}, chunks, prefix, ext, dir)
		},
		Flush:    func() error { return syncDir(dir) },
		Progress: bar.set,
		Logf:     t.logf,
	}
	st, err := c.Run(ctx)
	bar.finish()
	if err != nil {
		return nil, err
	}
	t.remove(ctx, what, run)
	t.logf("%s: %s stored, from %s (%d duplicates dropped)", what, plural(m, "part"), plural(st.Workers, "worker"), st.Duplicates)
	return parts, nil
}

// remove deletes what a generation's run has on the server: its streams
// (Coordinator.Run deletes them when it completes) and its object store.
func (t *trainQueue) remove(ctx context.Context, what, run string) {
	for _, name := range []string{queue.WorkStream(run), queue.ResultsStream(run)} {
		if err := t.js.DeleteStream(ctx, name); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
			t.logf("%s is complete, but its stream %s was not removed: %v", what, name, err)
		}
	}
	bucket := queue.PartsBucket(run)
	if err := t.js.DeleteObjectStore(ctx, bucket); err != nil && !errors.Is(err, jetstream.ErrBucketNotFound) && !errors.Is(err, jetstream.ErrStreamNotFound) {
		t.logf("%s is complete, but its object store %s was not removed: %v", what, bucket, err)
	}
}

// storePart checks a part a worker sent and keeps it in dir/K, whole or
// not at all. A part that is not shard's is dropped (queue.ErrBadGame).
func (t *trainQueue) storePart(ctx context.Context, obs jetstream.ObjectStore, gm *queue.Game, shard runrecord.Settings, sh selfplay.Shard, chunks int, prefix, ext, dir string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", queue.ErrBadGame, fmt.Sprintf(format, args...))
	}
	p := gm.Part
	if p == nil {
		return bad("it is not a training part")
	}
	lo, hi := sh.Range(chunks)
	if want := fmt.Sprintf("%sc%06d%s", prefix, hi, ext); p.File != want {
		return bad("its counts are %q, not shard %s's %s", p.File, sh, want)
	}
	var data []byte
	var err error
	for try := 1; ; try++ {
		// A worker putting the same part again replaces the object:
		// reading it meanwhile may fail, and a moment later succeed.
		if data, err = getObject(ctx, obs, p.Object, p.SHA256); err == nil || errors.Is(err, jetstream.ErrObjectNotFound) || try == 3 || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		return bad("its counts %s: %v", p.Object, err)
	}
	tmp, err := os.MkdirTemp(dir, ".part-")
	if err != nil {
		return fmt.Errorf("a directory for part %s: %w", sh, err)
	}
	defer os.RemoveAll(tmp)
	write := func(name string, b []byte) error {
		return atomicfile.Write(filepath.Join(tmp, name), atomicfile.Options{Perm: 0o644, Sync: true},
			func(w io.Writer) error { _, err := w.Write(b); return err })
	}
	if err := write(runrecord.SettingsFile, []byte(p.Settings)); err != nil {
		return err
	}
	got, err := runrecord.ReadSettings(tmp)
	if err != nil {
		return bad("%v", err)
	}
	if v, _ := got.Get("shard"); v != sh.String() {
		return bad("it is shard %q, not %s", v, sh)
	}
	if same, diff := got.Without("shard").Equal(shard); !same {
		return bad("its settings are not the run's: %s", diff)
	}
	switch ext {
	case ".stats":
		if _, err := eval.DecodeLeaveStats(data); err != nil {
			return bad("its counts: %v", err)
		}
	default:
		s, err := eval.DecodeWinStats(data)
		if err != nil {
			return bad("its counts: %v", err)
		}
		if want := min(hi*t.chunk, t.games) - lo*t.chunk; s.Games() != int64(want) {
			return bad("its counts hold %d games, not the %d of its chunks", s.Games(), want)
		}
	}
	if err := write(p.File, data); err != nil {
		return err
	}
	final := filepath.Join(dir, strconv.Itoa(sh.K))
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("keeping part %s: %w", sh, err)
	}
	// Kept here: the server need not hold it any more (a worker playing
	// the item again puts it again, and the run's end removes it).
	if err := obs.Delete(ctx, p.Object); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		t.logf("part %s is stored, but its object %s was not removed: %v", sh, p.Object, err)
	}
	return nil
}

// syncDir makes the entries of dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// putObject puts data, gzip-compressed, in the object store as name,
// unless an object of that name holds it already (a part put twice is
// kept once), and returns the digest and size of the object's bytes.
func putObject(ctx context.Context, obs jetstream.ObjectStore, name string, data []byte) (string, int64, error) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		return "", 0, err
	}
	if err := zw.Close(); err != nil {
		return "", 0, err
	}
	sum := sha256.Sum256(b.Bytes())
	sha := hex.EncodeToString(sum[:])
	size := int64(b.Len())
	if info, err := obs.GetInfo(ctx, name); err == nil && info.Metadata["sha256"] == sha {
		return sha, size, nil
	}
	if _, err := obs.Put(ctx, jetstream.ObjectMeta{Name: name, Metadata: map[string]string{"sha256": sha}}, &b); err != nil {
		return "", 0, err
	}
	return sha, size, nil
}

// getObject reads the object name, checks its digest is sha (if given)
// and returns it uncompressed.
func getObject(ctx context.Context, obs jetstream.ObjectStore, name, sha string) ([]byte, error) {
	info, err := obs.GetInfo(ctx, name)
	if err != nil {
		return nil, err
	}
	if info.Size > readlimit.Stats {
		return nil, fmt.Errorf("it is %d bytes, more than %d MB", info.Size, readlimit.Stats>>20)
	}
	data, err := obs.GetBytes(ctx, name)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); sha != "" && got != sha {
		return nil, fmt.Errorf("its digest %.12s is not the %.12s it was sent with", got, sha)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(zr, readlimit.Stats+1))
	if err != nil {
		return nil, err
	}
	if len(out) > readlimit.Stats {
		return nil, fmt.Errorf("more than %d MB uncompressed", readlimit.Stats>>20)
	}
	return out, nil
}

// playTrainItem plays a training item: this build's train --shard K/M of
// the item's generation, whose counts go to the item's object store and
// whose part is published.
func (a *app) playTrainItem(ctx context.Context, js jetstream.JetStream, it *queue.Item, publish func(*queue.Game) error, threads int, workDir string, logf func(string, ...any)) error {
	var newCmd func(*app) *cobra.Command
	prefix, ext := "", ".winstats"
	switch it.Kind {
	case "leaves train":
		newCmd, prefix, ext = newLeavesTrainCmd, fmt.Sprintf("gen-%d.", it.Generation), ".stats"
		if it.Generation < 1 {
			return queue.Refusef("it is a leave-training item of generation %d", it.Generation)
		}
	case "winpct train":
		newCmd = newWinpctTrainCmd
	default:
		return queue.Refusef("it is a %q item, which this build does not play", it.Kind)
	}
	if it.Shard < 1 || it.Shard > it.Shards || it.Bucket == "" {
		return queue.Refusef("it is shard %d/%d of no object store: not a training item of this build", it.Shard, it.Shards)
	}
	obs, err := js.ObjectStore(ctx, it.Bucket)
	if err != nil {
		return fmt.Errorf("the run's object store %s: %w", it.Bucket, err)
	}
	tmp, err := os.MkdirTemp(workDir, "scrabble-item-")
	if err != nil {
		return fmt.Errorf("a directory for the item: %w", err)
	}
	defer os.RemoveAll(tmp)
	args := append(it.Args[:len(it.Args):len(it.Args)], "--shard", fmt.Sprintf("%d/%d", it.Shard, it.Shards),
		"--out", filepath.Join(tmp, "part"), "--threads", fmt.Sprint(threads))
	if it.Kind == "leaves train" {
		args = append(args, "--generation", strconv.Itoa(it.Generation))
	}
	if it.From != "" {
		// The values a generation plays with, fetched once for its
		// items (the worker's directory is its own).
		path := filepath.Join(workDir, "from-"+it.Run+".leaves")
		if _, err := os.Stat(path); err != nil {
			// Those of generations before are done with.
			old, _ := filepath.Glob(filepath.Join(workDir, "from-*.leaves"))
			for _, o := range old {
				os.Remove(o)
			}
			data, err := getObject(ctx, obs, it.From, "")
			if err != nil {
				return fmt.Errorf("the values the generation plays with (%s in %s): %w", it.From, it.Bucket, err)
			}
			if err := atomicfile.Write(path, atomicfile.Options{Perm: 0o644, Sync: true}, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
				return err
			}
		}
		args = append(args, "--from", path)
	}
	wa := *a
	wa.stdout, wa.stderr = io.Discard, io.Discard
	wa.v.Set("lexicon", it.Lexicon)
	if err := runItemCommand(ctx, newCmd(&wa), args); err != nil {
		return err
	}
	work := filepath.Join(tmp, "part.train")
	got, err := runrecord.ReadSettings(work)
	if err != nil {
		return err
	}
	if mine, _ := got.Without("shard").MarshalJSON(); !bytes.Equal(mine, it.Settings) {
		return queue.Refusef("its settings are not the run's here: %s", settingsDiff(it.Settings, mine))
	}
	last, _, err := runrecord.LastCheckpoint(work, prefix, ext)
	if err != nil {
		return err
	}
	if last == "" {
		return errors.New("the shard kept no counts")
	}
	counts, err := os.ReadFile(last)
	if err != nil {
		return err
	}
	settings, err := os.ReadFile(filepath.Join(work, runrecord.SettingsFile))
	if err != nil {
		return err
	}
	name := fmt.Sprintf("part-%d-of-%d", it.Shard, it.Shards)
	sha, size, err := putObject(ctx, obs, name, counts)
	if err != nil {
		return fmt.Errorf("putting the part's counts in %s: %w", it.Bucket, err)
	}
	hang := os.Getenv(testWorkerHangEnv)
	if hang == "before" {
		logf("hanging before publishing its part (%s)", testWorkerHangEnv)
		<-ctx.Done()
		return ctx.Err()
	}
	if err := publish(&queue.Game{Game: it.Shard - 1, Part: &queue.Part{Object: name, SHA256: sha, Size: size,
		File: filepath.Base(last), Settings: string(settings)}}); err != nil {
		return err
	}
	if hang == "1" {
		logf("hanging (%s)", testWorkerHangEnv)
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}
