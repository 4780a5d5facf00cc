package movegen

import "scrabble/rules"

// Best-move search prunes inside an anchor too: once the search has crossed
// to the right of the anchor, the play's left end is fixed and what it can
// still gain depends only on the squares to the right and the tiles left.
// rightPotential holds, for the loaded lane, a bound for every square p and
// number q of further tiles: the word then runs through the q-th empty
// square from p and the board tiles after it, so its extra letter sum, word
// multiplier and cross-word points are bounded by the rack's best tiles on
// the best letter multipliers among those squares. Entries are filled the
// first time a square is asked about (stamp) for the lane and rack.
type rightPotential struct {
	stamp [n + 1]uint32
	count [n + 1]int8 // entries for q = 0..count-1
	entry [n + 1][rules.RackSize + 1]potential
	// bestSup[u] is the best leave of a play that uses the tiles of the
	// subset numbered u (see rackLeaves) and maybe more; the leave of a play
	// of k tiles is also at most leaves.best[k].
	bestSup [128]int32
}

type potential struct {
	main  int32 // letter sum bound of the squares added (board tiles included)
	mul   int32 // their word multipliers
	cross int32 // cross-words' bound
}

// loadBestSupersets fills g.pot.bestSup for the rack set by setRack (at
// most 7 tiles). A superset of u has a higher subset number, so numbers are
// visited from the top down.
func (g *Generator) loadBestSupersets() {
	lv := &g.leaves
	var slots [rules.RackSlots]int
	ns := 0
	for l := 0; l < rules.RackSlots; l++ {
		if g.rack[l] > 0 {
			slots[ns] = l
			ns++
		}
	}
	// Count down through the subsets like an odometer (slot 0 the fastest
	// wheel): used[i] is how many of slots[i] the subset numbered u uses.
	var used [rules.RackSlots]uint8
	for i, l := range slots[:ns] {
		used[i] = g.rack[l]
	}
	for u := lv.subsets - 1; ; u-- {
		best := lv.value[u]
		for i, l := range slots[:ns] {
			if used[i] < g.rack[l] {
				best = max(best, g.pot.bestSup[u+lv.radix[l]])
			}
		}
		g.pot.bestSup[u] = best
		if u == 0 {
			return
		}
		for i := range slots[:ns] {
			if used[i] > 0 {
				used[i]--
				break
			}
			used[i] = g.rack[slots[i]]
		}
	}
}

// rightEntries fills the bounds of square p for the loaded lane.
func (g *Generator) rightEntries(p int) {
	top := g.tileValues[0]
	// Squares a rack tile may go on: any allowed letter with a blank, else
	// a letter on the rack.
	letters := g.letterMaskAll
	e := &g.pot.entry[p]
	j, fixed := p, int32(0)
	for j < n && g.sq[j+1].tile != rules.Empty {
		fixed += int32(g.sq[j+1].tile.Value())
		j++
	}
	e[0] = potential{main: fixed, mul: 1}
	var lms [rules.RackSize]int32 // letter multipliers so far, highest first
	q := 0
	mul, cross := int32(1), int32(0)
	for q < g.rackTilesAll && j < n {
		sq := &g.sq[j+1]
		if sq.cross&letters == 0 {
			break
		}
		i := q
		for i > 0 && lms[i-1] < sq.letterMul {
			lms[i] = lms[i-1]
			i--
		}
		lms[i] = sq.letterMul
		q++
		mul *= sq.wordMul
		if sq.cross&hasCross != 0 {
			cross += (sq.crossScore + top*sq.letterMul) * sq.wordMul
		}
		for j++; j < n && g.sq[j+1].tile != rules.Empty; j++ {
			fixed += int32(g.sq[j+1].tile.Value())
		}
		main := fixed
		for i := 0; i < q; i++ {
			main += lms[i] * g.tileValues[i]
		}
		e[q] = potential{main: main, mul: mul, cross: cross}
	}
	g.pot.count[p] = int8(q + 1)
	g.pot.stamp[p] = g.potStamp
}

// worthRight reports whether going on at square p, with the play so far
// (ms, wm, cs, placed), can still reach the best equity found. q = 0 counts
// only when p holds a board tile: otherwise the play stopping here was
// already recorded.
func (g *Generator) worthRight(p int, ms, wm, cs int32, placed int) bool {
	if !g.pruning || !g.best.found {
		return true
	}
	if g.pot.stamp[p] != g.potStamp {
		g.rightEntries(p)
	}
	target := g.best.m.Equity
	q0 := 1
	if p < n && g.sq[p+1].tile != rules.Empty {
		q0 = 0
	}
	cnt := min(int(g.pot.count[p]), g.maxPlaced-placed+1, g.rackTiles-placed+1)
	e := &g.pot.entry[p]
	sup := g.pot.bestSup[g.leaves.used]
	for q := q0; q < cnt; q++ {
		k := placed + q
		score := (ms+e[q].main)*wm*e[q].mul + cs + e[q].cross
		if k == rules.RackSize {
			score += rules.BingoBonus
		}
		if score*1000+min(sup, g.leaves.best[k]) >= target {
			return true
		}
	}
	return false
}

// worthBlank reports whether a play from the anchor being searched that puts
// the blank down now, as its k0-th tile, can still reach the best equity
// found: its score is bounded by the anchor's shadow and its leave by the
// best that keeps none of the tiles used so far nor the blank.
func (g *Generator) worthBlank(k0 int) bool {
	if !g.best.found {
		return true
	}
	a := g.searching
	sup := g.pot.bestSup[g.leaves.used+g.leaves.radix[rules.Blank]]
	target := g.best.m.Equity
	for k := k0; k <= g.maxPlaced; k++ {
		if a.scores[k] >= 0 && min(a.byTiles[k], a.scores[k]*1000+min(sup, g.leaves.best[k])) >= target {
			return true
		}
	}
	return false
}
