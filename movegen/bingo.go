package movegen

import (
	"sync"

	"scrabble/gaddag"
	"scrabble/rules"
)

// bingoIndex tells which 7-tile racks make a word: on their own (7-letter
// words), or with one letter already on the board (8-letter words). The
// best-move search uses it to drop the 50-point bonus from the bounds of
// lanes where the rack cannot bingo, which are most of them.
type bingoIndex struct {
	sevens map[uint64]struct{} // letter multisets of 7-letter words
	eights map[uint64]uint32   // 7-letter multiset -> letters that complete an 8-letter word
}

var bingoIndexes sync.Map // *gaddag.GADDAG -> *lazyBingoIndex

type lazyBingoIndex struct {
	once sync.Once
	idx  *bingoIndex
}

// bingoIndexFor builds the index of lex once per process.
func bingoIndexFor(lex *gaddag.GADDAG) *bingoIndex {
	v, _ := bingoIndexes.LoadOrStore(lex, &lazyBingoIndex{})
	l := v.(*lazyBingoIndex)
	l.once.Do(func() { l.idx = buildBingoIndex(lex) })
	return l.idx
}

// multisetKey packs letter counts into a key: 5 bits per letter count would
// be 130 bits, so it packs the sorted letters instead, 5 bits each.
func multisetKey(counts *[rules.RackSlots]uint8) uint64 {
	var k uint64
	for l := 1; l < rules.RackSlots; l++ {
		for c := counts[l]; c > 0; c-- {
			k = k<<5 | uint64(l)
		}
	}
	return k
}

func buildBingoIndex(lex *gaddag.GADDAG) *bingoIndex {
	idx := &bingoIndex{sevens: map[uint64]struct{}{}, eights: map[uint64]uint32{}}
	lex.Words(func(w string) bool {
		if len(w) != 7 && len(w) != 8 {
			return true
		}
		var counts [rules.RackSlots]uint8
		for i := 0; i < len(w); i++ {
			counts[w[i]-'A'+1]++
		}
		if len(w) == 7 {
			idx.sevens[multisetKey(&counts)] = struct{}{}
			return true
		}
		for l := 1; l < rules.RackSlots; l++ {
			if counts[l] == 0 {
				continue
			}
			counts[l]--
			idx.eights[multisetKey(&counts)] |= 1 << l
			counts[l]++
		}
		return true
	})
	return idx
}

// bingos reports for a 7-tile rack whether it spells a 7-letter word, and
// which board letters it can play through to spell an 8-letter one. Blanks
// are tried as every letter.
func (idx *bingoIndex) bingos(rack *rules.Rack) (seven bool, eight uint32) {
	counts := [rules.RackSlots]uint8(*rack)
	blanks := counts[0]
	counts[0] = 0
	idx.fill(&counts, 1, blanks, &seven, &eight)
	return seven, eight
}

// fill designates the remaining blanks as letters from on (in order, so each
// multiset is tried once) and looks each rack up.
func (idx *bingoIndex) fill(counts *[rules.RackSlots]uint8, from int, blanks uint8, seven *bool, eight *uint32) {
	if blanks == 0 {
		k := multisetKey(counts)
		if _, ok := idx.sevens[k]; ok {
			*seven = true
		}
		*eight |= idx.eights[k]
		return
	}
	for l := from; l < rules.RackSlots; l++ {
		counts[l]++
		idx.fill(counts, l, blanks-1, seven, eight)
		counts[l]--
	}
}
