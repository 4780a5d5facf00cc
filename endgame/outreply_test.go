package endgame

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
)

// zoneViolations checks replyZone against the move generator on bag-empty
// positions from greedy games: for sampled plays K of the opponent's and
// every play m of the mover's that puts no tile in K's zone, K must still be
// among the opponent's plays after m (listed by a full generation on the
// new board), with the same score. It returns the cases where it is not,
// and how many pairs it checked.
func zoneViolations(t *testing.T, lex *movegen.Tables, games int, seed uint64) (bad []string, pairs int) {
	rng := rand.New(rand.NewPCG(seed, 0x2013e))
	g, after := newGenerator(lex), newGenerator(lex)
	var mine, theirs, next movegen.AllMoves
	for _, st := range bagEmptyPositions(lex, games, seed) {
		g.SetBoard(&st.board)
		mine.Reset()
		g.GeneratePlays(&st.racks[0], &mine)
		theirs.Reset()
		g.GeneratePlays(&st.racks[1], &theirs)
		if len(mine.Moves) == 0 || len(theirs.Moves) == 0 {
			continue
		}
		for range 4 {
			k := theirs.Moves[rng.IntN(len(theirs.Moves))]
			zone := replyZone(&st.board, &k)
			for i := range mine.Moves {
				m := &mine.Moves[i]
				if !outside(&zone, m) {
					continue
				}
				pairs++
				after.CopyBoard(g)
				after.Apply(m)
				next.Reset()
				after.GeneratePlays(&st.racks[1], &next)
				found := false
				for j := range next.Moves {
					if move.Same(&next.Moves[j], &k) && next.Moves[j].Score == k.Score {
						found = true
						break
					}
				}
				if !found {
					bad = append(bad, fmt.Sprintf("%s then %s: no longer legal with score %d",
						m.NotationOn(&st.board), k.NotationOn(&st.board), k.Score))
				}
			}
		}
	}
	return bad, pairs
}

// TestReplyZone checks the zone a going-out reply keeps the search from
// searching plays outside of (outReply): a play outside it must leave the
// reply legal with the same score. Those plays are settled without search,
// and the small endgames the plain minimax can value seldom have one.
func TestReplyZone(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	bad, pairs := zoneViolations(t, lex, 40, 11)
	t.Logf("%d plays outside a reply's zone checked", pairs)
	if pairs < 10000 {
		t.Errorf("only %d plays checked", pairs)
	}
	for _, b := range bad {
		t.Error(b)
	}
	// With only the squares the reply covers as its zone, some plays
	// outside it change the reply: the check must see that.
	plantedBug = bugZone
	defer func() { plantedBug = bugNone }()
	if bad, _ := zoneViolations(t, lex, 40, 11); len(bad) == 0 {
		t.Error("zone planted too small, but every play outside it left the reply as it was")
	} else {
		t.Logf("planted: %d plays outside the small zone changed the reply", len(bad))
	}
}
