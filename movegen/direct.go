package movegen

import "scrabble/rules"

// Best does not walk the GADDAG. Once a span's bound is the highest in line
// (see queueSpan), its plays are placed directly: for every subset of rack
// tiles as many as its empty squares (best leave first), the words whose
// letters are the subset's plus the span's board letters come from the
// anagram index; each is checked against the board letters and cross-checks
// and recorded.
//
// The point is the bound: a subset's leave is exact and its tiles' values
// are known, so a subset that cannot reach the best move found costs a
// multiply-add, and the word index is asked only about the few that can.

// directSpan records the competitive plays covering exactly the squares
// start to end, with k new tiles.
func (g *Generator) directSpan(start, end, k int) {
	playable := g.letterMask | g.blankMask
	fixed, wm := int32(0), int32(1)
	var board uint64
	through := false
	for j := start; j <= end; j++ {
		sq := &g.sq[j+1]
		if t := sq.tile; t != rules.Empty {
			through = true
			fixed += sq.fixed
			board += fingerprints[t.Unblanked()]
			continue
		}
		if sq.cross&playable == 0 {
			return
		}
		wm *= sq.wordMul
	}
	// A tile on an empty square earns its value times that square's
	// coefficient (main word, and its cross-word if any): the highest
	// values on the highest coefficients bound any arrangement.
	var coef [rules.RackSize]int32
	// Squares that take only some letters: a subset must have one of them
	// for each (or a blank).
	var hooks [rules.RackSize]uint32
	nh := 0
	base := fixed * wm
	m := 0
	for j := start; j <= end; j++ {
		sq := &g.sq[j+1]
		if sq.tile != rules.Empty {
			continue
		}
		if allowed := sq.cross & allLetters; allowed != allLetters {
			hooks[nh] = allowed
			nh++
		}
		c := sq.letterMul * (wm + sq.crossMul) // crossMul: 0 without a cross-word
		base += sq.crossScore * sq.crossMul
		i := m
		for ; i > 0 && coef[i-1] < c; i-- {
			coef[i] = coef[i-1]
		}
		coef[i] = c
		m++
	}
	if k == rules.RackSize {
		base += rules.BingoBonus
	}
	top := base
	for i := 0; i < k; i++ {
		top += coef[i] * g.tileValues[i]
	}
	rev := reversedLanes(&coef)
	// Subsets the bound's word check found spelling nothing here need not
	// be asked again: those keeping more than checked (see throughLeave).
	checked := -minEquity
	if through {
		if e, _, found := g.ri.memo.slot(board, g.rackTiles-k); found {
			checked = e.floor
			if e.leave != minEquity {
				checked = e.leave + 1
			}
		}
	}
	for _, i := range g.ri.bySize[k&7] {
		sub := &g.ri.subsets[i&127] // no bounds check: there are at most 127
		if through {
			if sub.leave >= checked {
				continue
			}
		} else if !sub.spells {
			continue
		}
		if g.best.found {
			if rules.FromPoints(top)+sub.leave < g.best.m.Equity {
				return // the rest keep less
			}
			bound := base + packedDot(&sub.packed, &rev)
			if rules.FromPoints(bound)+sub.leave < g.best.m.Equity {
				continue
			}
		}
		if nh > 0 {
			missing := 0
			for _, h := range hooks[:nh] {
				if h&sub.letters == 0 {
					missing++
				}
			}
			if missing > int(sub.blanks) {
				continue
			}
		}
		g.directSubset(sub, board, start, end)
	}
}

// A subset's score bound is a dot product of its tile values and the
// span's coefficients. Values are packed 16 bits a lane, four to a word
// (packValue); the coefficients the same but in reverse lane order. The
// product of two such words then holds the dot product of their four lanes
// in its top lane: every partial sum stays below 2^16 (values at most 10,
// coefficients at most 3*27+3), so no lane carries into the next.

// packValue adds value v as the i-th of packed.
func packValue(packed *[2]uint64, i int, v int8) {
	packed[i>>2] |= uint64(v) << (16 * (i & 3))
}

// reversedLanes packs coefficients for packedDot.
func reversedLanes(coef *[rules.RackSize]int32) (rev [2]uint64) {
	for i, c := range coef {
		rev[i>>2] |= uint64(c) << (16 * (3 - i&3))
	}
	return rev
}

// packedDot is the dot product of packed values and reversed coefficients.
func packedDot(packed, rev *[2]uint64) int32 {
	return int32((packed[0]*rev[0])>>48 + (packed[1]*rev[1])>>48)
}

// directSubset records the plays of the subset's tiles on the span whose
// board letters have fingerprint board. Blanks are tried as every letter.
func (g *Generator) directSubset(sub *rackSubset, board uint64, start, end int) {
	idx := g.anagrams
	prints := idx.prints
	f := sub.fp + board
	switch sub.blanks {
	case 0:
		if prints.has(f) {
			g.placeListed(f, sub, start, end)
		}
	case 1:
		if !idx.wildPrints.has(f) {
			return
		}
		f -= fingerprints[wildcard]
		for d := 1; d <= rules.NumLetters; d++ {
			if prints.has(f + fingerprints[d]) {
				g.placeListed(f+fingerprints[d], sub, start, end)
			}
		}
	default:
		f -= 2 * fingerprints[wildcard]
		for d := 1; d <= rules.NumLetters; d++ {
			if !idx.wildPrints.has(f + fingerprints[d] + fingerprints[wildcard]) {
				continue
			}
			for e := d; e <= rules.NumLetters; e++ {
				if prints.has(f + fingerprints[d] + fingerprints[e]) {
					g.placeListed(f+fingerprints[d]+fingerprints[e], sub, start, end)
				}
			}
		}
	}
}

// placeListed tries every word with fingerprint f on the span, played with
// the subset's tiles.
func (g *Generator) placeListed(f uint64, sub *rackSubset, start, end int) {
	idx := g.anagrams
	length := end - start + 1
	var buf [rules.Size]rules.Letter
	words, wordLen := idx.wordsOf(f, &buf)
	if wordLen != length {
		return // none, or a fingerprint shared by chance with another length
	}
	// The subset's tiles by letter.
	var have rules.Rack
	for i, l := range g.ri.subsetSlots[:g.ri.numSlots] {
		have[l] = uint8(sub.counts >> (4 * i) & 15)
	}
	g.leaves.used = sub.idx
	for off := 0; off < len(words); off += length {
		g.placeWordWith(words[off:off+length], start, end, &have, int(sub.k))
	}
}

// placeWordWith records word on the span if it fits the board letters, the
// cross-checks and the tiles in have (k of them), once for every way of
// putting the blanks. g.leaves.used must be have's leave number.
func (g *Generator) placeWordWith(word []rules.Letter, start, end int, have *rules.Rack, k int) {
	var need rules.Rack
	blanks := uint8(0) // letters beyond the tiles' own: blanks
	for i, l := range word {
		sq := &g.sq[start+i+1]
		if t := sq.tile; t != rules.Empty {
			if t.Unblanked() != l {
				return
			}
			g.strip[start+i] = rules.PlayedThrough
			continue
		}
		if sq.cross&(1<<l) == 0 {
			return
		}
		need[l]++
		if need[l] > have[l] {
			blanks++
		}
		g.strip[start+i] = l
	}
	if blanks != have[rules.Blank] {
		return // a fingerprint collision
	}
	g.placing = k
	if blanks == 0 {
		g.scoreAndRecord(start, end)
		return
	}
	// Choose the blanks' squares.
	g.have = *have
	g.placeBlanks(start, start, end, &need)
}

// placeBlanks turns letters at or after from into blanks while some letter
// is needed more often than the rack holds it, then scores and records.
func (g *Generator) placeBlanks(from, start, end int, need *rules.Rack) {
	for j := from; j <= end; j++ {
		l := g.strip[j]
		if l == rules.PlayedThrough || l.IsBlanked() || need[l] <= g.have[l] {
			continue
		}
		// Either this square holds the blank or a later one does.
		need[l]--
		g.strip[j] = l.Blanked()
		g.placeBlanks(j+1, start, end, need)
		g.strip[j] = l
		need[l]++
		if rest := g.countLater(j+1, end, l); int(need[l]-g.have[l]) > rest {
			return // not enough later squares with l to hold the blanks
		}
	}
	for j := from; j <= end; j++ {
		if l := g.strip[j]; l != rules.PlayedThrough && !l.IsBlanked() && need[l] > g.have[l] {
			return
		}
	}
	g.scoreAndRecord(start, end)
}

func (g *Generator) countLater(from, end int, l rules.Letter) int {
	c := 0
	for j := from; j <= end; j++ {
		if g.strip[j] == l {
			c++
		}
	}
	return c
}

// scoreAndRecord scores the play of g.placing tiles in g.strip[start:end+1]
// as the search does and records it.
func (g *Generator) scoreAndRecord(start, end int) {
	ms, wm, cs := int32(0), int32(1), int32(0)
	for j := start; j <= end; j++ {
		// No branch: a board tile's square (PlayedThrough in the strip)
		// adds its fixed value only; see laneSquare.
		sq := &g.sq[j+1]
		ts := valueOf[g.strip[j]] * sq.letterMul
		ms += ts + sq.fixed
		wm *= sq.wordMul
		cs += (sq.crossScore + ts) * sq.crossMul
	}
	g.record(start, end, ms, wm, cs, g.placing)
}
