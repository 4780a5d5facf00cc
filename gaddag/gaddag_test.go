package gaddag_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scrabble/gaddag"
	"scrabble/internal/testlex"
	"scrabble/rules"
)

// paths enumerates every accepting path of the GADDAG part and decodes each
// into the word it stands for, counting how often each word appears. A
// correct GADDAG holds exactly len(w) paths for w: rev(w[:i]) + sep + w[i:]
// for 1 <= i < len(w), and rev(w).
func paths(g *gaddag.GADDAG) (map[string]int, error) {
	counts := map[string]int{}
	arcs := g.Arcs()
	var left, right []byte // left is reversed
	var bad error
	var walk func(n gaddag.Node, crossed bool)
	walk = func(n gaddag.Node, crossed bool) {
		if n == 0 {
			return
		}
		for i := n; ; i++ {
			a := arcs[i]
			switch {
			case a.Letter() == gaddag.Separator:
				if crossed && bad == nil {
					bad = errors.New("second separator on a path")
				}
				if a.Accepts() && bad == nil {
					bad = errors.New("separator arc accepts")
				}
				walk(a.Child(), true)
			case crossed:
				right = append(right, byte('A'+a.Letter()-1))
				if a.Accepts() {
					counts[decode(left, right)]++
				}
				walk(a.Child(), true)
				right = right[:len(right)-1]
			default:
				left = append(left, byte('A'+a.Letter()-1))
				if a.Accepts() {
					counts[decode(left, nil)]++
				}
				walk(a.Child(), false)
				left = left[:len(left)-1]
			}
			if a.Last() {
				return
			}
		}
	}
	walk(g.Root(), false)
	return counts, bad
}

func decode(revLeft, right []byte) string {
	w := make([]byte, 0, len(revLeft)+len(right))
	for i := len(revLeft) - 1; i >= 0; i-- {
		w = append(w, revLeft[i])
	}
	return string(append(w, right...))
}

func checkAgainstList(t *testing.T, g *gaddag.GADDAG, words []string) {
	t.Helper()
	counts, err := paths(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != len(words) {
		t.Errorf("GADDAG spells %d distinct words, list has %d", len(counts), len(words))
	}
	for _, w := range words {
		if counts[w] != len(w) {
			t.Errorf("%s: %d GADDAG paths, want %d", w, counts[w], len(w))
		}
		if !g.Contains(w) {
			t.Errorf("Contains(%q) = false", w)
		}
	}
	var dawgWords []string
	g.Words(func(w string) bool { dawgWords = append(dawgWords, w); return true })
	if !slices.Equal(dawgWords, words) {
		t.Errorf("DAWG enumeration differs from the list (%d vs %d words)", len(dawgWords), len(words))
	}
	if g.Header().WordCount != len(words) {
		t.Errorf("header word count %d, want %d", g.Header().WordCount, len(words))
	}
}

func TestSmallListExact(t *testing.T) {
	words := []string{"A", "AA", "AB", "ABA", "BA", "CARE", "CARED", "CARES", "CAT", "SCARE", "ZZZ"}
	g, err := gaddag.Build("small", words, [32]byte{1})
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstList(t, g, words)
	for _, w := range []string{"", "C", "CA", "CAR", "CARESS", "B", "AAA", "ZZ", "care"} {
		want := slices.Contains(words, strings.ToUpper(w))
		if got := g.Contains(w); got != want {
			t.Errorf("Contains(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestBuildUnsortedWithDuplicates(t *testing.T) {
	g, err := gaddag.Build("x", []string{"CAT", "AT", "CAT", "ACT"}, [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstList(t, g, []string{"ACT", "AT", "CAT"})
}

func TestBuildRejectsBadWords(t *testing.T) {
	for _, words := range [][]string{{"cat"}, {"C4T"}, {""}, {"ABCDEFGHIJKLMNOP"}, {}} {
		if _, err := gaddag.Build("x", words, [32]byte{}); err == nil {
			t.Errorf("Build(%q) succeeded", words)
		}
	}
}

// TestSharedLists compares every stored word with the source list exactly.
func TestSharedLists(t *testing.T) {
	for _, tc := range []struct {
		name                string
		words, twos, threes int
	}{
		{"TWL06", 178691, 101, 1015},
		{"NWL23", 196601, 107, 1085},
		{"CSW24", 280887, 127, 1351},
		{testlex.SOWPODS, 267751, 124, 1292}, // from make, without the shared lists too
	} {
		t.Run(tc.name, func(t *testing.T) {
			wl := testlex.WordList(t, tc.name)
			g := testlex.GADDAG(t, tc.name)
			if len(wl.Words) != tc.words {
				t.Errorf("list has %d words, want %d", len(wl.Words), tc.words)
			}
			byLen := map[int]int{}
			g.Words(func(w string) bool { byLen[len(w)]++; return true })
			if byLen[2] != tc.twos || byLen[3] != tc.threes {
				t.Errorf("GADDAG has %d two- and %d three-letter words, want %d and %d", byLen[2], byLen[3], tc.twos, tc.threes)
			}
			checkAgainstList(t, g, wl.Words)
			rejectRandomNonWords(t, g, wl.Words)
		})
	}
}

func rejectRandomNonWords(t *testing.T, g *gaddag.GADDAG, words []string) {
	t.Helper()
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rejected := 0
	for i := 0; i < 20000; i++ {
		n := 2 + rng.IntN(8)
		b := make([]byte, n)
		for j := range b {
			b[j] = byte('A' + rng.IntN(26))
		}
		// Also mutate real words: near misses are the hard case.
		if i%2 == 0 {
			w := []byte(words[rng.IntN(len(words))])
			w[rng.IntN(len(w))] = byte('A' + rng.IntN(26))
			b = w
		}
		w := string(b)
		if got := g.Contains(w); got != set[w] {
			t.Fatalf("Contains(%q) = %v, list says %v", w, got, set[w])
		}
		if !set[w] {
			rejected++
		}
	}
	if rejected < 5000 {
		t.Errorf("only %d of the random strings were non-words; the test is too weak", rejected)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	words := []string{"AA", "AB", "CAB", "CABS", "SCAB"}
	sha := [32]byte{9, 8, 7}
	g, err := gaddag.Build("Tiny-1", words, sha)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tiny.gaddag")
	if err := g.Save(path); err != nil {
		t.Fatal(err)
	}
	h, err := gaddag.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Header() != h.Header() {
		t.Errorf("header changed: %+v vs %+v", g.Header(), h.Header())
	}
	checkAgainstList(t, h, words)
	st, _ := os.Stat(path)
	if int(st.Size()) != h.Size() {
		t.Errorf("Size() = %d, file is %d bytes", h.Size(), st.Size())
	}
}

func encoded(t testing.TB, g *gaddag.GADDAG) []byte {
	var buf bytes.Buffer
	if _, err := g.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecodeRejectsDamage(t *testing.T) {
	g, err := gaddag.Build("x", []string{"AA", "AB", "BA", "CAB"}, [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	good := encoded(t, g)
	cases := map[string][]byte{
		"empty":     nil,
		"magic":     append([]byte("NOTGADDG"), good[8:]...),
		"truncated": good[:len(good)-7],
		"short":     good[:10],
		"flipped":   flip(good, len(good)/2),
		"extended":  append(slices.Clone(good), 0, 0, 0, 0),
	}
	for name, data := range cases {
		_, err := gaddag.Decode(data)
		if err == nil || !errors.Is(err, gaddag.ErrCorrupt) {
			t.Errorf("%s: Decode error = %v, want ErrCorrupt", name, err)
		}
	}
}

func flip(b []byte, i int) []byte {
	c := slices.Clone(b)
	c[i] ^= 0x10
	return c
}

func TestLoadNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.gaddag")
	os.WriteFile(path, []byte("SCRGADDG garbage"), 0o644)
	_, err := gaddag.Load(path)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Load error %v should name %s", err, path)
	}
}

func TestLetterSets(t *testing.T) {
	g, err := gaddag.Build("x", []string{"AB", "AD", "CAB"}, [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	// From the DAWG root after A: B and D follow and both end words.
	a, ok := g.Next(g.DawgRoot(), 1)
	if !ok {
		t.Fatal("no A arc")
	}
	want := uint32(1<<2 | 1<<4)
	if got := g.LetterSet(a.Child()); got != want {
		t.Errorf("LetterSet = %b, want %b", got, want)
	}
	if got := g.AcceptSet(a.Child()); got != want {
		t.Errorf("AcceptSet = %b, want %b", got, want)
	}
	// GADDAG: from root, B (the last letter of AB, CAB) then A; after "BA"
	// reversed, C ends CAB and the separator is absent (nothing follows AB).
	b, _ := g.Next(g.Root(), 2)
	ba, _ := g.Next(b.Child(), 1)
	if !ba.Accepts() {
		t.Error("rev(AB) should accept")
	}
	if got := g.LetterSet(ba.Child()); got != 1<<3 {
		t.Errorf("after rev(AB): letters %b, want only C", got)
	}
	if _, ok := g.Next(0, rules.Letter(1)); ok {
		t.Error("empty node has arcs")
	}
}
