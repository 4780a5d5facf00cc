package queue

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestRunEnded checks how a worker whose ack fails tells a run that
// ended (its coordinator removed the work stream: the item is done) from a
// lost ack (the stream is there: the item will come again).
func TestRunEnded(t *testing.T) {
	ctx := context.Background()
	nc, err := Connect(ctx, startServer(t), "test", time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	const run = "0123456789abcdef"
	if !runEnded(ctx, js, run) {
		t.Error("no work stream yet, but the run is not seen as ended")
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: WorkStream(run), Subjects: []string{"test.work." + run}}); err != nil {
		t.Fatal(err)
	}
	if runEnded(ctx, js, run) {
		t.Error("the work stream is there, but the run is seen as ended")
	}
	if err := js.DeleteStream(ctx, WorkStream(run)); err != nil {
		t.Fatal(err)
	}
	if !runEnded(ctx, js, run) {
		t.Error("the work stream was removed, but the run is not seen as ended")
	}
}
