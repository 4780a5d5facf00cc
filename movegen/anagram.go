package movegen

import (
	"cmp"
	"slices"

	"scrabble/gaddag"
	"scrabble/internal/hugemem"
	"scrabble/rules"
)

// anagramIndex tells which multisets of tiles spell a word, so the
// best-move search can bound a lane by what the rack can really spell:
//   - words: the letter multisets of every word of 2 to 7 letters, also
//     with one or two letters replaced by a blank, so a rack subset holding
//     blanks is one look-up (see spellSet);
//   - eights: for 8-letter words, each 7-letter multiset that one board
//     letter completes, with the set of such letters;
//   - prints: the multiset fingerprint (see fingerprint) of every word of
//     any length, so plays through board tiles can be checked too: rack
//     tiles plus the board letters of a span must be some word's letters;
//     wildPrints: the same with one letter replaced by a blank. Apart, the
//     exact filter (the one most look-ups use) is small enough to stay in
//     the cache.
type anagramIndex struct {
	words      spellSet
	eights     keyMasks
	prints     printFilter
	wildPrints printFilter
	// lists finds the words of 2 letters or more by fingerprint. listText
	// holds every word's letters end to end, anagrams together; the entry
	// for f packs where f's words start in listText, how many there are and
	// their length (see listEntry). The search places words from these
	// lists (see direct.go). Nothing here holds a pointer, so the garbage
	// collector skips it.
	lists    printTable
	listText []rules.Letter
}

// listEntry packs a run of anagrams in listText: offset<<16 | count<<4 |
// length.
func listEntry(off, count, length int) uint64 {
	return uint64(off)<<16 | uint64(count)<<4 | uint64(length)
}

// A fingerprint with one word of at most inlineMax letters keeps the word
// in its entry instead (inlineFlag | length<<56 | letters, 5 bits each,
// first letter lowest): most are such, and the search then reads no
// listText, one cache miss fewer per look-up.
const (
	inlineFlag = 1 << 63
	inlineMax  = 11
)

func inlineEntry(word []rules.Letter) uint64 {
	v := uint64(inlineFlag) | uint64(len(word))<<56
	for i, l := range word {
		v |= uint64(l) << (5 * i)
	}
	return v
}

// wordsOf returns the letters of the words with fingerprint f, end to end,
// and their length (0: none); buf holds them if they are kept inline.
func (idx *anagramIndex) wordsOf(f uint64, buf *[rules.Size]rules.Letter) ([]rules.Letter, int) {
	v, ok := idx.lists.get(f)
	if !ok {
		return nil, 0
	}
	if v&inlineFlag != 0 {
		length := int(v >> 56 & 15)
		for i := range length {
			buf[i] = rules.Letter(v >> (5 * i) & 31)
		}
		return buf[:length], length
	}
	off, count, length := int(v>>16), int(v>>4&0xfff), int(v&15)
	return idx.listText[off : off+count*length], length
}

// printTable maps fingerprints to values by open addressing: one probe
// usually reads one cache line, where a Go map reads several.
type printTable struct {
	slots []printSlot
}

type printSlot struct{ key, val uint64 }

func (t *printTable) init(n int) {
	size := 1
	for size < 2*n {
		size *= 2
	}
	t.slots = hugemem.Make[printSlot](size)
}

// Keys are fingerprints, random 64-bit sums: their top bits index the
// table. Key 0 marks an empty slot (a real fingerprint is 0 by chance only).
func (t *printTable) put(k, v uint64) {
	mask := uint64(len(t.slots) - 1)
	for i := k >> 40 & mask; ; i = (i + 1) & mask {
		if s := &t.slots[i]; s.key == 0 || s.key == k {
			s.key, s.val = k, v
			return
		}
	}
}

func (t *printTable) get(k uint64) (uint64, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := k >> 40 & mask; ; i = (i + 1) & mask {
		switch s := &t.slots[i]; s.key {
		case k:
			return s.val, true
		case 0:
			return 0, false
		}
	}
}

// printFilter is a Bloom filter of fingerprints that sets two bits of one
// 64-bit word per key, so a look-up reads one word: a false "present" (a
// few percent of absent keys) only keeps a bound high or costs a look-up;
// "absent" is always right.
type printFilter struct {
	words []uint64
	shift uint // 64 - log2(len(words)): a key's top bits pick its word
}

const exactFilterBits = 22

func newPrintFilter(logBits uint) printFilter {
	return printFilter{words: hugemem.Make[uint64](1 << (logBits - 6)), shift: 64 - (logBits - 6)}
}

// bits are the key's two bits in its word, from its low bits (fingerprints
// are random throughout).
func (f printFilter) bits(k uint64) uint64 {
	return 1<<(k&63) | 1<<(k>>6&63)
}

func (f printFilter) add(k uint64) {
	f.words[k>>f.shift] |= f.bits(k)
}

func (f printFilter) has(k uint64) bool {
	b := f.bits(k)
	return f.words[k>>f.shift]&b == b
}

// spells reports whether a multiset with fingerprint f holding blanks
// blanks may be some word's letters (two blanks: not filtered).
func (idx *anagramIndex) spells(f uint64, blanks int8) bool {
	switch blanks {
	case 0:
		return idx.prints.has(f)
	case 1:
		return idx.wildPrints.has(f)
	}
	return true
}

// fingerprints are random 64-bit codes per letter (and the wildcard) whose
// sums identify a multiset: adding a tile adds its code, so a span's
// fingerprint is the rack's plus its board letters'. Two multisets share a
// sum only by accident (odds about 2^-64); the search uses a match only to
// keep a bound, so an accident costs time, never a play.
var fingerprints = func() (z [wildcard + 1]uint64) {
	x := uint64(0x5eed_5c4a_bb1e_2026)
	for i := range z {
		// splitmix64
		x += 0x9e3779b97f4a7c15
		v := x
		v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
		v = (v ^ v>>27) * 0x94d049bb133111eb
		z[i] = v ^ v>>31
	}
	return z
}()

// fingerprint sums the codes of a multiset (counts by rack slot, blanks in
// slot 0 counting as wildcards).
func fingerprint(counts *[rules.RackSlots]uint8) uint64 {
	f := uint64(counts[0]) * fingerprints[wildcard]
	for l := 1; l < rules.RackSlots; l++ {
		f += uint64(counts[l]) * fingerprints[l]
	}
	return f
}

// wildcard is the code of a blank in a multiset key; it sorts last.
const wildcard = rules.RackSlots

// multisetKey packs a multiset (counts by rack slot, blanks in slot 0) as
// its sorted letters, 5 bits each, blanks last. Eight tiles fit in 40 bits.
func multisetKey(counts *[rules.RackSlots]uint8) uint64 {
	var k uint64
	for l := 1; l < rules.RackSlots; l++ {
		for c := counts[l]; c > 0; c-- {
			k = k<<5 | uint64(l)
		}
	}
	for c := counts[0]; c > 0; c-- {
		k = k<<5 | wildcard
	}
	return k
}

// tableSize is the power of two at least n, between 64 and most.
func tableSize(n, most int) int {
	size := 64
	for size < n && size < most {
		size *= 2
	}
	return size
}

// logSize is log2 of the power of two at least n, from 2^12 to 2^most.
func logSize(n int, most uint) uint {
	l := uint(12)
	for l < most && 1<<l < n {
		l++
	}
	return l
}

func buildAnagramIndex(lex *gaddag.GADDAG) *anagramIndex {
	idx := &anagramIndex{}
	// The hash tables and filters are sized by the lexicon: NWL23's fill
	// the largest sizes (no growing), a list of a few words gets a few KB
	// (its tables file stays small).
	words := lex.Header().WordCount
	idx.eights.init(tableSize(words, 1<<18)) // NWL23 has 109,000 keys
	type listed struct {
		print uint64
		off   int32 // into text
		len   int8
	}
	var text []rules.Letter
	var all []listed
	idx.words.init(tableSize(words, 1<<18))                         // NWL23 has 128,000 sevens
	idx.prints = newPrintFilter(logSize(16*words, exactFilterBits)) // 512 KB for NWL23
	idx.wildPrints = newPrintFilter(logSize(128*words, 25))         // 4 MB
	var counts [rules.RackSlots]uint8
	var path [rules.Size]rules.Letter
	arcs := lex.Arcs()
	// Walk the DAWG, keeping the letters and letter counts of the path.
	var walk func(node gaddag.Node, depth int)
	walk = func(node gaddag.Node, depth int) {
		if node == 0 || depth == rules.Size {
			return
		}
		for i := node; ; i++ {
			a := arcs[i]
			l := a.Letter()
			counts[l]++
			path[depth] = l
			if a.Accepts() {
				idx.addWord(&counts, depth+1)
				if depth > 0 {
					all = append(all, listed{fingerprint(&counts), int32(len(text)), int8(depth + 1)})
					text = append(text, path[:depth+1]...)
				}
			}
			walk(a.Child(), depth+1)
			counts[l]--
			if a.Last() {
				return
			}
		}
	}
	walk(lex.DawgRoot(), 0)
	slices.SortFunc(all, func(a, b listed) int { return cmp.Compare(a.print, b.print) })
	distinct := 0
	for i, w := range all {
		if i == 0 || all[i-1].print != w.print {
			distinct++
		}
	}
	idx.lists.init(distinct)
	idx.listText = hugemem.Make[rules.Letter](len(text))[:0]
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].print == all[i].print {
			j++
		}
		// Anagrams have one length; fingerprints shared by chance by
		// words of different lengths (odds about 2^-64) would be caught
		// as mismatches when placed.
		length := int(all[i].len)
		if w := all[i]; j == i+1 && length <= inlineMax {
			idx.lists.put(w.print, inlineEntry(text[w.off:w.off+int32(w.len)]))
			i = j
			continue
		}
		off := len(idx.listText)
		for _, w := range all[i:j] {
			idx.listText = append(idx.listText, text[w.off:w.off+int32(w.len)]...)
		}
		idx.lists.put(all[i].print, listEntry(off, j-i, length))
		i = j
	}
	return idx
}

// addWord records the letter multiset of a word of n letters.
func (idx *anagramIndex) addWord(counts *[rules.RackSlots]uint8, n int) {
	if n < 2 {
		return
	}
	f := fingerprint(counts)
	idx.prints.add(f)
	for l := 1; l < rules.RackSlots; l++ {
		if counts[l] > 0 {
			idx.wildPrints.add(f - fingerprints[l] + fingerprints[wildcard])
		}
	}
	switch {
	case n > 8:
		return
	case n == 8:
		for l := 1; l < rules.RackSlots; l++ {
			if counts[l] > 0 {
				counts[l]--
				idx.eights.or(multisetKey(counts), 1<<l)
				counts[l]++
			}
		}
		return
	}
	// The word's tiles in lettersByValue order; a blank (symbol 26, last)
	// stands for one or two of them in the variants. Each multiset's rank
	// is then a sum over its at most seven places, not a walk over every
	// letter (spellSet.add): every process builds the index before its
	// first search, and those walks were a third of the build.
	var tiles [rules.RackSize]rules.Letter
	k := 0
	for _, l := range lettersByValue {
		for c := counts[l]; c > 0; c-- {
			tiles[k] = l
			k++
		}
	}
	var syms [rules.RackSize]uint8
	for i, l := range tiles[:n] {
		syms[i] = symbolOf[l]
	}
	idx.words.add(syms[:n], f)
	blank := symbolOf[rules.Blank]
	var v [rules.RackSize]uint8
	for i := range n {
		if i > 0 && tiles[i] == tiles[i-1] {
			continue // the same multiset as the previous tile's
		}
		// Tile i becomes a blank.
		copy(v[:], syms[:i])
		copy(v[i:], syms[i+1:n])
		v[n-1] = blank
		fi := f - fingerprints[tiles[i]] + fingerprints[wildcard]
		idx.words.add(v[:n], fi)
		// And tile j after it too.
		for j := i + 1; j < n; j++ {
			if j > i+1 && tiles[j] == tiles[j-1] {
				continue
			}
			copy(v[:], syms[:i])
			copy(v[i:], syms[i+1:j])
			copy(v[j-1:], syms[j+1:n])
			v[n-2], v[n-1] = blank, blank
			idx.words.add(v[:n], fi-fingerprints[tiles[j]]+fingerprints[wildcard])
		}
	}
}

// eightsThrough reports which board letters a 7-tile rack can play through
// to spell an 8-letter word; blanks are tried as every letter.
func (idx *anagramIndex) eightsThrough(rack *rules.Rack) uint32 {
	counts := [rules.RackSlots]uint8(*rack)
	blanks := counts[0]
	counts[0] = 0
	var eight uint32
	idx.fill(&counts, 1, blanks, &eight)
	return eight
}

// fill designates the remaining blanks as letters from on (in order, so each
// multiset is tried once) and looks each rack up.
func (idx *anagramIndex) fill(counts *[rules.RackSlots]uint8, from int, blanks uint8, eight *uint32) {
	if blanks == 0 {
		*eight |= idx.eights.get(multisetKey(counts))
		return
	}
	for l := from; l < rules.RackSlots; l++ {
		counts[l]++
		idx.fill(counts, l, blanks-1, eight)
		counts[l]--
	}
}

// mix scrambles a key's bits for a table index.
func mix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}

// keyMasks maps non-zero uint64 keys to letter sets (or, as a set of keys,
// to 1) by open addressing: a Go map took a fifth of the index's build.
type keyMasks struct {
	keys []uint64
	sets []uint32
	used int
}

func (m *keyMasks) init(n int) {
	m.keys, m.sets = hugemem.Make[uint64](n), hugemem.Make[uint32](n)
}

// grow doubles the table on the heap (hugemem's memory is never freed, and
// growing is rare: the first size fits NWL23).
func (m *keyMasks) grow() {
	keys, sets := m.keys, m.sets
	m.keys, m.sets = make([]uint64, 2*len(keys)), make([]uint32, 2*len(keys))
	m.used = 0
	for i, o := range keys {
		if o != 0 {
			m.or(o, sets[i])
		}
	}
}

// or adds set to k's letters.
func (m *keyMasks) or(k uint64, set uint32) {
	if m.used*2 >= len(m.keys) {
		m.grow()
	}
	mask := uint64(len(m.keys) - 1)
	for i := mix(k) & mask; ; i = (i + 1) & mask {
		switch m.keys[i] {
		case k:
			m.sets[i] |= set
			return
		case 0:
			m.keys[i], m.sets[i] = k, set
			m.used++
			return
		}
	}
}

func (m *keyMasks) get(k uint64) uint32 {
	mask := uint64(len(m.keys) - 1)
	for i := mix(k) & mask; ; i = (i + 1) & mask {
		switch m.keys[i] {
		case k:
			return m.sets[i]
		case 0:
			return 0
		}
	}
}
