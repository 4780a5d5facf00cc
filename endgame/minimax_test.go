package endgame

import (
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// A plain minimax, written apart from the solver to check it: no pruning, no
// table, no move ordering. It shares only the move generator's list of
// legal plays; it places tiles with rules.Board.Apply, rebuilds the
// generator's board from scratch at every node (SetBoard, not the
// incremental Apply), scores with rules.Board.ScorePlay and settles the end
// of the game itself.

// plainMinimax is one plain search's state: a generator per ply.
type plainMinimax struct {
	newGen func() *movegen.Generator
	gens   []*movegen.Generator
	n      int // scoreless turns that end the game
	nodes  int
	limit  int  // nodes before giving up (0: none)
	over   bool // the limit was passed: the value is meaningless
	// bag is a known bag, drawn from the front: a play draws as many
	// tiles as it used, while there are any.
	bag []rules.Letter
}

// value returns the spread the side to move gains from here to the end of
// the game with best play by both, racks[0] being the mover's.
func (p *plainMinimax) value(ply int, board rules.Board, racks [2]rules.Rack, scoreless int) int {
	return p.valueDrawn(ply, board, racks, scoreless, 0)
}

// valueDrawn is value with drawn tiles of the bag already drawn.
func (p *plainMinimax) valueDrawn(ply int, board rules.Board, racks [2]rules.Rack, scoreless, drawn int) int {
	p.nodes++
	if p.limit > 0 && p.nodes > p.limit {
		p.over = true
	}
	if p.over {
		return 0
	}
	for len(p.gens) <= ply {
		p.gens = append(p.gens, p.newGen())
	}
	g := p.gens[ply]
	g.SetBoard(&board)
	var all movegen.AllMoves
	g.GeneratePlays(&racks[0], &all)
	// The pass is always legal.
	all.Moves = append(all.Moves, move.Move{Kind: move.Pass})
	best := -1 << 30
	for i := range all.Moves {
		m := &all.Moves[i]
		var v int
		if m.Kind == move.Pass {
			if scoreless+1 >= p.n {
				v = racks[1].Value() - racks[0].Value()
			} else {
				v = -p.valueDrawn(ply+1, board, [2]rules.Rack{racks[1], racks[0]}, scoreless+1, drawn)
			}
		} else {
			play := m.Placed()
			rack := racks[0]
			for _, t := range play.Tiles {
				if t == rules.PlayedThrough {
					continue
				}
				if !rack.Remove(t) {
					panic("minimax: a play uses a tile not on the rack")
				}
			}
			score := board.ScorePlay(play)
			if score != int(m.Score) {
				panic("minimax: the generator's score differs from rules.ScorePlay")
			}
			next := board
			next.Apply(play)
			d := 0
			for d < int(m.NumTiles) && drawn+d < len(p.bag) {
				rack.Add(p.bag[drawn+d])
				d++
			}
			switch {
			case rack.Count() == 0:
				v = score + 2*racks[1].Value()
			default:
				ns := scoreless + 1
				if score > 0 {
					ns = 0
				}
				if ns >= p.n {
					v = score - rack.Value() + racks[1].Value()
				} else {
					v = score - p.valueDrawn(ply+1, next, [2]rules.Rack{racks[1], rack}, ns, drawn+d)
				}
			}
		}
		if v > best {
			best = v
		}
	}
	return best
}

// minimaxValue runs the plain minimax with a node limit; ok is false when
// the tree is bigger.
func minimaxValue(newGen func() *movegen.Generator, st state, n, limit int) (v, nodes int, ok bool) {
	p := &plainMinimax{newGen: newGen, n: n, limit: limit, bag: st.bag}
	v = p.value(0, st.board, st.racks, st.scoreless)
	return v, p.nodes, !p.over
}
