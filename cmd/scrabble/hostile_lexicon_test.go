package main

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// craftedGADDAG is the file of issue 23: a compiled lexicon with a valid
// checksum whose one arc (A, accepting) leads back to node 1, written in
// the format gaddag/format.go describes.
func craftedGADDAG() []byte {
	le := binary.LittleEndian
	b := []byte("SCRGADDG")
	b = le.AppendUint32(b, 1) // version
	b = le.AppendUint32(b, 4)
	b = append(b, "EVIL"...)
	b = le.AppendUint32(b, 1)            // words
	b = append(b, make([]byte, 32+8)...) // sha256, build date
	b = le.AppendUint32(b, 1)            // GADDAG root
	b = le.AppendUint32(b, 1)            // DAWG root
	b = le.AppendUint32(b, 2)            // arcs
	b = le.AppendUint32(b, 1<<25)        // the reserved empty node
	b = le.AppendUint32(b, 1<<27|1<<26|1<<25|1)
	return le.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// TestCraftedLexiconRefused installs the crafted file as a lexicon: every
// command that loads it exits 1 with a message naming the file, never
// answers from it nor panics.
func TestCraftedLexiconRefused(t *testing.T) {
	e := newTestEnv(t)
	path := filepath.Join(e.dataDir, "lexica", "EVIL.gaddag")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, craftedGADDAG(), 0o644); err != nil {
		t.Fatal(err)
	}
	board := e.file("board.txt", gridBoard)
	for _, args := range [][]string{
		{"check", "AAAA", "QXZ"},
		{"best", "--board", board, "--rack", "AEINRST"},
		{"moves", "--board", board, "--rack", "AEINRST"},
		{"lexicon", "info", "EVIL"},
	} {
		r := e.run(append([]string{"--lexicon", "EVIL"}, args...)...)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "scrabble: ") || !strings.Contains(r.stderr, path) ||
			!strings.Contains(r.stderr, "corrupt compiled lexicon") || !strings.Contains(r.stderr, "cycle") || strings.Contains(r.stdout, "valid") {
			t.Errorf("scrabble %s: exit %d\nstdout %q\nstderr %q", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
}
