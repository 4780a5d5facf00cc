package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"scrabble/internal/crash"
)

// Worker takes items from every run's work stream and plays them.
type Worker struct {
	Conn *nats.Conn
	ID   string // names the worker in the coordinator's count and logs
	// Play plays the item's games and hands each to publish, which sends
	// it to the results stream (publish acknowledgements are awaited
	// before the item is acknowledged). A *Refusal (see Refusef) sends the
	// item back to the queue for another worker, and this worker leaves the
	// run alone for a while; any other error sends it back after a pause.
	Play func(ctx context.Context, it *Item, publish func(*Game) error) error
	// Idle, if positive, ends Run when no item came for this long.
	Idle time.Duration
	Logf func(format string, args ...any)
}

// Run takes and plays items until ctx is cancelled (then an item in play
// goes back to the queue at once) or, with Idle, until there is no work.
func (w *Worker) Run(ctx context.Context) error {
	logf := w.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	js, err := jetstream.New(w.Conn)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	// Work streams of runs this worker cannot play, left alone until a
	// time: 30s after the first refusal, doubling to at most 10 minutes
	// (a refused item may be one a coordinator of another build left,
	// which its successor replaces).
	refused := map[string]time.Time{}
	refusals := map[string]int{}
	failed := map[string]int{} // failures in a row, by work stream
	refuse := func(name string) {
		refusals[name]++
		refused[name] = time.Now().Add(min(30*time.Second<<min(refusals[name]-1, 5), 10*time.Minute))
	}
	idleSince := time.Now()
	for ctx.Err() == nil {
		var names []string
		lister := js.StreamNames(ctx, jetstream.WithStreamListSubject(allWork))
		for n := range lister.Name() {
			names = append(names, n)
		}
		if err := lister.Err(); err != nil && ctx.Err() == nil {
			if w.Idle > 0 && time.Since(idleSince) > w.Idle {
				return nil // the server away counts as no work
			}
			logf("listing the runs' work streams: %v (trying again)", err)
			pause(ctx, time.Second)
			continue
		}
		slices.Sort(names)
		did := false
		for _, name := range names {
			if time.Now().Before(refused[name]) || ctx.Err() != nil {
				continue
			}
			cons, err := js.Consumer(ctx, name, workersConsumer)
			if err != nil {
				continue // not made yet, or the run just ended
			}
			msg, err := cons.Next(jetstream.FetchMaxWait(time.Second))
			if err != nil {
				continue // nothing waiting (a timeout), or the stream gone
			}
			did = true
			switch w.take(ctx, js, cons, msg, logf) {
			case outcomeRefused:
				refuse(name)
			case outcomeFailed:
				// A failure that repeats is this worker's (a disk
				// full, a file missing): others may do better.
				if failed[name]++; failed[name] >= maxFailures {
					logf("%d items of the run of %s failed in a row here: leaving it for a while", maxFailures, name)
					refuse(name)
					failed[name] = 0
				}
			default:
				failed[name], refusals[name] = 0, 0
			}
		}
		if did {
			idleSince = time.Now()
			continue
		}
		if w.Idle > 0 && time.Since(idleSince) > w.Idle {
			return nil
		}
		if len(names) == 0 {
			pause(ctx, 500*time.Millisecond)
		}
	}
	return ctx.Err()
}

// maxFailures is how many items of a run in a row may fail on a worker
// before it takes no more of the run.
const maxFailures = 3

type outcome int

const (
	outcomeDone outcome = iota
	outcomeRefused
	outcomeFailed
)

// take plays one item, acknowledging it once its games are stored by the
// server, and says how it went.
func (w *Worker) take(ctx context.Context, js jetstream.JetStream, cons jetstream.Consumer, msg jetstream.Msg, logf func(string, ...any)) outcome {
	var it Item
	if err := json.Unmarshal(msg.Data(), &it); err != nil {
		logf("dropped a message of %s that is not a work item: %v", msg.Subject(), err)
		msg.TermWithReason("not a work item")
		return outcomeFailed
	}
	meta, err := msg.Metadata()
	if err != nil {
		logf("item %d/%d of run %s: %v", it.Shard, it.Shards, it.Run, err)
		msg.Nak()
		return outcomeFailed
	}
	lo, hi := it.Range()
	what := fmt.Sprintf("item %d/%d of run %s (games %d to %d)", it.Shard, it.Shards, it.Run, lo, hi-1)
	if it.Training() {
		what = fmt.Sprintf("item %d/%d of run %s (%s", it.Shard, it.Shards, it.Run, it.Kind)
		if it.Generation > 0 {
			what += fmt.Sprintf(", generation %d", it.Generation)
		}
		what += ")"
	}
	if meta.NumDelivered > 1 {
		what += fmt.Sprintf(", delivery %d", meta.NumDelivered)
	}
	logf("playing %s", what)
	start := time.Now()

	// Tell the server the item is in hand every third of the ack wait, so
	// that a long item is not given to another worker while this one
	// plays it; a worker killed stops telling, and the item goes on.
	ackWait := 30 * time.Second
	if info := cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		ackWait = info.Config.AckWait
	}
	playCtx, stop := context.WithCancel(ctx)
	var g crash.Group
	g.Go(func() {
		t := time.NewTicker(ackWait / 3)
		defer t.Stop()
		for {
			select {
			case <-playCtx.Done():
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	})
	var futures []jetstream.PubAckFuture
	publish := func(gm *Game) error {
		gm.Worker = w.ID
		data, err := json.Marshal(gm)
		if err != nil {
			return err
		}
		f, err := js.PublishAsync(resultsSubject(it.Run), data, jetstream.WithMsgID(msgID(it.Run, meta.Sequence.Stream, gm.Game, data)))
		if err != nil {
			return fmt.Errorf("publishing game %d: %w", gm.Game, err)
		}
		futures = append(futures, f)
		return nil
	}
	err = w.Play(playCtx, &it, publish)
	if err == nil {
		err = awaitAcks(playCtx, futures)
	}
	stop()
	if perr := g.Wait(); perr != nil && err == nil {
		err = perr
	}
	var r *Refusal
	switch {
	case errors.As(err, &r):
		logf("refusing %s: %s", what, r.Reason)
		w.Conn.Publish(eventsSubject(it.Run), fmt.Appendf(nil, "worker %s refuses %s: %s", w.ID, what, r.Reason))
		msg.Nak() // at once: another worker may play it
		return outcomeRefused
	case err != nil && ctx.Err() != nil:
		logf("stopped during %s: it goes back to the queue", what)
		msg.Nak()
	case err != nil:
		logf("%s failed: %v (back to the queue)", what, err)
		w.Conn.Publish(eventsSubject(it.Run), fmt.Appendf(nil, "worker %s failed %s: %v (back to the queue)", w.ID, what, err))
		msg.NakWithDelay(5 * time.Second)
		pause(ctx, time.Second)
		return outcomeFailed
	default:
		// Every result is stored by the server: the item is done.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		err := msg.DoubleAck(actx)
		ended := err != nil && runEnded(actx, js, it.Run)
		cancel()
		if err != nil && !ended {
			logf("%s: played, results stored, but the ack was lost (%v): it will be played again, its games dropped as duplicates", what, err)
		} else {
			done := fmt.Sprintf("%d games", len(futures))
			if it.Training() {
				done = "its part"
			}
			if ended {
				// The coordinator took the results this item stored,
				// finished the run and removed its streams before the
				// ack came: the item is done, and nothing plays it again.
				done += ", the run ended before the ack"
			}
			logf("done %s: %s in %.1fs", what, done, time.Since(start).Seconds())
		}
	}
	return outcomeDone
}

// runEnded says whether run's work stream is gone from the server: its
// coordinator finished the run and removed it.
func runEnded(ctx context.Context, js jetstream.JetStream, run string) bool {
	_, err := js.Stream(ctx, WorkStream(run))
	return errors.Is(err, jetstream.ErrStreamNotFound)
}

// awaitAcks waits for the server's acknowledgement of every result.
func awaitAcks(ctx context.Context, futures []jetstream.PubAckFuture) error {
	timeout := time.After(time.Minute)
	for _, f := range futures {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return fmt.Errorf("publishing a result: %w", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout:
			return errors.New("publishing results: no acknowledgement from the server in a minute")
		}
	}
	return nil
}

// pause sleeps for d or until ctx is cancelled.
func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
