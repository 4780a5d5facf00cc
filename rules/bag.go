package rules

import (
	"fmt"
	"math/rand/v2"
)

// bagStream is the fixed second PCG seed word: together with the caller's seed
// it fixes the whole sequence of draws.
const bagStream = 0x5C4A_BB1E_0BA6_5EED

// Bag is the pool of tiles players draw from. Draws come from a PCG generator
// seeded by the caller, so the same seed and the same sequence of calls give
// the same tiles on every machine. Only the PCG's raw 64-bit outputs are used
// (with our own unbiased reduction), so the draws do not depend on how a Go
// release implements rand.Rand's helpers. A Bag is not safe for concurrent use.
type Bag struct {
	tiles []Letter // blanks as Blank; order matters for reproducibility
	src   *rand.PCG
}

// NewBag returns a bag holding the full 100-tile set.
func NewBag(seed uint64) *Bag { return NewBagFrom(distribution, seed) }

// NewBagFrom returns a bag holding the given tiles (any multiset, e.g. the
// unseen pool when simulating from a position).
func NewBagFrom(tiles Rack, seed uint64) *Bag {
	return &Bag{tiles: tiles.Tiles(), src: rand.NewPCG(seed, bagStream)}
}

// intN returns a uniform integer in [0, n), n > 0, by rejection sampling:
// outputs below 2^64 mod n are thrown away so that the accepted range holds
// a whole number of multiples of n.
func (b *Bag) intN(n int) int {
	un := uint64(n)
	threshold := -un % un // (2^64 - n) mod n == 2^64 mod n
	for {
		if x := b.src.Uint64(); x >= threshold {
			return int(x % un)
		}
	}
}

// Len is the number of tiles in the bag.
func (b *Bag) Len() int { return len(b.tiles) }

// Draw takes min(n, Len) tiles uniformly at random; blanks come out as Blank.
func (b *Bag) Draw(n int) []Letter {
	n = max(0, min(n, len(b.tiles)))
	out := make([]Letter, 0, n)
	for range n {
		out = append(out, b.take())
	}
	return out
}

// take removes a tile drawn at random and returns it; the bag must not be
// empty.
func (b *Bag) take() Letter {
	i := b.intN(len(b.tiles))
	last := len(b.tiles) - 1
	l := b.tiles[i]
	b.tiles[i] = b.tiles[last]
	b.tiles = b.tiles[:last]
	return l
}

// DrawInto draws min(n, Len) tiles onto r, the same tiles Draw would, and
// returns how many it drew. To refill a rack pass RackSize - r.Count(). It
// allocates nothing.
func (b *Bag) DrawInto(r *Rack, n int) int {
	n = max(0, min(n, len(b.tiles)))
	for range n {
		r.Add(b.take())
	}
	return n
}

// Return puts tiles back (after an exchange); a blank designated as a letter
// goes back as a plain blank. It panics on a value that is no tile.
func (b *Bag) Return(tiles ...Letter) {
	for _, l := range tiles {
		if l.IsBlanked() {
			l = Blank
		}
		if l != Blank && !l.IsLetter() {
			panic(fmt.Sprintf("rules: Bag.Return: %#x is not a tile", uint8(l)))
		}
		b.tiles = append(b.tiles, l)
	}
}

// Contents returns the tiles left in the bag as counts.
func (b *Bag) Contents() Rack {
	var r Rack
	for _, l := range b.tiles {
		r.Add(l)
	}
	return r
}

// Remove takes one given tile out of the bag (a blanked letter takes a blank),
// e.g. to set up a position; it reports false when the bag has none.
func (b *Bag) Remove(l Letter) bool {
	want := l.RackIndex()
	for i := len(b.tiles) - 1; i >= 0; i-- {
		if b.tiles[i].RackIndex() == want {
			b.tiles = append(b.tiles[:i], b.tiles[i+1:]...)
			return true
		}
	}
	return false
}
