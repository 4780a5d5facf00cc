package movegen_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"scrabble/gaddag"
	"scrabble/movegen"
	"scrabble/rules"
)

// FuzzDecodeGenerate is gaddag's FuzzDecode carried on into the move
// generator, which gaddag cannot import: whatever compiled file decodes
// must survive the generator's table builders (the annotated arcs and
// after-run sets, the short cross-checks, the empty board) and a listing of
// the plays on a board with a word on it, and a walk of its words (what the
// anagram index walks; the index itself is left out, as it is mapped in
// memory never returned, and Best with it), a crafted
// lexicon with a valid checksum included (half the inputs get theirs fixed
// before decoding).
func FuzzDecodeGenerate(f *testing.F) {
	g, err := gaddag.Build("seed", []string{"AA", "AB", "BA", "CAB", "CABS", "SCAB"}, [32]byte{})
	if err != nil {
		f.Fatal(err)
	}
	var good bytes.Buffer
	if _, err := g.WriteTo(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes(), false)
	f.Add(good.Bytes(), true)
	f.Add(good.Bytes()[:good.Len()/2], true)
	// Issue 23's file: one arc, A, accepting, leading back to node 1.
	le := binary.LittleEndian
	loop := le.AppendUint32([]byte("SCRGADDG"), 1)
	loop = le.AppendUint32(loop, 0)                     // no name
	loop = le.AppendUint32(loop, 1)                     // words
	loop = append(loop, make([]byte, 32+8)...)          // sha256, build date
	loop = le.AppendUint32(le.AppendUint32(loop, 1), 1) // roots
	loop = le.AppendUint32(loop, 2)                     // arcs
	loop = le.AppendUint32(le.AppendUint32(loop, 1<<25), 1<<27|1<<26|1<<25|1)
	f.Add(append(loop, 0, 0, 0, 0), true)
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	var board rules.Board
	for i, l := range []rules.Letter{3, 1, 2} { // CAB across the centre
		board.Set(7, 6+i, l)
	}
	var rack rules.Rack
	rack[1], rack[2], rack[19], rack[rules.Blank] = 2, 1, 1, 1 // AAB S ?
	f.Fuzz(func(t *testing.T, data []byte, fixChecksum bool) {
		if fixChecksum && len(data) >= 4 {
			data = bytes.Clone(data)
			body := data[:len(data)-4]
			binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(body, castagnoli))
		}
		lex, err := gaddag.Decode(data)
		if err != nil {
			return
		}
		gen := movegen.New(movegen.NewTablesHeap(lex))
		gen.SetBoard(&board)
		var all movegen.AllMoves
		gen.Generate(&rack, 0, movegen.Options{Exchanges: true, Pass: true}, &all)
		lex.Words(func(string) bool { return true })
	})
}
