package gaddag

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"scrabble/internal/crash"
	"scrabble/rules"
)

// MaxWordLength is the longest word Build accepts (the board's side).
const MaxWordLength = rules.Size

// Build compiles words (upper-case A-Z, any order; duplicates are ignored).
//
// It builds the forward DAWG first, minimized on the fly from sorted input
// (Daciuk et al.), remembering the DAWG node of every distinct prefix p. The
// GADDAG part is then the trie of rev(p) for every prefix, where node rev(p)
// has a separator arc to p's DAWG node; it is built the same way from the
// sorted reversed prefixes. One register of nodes serves both, so any equal
// nodes are stored once.
func Build(name string, words []string, sourceSHA [32]byte) (*GADDAG, error) {
	if len(name) > maxNameLen {
		return nil, fmt.Errorf("lexicon name longer than %d bytes", maxNameLen)
	}
	for i, w := range words {
		if len(w) == 0 || len(w) > MaxWordLength {
			return nil, fmt.Errorf("word %d (%q): length must be 1 to %d", i+1, w, MaxWordLength)
		}
		for j := 0; j < len(w); j++ {
			if w[j] < 'A' || w[j] > 'Z' {
				return nil, fmt.Errorf("word %d (%q): %q is not an upper-case letter A-Z", i+1, w, w[j])
			}
		}
	}
	if !slices.IsSorted(words) {
		words = slices.Clone(words)
		slices.Sort(words)
	}
	words = slices.Compact(slices.Clip(words))
	if len(words) == 0 {
		return nil, fmt.Errorf("no words")
	}
	if len(words) > MaxWords {
		return nil, fmt.Errorf("%d words, more than a compiled lexicon holds (%d)", len(words), MaxWords)
	}

	b := newBuilder(len(words))
	// The reversed prefixes do not depend on the DAWG, so they are listed
	// and sorted on another core meanwhile.
	var keys []revKey
	var keysG crash.Group
	keysG.Go(func() { keys = sortedReversedPrefixes(words) })
	pre := b.buildDAWG(words)
	if err := keysG.Wait(); err != nil {
		return nil, err
	}
	b.root = b.buildReversedPrefixes(keys, pre)
	b.arcs = shareTails(b.arcs, &b.root, &b.dawg)
	if len(b.arcs) > MaxArcs {
		return nil, fmt.Errorf("lexicon too large: %d arcs, the format holds %d", len(b.arcs), MaxArcs)
	}
	g := &GADDAG{
		arcs: b.arcs,
		root: b.root,
		dawg: b.dawg,
		hdr: Header{
			Name:         name,
			WordCount:    len(words),
			SourceSHA256: sourceSHA,
			BuiltAt:      time.Now().UTC().Truncate(time.Second),
			Nodes:        len(b.arcs),
		},
	}
	enc := g.encode()
	g.fileSz, g.sum = len(enc), binary.LittleEndian.Uint32(enc[len(enc)-4:])
	return g, nil
}

type builder struct {
	arcs       []Arc
	reg        register
	root, dawg Node
}

func newBuilder(words int) *builder {
	b := &builder{arcs: make([]Arc, 1, words*4)}
	b.arcs[0] = lastBit // reserved: index 0 is the empty node
	b.reg.init(words)
	return b
}

// node returns the node whose arcs are list, storing it if no equal node
// exists yet. list is not retained.
func (b *builder) node(list []Arc) Node {
	if len(list) == 0 {
		return 0
	}
	list[len(list)-1] |= lastBit
	return b.reg.intern(&b.arcs, list)
}

// prefixes records, for every distinct prefix of the word list, what it
// leads to. Prefixes are numbered in the order forEachPrefix meets them.
type prefixes struct {
	accept []bool // the prefix is itself a word
	dawg   []Node // the prefix's DAWG node (its continuations), 0 if none
}

func (p *prefixes) add(accept bool) int32 {
	p.accept = append(p.accept, accept)
	p.dawg = append(p.dawg, 0)
	return int32(len(p.accept) - 1)
}

// forEachPrefix calls fn for every distinct prefix of the sorted, distinct
// words, in the numbering both build phases share.
func forEachPrefix(words []string, fn func(p string)) {
	prev := ""
	for _, w := range words {
		for d := lcp(prev, w) + 1; d <= len(w); d++ {
			fn(w[:d])
		}
		prev = w
	}
}

func lcp(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// buildDAWG builds the minimized forward DAWG of the sorted, distinct words
// and returns every prefix with its DAWG node.
func (b *builder) buildDAWG(words []string) *prefixes {
	var open [MaxWordLength + 1][]Arc // arcs of the unfinished node at each depth
	var accept [MaxWordLength + 1]bool
	var id [MaxWordLength + 1]int32
	pre := &prefixes{}
	prev := ""
	closeTo := func(depth int) {
		for d := len(prev); d > depth; d-- {
			child := b.node(open[d])
			open[d] = open[d][:0]
			pre.dawg[id[d]] = child
			open[d-1] = append(open[d-1], makeArc(letterOf(prev[d-1]), accept[d], child))
		}
	}
	for _, w := range words {
		l := lcp(prev, w)
		closeTo(l)
		for d := l + 1; d <= len(w); d++ {
			accept[d] = d == len(w)
			id[d] = pre.add(accept[d])
		}
		prev = w
	}
	closeTo(0)
	b.dawg = b.node(open[0])
	return pre
}

func letterOf(c byte) rules.Letter { return rules.Letter(c - 'A' + 1) }

// revKey is a reversed prefix packed 5 bits a letter, first letter highest,
// so that comparing (hi, lo) compares the strings.
type revKey struct {
	hi  uint64 // letters 0..11
	lo  uint16 // letters 12..14
	n   uint8
	pid int32
}

func (k *revKey) at(j int) rules.Letter {
	if j < 12 {
		return rules.Letter(k.hi >> (55 - 5*j) & 31)
	}
	return rules.Letter(k.lo >> (10 - 5*(j-12)) & 31)
}

// sortedReversedPrefixes returns rev(p) for every distinct prefix p, sorted.
func sortedReversedPrefixes(words []string) []revKey {
	var keys []revKey
	forEachPrefix(words, func(p string) {
		k := revKey{n: uint8(len(p)), pid: int32(len(keys))}
		for j := 0; j < len(p); j++ {
			l := uint64(letterOf(p[len(p)-1-j]))
			if j < 12 {
				k.hi |= l << (55 - 5*j)
			} else {
				k.lo |= uint16(l) << (10 - 5*(j-12))
			}
		}
		keys = append(keys, k)
	})
	return radixSort(keys)
}

// radixSort sorts keys by (hi, lo), least significant 15-bit digit first,
// skipping digits that are zero in every key (most keys are short).
func radixSort(keys []revKey) []revKey {
	tmp := make([]revKey, len(keys))
	var count [1 << 15]int
	digit := func(k *revKey, pass int) int {
		if pass == 0 {
			return int(k.lo & 0x7fff)
		}
		return int(k.hi >> (15 * (pass - 1)) & 0x7fff)
	}
	for pass := 0; pass < 5; pass++ {
		clear(count[:])
		for i := range keys {
			count[digit(&keys[i], pass)]++
		}
		if count[0] == len(keys) {
			continue
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for i := range keys {
			d := digit(&keys[i], pass)
			tmp[count[d]] = keys[i]
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}

// buildReversedPrefixes builds the GADDAG part (the trie of reversed
// prefixes, each with its separator arc into the DAWG) and returns its root.
func (b *builder) buildReversedPrefixes(keys []revKey, pre *prefixes) Node {

	var open [MaxWordLength + 1][]Arc
	var accept [MaxWordLength + 1]bool
	var prev *revKey
	prevLen := 0
	closeTo := func(depth int) {
		for d := prevLen; d > depth; d-- {
			child := b.node(open[d])
			open[d] = open[d][:0]
			open[d-1] = append(open[d-1], makeArc(prev.at(d-1), accept[d], child))
		}
	}
	for i := range keys {
		k := &keys[i]
		l := 0
		if prev != nil {
			for l < prevLen && l < int(k.n) && prev.at(l) == k.at(l) {
				l++
			}
		}
		closeTo(l)
		for d := l + 1; d <= int(k.n); d++ {
			accept[d] = false
		}
		last := int(k.n)
		accept[last] = pre.accept[k.pid]
		if dn := pre.dawg[k.pid]; dn != 0 {
			open[last] = append(open[last], makeArc(Separator, false, dn))
		}
		prev, prevLen = k, int(k.n)
	}
	closeTo(0)
	return b.node(open[0])
}

// register is an open-addressing hash set of stored arc lists. A slot packs
// a fingerprint of the hash, the list's start and its length, so most probes
// that miss are settled without touching the arcs.
type register struct {
	slots []uint64 // fp<<40 | start<<8 | length; 0 is an empty slot
	used  int
}

func (r *register) init(n int) {
	size := 1 << 16
	for size < n*2 {
		size <<= 1
	}
	r.slots = make([]uint64, size)
}

func hashArcs(list []Arc) uint64 {
	h := uint64(14695981039346656037)
	for _, a := range list {
		h = (h ^ uint64(a)) * 0x100000001b3
		h ^= h >> 29
	}
	return h * 0x9E3779B97F4A7C15
}

const fpMask = 0xffffff << 40

func slotOf(h uint64, start, n int) uint64 { return h&fpMask | uint64(start)<<8 | uint64(n) }

func slotStart(s uint64) int { return int(s >> 8 & 0xffffffff) }

func slotLen(s uint64) int { return int(s & 0xff) }

// lookup finds list among the lists recorded in stored; i is the empty
// slot where it would go when absent.
func (r *register) lookup(stored, list []Arc, h uint64) (start int, i uint64, found bool) {
	mask := uint64(len(r.slots) - 1)
	for i = h >> 40 & mask; ; i = (i + 1) & mask {
		s := r.slots[i]
		if s == 0 {
			return 0, i, false
		}
		if s&fpMask == h&fpMask && slotLen(s) == len(list) {
			if st := slotStart(s); slices.Equal(stored[st:st+len(list)], list) {
				return st, i, true
			}
		}
	}
}

func (r *register) intern(arcs *[]Arc, list []Arc) Node {
	if r.used*4 >= len(r.slots)*3 {
		r.grow()
	}
	h := hashArcs(list)
	start, i, found := r.lookup(*arcs, list, h)
	if found {
		return Node(start)
	}
	start = len(*arcs)
	*arcs = append(*arcs, list...)
	r.slots[i] = slotOf(h, start, len(list))
	r.used++
	return Node(start)
}

// grow doubles the table. An entry's home slot comes from its fingerprint,
// so entries move without their arcs being hashed again.
func (r *register) grow() {
	old := r.slots
	r.slots = make([]uint64, len(old)*2)
	mask := uint64(len(r.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := s >> 40 & mask
		for r.slots[i] != 0 {
			i = (i + 1) & mask
		}
		r.slots[i] = s
	}
}

// shareTails lays the arc lists out again so that a list equal to the tail of
// a longer list is not stored twice: a node may start in the middle of
// another node's arcs, since a scan stops at the last-sibling flag. Lists
// keep their order (children near their parents, as built), which matters
// for the move generator's cache misses. It returns the new array and
// rewrites the roots.
func shareTails(arcs []Arc, roots ...*Node) []Arc {
	type list struct{ start, n int32 }
	var lists []list
	for i := 1; i < len(arcs); {
		j := i
		for !arcs[j].Last() {
			j++
		}
		lists = append(lists, list{int32(i), int32(j - i + 1)})
		i = j + 1
	}
	// Record every tail of every list, each with the longest list that ends
	// with it. Equal lists under the old numbering are equal under any, so
	// tails are matched on the old arcs. The longest list holding a tail is
	// never itself a tail of another, so it is stored and can host.
	var tails register
	tails.init(len(arcs))
	for _, l := range lists {
		for k := int32(0); k < l.n; k++ {
			tails.insertTail(arcs, int(l.start+k), arcs[l.start+k:l.start+l.n])
		}
	}
	newStart := make([]int32, len(arcs)) // old start -> new start
	out := make([]Arc, 1, len(arcs))
	out[0] = lastBit
	for _, l := range lists {
		if at, _ := tails.find(arcs, arcs[l.start:l.start+l.n]); at == int(l.start) {
			newStart[l.start] = int32(len(out))
			out = append(out, arcs[l.start:l.start+l.n]...)
		}
	}
	for _, l := range lists {
		if at, _ := tails.find(arcs, arcs[l.start:l.start+l.n]); at != int(l.start) {
			// at lies inside a stored host: find the host's start.
			h := at
			for h > 1 && !arcs[h-1].Last() {
				h--
			}
			newStart[l.start] = newStart[h] + int32(at-h)
		}
	}
	for i := 1; i < len(out); i++ {
		a := out[i]
		if c := a.Child(); c != 0 {
			out[i] = a&^childMask | Arc(newStart[c])
		}
	}
	for _, r := range roots {
		*r = Node(newStart[*r])
	}
	return out
}

// find looks list up among the tails recorded by insertTail. The stored
// arcs in out still carry old child numbers then, so they compare directly.
func (r *register) find(out, list []Arc) (int, bool) {
	start, _, found := r.lookup(out, list, hashArcs(list))
	return start, found
}

// insertTail records that arcs[at:] starts with tail, a tail of the list
// that begins at or before at. Of equal tails it keeps the one inside the
// longest list (the one preceded by the most arcs of its list).
func (r *register) insertTail(arcs []Arc, at int, tail []Arc) {
	if r.used*4 >= len(r.slots)*3 {
		r.grow()
	}
	h := hashArcs(tail)
	start, i, found := r.lookup(arcs, tail, h)
	if !found {
		r.slots[i] = slotOf(h, at, len(tail))
		r.used++
		return
	}
	if listLen(arcs, at) > listLen(arcs, start) {
		r.slots[i] = slotOf(h, at, len(tail))
	}
}

// listLen is the length of the whole list that position at lies in.
func listLen(arcs []Arc, at int) int {
	s := at
	for s > 1 && !arcs[s-1].Last() {
		s--
	}
	e := at
	for !arcs[e].Last() {
		e++
	}
	return e - s + 1
}
