package queue

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Coordinator publishes a run's items and collects its games.
type Coordinator struct {
	Conn *nats.Conn
	// Items are every shard of the run, 1 to M in order; those whose
	// games are all Stored already are not published.
	Items []Item
	// Stored[i] says game i is already stored (a resumed run's); Run
	// sets it as games arrive. Its length is the run's game count.
	Stored []bool
	// Store keeps a game not stored yet (its result line and GCG file);
	// Flush makes what Store wrote durable: a game is acknowledged to
	// the server, and so removed from the results stream, only after.
	// Store's error wrapping ErrBadGame drops the game (a result no game
	// of the run has), logged; any other error of Store or Flush ends the
	// run, the batch unacknowledged.
	Store func(g *Game) error
	Flush func() error
	// AckWait is how long a worker may hold an item without a word before
	// it goes to another worker (workers say they are still at it every
	// third of it); 0 means 30s.
	AckWait time.Duration
	// Progress, if set, is told the games stored (resumed ones included)
	// and the workers seen after each batch.
	Progress func(stored, workers int)
	Logf     func(format string, args ...any)
}

// Stats are what a coordinator's Run saw.
type Stats struct {
	Stored     int // games stored by this run (not the resumed ones)
	Duplicates int // games received again, dropped
	Bad        int // games refused by Store, dropped
	Workers    int // distinct workers whose games arrived
	Published  int // items published
}

// Run publishes the items with games missing and collects games until
// every one is stored, then deletes the run's streams. Cancelled, it
// returns ctx's error and leaves the streams: a coordinator started again
// on the run takes up its items and the games that arrived meanwhile.
func (c *Coordinator) Run(ctx context.Context) (Stats, error) {
	var st Stats
	if len(c.Items) == 0 {
		return st, errors.New("queue: no items")
	}
	logf := c.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	ackWait := c.AckWait
	if ackWait <= 0 {
		ackWait = 30 * time.Second
	}
	run := c.Items[0].Run
	js, err := jetstream.New(c.Conn)
	if err != nil {
		return st, fmt.Errorf("queue: %w", err)
	}
	work, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        WorkStream(run),
		Description: "scrabble self-play work items",
		Subjects:    []string{"scrabble." + run + ".work.*"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Duplicates:  time.Minute,
	})
	if err != nil {
		return st, fmt.Errorf("queue: making the work stream %s: %w", WorkStream(run), err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        ResultsStream(run),
		Description: "scrabble self-play results, one message a game",
		Subjects:    []string{resultsSubject(run)},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Duplicates:  time.Minute,
	}); err != nil {
		return st, fmt.Errorf("queue: making the results stream %s: %w", ResultsStream(run), err)
	}
	if _, err := work.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:       workersConsumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       ackWait,
		MaxAckPending: -1,
	}); err != nil {
		return st, fmt.Errorf("queue: making the workers' consumer: %w", err)
	}
	results, err := js.CreateOrUpdateConsumer(ctx, ResultsStream(run), jetstream.ConsumerConfig{
		Durable:       coordinatorConsumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       10 * time.Second, // a batch is stored in a second or two
		MaxAckPending: -1,
	})
	if err != nil {
		return st, fmt.Errorf("queue: making the coordinator's consumer: %w", err)
	}
	// Workers' refusals, for the log (plain NATS: lost when no
	// coordinator listens, which costs nothing).
	sub, err := c.Conn.Subscribe(eventsSubject(run), func(m *nats.Msg) { logf("%s", m.Data) })
	if err != nil {
		return st, fmt.Errorf("queue: %w", err)
	}
	defer sub.Unsubscribe()

	stored := 0
	for _, s := range c.Stored {
		if s {
			stored++
		}
	}
	workers := map[string]bool{}
	// collect takes what the results stream holds, waiting up to wait (if
	// positive) for the first message; it reports whether any came.
	collect := func(wait time.Duration) (bool, error) {
		// What is there now, or else the first to come within wait
		// (a pull of a full batch would wait for all of it).
		batch, err := results.FetchNoWait(256)
		if err != nil {
			return false, err
		}
		var msgs, got []jetstream.Msg
		for m := range batch.Messages() {
			got = append(got, m)
		}
		if len(got) == 0 && batch.Error() == nil && wait > 0 {
			if batch, err = results.Fetch(1, jetstream.FetchMaxWait(wait)); err != nil {
				return false, err
			}
			for m := range batch.Messages() {
				got = append(got, m)
			}
		}
		for _, m := range got {
			msgs = append(msgs, m)
			var g Game
			if err := json.Unmarshal(m.Data(), &g); err != nil {
				st.Bad++
				logf("dropped a result that is not a game's: %v", err)
				continue
			}
			if g.Worker != "" {
				workers[g.Worker] = true
			}
			if g.Game < 0 || g.Game >= len(c.Stored) {
				st.Bad++
				logf("dropped game %d from %s: the run has games 0 to %d", g.Game, g.Worker, len(c.Stored)-1)
				continue
			}
			if c.Stored[g.Game] {
				st.Duplicates++
				continue
			}
			if err := c.Store(&g); errors.Is(err, ErrBadGame) {
				st.Bad++
				logf("dropped game %d from %s: %v", g.Game, g.Worker, err)
				continue
			} else if err != nil {
				// Nothing of the batch is acknowledged: it comes
				// again, at once, to a coordinator that can store it.
				nakAll(got)
				return false, &storeError{fmt.Errorf("storing game %d: %w", g.Game, err)}
			}
			c.Stored[g.Game] = true
			stored++
			st.Stored++
		}
		if len(msgs) > 0 {
			if err := c.Flush(); err != nil {
				nakAll(got)
				return false, &storeError{err}
			}
			for _, m := range msgs {
				// An ack lost is a game redelivered, and dropped then.
				m.Ack()
			}
		}
		st.Workers = len(workers)
		if c.Progress != nil {
			c.Progress(stored, len(workers))
		}
		return len(msgs) > 0, batch.Error()
	}
	// First what arrived while no coordinator ran, so that only items
	// with games still missing are published again.
	for stored < len(c.Stored) {
		got, err := collect(0)
		if se := (*storeError)(nil); errors.As(err, &se) {
			return st, se.err
		}
		if err != nil && ctx.Err() == nil && !errors.Is(err, nats.ErrTimeout) {
			return st, fmt.Errorf("queue: collecting results: %w", err)
		}
		if !got || ctx.Err() != nil {
			break
		}
	}
	// Items an earlier coordinator of the run left that this one would
	// not publish (another build's, another cut into items) go: their
	// games are published anew as this coordinator's items.
	info, err := work.Info(ctx, jetstream.WithSubjectFilter("scrabble."+run+".work.*"))
	if err != nil {
		return st, fmt.Errorf("queue: reading the work stream: %w", err)
	}
	for subj := range info.State.Subjects {
		var k int
		if _, err := fmt.Sscanf(subj, "scrabble."+run+".work.%d", &k); err == nil && k >= 1 && k <= len(c.Items) {
			continue
		}
		if err := work.Purge(ctx, jetstream.WithPurgeSubject(subj)); err != nil {
			return st, fmt.Errorf("queue: removing an earlier coordinator's item %s: %w", subj, err)
		}
	}
	publish := func() error {
		for i := range c.Items {
			it := &c.Items[i]
			if !c.missing(it) {
				continue
			}
			data, err := json.Marshal(it)
			if err != nil {
				return err
			}
			// An item still in the stream is waiting or being played,
			// unless it is another coordinator's.
			subj := workSubject(run, it.Shard)
			m, err := work.GetLastMsgForSubject(ctx, subj)
			switch {
			case err == nil && bytes.Equal(m.Data, data):
				continue
			case err == nil:
				if err := work.Purge(ctx, jetstream.WithPurgeSubject(subj)); err != nil {
					return fmt.Errorf("queue: removing an earlier coordinator's item %d: %w", it.Shard, err)
				}
			case !errors.Is(err, jetstream.ErrMsgNotFound):
				return fmt.Errorf("queue: looking for item %d: %w", it.Shard, err)
			}
			if _, err := js.Publish(ctx, workSubject(run, it.Shard), data); err != nil {
				return fmt.Errorf("queue: publishing item %d/%d: %w", it.Shard, it.Shards, err)
			}
			st.Published++
		}
		return nil
	}
	if err := publish(); err != nil {
		return st, err
	}
	last := time.Now()
	for stored < len(c.Stored) {
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
		got, err := collect(time.Second)
		var se *storeError
		switch {
		case ctx.Err() != nil:
			return st, ctx.Err()
		case errors.As(err, &se):
			return st, se.err
		case err != nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded):
			// The server away, or JetStream not answering: the
			// connection comes back on its own.
			logf("collecting results: %v (trying again)", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
		if got {
			last = time.Now()
		} else if time.Since(last) > 2*ackWait+10*time.Second {
			// Nothing for a long while: an item lost (a worker's
			// results acknowledged by the server but lost with it)
			// would stall the run, so items with games missing and
			// none in the stream go out again.
			if err := publish(); err != nil {
				logf("%v (trying again)", err)
			}
			last = time.Now()
		}
	}
	for _, name := range []string{WorkStream(run), ResultsStream(run)} {
		if err := js.DeleteStream(ctx, name); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
			logf("the run is complete, but its stream %s was not removed: %v", name, err)
		}
	}
	return st, nil
}

// ErrBadGame is what Coordinator.Store returns, wrapped, for a game that
// is not one of the run's: it is dropped, and the run goes on. Any other
// error of Store ends the run.
var ErrBadGame = errors.New("not a game of the run")

func nakAll(msgs []jetstream.Msg) {
	for _, m := range msgs {
		m.Nak()
	}
}

// storeError is an error of Store or Flush: the run cannot go on.
type storeError struct{ err error }

func (e *storeError) Error() string { return e.err.Error() }

// missing says whether any game of the item is not stored.
func (c *Coordinator) missing(it *Item) bool {
	lo, hi := it.Range()
	for i := lo; i < hi && i < len(c.Stored); i++ {
		if !c.Stored[i] {
			return true
		}
	}
	return false
}

// msgID is the deduplication ID of a game's result: one per delivery of
// an item's message (seq, its stream sequence) and content, so that a
// worker that takes over a redelivered item repeats nothing the server
// already holds, while an item published anew is played anew, and a result
// that differs (a forged one) does not keep the true one out.
func msgID(run string, seq uint64, game int, data []byte) string {
	h := sha256.Sum256(data)
	return run + "." + strconv.FormatUint(seq, 10) + ".g" + strconv.Itoa(game) + "." + hex.EncodeToString(h[:8])
}

// Adopt takes what an earlier run left in its results stream before this
// one starts: old is the RunID of the run a resumed coordinator's
// directory was collecting before (the same settings but for the game
// count, so a game of it that this run has is the same game). Every result
// there goes to Store as one of this run's would (games beyond this run's,
// or already stored, are dropped); then the earlier run's streams are
// deleted, so that nothing of it is left on the server. It returns the
// games stored.
func (c *Coordinator) Adopt(ctx context.Context, old string) (int, error) {
	logf := c.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	js, err := jetstream.New(c.Conn)
	if err != nil {
		return 0, fmt.Errorf("queue: %w", err)
	}
	taken := 0
	stream, err := js.Stream(ctx, ResultsStream(old))
	switch {
	case errors.Is(err, jetstream.ErrStreamNotFound):
	case err != nil:
		return 0, fmt.Errorf("queue: reading the earlier run's results stream %s: %w", ResultsStream(old), err)
	default:
		// Read by sequence, not through a consumer: the earlier
		// coordinator's may hold messages delivered to it, unacknowledged.
		info, err := stream.Info(ctx)
		if err != nil {
			return 0, fmt.Errorf("queue: reading the earlier run's results stream: %w", err)
		}
		pending := 0
		flush := func() error {
			if pending == 0 {
				return nil
			}
			pending = 0
			if err := c.Flush(); err != nil {
				return fmt.Errorf("queue: storing the earlier run's results: %w", err)
			}
			return nil
		}
		for seq := info.State.FirstSeq; info.State.Msgs > 0 && seq <= info.State.LastSeq; seq++ {
			m, err := stream.GetMsg(ctx, seq)
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				continue
			} else if err != nil {
				return taken, fmt.Errorf("queue: reading the earlier run's result %d: %w", seq, err)
			}
			var g Game
			if err := json.Unmarshal(m.Data, &g); err != nil || g.Game < 0 || g.Game >= len(c.Stored) || c.Stored[g.Game] {
				continue
			}
			if err := c.Store(&g); errors.Is(err, ErrBadGame) {
				logf("dropped game %d of the earlier run %s: %v", g.Game, old, err)
				continue
			} else if err != nil {
				return taken, fmt.Errorf("queue: storing game %d of the earlier run %s: %w", g.Game, old, err)
			}
			c.Stored[g.Game] = true
			taken++
			if pending++; pending == 256 {
				if err := flush(); err != nil {
					return taken, err
				}
			}
		}
		if err := flush(); err != nil {
			return taken, err
		}
	}
	for _, name := range []string{WorkStream(old), ResultsStream(old)} {
		if err := js.DeleteStream(ctx, name); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
			return taken, fmt.Errorf("queue: removing the earlier run's stream %s: %w", name, err)
		}
	}
	return taken, nil
}
