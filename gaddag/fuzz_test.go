package gaddag_test

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"scrabble/gaddag"
)

// FuzzDecode feeds random bytes to the loader. Half the inputs get a valid
// checksum first, so the structural checks behind it are exercised too. A
// file that decodes must then be safe to walk.
func FuzzDecode(f *testing.F) {
	g, err := gaddag.Build("seed", []string{"AA", "AB", "BA", "CAB", "CABS", "SCAB"}, [32]byte{})
	if err != nil {
		f.Fatal(err)
	}
	good := encoded(f, g)
	f.Add(good, false)
	f.Add(good[:len(good)/2], true)
	f.Add([]byte("SCRGADDG"), true)
	f.Fuzz(func(t *testing.T, data []byte, fixChecksum bool) {
		if fixChecksum && len(data) >= 4 {
			body := data[:len(data)-4]
			binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
		}
		g, err := gaddag.Decode(data)
		if err != nil {
			return
		}
		for _, w := range []string{"A", "AB", "CABS", "ZZZZZZZZZZZZZZZZZZZZ"} {
			g.Contains(w)
		}
		g.LetterSet(g.Root())
		g.AcceptSet(g.DawgRoot())
		budget := 100000
		boundedWalk(g, g.Root(), 0, &budget)
		boundedWalk(g, g.DawgRoot(), 0, &budget)
	})
}

// boundedWalk follows every arc as a move generator would (at most 16 deep)
// until the budget of arcs runs out: a crafted file may hold cycles or
// astronomically many paths, and walking must still stay in bounds.
func boundedWalk(g *gaddag.GADDAG, n gaddag.Node, depth int, budget *int) {
	if n == 0 || depth > 16 {
		return
	}
	for i := n; *budget > 0; i++ {
		*budget--
		a := g.Arcs()[i]
		g.Next(n, a.Letter())
		boundedWalk(g, a.Child(), depth+1, budget)
		if a.Last() {
			return
		}
	}
}
