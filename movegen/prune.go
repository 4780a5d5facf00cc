package movegen

import (
	"fmt"
	"slices"

	"scrabble/gaddag"
	"scrabble/rules"
)

// PrunedWords lists, sorted, the words of lex that some sequence of plays
// of the given tiles could form on board b: every word of a row or column
// that keeps b's letters where b has them, fills at least one empty square,
// ends at an empty square or the edge on both sides, and takes its new
// letters from tiles (a blank standing for any letter). Later plays only
// add tiles from the same pool, so any word formed from b on, across or
// along, is among them: an endgame (both racks known) or a pre-endgame (the
// mover's rack and the unseen tiles) never needs another word.
func PrunedWords(lex *gaddag.GADDAG, b *rules.Board, tiles rules.Rack) []string {
	p := pruner{arcs: lex.Arcs(), limit: n, out: make(map[string]struct{}), seen: make(map[string]struct{})}
	for i, c := range tiles {
		p.counts[i] = int(c)
	}
	// Words of new tiles only: the same on any empty stretch, so walked
	// once, on a lane with no letters as long as the longest stretch.
	p.lane = [n]rules.Letter{}
	p.start, p.limit = 0, longestFree(b)
	if p.limit > 0 {
		p.right(lex.DawgRoot(), 0, 0)
	}
	p.limit = n
	// Words through letters on the board, from the first of them: every
	// square before it is empty, so the walk goes left from a run of
	// letters in the GADDAG, then right from the run after the separator.
	for d := 0; d < 2; d++ {
		for lane := 0; lane < n; lane++ {
			for pos := 0; pos < n; pos++ {
				r, c := boardRC(d, lane, pos)
				p.lane[pos] = b.At(r, c).Unblanked()
			}
			for s := 0; s < n; s++ {
				if p.lane[s] == 0 || (s > 0 && p.lane[s-1] != 0) {
					continue
				}
				// Runs that look alike give the same words: the key
				// is how many squares before the run a word may
				// start on (not next to another letter) and the lane
				// from the run on.
				reach := 0
				for q := s - 1; q >= 0 && p.lane[q] == 0; q-- {
					if q == 0 || p.lane[q-1] == 0 {
						reach = s - q
					}
				}
				key := string(rune(reach)) + string(p.lane[s:])
				if _, dup := p.seen[key]; dup {
					continue
				}
				p.seen[key] = struct{}{}
				p.anchor = s
				p.left(lex.Root(), s, 0)
			}
		}
	}
	words := make([]string, 0, len(p.out))
	for w := range p.out {
		words = append(words, w)
	}
	slices.Sort(words)
	return words
}

// longestFree is the length of the longest stretch of empty squares along
// a row or column of b that touches no letter at either end.
func longestFree(b *rules.Board) int {
	best := 0
	for d := 0; d < 2; d++ {
		for lane := 0; lane < n; lane++ {
			run := 0 // empty squares so far, the last one excluded
			for pos := 0; pos <= n; pos++ {
				full := false
				if pos < n {
					r, c := boardRC(d, lane, pos)
					full = b.At(r, c) != rules.Empty
				}
				switch {
				case pos == n || full:
					// The stretch ends here: before a letter it
					// keeps off the square next to it.
					free := run
					if full && free > 0 {
						free--
					}
					best = max(best, free)
					run = 0
					if full {
						run = -1 // the square after a letter is not free either
					}
				default:
					run++
				}
			}
		}
	}
	return best
}

// pruner is PrunedWords' walk along one lane.
type pruner struct {
	arcs   []gaddag.Arc
	lane   [n]rules.Letter      // the lane's letters (0: empty)
	anchor int                  // the first board letter of the words walked
	start  int                  // the first square of the word being walked
	limit  int                  // the squares of the lane (n, less for the walk of new tiles only)
	counts [rules.RackSlots]int // tiles left to place, blanks in 0
	word   [n]byte              // the word from square start on
	out    map[string]struct{}
	seen   map[string]struct{}
}

// take picks the tile for letter l on an empty square: the rack slot
// used, or -1 when neither l nor a blank is left. A letter's own tile goes
// before a blank: the blank kept can stand for anything l could later.
func (p *pruner) take(l rules.Letter) int {
	switch {
	case p.counts[l] > 0:
		return int(l)
	case p.counts[rules.Blank] > 0:
		return int(rules.Blank)
	}
	return -1
}

// ends reports whether a word may end at square j.
func (p *pruner) ends(j int) bool { return j == p.limit-1 || p.lane[j+1] == 0 }

// keep records the word on squares start..j.
func (p *pruner) keep(j int) {
	w := p.word[p.start : j+1]
	if _, ok := p.out[string(w)]; !ok {
		p.out[string(w)] = struct{}{}
	}
}

// left follows the GADDAG's arcs of node for square j, at or before the
// anchor (read right to left); placed counts the tiles put on empty
// squares so far.
func (p *pruner) left(node gaddag.Node, j, placed int) {
	if node == 0 {
		return
	}
	fixed := p.lane[j]
	for i := int(node); ; i++ {
		a := p.arcs[i]
		l := a.Letter()
		if l == gaddag.Separator {
			// The word starts one square to the right, which has
			// nothing before it (see below): turn right.
			if a.Last() {
				return
			}
			continue
		}
		used := -1
		if fixed != 0 {
			if l != fixed {
				if a.Last() || l > fixed {
					return
				}
				continue
			}
		} else if used = p.take(l); used < 0 {
			if a.Last() {
				return
			}
			continue
		}
		np := placed
		if used >= 0 {
			p.counts[used]--
			np++
		}
		p.word[j] = byte('A' + l - 1)
		// The word may start at j when nothing is right before it;
		// else it goes on left over an empty square.
		if j == 0 || p.lane[j-1] == 0 {
			p.start = j
			if a.Accepts() && np > 0 && p.ends(p.anchor) {
				p.keep(p.anchor)
			}
			if c := a.Child(); c != 0 {
				if sep := p.arcs[c]; sep.Letter() == gaddag.Separator && p.anchor < n-1 {
					p.right(sep.Child(), p.anchor+1, np)
				}
				if j > 0 {
					p.left(c, j-1, np)
				}
			}
		}
		if used >= 0 {
			p.counts[used]++
		}
		if fixed != 0 || a.Last() {
			return
		}
	}
}

// right follows the DAWG's arcs of node for square j, after the anchor.
func (p *pruner) right(node gaddag.Node, j, placed int) {
	if node == 0 {
		return
	}
	fixed := p.lane[j]
	for i := int(node); ; i++ {
		a := p.arcs[i]
		l := a.Letter()
		used := -1
		if fixed != 0 {
			if l != fixed {
				if a.Last() || l > fixed {
					return
				}
				continue
			}
		} else if used = p.take(l); used < 0 {
			if a.Last() {
				return
			}
			continue
		}
		np := placed
		if used >= 0 {
			p.counts[used]--
			np++
		}
		p.word[j] = byte('A' + l - 1)
		if a.Accepts() && np > 0 && p.ends(j) {
			p.keep(j)
		}
		if j < p.limit-1 {
			p.right(a.Child(), j+1, np)
		}
		if used >= 0 {
			p.counts[used]++
		}
		if fixed != 0 || a.Last() {
			return
		}
	}
}

// Pruned returns tables for t's lexicon cut down to PrunedWords(b, tiles).
// A generator on them lists the same plays as one on t for any rack of
// those tiles, on b and on every board plays of them lead to, and walks a
// much smaller graph: an endgame's or a pre-endgame's searches build one
// for the position. Unlike NewTables' the pruned tables are ordinary
// memory, dropped with the last generator reading them. With no word to
// keep it returns t.
func (t *Tables) Pruned(b *rules.Board, tiles rules.Rack) (*Tables, error) {
	words := PrunedWords(t.lex, b, tiles)
	if len(words) == 0 {
		return t, nil
	}
	lex, err := gaddag.Build(t.lex.Header().Name+" (pruned)", words, t.lex.Header().SourceSHA256)
	if err != nil {
		return nil, fmt.Errorf("movegen: pruning the lexicon: %w", err)
	}
	pt := newTables(lex, false)
	pt.whole = t
	return pt, nil
}
