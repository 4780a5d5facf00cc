package movegen_test

import (
	"testing"

	"scrabble/internal/benchset"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// nearTileRef reports whether a tile of b stands within 4 squares of (r, c)
// in its row or column, by looking at each of those squares.
func nearTileRef(b *rules.Board, r, c int) bool {
	for k := 1; k <= 4; k++ {
		for _, rc := range [4][2]int{{r, c + k}, {r, c - k}, {r + k, c}, {r - k, c}} {
			if rc[0] < 0 || rc[0] >= rules.Size || rc[1] < 0 || rc[1] >= rules.Size {
				continue
			}
			// Squares between are empty when this is the nearest tile; a
			// nearer one answers yes already.
			if b.Squares[rc[0]*rules.Size+rc[1]] != rules.Empty {
				return true
			}
		}
	}
	return false
}

// openedRef counts the triple-word squares m opens on b: empty with no
// tile near before it, still empty and with a tile near after.
func openedRef(b *rules.Board, m *move.Move) int {
	after := *b
	after.Apply(m.Placed())
	count := 0
	for sq := range rules.Squares {
		p := rules.PremiumAt(sq/rules.Size, sq%rules.Size)
		r, c := sq/rules.Size, sq%rules.Size
		if p == rules.TripleWord && after.Squares[sq] == rules.Empty &&
			!nearTileRef(b, r, c) && nearTileRef(&after, r, c) {
			count++
		}
	}
	return count
}

// TestBestWithOpenCost: with the open term, Best finds the move that ranks
// first in the full list once each play's equity loses the cost of the
// squares it opens, counted here from the boards alone; a search without
// the term afterwards is plain again.
func TestBestWithOpenCost(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	ps, err := benchset.Positions()
	if err != nil {
		t.Fatal(err)
	}
	opened := 0
	for _, cost := range []rules.Equity{3000, 25000} {
		g := movegen.New(movegen.TablesFor(lex))
		g.SetLeaves(batchHashLeaves{})
		for i, p := range ps {
			g.SetBoard(&p.Board)
			racks := []rules.Rack{p.Racks[0]}
			if i%3 == 0 { // a blank in every third
				r := p.Racks[0]
				for l := range r {
					if l != int(rules.Blank) && r[l] > 0 {
						r[l]--
						r[rules.Blank]++
						break
					}
				}
				racks = append(racks, r)
			}
			for _, rack := range racks {
				opts := movegen.Options{Exchanges: true, Pass: true}
				var all movegen.AllMoves
				g.Generate(&rack, 50, opts, &all)
				var want move.Move
				found := false
				for j := range all.Moves {
					m := all.Moves[j]
					if m.Kind == move.Play {
						k := openedRef(&p.Board, &m)
						m.Equity -= rules.Equity(k) * cost
						if k > 0 {
							opened++
						}
					}
					if !found || move.ByEquity(&m, &want) < 0 {
						want, found = m, true
					}
				}
				opts.OpenCost = cost
				got, ok := g.Best(&rack, 50, opts)
				if ok != found || got != want {
					t.Fatalf("position %d (%s), rack %s, cost %d: Best = %v (eq %d), full list's best = %v (eq %d)",
						i+1, p.CGP(), rack.String(), cost, got.NotationOn(&p.Board), got.Equity,
						want.NotationOn(&p.Board), want.Equity)
				}
				// The term is gone with the search that asked for it.
				opts.OpenCost = 0
				plain, _ := g.Best(&rack, 50, opts)
				best := all.Moves[0]
				for j := range all.Moves {
					if move.ByEquity(&all.Moves[j], &best) < 0 {
						best = all.Moves[j]
					}
				}
				if plain != best {
					t.Fatalf("position %d, rack %s: Best without the term after one with it = %v, want %v",
						i+1, rack.String(), plain.NotationOn(&p.Board), best.NotationOn(&p.Board))
				}
			}
		}
	}
	if opened == 0 {
		t.Fatal("no play opened a triple-word square: the test tests nothing")
	}
}

// openedCounter counts what openedRef counts for many plays on one board:
// the triple-word squares empty with no tile near are found once; a play
// opens those of them it leaves empty with one of its tiles near (within 4
// squares in the row or column), as no tile of the board is.
type openedCounter struct {
	far []int // triple-word squares empty and with no tile near
}

func (o *openedCounter) reset(b *rules.Board) {
	o.far = o.far[:0]
	for sq := range rules.Squares {
		r, c := sq/rules.Size, sq%rules.Size
		if rules.PremiumAt(r, c) == rules.TripleWord && b.Squares[sq] == rules.Empty && !nearTileRef(b, r, c) {
			o.far = append(o.far, sq)
		}
	}
}

// count is openedRef(b, m) for the board b of the last reset.
func (o *openedCounter) count(m *move.Move) int {
	count := 0
	dr, dc := m.Dir.Step()
	for _, sq := range o.far {
		r, c := sq/rules.Size, sq%rules.Size
		covered, near := false, false
		for i := range int(m.Len) {
			if m.Tiles[i] == rules.PlayedThrough {
				continue
			}
			tr, tc := int(m.Row)+i*dr, int(m.Col)+i*dc
			switch {
			case tr == r && tc == c:
				covered = true
			case tr == r && refAbs(tc-c) <= 4, tc == c && refAbs(tr-r) <= 4:
				near = true
			}
		}
		if near && !covered {
			count++
		}
	}
	return count
}

func refAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
