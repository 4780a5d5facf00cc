package eval

import (
	"math/rand/v2"
	"strings"
	"testing"

	"scrabble/movegen"
	"scrabble/rules"
)

func TestParseTerms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Terms
		err  string
	}{
		{in: "", want: Terms{}},
		{in: "none", want: Terms{}},
		{in: "balance=2", want: Terms{Balance: 2}},
		{in: " balance = 0.5 ", want: Terms{Balance: 0.5}},
		{in: "balance=0", want: Terms{}},
		{in: "balance", err: "want name=weight"},
		{in: "balance=x", err: "not a number"},
		{in: "balance=NaN", err: "not a number"},
		{in: "vowels=1", err: `unknown equity term "vowels"`},
		{in: "balance=1,tws=2", err: `unknown equity term "tws"`},
		{in: "open=3,balance=1", want: Terms{Balance: 1, Open: 3}},
		{in: "open=-1", err: "at least 0"},
	} {
		got, err := ParseTerms(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseTerms(%q) = %v, %v; want an error with %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseTerms(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if err == nil {
			again, err := ParseTerms(got.String())
			if err != nil || again != got {
				t.Errorf("ParseTerms(%q.String() = %q) = %+v, %v", tc.in, got.String(), again, err)
			}
		}
	}
}

// randomDraw draws n tiles from what is left of pool.
func randomDraw(rng *rand.Rand, pool *rules.Rack, n int) rules.Rack {
	var r rules.Rack
	for range n {
		left := pool.Count()
		if left == 0 {
			break
		}
		k := rng.IntN(left)
		for l := range pool {
			if k < int(pool[l]) {
				pool[l]--
				r[l]++
				break
			}
			k -= int(pool[l])
		}
	}
	return r
}

// The batch values (the generator's way) equal the one-by-one values, the
// used-subset number decoded here by division, and each is the table's
// value plus the term of the leave's vowels, consonants and blanks.
func TestBalancedRackLeaveValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	tab := randomTable(42)
	for range 300 {
		pool := rules.Distribution()
		rack := randomDraw(rng, &pool, 1+rng.IntN(rules.RackSize))
		unseen := randomDraw(rng, &pool, 1+rng.IntN(90))
		bag := 1 + rng.IntN(unseen.Count())
		v := EquityWith(tab, Terms{Balance: 0.5 + 4*rng.Float64()}, bag, unseen)
		all, ok := v.(movegen.RackLeaveValuer)
		if !ok {
			t.Fatalf("EquityWith with a term is a %T, not a RackLeaveValuer", v)
		}
		place := 1
		for _, c := range rack {
			place *= int(c) + 1
		}
		out := make([]rules.Equity, place)
		all.RackLeaveValues(&rack, out)
		for u := range out {
			kept, rest := rack, u
			for l := range rack {
				if rack[l] == 0 {
					continue
				}
				used := rest % (int(rack[l]) + 1)
				rest /= int(rack[l]) + 1
				kept[l] -= uint8(used)
			}
			if got := v.LeaveValue(&kept); got != out[u] {
				t.Fatalf("rack %s, leave %s: LeaveValue %d, RackLeaveValues %d", rack, kept, got, out[u])
			}
			want := tab.Value(&kept) + v.(*balanced).term(&kept)
			if out[u] != want {
				t.Fatalf("rack %s, leave %s: %d, want %d", rack, kept, out[u], want)
			}
		}
	}
}

func TestBalanceTerm(t *testing.T) {
	zero := NewLeaveTable()
	terms := Terms{Balance: 2}
	// Unseen tiles in a full bag's proportions: no correction.
	full := EquityWith(zero, terms, 86, rules.Distribution())
	for _, s := range []string{"AEI", "RST", "?", "EIRST", "QU", "AEIOUU"} {
		l := mustRack(t, s)
		if v := full.LeaveValue(&l); v != 0 {
			t.Errorf("full-bag pool: leave %s has term %d, want 0", s, v)
		}
	}
	// Vowel-heavy unseen tiles: keeping vowels costs, keeping consonants
	// pays; the other way round with consonant-heavy ones.
	vowelly := mustRack(t, "AAAAAAEEEEEEEIIIIIOOOOUUBCDLNRST")
	consonantal := mustRack(t, "AEIOBBCCDDDFFGGGHHLLLLMMNNNNNRRRRRSSSTTTTTVWY")
	for _, tc := range []struct {
		pool   rules.Rack
		leave  string
		lower  bool // the term is negative
		reason string
	}{
		{vowelly, "AEI", true, "vowels kept, vowels to come"},
		{vowelly, "RST", false, "consonants kept, vowels to come"},
		{consonantal, "RST", true, "consonants kept, consonants to come"},
		{consonantal, "AEI", false, "vowels kept, consonants to come"},
	} {
		v := EquityWith(zero, terms, 20, tc.pool)
		l := mustRack(t, tc.leave)
		got := v.LeaveValue(&l)
		if (got < 0) != tc.lower || got == 0 {
			t.Errorf("%s (pool %s, leave %s): term %d", tc.reason, tc.pool, tc.leave, got)
		}
	}
	// Bag empty: the endgame valuer, no term.
	opp := mustRack(t, "QZ")
	l := mustRack(t, "AEI")
	if got, want := EquityWith(zero, terms, 0, opp).LeaveValue(&l), Equity(zero, 0, opp).LeaveValue(&l); got != want {
		t.Errorf("bag empty: %d, want the endgame value %d", got, want)
	}
	// No term: plain Equity, the same valuer.
	if got := EquityWith(zero, Terms{}, 30, vowelly); got != Equity(zero, 30, vowelly) {
		t.Errorf("no terms: %T, want Equity's valuer", got)
	}
}

// FuzzParseTerms: any text is terms or an error, never a panic, and terms
// read back from their String form.
func FuzzParseTerms(f *testing.F) {
	for _, s := range []string{"", "none", "balance=2", "open=3,balance=0.5", "balance", "open=-1", "x=1", "balance=1e309", "open=2,,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms, err := ParseTerms(s)
		if err != nil {
			return
		}
		if terms.Open < 0 {
			t.Fatalf("ParseTerms(%q): negative open cost %v", s, terms.Open)
		}
		again, err := ParseTerms(terms.String())
		if err != nil || again != terms {
			t.Fatalf("ParseTerms(%q) = %+v; its String %q reads as %+v, %v", s, terms, terms.String(), again, err)
		}
	})
}
