package eval

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"scrabble/movegen"
	"scrabble/rules"
)

// Terms are equity terms beyond score and leave value. Each is off at its
// zero value, so Terms{} is plain equity.
//
// The learned leave values already hold everything a leave is worth on
// average: its vowels and consonants, its duplicates, Q without U. What
// they cannot hold is what depends on the game at hand; these terms are
// that part.
type Terms struct {
	// Balance weighs the vowel/consonant balance of the rack a leave will
	// be drawn up to, given the unseen tiles, against the same leave drawn
	// from a full bag (what the learned values assume): points per unit of
	// squared imbalance (see balanceOf). Keeping vowels when the unseen
	// tiles are vowel-heavy costs more than the table says; keeping them
	// when consonants are left costs less.
	Balance float64
	// Open is the cost, in points, of each triple-word square a play opens
	// to the opponent (a tile put within reach of a square that had none;
	// see movegen.Options.OpenCost). Only positive costs count.
	Open float64
}

// IsZero reports whether no term is on.
func (t Terms) IsZero() bool { return t == Terms{} }

// String gives the terms in ParseTerms' form ("" when none is on).
func (t Terms) String() string {
	var parts []string
	for _, term := range []struct {
		name string
		w    float64
	}{{"balance", t.Balance}, {"open", t.Open}} {
		if term.w != 0 {
			parts = append(parts, term.name+"="+strconv.FormatFloat(term.w, 'g', -1, 64))
		}
	}
	return strings.Join(parts, ",")
}

// TermNames lists the terms ParseTerms knows.
func TermNames() []string { return []string{"balance", "open"} }

// OpenCost is the open term's cost for movegen.Options.OpenCost
// (millipoints a square opened): none once the bag is empty, when the
// game's end, not the board, decides.
func (t Terms) OpenCost(bagLen int) rules.Equity {
	if bagLen == 0 || t.Open <= 0 {
		return 0
	}
	return rules.RoundPoints(t.Open)
}

// ParseTerms reads terms written name=weight, comma-separated
// ("balance=2"); "" and "none" are no terms.
func ParseTerms(s string) (Terms, error) {
	var t Terms
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return t, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Terms{}, fmt.Errorf("equity term %q: want name=weight (terms: %s)", part, strings.Join(TermNames(), ", "))
		}
		w, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || w != w || w > 1e6 || w < -1e6 {
			return Terms{}, fmt.Errorf("equity term %q: weight %q is not a number of points", part, val)
		}
		switch strings.TrimSpace(name) {
		case "balance":
			t.Balance = w
		case "open":
			if w < 0 {
				return Terms{}, fmt.Errorf("equity term %q: the open term is a cost, at least 0", part)
			}
			t.Open = w
		default:
			return Terms{}, fmt.Errorf("unknown equity term %q (terms: %s)", name, strings.Join(TermNames(), ", "))
		}
	}
	return t, nil
}

// EquityWith is Equity with terms: while tiles remain to be drawn, the
// leave values plus the terms that depend on the unseen tiles.
func EquityWith(leaves movegen.LeaveValuer, terms Terms, bagLen int, unseen rules.Rack) movegen.LeaveValuer {
	return EquityWithAmong(leaves, terms, bagLen, unseen, 2)
}

// EquityWithAmong is EquityWith in a game of players players (see
// EquityAmong).
func EquityWithAmong(leaves movegen.LeaveValuer, terms Terms, bagLen int, unseen rules.Rack, players int) movegen.LeaveValuer {
	base := EquityAmong(leaves, bagLen, unseen, players)
	if bagLen == 0 || terms.Balance == 0 {
		return base
	}
	return newBalanced(base, terms.Balance, bagLen, unseen)
}

// vowelShare is the share of vowels among the non-blank tiles of a good
// rack: three of seven.
const vowelShare = 3.0 / 7

// vowels has bit l set for the vowels A, E, I, O and U.
const vowels = 1<<1 | 1<<5 | 1<<9 | 1<<15 | 1<<21

// vowelsConsonants counts r's vowels and consonants (blanks are neither).
func vowelsConsonants(r *rules.Rack) (v, c int) {
	for l := 1; l < rules.RackSlots; l++ {
		if vowels>>l&1 != 0 {
			v += int(r[l])
		} else {
			c += int(r[l])
		}
	}
	return v, c
}

// balanceOf is the squared imbalance of a rack expected after drawing up
// from a leave of v vowels, c consonants and b blanks, when a drawn tile is
// a vowel with probability pv and a consonant with probability pc (draws
// limited by the bag's bagLen tiles): (expected vowels - vowelShare x
// expected letters)^2.
func balanceOf(v, c, b int, pv, pc float64, bagLen int) float64 {
	d := float64(min(rules.RackSize-v-c-b, bagLen))
	ev, ec := float64(v)+d*pv, float64(c)+d*pc
	x := ev - vowelShare*(ev+ec)
	return x * x
}

// balanced is a leave valuer plus the balance term for one turn's unseen
// tiles.
type balanced struct {
	base movegen.LeaveValuer
	key  uint64 // see LeaveKey
	// adj[v][c][b] is the term, millipoints, of a leave of v vowels, c
	// consonants and b blanks.
	adj [rules.RackSize + 1][rules.RackSize + 1][3]rules.Equity
}

func newBalanced(base movegen.LeaveValuer, weight float64, bagLen int, unseen rules.Rack) *balanced {
	// A full bag's shares, which the learned values were drawn from on
	// average (the standard distribution, blanks included in the total).
	full := rules.Distribution()
	fullV, fullC := vowelsConsonants(&full)
	fullTotal := float64(full.Count())
	pv0, pc0 := float64(fullV)/fullTotal, float64(fullC)/fullTotal
	pv, pc := pv0, pc0
	if total := unseen.Count(); total > 0 {
		v, c := vowelsConsonants(&unseen)
		pv, pc = float64(v)/float64(total), float64(c)/float64(total)
	}
	bl := &balanced{base: base}
	for v := 0; v <= rules.RackSize; v++ {
		for c := 0; v+c <= rules.RackSize; c++ {
			for b := 0; b < 3 && v+c+b <= rules.RackSize; b++ {
				diff := balanceOf(v, c, b, pv, pc, bagLen) - balanceOf(v, c, b, pv0, pc0, bagLen)
				bl.adj[v][c][b] = rules.TruncPoints(-weight * diff)
			}
		}
	}
	bl.key = bl.keyOf()
	return bl
}

// keyOf names the valuer's values by its base's key and its terms: 0 (no
// key) when the base has none.
func (bl *balanced) keyOf() uint64 {
	kb, ok := bl.base.(movegen.KeyedLeaveValuer)
	if !ok || kb.LeaveKey() == 0 {
		return 0
	}
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], kb.LeaveKey())
	h.Write(b[:])
	for v := range bl.adj {
		for c := range bl.adj[v] {
			for _, a := range bl.adj[v][c] {
				binary.LittleEndian.PutUint32(b[:4], uint32(a))
				h.Write(b[:4])
			}
		}
	}
	return termsKey | h.Sum64()>>2
}

// LeaveKey is the valuer's key for movegen.KeyedLeaveValuer.
func (bl *balanced) LeaveKey() uint64 { return bl.key }

func (bl *balanced) term(leave *rules.Rack) rules.Equity {
	v, c := vowelsConsonants(leave)
	b := int(leave[rules.Blank])
	if v+c+b > rules.RackSize || b > 2 {
		return 0 // outside the rules: no term
	}
	return bl.adj[v][c][b]
}

// LeaveValue is the base value plus the term.
func (bl *balanced) LeaveValue(leave *rules.Rack) rules.Equity {
	return bl.base.LeaveValue(leave) + bl.term(leave)
}

// RackLeaveValues is the base's values plus each leave's term, in
// movegen.RackLeaveValuer's numbering (the tiles used, the rack's letters
// in slot order, blank first).
func (bl *balanced) RackLeaveValues(rack *rules.Rack, out []rules.Equity) {
	if all, ok := bl.base.(movegen.RackLeaveValuer); ok {
		all.RackLeaveValues(rack, out)
	} else {
		eachLeave(rack, len(out), func(u int, kept *rules.Rack) { out[u] = bl.base.LeaveValue(kept) })
	}
	eachLeave(rack, len(out), func(u int, kept *rules.Rack) { out[u] += bl.term(kept) })
}

// eachLeave calls f with each of the rack's count used-subset numbers u and
// the tiles u keeps, counting like an odometer (slot 0 the fastest wheel).
func eachLeave(rack *rules.Rack, count int, f func(u int, kept *rules.Rack)) {
	kept := *rack
	for u := range count {
		f(u, &kept)
		l := 0
		for ; l < rules.RackSlots; l++ {
			if rack[l] == 0 {
				continue
			}
			if kept[l] > 0 {
				kept[l]--
				break
			}
			kept[l] = rack[l]
		}
		if l == rules.RackSlots {
			return
		}
	}
}
