package rules

import (
	"fmt"
	"strings"
)

// RackSize is the number of tiles a full rack holds.
const RackSize = 7

// Rack is a multiset of tiles as counts by rack slot (0: blank, 1..26: A..Z).
// It is also used for any other multiset of tiles: the bag's contents, the
// unseen pool, the tiles on the board.
type Rack [RackSlots]uint8

// ParseRack reads tiles written as letters with '?' for a blank
// (case-insensitive). It does not limit the size; callers that need a
// 7-tile rack check Count.
func ParseRack(s string) (Rack, error) {
	var r Rack
	for i, ch := range s {
		if k := rackSlotOf(ch); k >= 0 && r[k] == 255 {
			return Rack{}, fmt.Errorf("rack %q: more than 255 of one tile", s)
		}
		switch {
		case ch == '?':
			r[0]++
		case ch >= 'A' && ch <= 'Z':
			r[ch-'A'+1]++
		case ch >= 'a' && ch <= 'z':
			r[ch-'a'+1]++
		default:
			return Rack{}, fmt.Errorf("rack %q: character %q at position %d is not a tile (A-Z or ? for a blank)", s, ch, i+1)
		}
	}
	return r, nil
}

// rackSlotOf is the slot of a tile character, or -1.
func rackSlotOf(ch rune) int {
	switch {
	case ch == '?':
		return 0
	case ch >= 'A' && ch <= 'Z':
		return int(ch-'A') + 1
	case ch >= 'a' && ch <= 'z':
		return int(ch-'a') + 1
	}
	return -1
}

// Count is the number of tiles.
func (r *Rack) Count() int {
	n := 0
	for _, c := range r {
		n += int(c)
	}
	return n
}

// Add puts one tile with the given letter on the rack (blanked letters count as blanks).
func (r *Rack) Add(l Letter) { r[l.RackIndex()]++ }

// Remove takes one tile off; it reports false (and changes nothing) when the
// rack has no such tile.
func (r *Rack) Remove(l Letter) bool {
	i := l.RackIndex()
	if r[i] == 0 {
		return false
	}
	r[i]--
	return true
}

// Has reports whether the rack holds at least one tile for l.
func (r *Rack) Has(l Letter) bool { return r[l.RackIndex()] > 0 }

// Contains reports whether every tile of o is on r.
func (r *Rack) Contains(o Rack) bool {
	for i := range r {
		if o[i] > r[i] {
			return false
		}
	}
	return true
}

// Sub removes every tile of o; it must be contained.
func (r *Rack) Sub(o Rack) {
	for i := range r {
		r[i] -= o[i]
	}
}

// Value is the sum of the face values of the tiles.
func (r *Rack) Value() int {
	v := 0
	for i, c := range r {
		v += int(c) * letterValues[i]
	}
	return v
}

// Tiles lists the tiles in alphabetical order, blanks last.
func (r *Rack) Tiles() []Letter {
	out := make([]Letter, 0, r.Count())
	for i := 1; i < RackSlots; i++ {
		for j := 0; j < int(r[i]); j++ {
			out = append(out, Letter(i))
		}
	}
	for j := 0; j < int(r[0]); j++ {
		out = append(out, Blank)
	}
	return out
}

// String renders the rack alphabetically with blanks last, e.g. "AEINRST?".
func (r Rack) String() string {
	var b strings.Builder
	for _, l := range r.Tiles() {
		b.WriteRune(l.Rune())
	}
	return b.String()
}

// Unseen returns the tiles a player cannot see: the full set minus the tiles
// on the board and on the player's rack. It fails, naming the letter, when the
// board and rack hold more of a tile than the set has.
func Unseen(b *Board, rack Rack) (Rack, error) {
	u := distribution
	onBoard := b.TileCounts()
	for i := range u {
		used := int(onBoard[i]) + int(rack[i])
		if used > int(u[i]) {
			return Rack{}, fmt.Errorf("too many %s: %d on the board and %d on the rack, but the set has only %d",
				SlotName(i), onBoard[i], rack[i], u[i])
		}
		u[i] -= uint8(used)
	}
	return u, nil
}

// SlotName names the tiles of rack slot i, in the plural, for messages:
// "As", or "blanks (?)" for slot 0.
func SlotName(i int) string {
	if i == 0 {
		return "blanks (?)"
	}
	return string(rune('A'+i-1)) + "s"
}
