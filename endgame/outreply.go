package endgame

import (
	"scrabble/move"
	"scrabble/rules"
)

// outReply is a play the opponent can go out with from a node's board (the
// killer move of the ply below, found again there), with its zone: the
// squares where a tile of the mover's would change it. Those are the
// squares it covers, the square past each end of its word, and the square
// past each end of the perpendicular run through each tile it places; any
// other square is too far from its words to join one. A play of the
// mover's that puts no tile in the zone leaves the reply legal with the
// same score, so the play is worth at most its own score less the reply's
// and the bonus the reply earns (twice the mover's tiles left).
//
// At the mover's nodes of a proof that it cannot reach a value, most plays
// are refuted by such a reply: when the bound is already no better than
// what the mover has, the play needs no search at all (on p008, the
// one-tile pre-endgame, that settles 101 million plays, and the solve
// searched 38.8 million nodes instead of 151).
type outReply struct {
	seq   uint32 // the killer count it was looked for at (searcher.killSeq)
	score int
	zone  [rules.Size]uint16 // bit c of row r
}

// armOut looks for the killer move of ply+1 on ply's board (which must be
// ready): the opponent's last play that went out and cut a node there. It
// returns nil when there is none, it is not legal here, or the bag holds
// tiles (no one goes out then).
func (s *searcher) armOut(ply int) *outReply {
	o := &s.outs[ply]
	o.seq = s.killSeq[ply+1]
	k := &s.killer[ply+1]
	opp := &s.racks[1-(ply&1)]
	if k.Kind != move.Play || int(k.NumTiles) != opp.Count() || int(s.bagAt[ply]) != len(s.sh.root.bag) {
		return nil
	}
	g := s.cur[ply]
	f, ok := g.FindPlay(opp, k)
	if !ok {
		return nil
	}
	o.score, o.zone = int(f.Score), replyZone(g.Board(), &f)
	return o
}

// replyZone is play m's zone on board b (see outReply).
func replyZone(b *rules.Board, m *move.Move) (z [rules.Size]uint16) {
	add := func(r, c int) {
		if rules.InBounds(r, c) {
			z[r] |= 1 << c
		}
	}
	dr, dc := m.Dir.Step() // along the word
	r0, c0 := int(m.Row), int(m.Col)
	for i := range int(m.Len) {
		add(r0+i*dr, c0+i*dc)
	}
	if plantedBug == bugZone {
		return z
	}
	add(r0-dr, c0-dc)
	add(r0+int(m.Len)*dr, c0+int(m.Len)*dc)
	for i := range int(m.Len) {
		if m.Tiles[i] == rules.PlayedThrough {
			continue
		}
		// Across the word (dc, dr): past both ends of the run of tiles
		// through the new one.
		r, c := r0+i*dr, c0+i*dc
		pr, pc := r-dc, c-dr
		for rules.InBounds(pr, pc) && b.At(pr, pc) != rules.Empty {
			pr, pc = pr-dc, pc-dr
		}
		add(pr, pc)
		pr, pc = r+dc, c+dr
		for rules.InBounds(pr, pc) && b.At(pr, pc) != rules.Empty {
			pr, pc = pr+dc, pc+dr
		}
		add(pr, pc)
	}
	return z
}

// bound is the most the mover's play m is worth when the reply follows it;
// ok is false when the reply may not follow: m puts a tile in its zone,
// goes out, or scores nothing (a scoreless turn may end the game first).
// tiles and value are the tile count and face value of the mover's rack
// before m, worked out once a node rather than for each of its plays.
func (o *outReply) bound(m *move.Move, tiles, value int) (v int, ok bool) {
	if m.Kind != move.Play || m.Score <= 0 || int(m.NumTiles) == tiles || !outside(&o.zone, m) {
		return 0, false
	}
	return int(m.Score) - o.score - outBonusOf(value-usedValue(m)), true
}

// outside says whether play m puts no tile in zone.
func outside(zone *[rules.Size]uint16, m *move.Move) bool {
	dr, dc := m.Dir.Step()
	r, c := int(m.Row), int(m.Col)
	for i := range int(m.Len) {
		if m.Tiles[i] != rules.PlayedThrough && zone[r]&(1<<c) != 0 {
			return false
		}
		r, c = r+dr, c+dc
	}
	return true
}
