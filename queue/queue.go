// Package queue spreads a self-play run over any number of machines through
// a NATS JetStream work queue. A coordinator cuts the run into work items
// (shards of its game range: a game's result depends only on the run's
// settings and its number), publishes them to a work-queue stream of its
// own, and collects the games' results from a results stream as workers on
// any machine play the items. An item is acknowledged only once every
// result of it is stored by the server, so an item whose worker dies is
// redelivered to another after the consumer's ack wait; the coordinator
// keeps each game once, however often it was played.
//
// Names, one run each (RUN is RunID of the run's settings):
//
//	stream SCRABBLE_WORK_RUN     subjects scrabble.RUN.work.K   (work queue: an item per shard K)
//	stream SCRABBLE_RESULTS_RUN  subject  scrabble.RUN.results  (work queue: one message per game)
//	subject scrabble.RUN.events  (plain NATS: workers' refusals, for the coordinator's log)
//
// The work stream's durable pull consumer "workers" is shared by every
// worker; the results stream's "coordinator" is the coordinator's, which
// acknowledges a game once it is written to disk, so a coordinator killed
// and restarted loses nothing either.
//
// A training run (leave values, the win table) goes over the same queue,
// one run of the queue per generation: an item is a shard of the
// generation's chunks (Item.Kind names the training command), and its
// result is one part, the shard's counts. A part is megabytes, more than a
// NATS message holds, so the worker puts it in the run's JetStream object
// store (PartsBucket, which also holds the values the generation plays
// with) and the results message names it (Game.Part); the coordinator's
// Stored then counts parts, not games.
package queue

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/nats-io/nats.go"
)

// Item is one work item: shard Shard of Shards of the run's Games games.
type Item struct {
	Run string `json:"run"` // RunID of Settings
	// Build is the coordinator's build: a worker of another build may
	// play other games, so it refuses the item.
	Build string `json:"build"`
	// Lexicon and LexiconSHA256 are the lexicon's name and the digest of
	// its word list, as the settings record them.
	Lexicon       string `json:"lexicon"`
	LexiconSHA256 string `json:"lexicon_sha256"`
	// Settings is the run's settings record (settings.json), which the
	// worker's own record of the shard must equal, shard aside.
	Settings []byte `json:"settings"`
	// Args are the self-play flags that give those settings (players,
	// their options, rules, seed, games, pairs).
	Args   []string `json:"args"`
	Games  int      `json:"games"`
	Shard  int      `json:"shard"` // K, from 1
	Shards int      `json:"shards"`

	// Kind is "" for a self-play item; for a training item, the training
	// command whose shard K/M it is ("leaves train", "winpct train"). A
	// worker refuses a kind it does not know.
	Kind string `json:"kind,omitempty"`
	// Generation is a leave-training item's generation, from 1.
	Generation int `json:"generation,omitempty"`
	// Bucket is a training item's JetStream object store, where the
	// worker puts its part (Part.Object) and finds From.
	Bucket string `json:"bucket,omitempty"`
	// From names the object in Bucket holding the values a leave-training
	// generation plays with (the previous generation's, or those the run
	// began with); "" for zero leaves. Settings records their digest.
	From string `json:"from,omitempty"`
}

// Training says whether the item is a training run's shard: its result is
// one part (the shard's counts), not games.
func (it *Item) Training() bool { return it.Kind != "" }

// Range is what the item covers of the coordinator's Stored: for
// self-play its games, lo to hi-1 (selfplay.Shard's ranges); for training
// its one part, K-1.
func (it *Item) Range() (lo, hi int) {
	if it.Training() {
		return it.Shard - 1, it.Shard
	}
	return ShardRange(it.Shard, it.Shards, it.Games)
}

// ShardRange is the K-th of M game ranges of a run of games games, as
// selfplay.Shard.Range cuts them.
func ShardRange(k, m, games int) (lo, hi int) {
	return (k - 1) * games / m, k * games / m
}

// Game is one game's result as a worker publishes it, or a training
// item's part (Game is then K-1, and Part says where the counts are).
type Game struct {
	Game int `json:"game"`
	// Result is the game's line of results.jsonl, without its newline.
	Result string `json:"result"`
	GCG    string `json:"gcg"`    // the game's GCG file
	Worker string `json:"worker"` // the worker that played it
	Part   *Part  `json:"part,omitempty"`
}

// Part is a training shard's result: its counts (a checkpoint file, some
// megabytes: more than a NATS message holds) are an object of the item's
// Bucket, gzip-compressed, and the message names it.
type Part struct {
	Object string `json:"object"` // its name in the bucket
	SHA256 string `json:"sha256"` // hex digest of the object's bytes
	Size   int64  `json:"size"`   // the object's bytes
	// File is the checkpoint's file name in the shard's work directory
	// (which chunks it covers), Settings that directory's settings.json.
	File     string `json:"file"`
	Settings string `json:"settings"`
}

// PartsBucket is the object store of a training run's parts and values.
func PartsBucket(run string) string { return "SCRABBLE_PARTS_" + run }

// Refusal is a worker's reason for not playing an item: another build,
// a lexicon it lacks, settings it does not give. The item goes back to the
// queue for another worker.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

// Refusef makes a Refusal.
func Refusef(format string, args ...any) error { return &Refusal{fmt.Sprintf(format, args...)} }

// RunID names a run by its settings record: the first 16 hex digits of its
// SHA-256. A coordinator restarted on the same run finds its streams.
func RunID(settings []byte) string {
	h := sha256.Sum256(settings)
	return hex.EncodeToString(h[:])[:16]
}

// WorkStream, ResultsStream and the subjects are the names of a run's
// streams (see the package comment).
func WorkStream(run string) string    { return "SCRABBLE_WORK_" + run }
func ResultsStream(run string) string { return "SCRABBLE_RESULTS_" + run }
func workSubject(run string, k int) string {
	return fmt.Sprintf("scrabble.%s.work.%d", run, k)
}
func resultsSubject(run string) string { return "scrabble." + run + ".results" }
func eventsSubject(run string) string  { return "scrabble." + run + ".events" }

const (
	workersConsumer     = "workers"
	coordinatorConsumer = "coordinator"
	// allWork matches the work subjects of every run: workers find the
	// runs' streams by it.
	allWork = "scrabble.*.work.*"
)

// Connect connects to the NATS server at url, trying again with backoff
// for up to wait when it cannot be reached (a server starting, a network
// not yet up), then giving up with an error that says so. The connection
// reconnects on its own, forever, when the server goes away later; logf
// (if set) is told of every loss and reconnection.
func Connect(ctx context.Context, url, name string, wait time.Duration, logf func(format string, args ...any)) (*nats.Conn, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	opts := []nats.Option{
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.CustomReconnectDelay(func(attempts int) time.Duration { return backoff(attempts) }),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			switch {
			case nc.IsClosed(): // closed by its owner
			case err != nil:
				logf("lost the NATS server at %s (%v): reconnecting", url, err)
			default:
				logf("lost the NATS server at %s: reconnecting", url)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { logf("reconnected to %s", nc.ConnectedUrlRedacted()) }),
	}
	deadline := time.Now().Add(wait)
	for attempt := 1; ; attempt++ {
		nc, err := nats.Connect(url, opts...)
		if err == nil {
			return nc, nil
		}
		d := backoff(attempt)
		if time.Now().Add(d).After(deadline) {
			return nil, fmt.Errorf("cannot reach the NATS server at %s (tried for %s): %w", url, wait.Round(time.Second), err)
		}
		if attempt == 1 {
			logf("cannot reach the NATS server at %s (%v): trying again for %s", url, err, wait.Round(time.Second))
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connecting to the NATS server at %s: %w", url, ctx.Err())
		case <-time.After(d):
		}
	}
}

// backoff is the wait before the attempts-th retry: doubling from 100ms to
// at most 5s, with a tenth of jitter so that many workers do not come
// back at once.
func backoff(attempts int) time.Duration {
	d := 100 * time.Millisecond << min(max(attempts-1, 0), 6)
	d = min(d, 5*time.Second)
	return d + rand.N(d/10+1)
}
