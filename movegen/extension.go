package movegen

import (
	"scrabble/rules"
)

// Extension sets: for an empty square next to a run of tiles in its own
// lane, the letters that can stand there in a word along the lane (the
// run's word extended by one letter: before it, after it, or between two
// runs). They restrict the main word the way cross-checks restrict the
// perpendicular one; the best-move search bounds such squares by their best
// possible letter. Squares next to no run allow every letter.

// updateLaneExtensions recomputes the extension sets of one lane in
// direction d.
func (g *Generator) updateLaneExtensions(d, lane int) {
	for pos := 0; pos < n; pos++ {
		g.updateExtension(d, lane, pos)
	}
}

// updateRunExtensions updates the extension sets a new tile at lane square
// pos changes: its own square and the squares just outside the run it is
// now part of (no other square touches that run).
func (g *Generator) updateRunExtensions(d, lane, pos int) {
	tiles := &g.tiles[d]
	base := lane * n
	s, e := pos, pos
	for s > 0 && tiles[base+s-1] != rules.Empty {
		s--
	}
	for e < n-1 && tiles[base+e+1] != rules.Empty {
		e++
	}
	g.bumpLane(d, lane)
	g.ext[d][base+pos] = 0
	if s > 0 {
		g.updateExtension(d, lane, s-1)
	}
	if e < n-1 {
		g.updateExtension(d, lane, e+1)
	}
}

// updateExtension recomputes the extension set of lane square pos.
func (g *Generator) updateExtension(d, lane, pos int) {
	g.bumpLane(d, lane)
	tiles := &g.tiles[d]
	base := lane * n
	sq := base + pos
	if tiles[sq] != rules.Empty {
		g.ext[d][sq] = 0
		return
	}
	set := allLetters
	if pos+1 < n && tiles[sq+1] != rules.Empty {
		e := pos + 1
		for e+1 < n && tiles[base+e+1] != rules.Empty {
			e++
		}
		set &= g.beforeRun(tiles[base+pos+1 : base+e+1])
	}
	if pos > 0 && tiles[sq-1] != rules.Empty {
		s := pos - 1
		for s > 0 && tiles[base+s-1] != rules.Empty {
			s--
		}
		set &= g.afterRun(tiles[base+s : base+pos])
	}
	g.ext[d][sq] = set
}

// beforeRun is the set of letters L such that L followed by run occurs in
// a word: in the GADDAG, rev(run) from the root, then L.
func (g *Generator) beforeRun(run []rules.Letter) uint32 {
	x, ok := g.followBack(g.rootArc(), run)
	if !ok {
		return 0
	}
	return x.childSet() & allLetters
}

// afterRun is the set of letters L such that run followed by L occurs in a
// word: in the GADDAG, rev(run) from the root, then any letters (those
// before the run, backwards), the separator and L (see graph.after).
func (g *Generator) afterRun(run []rules.Letter) uint32 {
	x, ok := g.followBack(g.rootArc(), run)
	if !ok {
		return 0
	}
	return g.after[x.child()]
}
