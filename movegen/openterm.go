package movegen

import "scrabble/rules"

// Opening a triple-word square (Options.OpenCost). A triple-word square is
// closed while no tile stands within openReach squares of it in its row or
// column; a play that puts a tile that close to a closed one, without
// covering it, opens it to the opponent, who moves next. Best takes
// OpenCost off the play's equity for each square it opens. The cost is
// never positive, so the search's bounds stay bounds.

// openReach is how near a tile must stand to open a triple-word square: a
// word of five letters from it covers the square.
const openReach = 4

// twsSquares are the board's triple-word squares.
var twsSquares = func() (s [8]int16) {
	k := 0
	for sq := range rules.Squares {
		p := rules.PremiumAt(sq/rules.Size, sq%rules.Size)
		if p == rules.TripleWord {
			s[k] = int16(sq)
			k++
		}
	}
	return s
}()

// openTerm is a search's view of the triple-word squares.
type openTerm struct {
	cost   rules.Equity // taken off per square opened; 0: off
	closed [len(twsSquares)]int16
	n      int
}

// setOpenCost prepares a search with cost (millipoints a square opened):
// it lists the triple-word squares that are closed now.
func (g *Generator) setOpenCost(cost rules.Equity) {
	o := &g.open
	o.cost, o.n = cost, 0
	if cost == 0 {
		return
	}
	for _, sq := range twsSquares {
		r, c := int(sq)/n, int(sq)%n
		if g.board.Squares[sq] == rules.Empty && !g.nearTile(r, c) {
			o.closed[o.n] = sq
			o.n++
		}
	}
}

// nearTile reports whether a tile stands within openReach squares of
// (r, c) in its row or column.
func (g *Generator) nearTile(r, c int) bool {
	for _, step := range [4][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}} {
		for k := 1; k <= openReach; k++ {
			rr, cc := r+k*step[0], c+k*step[1]
			if rr < 0 || rr >= n || cc < 0 || cc >= n {
				break
			}
			if g.board.Squares[rr*n+cc] != rules.Empty {
				return true
			}
		}
	}
	return false
}

// opened counts the closed triple-word squares the play in g.strip[left:
// right+1] of the loaded lane opens. A closed square has no tile within
// reach, so a new tile within reach in its line opens it.
func (g *Generator) opened(left, right int) int32 {
	var placed uint32 // lane positions of the new tiles
	for j := left; j <= right; j++ {
		if g.strip[j] != rules.PlayedThrough {
			placed |= 1 << j
		}
	}
	count := int32(0)
	for _, sq := range g.open.closed[:g.open.n] {
		// The square in lane coordinates: its lane and its position.
		lane, pos := int(sq)/n, int(sq)%n
		if g.dir == int(rules.Down) {
			lane, pos = pos, lane
		}
		switch {
		case lane == g.lane:
			if placed&(1<<pos) != 0 {
				continue // covered by the play itself
			}
			lo, hi := max(pos-openReach, 0), min(pos+openReach, n-1)
			if placed&(uint32(1)<<(hi+1)-uint32(1)<<lo) != 0 {
				count++
			}
		case placed&(1<<pos) != 0 && abs(lane-g.lane) <= openReach:
			count++
		}
	}
	return count
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
