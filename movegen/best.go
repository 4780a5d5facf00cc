package movegen

import (
	"scrabble/move"
	"scrabble/rules"
)

// anchorBound is an anchor with an upper bound on the equity of any play
// generated from it.
type anchorBound struct {
	bound          rules.Equity
	dir, lane, pos int8
	leftLimit      int8
}

// Best returns the highest-equity move (ties broken by move.Compare): plays, plus
// the exchanges and pass that opts ask for and the bag allows. It does not
// list every play: each anchor first gets an upper bound on what it can
// score (a "shadow" play that fills the best squares with the best tiles,
// ignoring the dictionary); anchors are taken best bound first, their spans
// bounded again with a word check and put in line, and a span's plays are
// placed from the anagram index when it comes first (see direct.go). The
// search stops once no remaining bound can beat the best move found.
// A search with the rack and valuer of one of the last two reuses what they
// worked out: the rack's set-up, and the best play or a bound of each lane
// whose squares are unchanged (see laneBounds and Options.Repeat).
// docs/design/movegen.md describes it step by step.
func (g *Generator) Best(rack *rules.Rack, bagLen int, opts Options) (move.Move, bool) {
	best := &g.best
	*best = bestEquity{}
	if rack.Count() > rules.RackSize {
		// Outside the rules (the shadow's arrays hold a rack): no pruning.
		g.Generate(rack, bagLen, opts, best)
		return best.m, best.found
	}
	if opts.OpenCost > 0 {
		g.setOpenCost(opts.OpenCost)
		defer g.setOpenCost(0)
	}
	known := g.setRackCached(rack)
	if opts.Exchanges && rules.CanExchange(bagLen) {
		g.bestExchange(rack, best)
	}
	g.generateOthers(rack, bagLen, Options{Pass: opts.Pass}, best)
	if g.rackTiles == 0 {
		return best.m, best.found
	}
	g.rec = best
	if !known {
		g.analyzeRack(rack)
		ri := g.ri
		ri.rack, ri.valuer, ri.leaves, ri.valid = *rack, g.valuer, g.leaves, true
	}
	g.shadowStamp++
	// A lane's plays are kept for a later search only without the open
	// term: whether a play opens a square depends on the other lanes.
	g.shadowAll((known || opts.Repeat) && g.open.cost == 0)
	g.pruning = true
	g.spans = g.spans[:0]
	for g.queue.top != 0 {
		if best.found && g.queue.ceiling() < best.m.Equity {
			break
		}
		top := g.queue.pop()
		if best.found && rules.Equity(top>>queueShift) < best.m.Equity {
			continue
		}
		i := int(top&(1<<queueShift-1)) >> 2
		switch top & 3 {
		case anchorEntry:
			a := &g.anchors[i]
			g.laneBest = g.keptBest(a.dir, a.lane)
			g.refine(a)
		case spanEntry:
			sp := &g.spans[i]
			g.laneBest = g.keptBest(sp.dir, sp.lane)
			g.loadSquares(int(sp.dir), int(sp.lane), int(sp.start), int(sp.end))
			g.directSpan(int(sp.start), int(sp.end), int(sp.k))
			g.leaves.used = 0
		case laneEntry:
			// A lane kept from an earlier search whose plays may now
			// compete: search it after all.
			g.openLane(i)
		}
	}
	g.pruning = false
	g.laneBest = nil
	g.keepLaneBests()
	return best.m, best.found
}

// bestEquity keeps the highest-equity move, ties broken by move.Compare so the
// answer does not depend on the order moves arrive in.
type bestEquity struct {
	m     move.Move
	found bool
}

func (b *bestEquity) Record(m *move.Move) {
	if !b.found || m.Equity > b.m.Equity || (m.Equity == b.m.Equity && move.Compare(m, &b.m) < 0) {
		b.m, b.found = *m, true
	}
}
