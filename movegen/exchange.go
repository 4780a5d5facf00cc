package movegen

import (
	"scrabble/move"
	"scrabble/rules"
)

// bestExchange hands rec the exchange keeping the most valuable leave, or
// every exchange when several keep leaves of the same value (rec breaks the
// tie), without listing them all.
func (g *Generator) bestExchange(rack *rules.Rack, rec Recorder) {
	top, ties := int32(0), 0
	for u := int32(1); u < g.leaves.subsets; u++ {
		switch v := g.leaves.value[u]; {
		case ties == 0 || v > g.leaves.value[top]:
			top, ties = u, 1
		case v == g.leaves.value[top]:
			ties++
		}
	}
	if ties == 0 {
		return
	}
	if ties > 1 {
		g.move = move.Move{Kind: move.Exchange}
		g.leaves.used = 0
		g.exchanges(rack, 0, rec)
		return
	}
	// Decode the subset number: how many of each letter go back.
	g.move = move.Move{Kind: move.Exchange, Equity: g.leaves.value[top]}
	for l := range rack {
		if r := g.leaves.radix[l]; r > 0 {
			for c := (top / r) % (int32(rack[l]) + 1); c > 0; c-- {
				g.move.Tiles[g.move.Len] = rules.Letter(l)
				g.move.Len++
			}
		}
	}
	g.move.NumTiles = g.move.Len
	rec.Record(&g.move)
}

// generateOthers adds the exchanges and pass; setRack must have run.
func (g *Generator) generateOthers(rack *rules.Rack, bagLen int, opts Options, rec Recorder) {
	if opts.Exchanges && rules.CanExchange(bagLen) {
		g.move = move.Move{Kind: move.Exchange}
		g.leaves.used = 0
		g.exchanges(rack, 0, rec)
	}
	if opts.Pass {
		g.move = move.Move{Kind: move.Pass, Equity: g.leaves.value[0]}
		rec.Record(&g.move)
	}
}

// exchanges enumerates every distinct non-empty sub-multiset of the rack,
// choosing how many of each letter (slot) to give back.
func (g *Generator) exchanges(rack *rules.Rack, slot int, rec Recorder) {
	for slot < rules.RackSlots && rack[slot] == 0 {
		slot++
	}
	if slot == rules.RackSlots {
		if g.move.Len > 0 {
			g.move.NumTiles = g.move.Len
			clear(g.move.Tiles[g.move.Len:]) // so equal moves compare equal as values
			g.move.Equity = g.leaves.value[g.leaves.used]
			rec.Record(&g.move)
		}
		return
	}
	start, used := g.move.Len, g.leaves.used
	g.exchanges(rack, slot+1, rec)
	for k := 1; k <= int(rack[slot]); k++ {
		g.move.Tiles[g.move.Len] = rules.Letter(slot)
		g.move.Len++
		g.leaves.used += g.leaves.radix[slot]
		g.exchanges(rack, slot+1, rec)
	}
	g.move.Len, g.leaves.used = start, used
}
