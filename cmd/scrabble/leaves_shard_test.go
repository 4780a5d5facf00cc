package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLeavesShardsMerge: two generations of leave training, each played as
// shards (chunks of 4 games: 14 games are 4 chunks) and merged, the second
// from the first's merged values, give the values one machine training the
// two generations writes, byte for byte.
func TestLeavesShardsMerge(t *testing.T) {
	e := nwlEnv(t)
	defer func(c int) { trainChunk = c }(trainChunk)
	trainChunk = 4
	path := func(name string) string { return filepath.Join(e.root, name) }
	run := []string{"--lexicon", "NWL23", "leaves", "train", "--games", "14", "--seed", "5", "--prior", "20"}
	e.ok(append(run, "--generations", "2", "--out", path("whole.leaves"), "--threads", "2")...)
	from := []string{}
	for g, merged := range []string{"gen1.leaves", "gen2.leaves"} {
		gen := []string{"1", "2"}[g]
		var parts []string
		for k, threads := range []string{"1", "2", "1"} {
			part := path("g" + gen + "p" + []string{"1", "2", "3"}[k])
			args := append(append(append([]string{}, run...), from...), "--shard", []string{"1/3", "2/3", "3/3"}[k], "--generation", gen, "--out", part, "--threads", threads)
			if out := e.ok(args...); !strings.Contains(out, "Shard ") {
				t.Fatalf("generation %s, shard %d: %s", gen, k+1, out)
			}
			parts = append(parts, part+".train")
		}
		e.ok(append([]string{"leaves", "merge", "--out", path(merged)}, parts...)...)
		from = []string{"--from", path(merged)}
	}
	whole, err1 := os.ReadFile(path("whole.leaves"))
	merged, err2 := os.ReadFile(path("gen2.leaves"))
	if err1 != nil || err2 != nil || len(whole) == 0 || !bytes.Equal(whole, merged) {
		t.Fatalf("the merged second generation differs from the whole run's (%v, %v)", err1, err2)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"leaves", "merge", "--out", path("bad"), path("g1p1.train"), path("g1p2.train")}, "2 of the 3 shards given"},
		{[]string{"leaves", "merge", "--out", path("bad"), path("g1p1.train"), path("g1p2.train"), path("g2p3.train")}, "is a shard of another run"},
		{append(append([]string{}, run...), "--shard", "1/2", "--out", path("x")), "give --generation G"},
		{append(append([]string{}, run...), "--generation", "2", "--out", path("x")), "--generation is for a shard"},
	} {
		if r := e.run(c.args...); r.code == 0 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, r.code, r.stderr, c.msg)
		}
	}
}
