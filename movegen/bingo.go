package movegen

import "scrabble/rules"

// Plays of all seven tiles are the costliest for the search to reach (every
// shorter prefix comes first) and rarely many: Best places them directly.
// For each span of the lane with exactly seven empty squares through the
// anchor, the words whose letters are the rack's plus the span's board
// letters come from the anagram index (blanks tried as every letter); each
// is checked against the board letters and cross-checks and recorded.

// directBingos records every 7-tile play the search from the anchor would
// find: spans through the anchor square whose empty squares all lie right of
// the left limit. The lane must be loaded.
func (g *Generator) directBingos(pos, leftLimit int) {
	var empties [n]int8
	ne, at := 0, -1
	for j := leftLimit + 1; j < n; j++ {
		if g.sq[j+1].tile == rules.Empty {
			if j == pos {
				at = ne
			}
			empties[ne] = int8(j)
			ne++
		}
	}
	for s := max(0, at-(rules.RackSize-1)); s <= at && s+rules.RackSize-1 < ne; s++ {
		start, end := int(empties[s]), int(empties[s+rules.RackSize-1])
		for start > 0 && g.sq[start].tile != rules.Empty {
			start--
		}
		for end < n-1 && g.sq[end+2].tile != rules.Empty {
			end++
		}
		key := g.rackPrint - uint64(g.rack[rules.Blank])*fingerprints[wildcard]
		for j := start; j <= end; j++ {
			if t := g.sq[j+1].tile; t != rules.Empty {
				key += fingerprints[t.Unblanked()]
			}
		}
		switch g.rack[rules.Blank] {
		case 0:
			g.placeWords(key, start, end)
		case 1:
			for d := 1; d <= rules.NumLetters; d++ {
				g.placeWords(key+fingerprints[d], start, end)
			}
		default:
			for d := 1; d <= rules.NumLetters; d++ {
				for e := d; e <= rules.NumLetters; e++ {
					g.placeWords(key+fingerprints[d]+fingerprints[e], start, end)
				}
			}
		}
	}
	g.leaves.used = 0
}

// placeWords tries every word with fingerprint key on the span.
func (g *Generator) placeWords(key uint64, start, end int) {
	idx := g.anagrams
	if !idx.prints.has(key) {
		return // the filter is one memory access, the map several
	}
	length := end - start + 1
	for _, w := range idx.longWordsOf(key) {
		if int(w&15) != length {
			continue // a fingerprint shared by chance with a longer or shorter word
		}
		off := int(w >> 4)
		g.placeWord(idx.longText[off:off+length], start, end)
	}
}

// placeWord records word on the span if it fits the board letters, the
// cross-checks and the rack, once for every way of putting the blanks.
func (g *Generator) placeWord(word []rules.Letter, start, end int) {
	var need rules.Rack
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
		g.strip[start+i] = l
	}
	// Letters beyond the rack's own are blanks: choose their squares.
	blanks := 0
	for l := 1; l < rules.RackSlots; l++ {
		if need[l] > g.rack[l] {
			blanks += int(need[l] - g.rack[l])
		}
	}
	if blanks != int(g.rack[rules.Blank]) {
		return // a fingerprint collision or a longer word
	}
	g.leaves.used = g.leaves.subsets - 1 // the whole rack
	g.placeBlanks(start, start, end, &need)
}

// placeBlanks turns letters at or after from into blanks while some letter
// is needed more often than the rack holds it, then scores and records.
func (g *Generator) placeBlanks(from, start, end int, need *rules.Rack) {
	for j := from; j <= end; j++ {
		l := g.strip[j]
		if l == rules.PlayedThrough || l.IsBlanked() || need[l] <= g.rack[l] {
			continue
		}
		// Either this square holds the blank or a later one does.
		need[l]--
		g.strip[j] = l.Blanked()
		g.placeBlanks(j+1, start, end, need)
		g.strip[j] = l
		need[l]++
		if rest := g.countLater(j+1, end, l); int(need[l]-g.rack[l]) > rest {
			return // not enough later squares with l to hold the blanks
		}
	}
	for j := from; j <= end; j++ {
		if l := g.strip[j]; l != rules.PlayedThrough && !l.IsBlanked() && need[l] > g.rack[l] {
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

// scoreAndRecord scores the 7-tile play in g.strip[start:end+1] as the
// search does and records it.
func (g *Generator) scoreAndRecord(start, end int) {
	ms, wm, cs := int32(0), int32(1), int32(0)
	for j := start; j <= end; j++ {
		sq := &g.sq[j+1]
		if sq.tile != rules.Empty {
			ms += int32(sq.tile.Value())
			continue
		}
		ts := int32(g.strip[j].Value()) * sq.letterMul
		ms += ts
		wm *= sq.wordMul
		if sq.cross&hasCross != 0 {
			cs += (sq.crossScore + ts) * sq.wordMul
		}
	}
	g.record(start, end, ms, wm, cs, rules.RackSize)
}
