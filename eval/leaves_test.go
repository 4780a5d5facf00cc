package eval

import (
	"math/rand/v2"
	"testing"

	"scrabble/movegen"
	"scrabble/rules"
)

var _ movegen.RackLeaveValuer = (*LeaveTable)(nil)

// bruteLeaves enumerates every multiset of 1..MaxLeave tiles the
// distribution allows, by recursion over the letter counts.
func bruteLeaves(visit func(r *rules.Rack)) int {
	var r rules.Rack
	n := 0
	var rec func(slot, size int)
	rec = func(slot, size int) {
		if slot == rules.RackSlots {
			if size >= 1 {
				n++
				if visit != nil {
					visit(&r)
				}
			}
			return
		}
		for c := 0; c <= int(rules.Distribution()[slot]) && size+c <= MaxLeave; c++ {
			r[slot] = uint8(c)
			rec(slot+1, size+c)
		}
		r[slot] = 0
	}
	rec(0, 0)
	return n
}

func TestLenMatchesBruteForce(t *testing.T) {
	want := bruteLeaves(nil)
	if got := NewLeaveTable().Len(); got != want {
		t.Fatalf("Len() = %d, brute-force enumeration counts %d", got, want)
	}
	// Also by size, with a generating-function product (independent again).
	var poly [MaxLeave + 1]int
	poly[0] = 1
	for _, m := range rules.Distribution() {
		var next [MaxLeave + 1]int
		for s := range poly {
			for c := 0; c <= int(m) && s+c <= MaxLeave; c++ {
				next[s+c] += poly[s]
			}
		}
		poly = next
	}
	total := 0
	for s := 1; s <= MaxLeave; s++ {
		total += poly[s]
	}
	if total != want {
		t.Fatalf("generating function counts %d, recursion %d", total, want)
	}
	t.Logf("leaves of 1..%d tiles: %d (by size %v)", MaxLeave, want, poly[1:])
}

func validLeave(r *rules.Rack) bool {
	n := r.Count()
	full := rules.Distribution()
	return n >= 1 && n <= MaxLeave && full.Contains(*r)
}

func TestIndexBijection(t *testing.T) {
	lt := NewLeaveTable()
	n := lt.Len()
	for i := range n {
		r := lt.LeaveAt(i)
		if !validLeave(&r) {
			t.Fatalf("LeaveAt(%d) = %q: not a valid leave", i, r.String())
		}
		j, ok := lt.Index(&r)
		if !ok || j != i {
			t.Fatalf("Index(LeaveAt(%d) = %q) = %d, %v", i, r.String(), j, ok)
		}
	}
	// Every leave of the brute-force enumeration gets a distinct index.
	seen := make([]bool, n)
	bruteLeaves(func(r *rules.Rack) {
		i, ok := lt.Index(r)
		if !ok || i < 0 || i >= n {
			t.Fatalf("Index(%q) = %d, %v", r.String(), i, ok)
		}
		if seen[i] {
			t.Fatalf("Index(%q) = %d, already taken", r.String(), i)
		}
		seen[i] = true
	})
}

func mustRack(t testing.TB, s string) rules.Rack {
	t.Helper()
	r, err := rules.ParseRack(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestIndexOutsideTable(t *testing.T) {
	lt := NewLeaveTable()
	for _, s := range []string{"QQ", "???", "JJ", "ZZ", "XXA", "EEEEEEE", "AEINRST", "AEINRST?", "", "EEEEEEEEEEEEE", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"} {
		r := mustRack(t, s)
		if i, ok := lt.Index(&r); ok {
			t.Errorf("Index(%q) = %d, true; want false", s, i)
		}
		if v := lt.Value(&r); v != 0 {
			t.Errorf("Value(%q) = %d, want 0", s, v)
		}
	}
	var huge rules.Rack
	for i := range huge {
		huge[i] = 255
	}
	if _, ok := lt.Index(&huge); ok {
		t.Error("Index of a rack of 255s: ok")
	}
	huge = rules.Rack{}
	huge[26] = 200
	if _, ok := lt.Index(&huge); ok {
		t.Error("Index of 200 Zs: ok")
	}
	for _, s := range []string{"Q", "??", "EEEEEE", "Z?", "AEINST", "JKQXZ?"} {
		r := mustRack(t, s)
		if _, ok := lt.Index(&r); !ok {
			t.Errorf("Index(%q) not ok", s)
		}
	}
}

func TestIndexOrder(t *testing.T) {
	var order []byte
	for _, j := range slotOrder {
		order = append(order, rules.Letter(j).String()[0])
	}
	if got, want := string(order), "?HPXAIQYBJRZCKSDLTEMUFNVGOW"; got != want {
		t.Fatalf("slot order %s, want %s", got, want)
	}
	lt := NewLeaveTable()
	tests := []struct {
		i    int
		want string
	}{
		// Lexicographic by counts in slot order, the last slot varying
		// fastest: first the lone last slot, last the most of the first slots.
		{0, "W"},
		{1, "WW"},
		{2, "O"},
		{3, "OW"},
		{lt.Len() - 1, "HHPP??"},
	}
	for _, tc := range tests {
		r := lt.LeaveAt(tc.i)
		if r.String() != tc.want {
			t.Errorf("LeaveAt(%d) = %q, want %q", tc.i, r.String(), tc.want)
		}
	}
}

// randomLeaves draws 7-tile racks from a shuffled bag and keeps a random
// 1..6 of their tiles: leaves as play produces them.
func randomLeaves(rng *rand.Rand, n int) []rules.Rack {
	var bag []rules.Letter
	for l, c := range rules.Distribution() {
		for range c {
			bag = append(bag, rules.Letter(l))
		}
	}
	out := make([]rules.Rack, 0, n)
	for len(out) < n {
		rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
		keep := 1 + rng.IntN(MaxLeave)
		var r rules.Rack
		for _, l := range bag[:keep] {
			r.Add(l)
		}
		out = append(out, r)
	}
	return out
}

func TestSetValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lt := NewLeaveTable()
	want := map[rules.Rack]rules.Equity{}
	for _, r := range randomLeaves(rng, 20000) {
		v := rules.Equity(rng.Int32() - 1<<30)
		lt.Set(&r, v)
		want[r] = v
	}
	nonzero := 0
	for i := range lt.Len() {
		if lt.At(i) != 0 {
			nonzero++
		}
	}
	if nonzero > len(want) {
		t.Fatalf("%d non-zero entries after setting %d leaves", nonzero, len(want))
	}
	for r, v := range want {
		if got := lt.Value(&r); got != v {
			t.Fatalf("Value(%q) = %d, want %d", r.String(), got, v)
		}
		if got := lt.LeaveValue(&r); got != v {
			t.Fatalf("LeaveValue(%q) = %d, want %d", r.String(), got, v)
		}
	}
	// The empty leave and full racks stay 0.
	for _, s := range []string{"", "AEINRST"} {
		r := mustRack(t, s)
		if v := lt.Value(&r); v != 0 {
			t.Errorf("Value(%q) = %d", s, v)
		}
	}
}

// TestRackLeaveValuesMatchesValue checks the rack-at-once look-up against
// Value for every leave of random racks of 1 to 7 tiles (blanks and
// repeated letters included), of racks with leaves outside the table (two
// Qs, more tiles than the distribution holds), of racks of more than 7
// tiles, and of a zero table.
func TestRackLeaveValuesMatchesValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	lt := NewLeaveTable()
	for i := range lt.Len() {
		lt.SetAt(i, rules.Equity(rng.Int32()-1<<30))
	}
	var racks []rules.Rack
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 7, 7} {
		for range 100 {
			racks = append(racks, randomRack(rng, n))
		}
	}
	var odd rules.Rack
	odd[5] = 7 // seven Es: leaves of up to six are in the table
	racks = append(racks, mustRack(t, "QQ??"), mustRack(t, "AEINRST"), mustRack(t, "EEEEEEE"), odd)
	// More than a rack's tiles (outside the rules) but within 128 leaves.
	racks = append(racks, mustRack(t, "AAAAAAAAB"), mustRack(t, "EEEEEEEEEEEE"), mustRack(t, "??AAEEII"))
	check := func(lt *LeaveTable, rack *rules.Rack) {
		// The numbering of movegen.RackLeaveValuer: letters in slot order,
		// each with radix the product of (count+1) before it.
		var radix [rules.RackSlots]int
		place := 1
		for l, c := range rack {
			radix[l] = place
			place *= int(c) + 1
		}
		out := make([]rules.Equity, place)
		lt.RackLeaveValues(rack, out)
		for u := range out {
			leave := *rack
			for l, c := range rack {
				leave[l] -= uint8(u / radix[l] % (int(c) + 1))
			}
			if want := lt.Value(&leave); out[u] != want {
				t.Fatalf("RackLeaveValues(%q)[%d] (leave %q) = %d, Value = %d", rack.String(), u, leave.String(), out[u], want)
			}
		}
	}
	for i := range racks {
		check(lt, &racks[i])
	}
	check(&LeaveTable{}, &racks[0])
}

// randomRack draws n tiles from the distribution.
func randomRack(rng *rand.Rand, n int) rules.Rack {
	var bag []rules.Letter
	for l, c := range rules.Distribution() {
		for range c {
			bag = append(bag, rules.Letter(l))
		}
	}
	rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
	var r rules.Rack
	for _, l := range bag[:n] {
		r.Add(l)
	}
	return r
}

func TestSetOutsideTablePanics(t *testing.T) {
	for _, s := range []string{"", "QQ", "AEINRST"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Set(%q) did not panic", s)
				}
			}()
			r := mustRack(t, s)
			NewLeaveTable().Set(&r, 1)
		}()
	}
}

func TestZeroTable(t *testing.T) {
	var lt LeaveTable
	r := mustRack(t, "EIRST?")
	if v := lt.Value(&r); v != 0 {
		t.Fatalf("zero table: Value = %d", v)
	}
	lt.Set(&r, 25125)
	if v := lt.Value(&r); v != 25125 {
		t.Fatalf("zero table after Set: Value = %d", v)
	}
}

// The generator asks for every subset of a rack, including the full rack
// (7 tiles): those must be 0 without panicking.
func TestWithGeneratorSubsets(t *testing.T) {
	lt := NewLeaveTable()
	r := mustRack(t, "AEINRS?")
	for i := range lt.Len() {
		lt.SetAt(i, rules.Equity(i+1))
	}
	if v := lt.LeaveValue(&r); v != 0 {
		t.Fatalf("7-tile leave: %d", v)
	}
	sub := mustRack(t, "EINRS?")
	if v := lt.LeaveValue(&sub); v == 0 {
		t.Fatal("6-tile leave has no value")
	}
}
