// Package natstest starts a real NATS server, with JetStream, in a test's
// process: the queue's tests, in package queue and through the command,
// talk to the server users run, not to a fake.
package natstest

import (
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Start starts a NATS server on a free loopback port with JetStream on a
// temporary directory, shut down when the test ends, and returns its URL.
func Start(t testing.TB) string {
	t.Helper()
	ns := Serve(t, -1, t.TempDir())
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

// Serve starts a NATS server on port (-1: a free one) of the loopback
// interface with JetStream on store, and returns it ready for connections;
// the caller shuts it down (a test of a restart starts it again on the
// same port and store).
func Serve(t testing.TB, port int, store string) *server.Server {
	t.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: store, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		t.Fatal("the NATS server did not start")
	}
	return ns
}
