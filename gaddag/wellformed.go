package gaddag

import "fmt"

// The proof that a decoded graph is well-formed keeps one byte per arc
// index i, summing up the arcs from i to the end of i's sibling list (the
// node starting at i): the longest path from it in arcs, whether a
// separator lies on any path from it, and whether any path from it ends a
// word. 0 is not worked out yet (a worked-out value has a height of at least
// 1); inProgress marks the arcs whose value waits on a child. A byte, not a
// word, so that the table of NWL23's 880,000 arcs mostly stays in the cache:
// the check reads it at every child, in no order.
const (
	heightMask = 0x1f
	sepBelow   = 0x20
	wordBelow  = 0x40
	noChild    = 0x80 // memo[0]: one arc higher is height 1, no flags
	inProgress = 0xff

	// MaxWords is the most words a compiled lexicon may hold (CSW24 has
	// 280,000): a graph that claims more is refused before any walk
	// lists them.
	MaxWords = 1 << 24
)

// checkGraph proves what every walk over the graph relies on, in time linear
// in the arcs: no path is longer than a word plus the separator (so no cycle
// either), every arc lies on a path to a word, no path crosses two
// separators, a separator arc neither accepts nor ends a path, none leaves
// the GADDAG root or lies below the DAWG root, and the DAWG holds exactly
// the declared number of words. The arcs' own fields (letters, children,
// sibling order) were checked by validate.
func (g *GADDAG) checkGraph() error {
	words := g.hdr.WordCount
	if words < 1 || words > MaxWords {
		return fmt.Errorf("%w: declared word count %d, not between 1 and %d", ErrCorrupt, words, MaxWords)
	}
	c := graphCheck{arcs: g.arcs, memo: make([]uint8, len(g.arcs))}
	if err := c.sweep(); err != nil {
		return err
	}
	d := c.memo[g.dawg]
	if d&sepBelow != 0 {
		return fmt.Errorf("%w: a separator below the DAWG root (node %d)", ErrCorrupt, g.dawg)
	}
	if h := d & heightMask; h > MaxWordLength {
		return fmt.Errorf("%w: the DAWG holds a path of %d letters, longer than a word (%d)", ErrCorrupt, h, MaxWordLength)
	}
	if g.arcs[g.root].Letter() == Separator {
		return fmt.Errorf("%w: a separator arc leaves the GADDAG root (node %d)", ErrCorrupt, g.root)
	}
	// Now that the DAWG is known to be acyclic and shallow, count its
	// words, the nodes it reaches only (a sixth of the arcs).
	counts := make([]uint32, len(g.arcs))
	if n := countWords(g.arcs, counts, g.dawg); n != uint64(words) {
		got := fmt.Sprint(n)
		if n > MaxWords {
			got = fmt.Sprintf("more than %d", MaxWords)
		}
		return fmt.Errorf("%w: declared %d words but the DAWG holds %s", ErrCorrupt, words, got)
	}
	return nil
}

// countWords is the number of words below node i, at most MaxWords+1. The
// DAWG must be proven acyclic, shallow and free of dead ends first: counts
// holds each node's count once known (never 0 for a known node).
func countWords(arcs []Arc, counts []uint32, i Node) uint64 {
	if i == 0 {
		return 0
	}
	if n := counts[i]; n != 0 {
		return uint64(n)
	}
	var n uint64
	for j := i; ; j++ {
		a := arcs[j]
		if a.Accepts() {
			n++
		}
		n += countWords(arcs, counts, a.Child())
		if a.Last() {
			break
		}
	}
	n = min(n, MaxWords+1)
	counts[i] = uint32(n)
	return n
}

type graphCheck struct {
	arcs []Arc
	memo []uint8
}

// sweep works out every arc's value. It takes the lists in order: children
// mostly come before their parents, so most lists find their children's
// values there and are worked out here, without a branch on their letters
// or flags (an arc found wrong sends its list to list, which says what is
// wrong); the others go to list, which follows the children not known yet.
func (c *graphCheck) sweep() error {
	arcs, memo := c.arcs, c.memo
	memo[0] = noChild
	for s := 1; s < len(arcs); {
		e := s
		for !arcs[e].Last() {
			e++
		}
		if memo[s] == 0 {
			var own uint8
			k := e
			for ; k >= s; k-- {
				a := arcs[k]
				v := memo[a.Child()]
				if v-1 >= inProgress-1 || memo[k] != 0 {
					break // a child not known yet, or a suffix known already
				}
				x := (v + 1) &^ noChild
				acc := uint8(a>>acceptsShift) & 1
				var sep uint8
				if a.Letter() == Separator {
					sep = 1
				}
				// Wrong: two separators, a separator that accepts or ends
				// the path, no word below, too long.
				bad := sep&(x>>5|acc|b2u(a.Child() == 0)) | ^(x>>6|acc)&1 | b2u(x&heightMask > maxPathLen)
				if bad != 0 {
					break
				}
				x |= sep<<5 | acc<<6
				own = (x|own)&^heightMask | max(x&heightMask, own&heightMask)
				memo[k] = own
			}
			if k >= s {
				if err := c.list(s, 0); err != nil {
					return err
				}
			}
		}
		s = e + 1
	}
	return nil
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// list works out the values (see checkGraph) of the arcs from i to the end
// of its sibling list that are not known yet, depth child arcs below where
// the sweep started.
func (c *graphCheck) list(i, depth int) error {
	e := i
	for !c.arcs[e].Last() {
		e++
	}
	// The suffixes already known (a node starting inside the list may
	// have been worked out first), then the rest.
	k := e
	var own uint8 // the value of the arcs after k
	for ; k >= i && c.memo[k] != 0; k-- {
		if own = c.memo[k]; own == inProgress {
			return fmt.Errorf("%w: cycle: a path from arc %d leads back to it", ErrCorrupt, k)
		}
	}
	marked := false
	for ; k >= i; k-- {
		a := c.arcs[k]
		ch := a.Child()
		v := c.memo[ch]
		if v-1 >= inProgress-1 { // 0 (not known yet) or inProgress
			if v == inProgress {
				return fmt.Errorf("%w: cycle: arc %d leads back to node %d", ErrCorrupt, k, ch)
			}
			if depth+1 >= maxPathLen {
				return fmt.Errorf("%w: arc %d starts a path longer than %d arcs (a word and the separator)", ErrCorrupt, k, maxPathLen)
			}
			if !marked {
				// A path back into i..k is a cycle: mark them.
				for j := i; j <= k; j++ {
					c.memo[j] = inProgress
				}
				marked = true
			}
			if err := c.list(int(ch), depth+1); err != nil {
				return err
			}
			v = c.memo[ch]
		}
		x := (v + 1) &^ noChild // the child's flags, one arc higher
		if a.Letter() == Separator {
			if x&sepBelow != 0 {
				return fmt.Errorf("%w: arc %d: a path crosses two separators", ErrCorrupt, k)
			}
			if a.Accepts() || ch == 0 {
				return fmt.Errorf("%w: separator arc %d accepts or leads nowhere", ErrCorrupt, k)
			}
			x |= sepBelow
		}
		if a.Accepts() {
			x |= wordBelow
		}
		if x&wordBelow == 0 {
			return fmt.Errorf("%w: arc %d leads to no word", ErrCorrupt, k)
		}
		if x&heightMask > maxPathLen {
			return fmt.Errorf("%w: arc %d starts a path longer than %d arcs (a word and the separator)", ErrCorrupt, k, maxPathLen)
		}
		own = (x|own)&^heightMask | max(x&heightMask, own&heightMask)
		c.memo[k] = own
	}
	return nil
}
