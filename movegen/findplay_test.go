package movegen_test

import (
	"testing"

	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// playKey names a play by its squares and tiles, as FindPlay matches it.
type playKey struct {
	row, col int8
	dir      rules.Direction
	len      int8
	tiles    [15]rules.Letter
}

func keyOf(m *move.Move) playKey {
	k := playKey{row: m.Row, col: m.Col, dir: m.Dir, len: m.Len}
	copy(k.tiles[:], m.Tiles[:m.Len])
	return k
}

// TestFindPlayAgreesWithGenerate plays games and, on every board, looks up
// with FindPlay every play of the full list (each must come back the same,
// with the same score) and every play of the previous turn's list, made for
// the other rack on the board before (legal here or not, as a search's
// killer move is): it must be found exactly when the full list has it.
func TestFindPlayAgreesWithGenerate(t *testing.T) {
	games := 10
	if testing.Short() {
		games = 2
	}
	for _, name := range testlex.Names() {
		t.Run(name, func(t *testing.T) {
			tables := movegen.NewTables(testlex.GADDAG(t, name))
			g, finder := movegen.New(tables), movegen.New(tables)
			found, absent, lookups := 0, 0, 0
			for game := 0; game < games; game++ {
				bag := rules.NewBag(uint64(300 + game))
				var board rules.Board
				var racks [2]rules.Rack
				bag.DrawInto(&racks[0], rules.RackSize)
				bag.DrawInto(&racks[1], rules.RackSize)
				g.SetBoard(&board)
				var before []move.Move
				for side, passes := 0, 0; racks[side].Count() > 0 && passes < 2; side = 1 - side {
					var all movegen.AllMoves
					g.GeneratePlays(&racks[side], &all)
					finder.SetBoard(&board)
					byKey := map[playKey]move.Move{}
					for _, m := range all.Moves {
						byKey[keyOf(&m)] = m
					}
					for _, list := range [][]move.Move{all.Moves, before} {
						for i := range list {
							m := &list[i]
							lookups++
							got, ok := finder.FindPlay(&racks[side], m)
							want, legal := byKey[keyOf(m)]
							switch {
							case ok != legal:
								t.Fatalf("game %d: FindPlay(%s) found %v; in the full list: %v", game, m.Notation(), ok, legal)
							case ok && (keyOf(&got) != keyOf(&want) || got.Score != want.Score || got.NumTiles != want.NumTiles || got.Equity != rules.FromPoints(want.Score)):
								t.Fatalf("game %d: FindPlay(%s) = %s scoring %d; the full list has %s scoring %d", game, m.Notation(), got.Notation(), got.Score, want.Notation(), want.Score)
							case ok:
								found++
							default:
								absent++
							}
						}
					}
					before = all.Moves
					if len(all.Moves) == 0 {
						passes++
						continue
					}
					passes = 0
					best := all.Moves[0]
					for _, m := range all.Moves {
						if m.Score > best.Score {
							best = m
						}
					}
					racks[side].Sub(best.Used())
					board.Apply(best.PlacedView())
					g.Apply(&best)
					bag.DrawInto(&racks[side], rules.RackSize-racks[side].Count())
				}
			}
			if absent == 0 || found == 0 {
				t.Fatalf("%d lookups found %d and missed %d: the test needs both", lookups, found, absent)
			}
			t.Logf("%s: %d lookups, %d found, %d not legal", name, lookups, found, absent)
		})
	}
}

// TestFindPlayRefusesNonPlays checks the moves FindPlay does not look for.
func TestFindPlayRefusesNonPlays(t *testing.T) {
	tables := movegen.NewTables(testlex.GADDAG(t, testlex.Names()[0]))
	g := movegen.New(tables)
	var board rules.Board
	g.SetBoard(&board)
	rack, _ := rules.ParseRack("AEINRST")
	for _, m := range []move.Move{{Kind: move.Pass}, {Kind: move.Exchange, Len: 1}, {Kind: move.Play, Len: 20}, {Kind: move.Play, Row: 7, Col: 14, Len: 3, NumTiles: 3}} {
		if _, ok := g.FindPlay(&rack, &m); ok {
			t.Errorf("FindPlay(%+v) found a play", m)
		}
	}
}
