package movegen

import (
	"math/rand/v2"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/rules"
)

// TestIncrementalStateMatchesFresh plays seeded games move by move and
// checks, after every Apply, that the generator's cached state (cross-checks,
// cross scores, extension sets, anchors) equals a fresh SetBoard's.
func TestIncrementalStateMatchesFresh(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	for seed := uint64(1); seed <= 8; seed++ {
		g := New(tablesFor(lex))
		bag := rules.NewBag(seed)
		var rack rules.Rack
		for turn := 0; turn < 40; turn++ {
			bag.DrawInto(&rack, rules.RackSize-rack.Count())
			m, ok := g.Best(&rack, bag.Len(), Options{})
			if !ok {
				break
			}
			g.Apply(&m)
			rack.Sub(m.Used())
			fresh := New(tablesFor(lex))
			fresh.SetBoard(g.Board())
			if g.cross != fresh.cross || g.crossScore != fresh.crossScore || g.ext != fresh.ext || g.anchor != fresh.anchor {
				t.Fatalf("seed %d turn %d: after %s the cached state differs from a fresh board:\n%s",
					seed, turn, m.NotationOn(g.Board()), g.Board().GridString())
			}
		}
	}
}

// TestExtensionSets checks a few sets by hand: with CAT alone on the board,
// the square before it takes the letters of xCAT words (SCAT, BOBCAT...)
// and the square after it those of CATx ones (CATS, CATE...).
func TestExtensionSets(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	g := New(tablesFor(lex))
	var b rules.Board
	for i, l := range []rules.Letter{3, 1, 20} { // C A T on 8G-8I
		b.Set(7, 6+i, l)
	}
	g.SetBoard(&b)
	before, after := g.ext[rules.Across][7*n+5], g.ext[rules.Across][7*n+9]
	for _, c := range []struct {
		set    uint32
		letter byte
		want   bool
	}{
		{before, 'S', true}, {before, 'B', true}, {before, 'Q', false},
		{after, 'S', true}, {after, 'E', true}, {after, 'Q', false},
	} {
		if got := c.set&(1<<(c.letter-'A'+1)) != 0; got != c.want {
			t.Errorf("letter %c in the set: %v, want %v", c.letter, got, c.want)
		}
	}
	// Squares away from any run allow every letter; an occupied one none.
	if g.ext[rules.Across][0] != allLetters || g.ext[rules.Across][7*n+7] != 0 {
		t.Errorf("open square %b, occupied square %b", g.ext[rules.Across][0], g.ext[rules.Across][7*n+7])
	}
}

// TestCopyBoard plays ahead on a copy and checks that CopyBoard restores the
// position exactly: the same state and the same best moves as the original.
func TestCopyBoard(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	g := New(tablesFor(lex))
	scratch := New(tablesFor(lex))
	bag := rules.NewBag(42)
	var rack rules.Rack
	for turn := 0; turn < 20; turn++ {
		bag.DrawInto(&rack, rules.RackSize-rack.Count())
		scratch.CopyBoard(g)
		// Wander off on the scratch generator, then come back.
		var side rules.Rack
		sideBag := rules.NewBag(uint64(turn) + 1000)
		for k := 0; k < 3; k++ {
			sideBag.DrawInto(&side, rules.RackSize-side.Count())
			if m, ok := scratch.Best(&side, 50, Options{}); ok && m.Kind == move.Play {
				scratch.Apply(&m)
				side.Sub(m.Used())
			}
		}
		scratch.CopyBoard(g)
		if scratch.board != g.board || scratch.tiles != g.tiles || scratch.cross != g.cross ||
			scratch.crossScore != g.crossScore || scratch.ext != g.ext || scratch.anchor != g.anchor {
			t.Fatalf("turn %d: CopyBoard did not restore the state", turn)
		}
		want, ok := g.Best(&rack, bag.Len(), Options{})
		got, ok2 := scratch.Best(&rack, bag.Len(), Options{})
		if ok != ok2 || move.Compare(&want, &got) != 0 {
			t.Fatalf("turn %d: best after CopyBoard %v, want %v", turn, got, want)
		}
		if !ok {
			break
		}
		g.Apply(&want)
		rack.Sub(want.Used())
	}
}

// TestAfterRunMatchesWalks checks the precomputed after-sets against one
// GADDAG walk per letter (L, then the run backwards) on runs cut from real
// words (so most sets are not empty) and on random letters.
func TestAfterRunMatchesWalks(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	words := testlex.WordList(t, testlex.Name()).Words
	g := New(tablesFor(lex))
	walks := func(run []rules.Letter) uint32 {
		var set uint32
		root := g.rootArc()
		for l := rules.Letter(1); l <= rules.NumLetters; l++ {
			if x, ok := g.step(root, l); ok {
				if _, ok := g.followBack(x, run); ok {
					set |= 1 << l
				}
			}
		}
		return set
	}
	rng := rand.New(rand.NewPCG(5, 6))
	nonEmpty := 0
	for i := 0; i < 20000; i++ {
		var run []rules.Letter
		if i%2 == 0 {
			w := words[rng.IntN(len(words))]
			a := rng.IntN(len(w))
			b := a + 1 + rng.IntN(min(4, len(w)-a))
			for _, c := range []byte(w[a:b]) {
				run = append(run, rules.Letter(c-'A'+1))
			}
		} else {
			for range 1 + rng.IntN(3) {
				run = append(run, rules.Letter(1+rng.IntN(rules.NumLetters)))
			}
		}
		got, want := g.afterRun(run), walks(run)
		if got != want {
			t.Fatalf("run %v: after-set %b, walks %b", run, got, want)
		}
		if got != 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 5000 {
		t.Errorf("only %d non-empty sets: the test is too weak", nonEmpty)
	}
}
