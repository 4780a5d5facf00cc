package movegen_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// lateBoard is a board late in a game and the tiles not on it (both racks
// and the bag): the pool every later play draws from.
type lateBoard struct {
	board rules.Board
	pool  rules.Rack
}

// lateBoards plays greedy games and keeps, from each, the boards of its
// turns with at most maxBag tiles in the bag.
func lateBoards(tables *movegen.Tables, games, maxBag int, seed uint64) []lateBoard {
	g := movegen.New(tables)
	var out []lateBoard
	for i := 0; i < games; i++ {
		bag := rules.NewBag(seed + uint64(i))
		var board rules.Board
		var racks [2]rules.Rack
		bag.DrawInto(&racks[0], rules.RackSize)
		bag.DrawInto(&racks[1], rules.RackSize)
		g.SetBoard(&board)
		side, passes := 0, 0
		for racks[side].Count() > 0 && passes < 2 {
			if bag.Len() <= maxBag {
				pool := bag.Contents()
				for s := range racks {
					for l, c := range racks[s] {
						pool[l] += c
					}
				}
				out = append(out, lateBoard{board: board, pool: pool})
			}
			m, ok := g.Best(&racks[side], bag.Len(), movegen.Options{})
			if !ok || m.Kind != move.Play {
				passes++
				side = 1 - side
				continue
			}
			passes = 0
			racks[side].Sub(m.Used())
			board.Apply(m.PlacedView())
			g.Apply(&m)
			bag.DrawInto(&racks[side], rules.RackSize-racks[side].Count())
			side = 1 - side
		}
	}
	return out
}

// fitsSomewhere is the plain definition PrunedWords follows: word lies
// along some row or column of b, keeping b's letters, covering at least one
// empty square, with no letter right before or after it, its new letters
// taken from pool (blanks standing for any).
func fitsSomewhere(word string, b *rules.Board, pool rules.Rack) bool {
	for d := 0; d < 2; d++ {
		for lane := 0; lane < rules.Size; lane++ {
			at := func(pos int) rules.Letter {
				if d == 0 {
					return b.At(lane, pos).Unblanked()
				}
				return b.At(pos, lane).Unblanked()
			}
		starts:
			for start := 0; start+len(word) <= rules.Size; start++ {
				end := start + len(word) - 1
				if (start > 0 && at(start-1) != 0) || (end < rules.Size-1 && at(end+1) != 0) {
					continue
				}
				left := pool
				placed := 0
				for k := 0; k < len(word); k++ {
					l := rules.Letter(word[k] - 'A' + 1)
					switch on := at(start + k); {
					case on == l:
					case on != 0:
						continue starts
					case left[l] > 0:
						left[l]--
						placed++
					case left[rules.Blank] > 0:
						left[rules.Blank]--
						placed++
					default:
						continue starts
					}
				}
				if placed > 0 {
					return true
				}
			}
		}
	}
	return false
}

// TestPrunedWordsMatchDefinition checks PrunedWords against every word of
// the lexicon tried at every place on the board, on late boards of both
// lexica with pools of 2 to 23 tiles.
func TestPrunedWordsMatchDefinition(t *testing.T) {
	for _, name := range testlex.Names() {
		t.Run(name, func(t *testing.T) {
			lex := testlex.GADDAG(t, name)
			tables := movegen.TablesFor(lex)
			var all []string
			lex.Words(func(w string) bool { all = append(all, w); return true })
			rng := rand.New(rand.NewPCG(7, 11))
			boards := lateBoards(tables, 40, 9, 500)
			rng.Shuffle(len(boards), func(i, j int) { boards[i], boards[j] = boards[j], boards[i] })
			n := 20
			if testing.Short() {
				n = 2
			}
			for i, lb := range boards[:n] {
				pool := lb.pool
				if i%2 == 1 {
					pool = smallPool(rng, pool)
				}
				got := movegen.PrunedWords(lex, &lb.board, pool)
				var want []string
				for _, w := range all {
					if fitsSomewhere(w, &lb.board, pool) {
						want = append(want, w)
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("board %d, pool %v: %d words, want %d; %s\n%s", i, rackText(pool), len(got), len(want), setDiff(got, want), lb.board.GridString())
				}
			}
		})
	}
}

// smallPool is a random part of pool, of 2 to 10 tiles, a blank kept when
// there is one.
func smallPool(rng *rand.Rand, pool rules.Rack) rules.Rack {
	tiles := pool.Tiles()
	rng.Shuffle(len(tiles), func(i, j int) { tiles[i], tiles[j] = tiles[j], tiles[i] })
	var out rules.Rack
	k := min(len(tiles), 2+rng.IntN(9))
	for _, l := range tiles[:k] {
		out.Add(l)
	}
	if pool[rules.Blank] > 0 && out[rules.Blank] == 0 {
		out.Add(rules.Blank)
	}
	return out
}

func rackText(r rules.Rack) string {
	var s []byte
	for _, l := range r.Tiles() {
		s = append(s, byte(l.Rune()))
	}
	return string(s)
}

// setDiff names a few words of each sorted list missing from the other.
func setDiff(got, want []string) string {
	var extra, missing []string
	for _, w := range got {
		if _, ok := slices.BinarySearch(want, w); !ok && len(extra) < 5 {
			extra = append(extra, w)
		}
	}
	for _, w := range want {
		if _, ok := slices.BinarySearch(got, w); !ok && len(missing) < 5 {
			missing = append(missing, w)
		}
	}
	return fmt.Sprintf("extra %v, missing %v", extra, missing)
}

// playList is every play a generator lists for rack, as sorted keys with
// scores.
func playList(g *movegen.Generator, rack rules.Rack) []string {
	c := &keyList{}
	g.GeneratePlays(&rack, c)
	slices.Sort(c.keys)
	return c.keys
}

type keyList struct{ keys []string }

func (c *keyList) Record(m *move.Move) {
	c.keys = append(c.keys, fmt.Sprintf("%d,%d,%d,%v,%d", m.Row, m.Col, m.Dir, m.Tiles[:m.Len], m.Score))
}

// TestPrunedTablesListSamePlays checks the promise of Tables.Pruned: for
// any rack from the pool, on the board and on every board the pool's plays
// lead to, a generator on the pruned tables lists the same plays as one on
// the whole lexicon, and finds the same best move.
func TestPrunedTablesListSamePlays(t *testing.T) {
	for _, name := range testlex.Names() {
		t.Run(name, func(t *testing.T) {
			lex := testlex.GADDAG(t, name)
			tables := movegen.TablesFor(lex)
			boards := lateBoards(tables, 60, 9, 900)
			rng := rand.New(rand.NewPCG(3, 5))
			rng.Shuffle(len(boards), func(i, j int) { boards[i], boards[j] = boards[j], boards[i] })
			n := 150
			if testing.Short() {
				n = 30
			}
			n = min(n, len(boards))
			whole, cut := movegen.New(tables), (*movegen.Generator)(nil)
			words, checked := 0, 0
			for i, lb := range boards[:n] {
				pool := lb.pool
				if i%3 == 2 {
					pool = smallPool(rng, pool)
				}
				pt, err := tables.Pruned(&lb.board, pool)
				if err != nil {
					t.Fatal(err)
				}
				words += pt.Lexicon().Header().WordCount
				cut = movegen.New(pt)
				board := lb.board
				for ply := 0; ply < 4 && pool.Count() > 0; ply++ {
					whole.SetBoard(&board)
					cut.SetBoard(&board)
					rack := drawRack(rng, pool)
					want := playList(whole, rack)
					if got := playList(cut, rack); !slices.Equal(got, want) {
						t.Fatalf("board %d ply %d rack %s: pruned tables list %d plays, whole %d; %s\n%s", i, ply, rackText(rack), len(got), len(want), setDiff(got, want), board.GridString())
					}
					wb, wok := whole.Best(&rack, 0, movegen.Options{Pass: true})
					cb, cok := cut.Best(&rack, 0, movegen.Options{Pass: true})
					if wok != cok || wb != cb {
						t.Fatalf("board %d ply %d rack %s: best %v %v, whole %v %v", i, ply, rackText(rack), cb, cok, wb, wok)
					}
					checked++
					if len(want) == 0 {
						break
					}
					// Play a random one of them and go on from there.
					var plays []move.Move
					whole.GeneratePlays(&rack, recordInto(&plays))
					m := plays[rng.IntN(len(plays))]
					board.Apply(m.PlacedView())
					pool.Sub(m.Used())
				}
			}
			t.Logf("%d boards, %d racks checked; pruned lexica of %d words on average (the whole: %d)", n, checked, words/n, lex.Header().WordCount)
		})
	}
}

// drawRack draws up to 7 tiles at random from pool.
func drawRack(rng *rand.Rand, pool rules.Rack) rules.Rack {
	tiles := pool.Tiles()
	rng.Shuffle(len(tiles), func(i, j int) { tiles[i], tiles[j] = tiles[j], tiles[i] })
	var r rules.Rack
	for _, l := range tiles[:min(len(tiles), 1+rng.IntN(rules.RackSize))] {
		r.Add(l)
	}
	return r
}

type moveList struct{ moves *[]move.Move }

func (c moveList) Record(m *move.Move) { *c.moves = append(*c.moves, *m) }

func recordInto(ms *[]move.Move) movegen.Recorder { return moveList{ms} }
