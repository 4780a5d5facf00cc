package endgame

import (
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// TestTwoOutOrder: the move order raises a play by twoOutPerSpot for each
// other play of the node that puts down the tiles it leaves (up to
// twoOutSpots), as a plain comparison of racks counts them, on real
// bag-empty boards (both sides' racks); going out and the pass are not
// raised, nor anything while the bag holds tiles.
func TestTwoOutOrder(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	g := newGenerator(lex)
	raised, several, plays, nodes := 0, 0, 0, 0
	for _, st := range bagEmptyPositions(lex, 30, 4242) {
		for side := range 2 {
			s := &searcher{sh: &shared{root: st}, bagAt: make([]uint8, 2)}
			s.racks = st.racks
			g.SetBoard(&st.board)
			var all movegen.AllMoves
			g.GeneratePlays(&st.racks[side], &all)
			moves := append(all.Moves, move.Move{Kind: move.Pass})
			keys := func(w int32) []rules.Equity {
				defer func(old int32) { twoOutPerSpot = old }(twoOutPerSpot)
				twoOutPerSpot = w
				ms := append([]move.Move(nil), moves...)
				s.order(ms, 0, side)
				k := make([]rules.Equity, len(ms))
				for i := range ms {
					k[i] = ms[i].Equity
				}
				return k
			}
			without, with := keys(0), keys(twoOutPerSpot)
			rack := st.racks[side]
			nodes++
			for i, m := range moves {
				spots := 0
				// Racks of two tiles are left alone: every one-tile play
				// would be raised alike.
				if m.Kind == move.Play && int(m.NumTiles) < rack.Count() && rack.Count() >= 3 {
					leave := rack
					leave.Sub(m.Used())
					for _, o := range moves {
						if o.Kind == move.Play && o.Used() == leave {
							spots++
						}
					}
					plays++
				}
				want := rules.Equity(twoOutPerSpot) * rules.Equity(min(spots, twoOutSpots))
				if got := with[i] - without[i]; got != want {
					t.Fatalf("side %d, rack %s: %s raised by %d, want %d (%d ways out)", side, rack, m.NotationOn(&st.board), got, want, spots)
				}
				if spots > 0 {
					raised++
				}
				if spots > 1 {
					several++
				}
			}
			// With tiles in the bag nobody goes out: no play is raised.
			s.sh.root.bag = []rules.Letter{rules.Letter(1)}
			if k0, k1 := keys(0), keys(twoOutPerSpot); !equalKeys(k0, k1) {
				t.Fatalf("rack %s: keys changed with a tile in the bag", rack)
			}
		}
	}
	t.Logf("%d nodes, %d plays, %d raised, %d with several ways out", nodes, plays, raised, several)
	if raised < plays/20 || raised == plays || several < raised/10 || several == raised {
		t.Fatalf("%d of %d plays raised: the check says little", raised, plays)
	}
}

func equalKeys(a, b []rules.Equity) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestSumSet: the set counts what was added since its last reset, at any
// size and across many resets (the generation stamps).
func TestSumSet(t *testing.T) {
	var z sumSet
	for round := range 3000 {
		n := 1 + round%200
		z.reset(n)
		for i := range n {
			for range 1 + i%3 {
				z.add(uint64(round*1000 + i*7))
			}
		}
		for i := range n {
			if c := z.count(uint64(round*1000 + i*7)); c != 1+i%3 {
				t.Fatalf("round %d: %d added %d times, counted %d", round, i*7, 1+i%3, c)
			}
			if z.count(uint64(round*1000+i*7+1)) != 0 {
				t.Fatalf("round %d: %d counted, never added", round, i*7+1)
			}
		}
		if round > 0 && z.count(uint64((round-1)*1000)) != 0 {
			t.Fatalf("round %d: the last round's sum counted after reset", round)
		}
	}
}
