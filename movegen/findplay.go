package movegen

import (
	"math/bits"

	"scrabble/move"
	"scrabble/rules"
)

// FindPlay looks for play m on the current board for rack: if m (the same
// squares, the same tiles) is legal here, it returns the play as
// Generate would list it, scored on this board, with Equity its score
// alone (no leave). Otherwise, or for anything but a play, ok is false.
//
// It walks only the anchor the play needs, with only the tiles it uses, a
// small part of a full generation: a search can try first a move that was
// good in a sibling position (a killer move) without listing every move
// of this one. A one-tile play is found only in the direction Generate
// lists it in.
func (g *Generator) FindPlay(rack *rules.Rack, m *move.Move) (found move.Move, ok bool) {
	if m.Kind != move.Play || m.Len < 2 || int(m.Len) > n || m.NumTiles < 1 {
		return found, false
	}
	d := int(m.Dir)
	if d != int(rules.Across) && d != int(rules.Down) {
		return found, false
	}
	lane, start := int(m.Row), int(m.Col)
	if d == int(rules.Down) {
		lane, start = start, lane
	}
	end := start + int(m.Len) - 1
	if lane < 0 || lane >= n || start < 0 || end >= n || (d == int(rules.Down) && g.directions() == 1) {
		return found, false
	}
	// The squares: board tiles where the play goes through, empty squares
	// the cross-checks allow its tiles on, and the word ending at empty
	// squares or the edge. These settle most misses before any walk.
	base := lane * n
	if (start > 0 && g.tiles[d][base+start-1] != rules.Empty) || (end < n-1 && g.tiles[d][base+end+1] != rules.Empty) {
		return found, false
	}
	used := &g.finder.used // not a local: setRack would make it escape
	*used = rules.Rack{}
	placed := 0
	for i := 0; i <= end-start; i++ {
		t, sq := m.Tiles[i], base+start+i
		if t == rules.PlayedThrough {
			if g.tiles[d][sq] == rules.Empty {
				return found, false
			}
			continue
		}
		if g.tiles[d][sq] != rules.Empty || !t.IsLetter() || g.cross[d][sq]&(1<<t.Unblanked()) == 0 {
			return found, false
		}
		used.Add(t)
		placed++
	}
	if placed != int(m.NumTiles) || !rack.Contains(*used) {
		return found, false
	}
	// The plays of the play's anchor (its leftmost anchor) made of its
	// tiles alone: the walk left stops at the anchor before it, as in
	// GeneratePlays, which lists the play there.
	g.setRack(used)
	anchors := g.fitting(d, lane, g.anchor[d][lane])
	span := uint16(1<<(end+1) - 1<<start)
	if anchors&span == 0 {
		return found, false
	}
	pos := bits.TrailingZeros16(anchors & span)
	last := bits.Len16(anchors&(1<<pos-1)) - 1
	f := &g.finder // not a local: one stored in g.rec would escape
	f.want, f.ok = m, false
	g.rec = f
	g.loadLane(d, lane)
	g.genAnchor(pos, last, g.root)
	g.rec = nil
	f.want = nil
	if !f.ok {
		return found, false
	}
	f.found.Equity = rules.FromPoints(f.found.Score)
	return f.found, true
}

// playFinder is FindPlay's recorder: it keeps the play with want's squares
// and tiles.
type playFinder struct {
	want  *move.Move
	found move.Move
	ok    bool
	used  rules.Rack // the tiles want takes from the rack
}

// Record implements Recorder.
func (f *playFinder) Record(m *move.Move) {
	w := f.want
	if m.Row != w.Row || m.Col != w.Col || m.Dir != w.Dir || m.Len != w.Len {
		return
	}
	for i := range m.Len {
		if m.Tiles[i] != w.Tiles[i] {
			return
		}
	}
	f.found, f.ok = *m, true
}
