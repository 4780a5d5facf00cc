package move

import (
	"cmp"
	"math/bits"
	"slices"
	"sync"

	"scrabble/rules"
)

// SortByScore sorts moves by ByScore: the order slices.SortFunc with
// ByScore gives (moves that Compare finds equal, which differ at most in
// NumTiles, Equity or tiles past Len, may come in another order), by a
// radix sort of packed keys instead of comparing whole moves. The
// comparison sort took as long as generating a position's thousand plays
// (41% of a CPU profile of BenchmarkMovesSorted each); this takes 13%
// against the generator's 72%.
//
// Each move's key holds, most significant first, its score below the
// highest (so the best score comes first), kind, direction, row, column and
// length (Compare's order), then its index in ms. A radix sort orders the
// keys on all but the index; moves whose keys tie there (the same squares,
// other letters: nine in ten plays of a position share theirs with others)
// are put in the order of their tiles; then the moves are permuted once.
// A list whose moves do not fit the key's fields (a row outside 0-15, say,
// which no legal move has) is sorted by comparisons.
func SortByScore(ms []Move) { sortBy(ms, false, ByScore) }

// SortByEquity sorts moves by ByEquity in the same way: equity first (its
// millipoints in the key where SortByScore has the score), then Compare.
func SortByEquity(ms []Move) { sortBy(ms, true, ByEquity) }

// primary is the first key of a sort: equity or score (a branch the
// processor predicts, where a function value cost 6% of the sort).
func primary(m *Move, byEquity bool) int64 {
	if byEquity {
		return int64(m.Equity)
	}
	return int64(m.Score)
}

// sortBy sorts ms highest primary key first, then by Compare: by the packed
// keys, or by comparisons (cmp) for a short list or one the keys cannot
// hold.
func sortBy(ms []Move, byEquity bool, cmp func(a, b *Move) int) {
	if len(ms) > smallSort {
		s := sorters.Get().(*sorter)
		ok := s.sortBy(ms, byEquity)
		sorters.Put(s)
		if ok {
			return
		}
	}
	slices.SortFunc(ms, func(a, b Move) int { return cmp(&a, &b) })
}

// smallSort is the length up to which SortByScore compares moves (a radix
// sort's passes cost more than comparing a few).
const smallSort = 16

// A key's fields below the score: kind (2 bits), direction (1), row,
// column and length (4 each).
const (
	posBits = 15
	digit   = 8 // bits sorted per radix pass
	maxPass = (32 + posBits + digit - 1) / digit
)

// sorter holds SortByScore's buffers between calls.
type sorter struct {
	keys, tmp []uint64
	ties      []tied
	moves     []Move
	count     [maxPass][1 << digit]uint32
}

var sorters = sync.Pool{New: func() any { return new(sorter) }}

// sortBy sorts ms as sortBy says, or reports false, ms unchanged, when a
// move does not fit the key.
func (s *sorter) sortBy(ms []Move, byEquity bool) bool {
	n := len(ms)
	hi, lo := primary(&ms[0], byEquity), primary(&ms[0], byEquity)
	var wide uint8 // any field past its bits
	for i := range ms {
		m := &ms[i]
		v := primary(m, byEquity)
		hi, lo = max(hi, v), min(lo, v)
		wide |= uint8(m.Kind)>>2 | uint8(m.Dir)>>1 |
			(uint8(m.Row)|uint8(m.Col)|uint8(m.Len))>>4
	}
	idxBits := bits.Len(uint(n - 1))
	keyBits := bits.Len64(uint64(hi-lo)) + posBits
	if wide != 0 || idxBits+keyBits > 64 {
		return false
	}
	s.keys = slices.Grow(s.keys[:0], n)[:n]
	s.tmp = slices.Grow(s.tmp[:0], n)[:n]
	keys, tmp := s.keys, s.tmp
	for i := range ms {
		m := &ms[i]
		k := uint64(hi-primary(m, byEquity))<<posBits |
			uint64(m.Kind)<<13 | uint64(m.Dir)<<12 |
			uint64(m.Row)<<8 | uint64(m.Col)<<4 | uint64(m.Len)
		keys[i] = k<<idxBits | uint64(i)
	}
	keys = radixSort(keys, tmp, idxBits, keyBits, &s.count)
	// Runs of keys equal but for the index: in the order of their tiles.
	for a := 0; a < n; {
		b := a + 1
		for b < n && keys[b]>>idxBits == keys[a]>>idxBits {
			b++
		}
		if b-a > 1 {
			s.sortByTiles(ms, keys[a:b], uint64(1)<<idxBits-1)
		}
		a = b
	}
	s.moves = slices.Grow(s.moves[:0], n)[:n]
	mask := uint64(1)<<idxBits - 1
	for j, k := range keys {
		s.moves[j] = ms[k&mask]
	}
	copy(ms, s.moves)
	return true
}

// radixSort sorts keys on their bits from lo to lo+width, least
// significant digit first (each pass stable), with tmp as the other
// buffer, and returns the one holding the result. Passes over a digit
// every key shares are skipped.
func radixSort(keys, tmp []uint64, lo, width int, count *[maxPass][1 << digit]uint32) []uint64 {
	passes := (width + digit - 1) / digit
	for p := range passes {
		clear(count[p][:])
	}
	for _, k := range keys {
		k >>= lo
		for p := range passes {
			count[p][k>>(p*digit)&(1<<digit-1)]++
		}
	}
	n := uint32(len(keys))
	for p := range passes {
		c := &count[p]
		shift := lo + p*digit
		if c[keys[0]>>shift&(1<<digit-1)] == n {
			continue // one digit for all
		}
		sum := uint32(0)
		for d := range c {
			c[d], sum = sum, sum+c[d]
		}
		for _, k := range keys {
			d := k >> shift & (1<<digit - 1)
			tmp[c[d]] = k
			c[d]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}

// sortByTiles orders keys, whose moves in ms (the index under mask) agree
// on all Compare looks at but their tiles, by their tiles.
func (s *sorter) sortByTiles(ms []Move, keys []uint64, mask uint64) {
	t := s.ties[:0]
	for _, k := range keys {
		h, l := tileKey(&ms[k&mask])
		t = append(t, tied{h, l, k})
	}
	if len(t) <= 16 {
		for i := 1; i < len(t); i++ {
			x := t[i]
			j := i
			for ; j > 0 && (t[j-1].hi > x.hi || t[j-1].hi == x.hi && t[j-1].lo > x.lo); j-- {
				t[j] = t[j-1]
			}
			t[j] = x
		}
	} else {
		slices.SortFunc(t, func(a, b tied) int {
			if c := cmp.Compare(a.hi, b.hi); c != 0 {
				return c
			}
			return cmp.Compare(a.lo, b.lo)
		})
	}
	for i := range t {
		keys[i] = t[i].key
	}
	s.ties = t
}

// tied is a key with its move's tiles (tileKey).
type tied struct{ hi, lo, key uint64 }

// tileKey packs m.Tiles into two words that compare as the tiles do,
// letter by letter. Only moves of the same length are compared, and the
// tiles past Len only order those that Compare finds equal.
func tileKey(m *Move) (hi, lo uint64) {
	return load8(m.Tiles[:8]), load8(m.Tiles[7:]) << 8 // lo: Tiles[8:15]
}

// load8 reads 8 letters as a big-endian word (one load and a byte swap).
func load8(t []rules.Letter) uint64 {
	_ = t[7]
	return uint64(t[0])<<56 | uint64(t[1])<<48 | uint64(t[2])<<40 | uint64(t[3])<<32 |
		uint64(t[4])<<24 | uint64(t[5])<<16 | uint64(t[6])<<8 | uint64(t[7])
}
