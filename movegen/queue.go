package movegen

import (
	"math/bits"

	"scrabble/rules"
)

// Kinds of queue entries (queueKey).
const (
	anchorEntry = iota // an anchor to refine (index into g.anchors)
	spanEntry          // a span to place plays on (g.spans)
	laneEntry          // a lane kept from an earlier search (see openLane)
)

// queueKey orders queue entries by bound; the low bits hold the index and
// kind of the entry.
func queueKey(bound rules.Equity, i, kind int) int64 {
	return int64(bound)<<queueShift | int64(i)<<2 | int64(kind)
}

const queueShift = 24

// span is a span of a lane to place plays on, found competitive when its
// anchor was refined.
type span struct {
	dir, lane, start, end, k int8
}

// bucketQueue holds queue entries (queueKey) in buckets of 1024
// millipoints of bound, with a bit set of the buckets in use: an entry goes
// in and the highest bucket's last entry comes out in a few instructions,
// with no comparisons of entries to mispredict (a heap's sifting does).
// Entries of one bucket come out in no particular order; the search
// re-checks each entry's own bound.
type bucketQueue struct {
	head [numBuckets]int32 // each bucket's last entry (1-based, 0: none)
	used [numBuckets / 64]uint64
	top  uint64 // bit w: used[w] != 0
	keys []int64
	next []int32 // the entry below, in the same bucket
}

const (
	numBuckets   = 1024
	bucketShift  = 10
	bucketOffset = 256 // bucket of bound 0
)

func bucketOf(bound rules.Equity) int {
	return min(max(int(bound>>bucketShift)+bucketOffset, 0), numBuckets-1)
}

// reset empties the queue (the buckets still in use only).
func (q *bucketQueue) reset() {
	for w := q.top; w != 0; w &= w - 1 {
		i := bits.TrailingZeros64(w)
		for b := q.used[i]; b != 0; b &= b - 1 {
			q.head[i<<6|bits.TrailingZeros64(b)] = 0
		}
		q.used[i] = 0
	}
	q.top = 0
	q.keys, q.next = q.keys[:0], q.next[:0]
}

func (q *bucketQueue) push(key int64) {
	b := bucketOf(rules.Equity(key >> queueShift))
	q.keys = append(q.keys, key)
	q.next = append(q.next, q.head[b])
	q.head[b] = int32(len(q.keys))
	q.used[b>>6] |= 1 << (b & 63)
	q.top |= 1 << (b >> 6)
}

// highest is the highest bucket in use; the queue must not be empty.
func (q *bucketQueue) highest() int {
	w := 63 - bits.LeadingZeros64(q.top)
	return w<<6 | (63 - bits.LeadingZeros64(q.used[w]))
}

// ceiling bounds every entry's bound from above; the queue must not be
// empty.
func (q *bucketQueue) ceiling() rules.Equity {
	b := q.highest()
	if b == numBuckets-1 {
		return -minEquity
	}
	return rules.Equity((b-bucketOffset+1)<<bucketShift - 1)
}

// pop removes and returns an entry of the highest bucket; the queue must
// not be empty.
func (q *bucketQueue) pop() int64 {
	b := q.highest()
	e := q.head[b] - 1
	q.head[b] = q.next[e]
	if q.head[b] == 0 {
		q.used[b>>6] &^= 1 << (b & 63)
		if q.used[b>>6] == 0 {
			q.top &^= 1 << (b >> 6)
		}
	}
	return q.keys[e]
}
