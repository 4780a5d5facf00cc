package movegen

import "scrabble/rules"

// openLane searches a lane kept from an earlier search (i is its number
// d*n+lane, times two, plus the copy's): its anchors are bounded and put in
// line, and what it finds is kept for it.
func (g *Generator) openLane(i int) {
	id := i >> 1
	d, lane := id/n, id%n
	g.kept[id], g.keptAny = &g.ri.lanes[id][i&1], true
	g.shadowLaneAnchors(d, lane)
}

// laneBounds keeps what a search found of a lane's plays for a rack
// (rackInfo.lanes), with what they depend on: the lane's squares
// (laneSquareKey) and its anchors. A simulation searches the opponent's
// rack on every candidate's board, and a candidate changes only a few
// lanes: a later search needs to search an unchanged lane only if its plays
// can beat the best move found elsewhere.
//
// A search records every play that reaches its final best move's equity,
// so after it a lane either has its best play known (exact: one of its
// plays reached that equity, or the search cut nothing) or all its plays
// are below that equity (below).
type laneBounds struct {
	valid   bool
	anchors uint16
	squares [n]uint64
	exact   bool
	best    bestEquity   // its best play found (exact: its best play)
	below   rules.Equity // not exact: every play of the lane is below this
}

// laneSquareKey packs what the shadow reads of a square: its tile, the
// letters allowed there (with hasCross) and the cross-word's score.
func (g *Generator) laneSquareKey(d, sq int) uint64 {
	allowed := g.cross[d][sq] & (g.ext[d][sq] | hasCross)
	return uint64(allowed) | uint64(uint16(g.crossScore[d][sq]))<<32 | uint64(g.tiles[d][sq])<<48
}

// reuseLane takes what was kept of the lane (its squares' keys in
// g.laneKeys), if one of its two copies (the first kept, most often the
// position's own lane, which most candidates leave as it is, and the
// latest) matches it: its best play is recorded if known, else the lane
// goes in line on the bound of its plays.
func (g *Generator) reuseLane(d, lane int, anchors uint16) bool {
	id := d*n + lane
	for w := range g.ri.lanes[id] {
		lb := &g.ri.lanes[id][w]
		if !lb.valid || lb.anchors != anchors || lb.squares != g.laneKeys {
			continue
		}
		if lb.exact {
			if lb.best.found {
				g.best.Record(&lb.best.m)
			}
		} else {
			g.queue.push(queueKey(lb.below-1, id<<1|w, laneEntry))
		}
		return true
	}
	return false
}

// keepLane takes a copy of the lane (the first copy while it is free, else
// the latest) for its squares (g.laneKeys) and what this search finds of
// its plays.
func (g *Generator) keepLane(d, lane int, anchors uint16) {
	id := d*n + lane
	lb := &g.ri.lanes[id][0]
	if lb.valid {
		lb = &g.ri.lanes[id][1]
	}
	*lb = laneBounds{valid: true, anchors: anchors, squares: g.laneKeys, below: -minEquity}
	g.kept[id], g.keptAny = lb, true
}

// keptBest is where the best play found in the lane goes if the search
// keeps the lane, else nil.
func (g *Generator) keptBest(d, lane int8) *bestEquity {
	if lb := g.kept[int(d)*n+int(lane)]; lb != nil {
		return &lb.best
	}
	return nil
}

// keepLaneBests settles what the search found of the lanes kept or opened
// in it, now that its best move is known (see laneBounds).
func (g *Generator) keepLaneBests() {
	if !g.keptAny {
		return
	}
	for _, lb := range g.kept {
		switch {
		case lb == nil:
		case !g.best.found || lb.best.found && lb.best.m.Equity >= g.best.m.Equity:
			lb.exact = true
		default:
			lb.below = min(lb.below, g.best.m.Equity)
		}
	}
}
