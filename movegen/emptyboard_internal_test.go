package movegen

import (
	"testing"

	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/rules"
)

// Clearing a board that has been played on, through the copied empty-board
// sets, leaves the generator exactly as working every set out does, and as
// a new generator; and it plays the same opening.
func TestSetBoardEmptyMatchesWorkedOut(t *testing.T) {
	for _, name := range testlex.Names() {
		lex := testlex.GADDAG(t, name)
		played := New(tablesFor(lex))
		rack, err := rules.ParseRack("AEINRST")
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; turn < 6; turn++ { // a few plays, so every kind of set changes
			best, ok := played.Best(&rack, 80, Options{})
			if !ok || best.Kind != move.Play {
				t.Fatalf("%s: turn %d: no play (%v)", name, turn, best)
			}
			played.Apply(&best)
		}
		if played.tileCount == 0 {
			t.Fatalf("%s: nothing was played", name)
		}
		played.SetBoard(&rules.Board{})

		worked := New(tablesFor(lex))
		worked.setBoard(&rules.Board{})
		s1, s2 := played.boardState, worked.boardState
		// The lane stamps only name states; the sets must be equal.
		s1.laneVer, s2.laneVer = [2][n]uint64{}, [2][n]uint64{}
		if s1 != s2 {
			t.Errorf("%s: the cleared board's sets differ from the worked-out ones", name)
		}
		if s1.anchor[rules.Across][rules.CenterRow] != 1<<rules.CenterCol || s1.cross[rules.Across][0]&allLetters != allLetters {
			t.Errorf("%s: the empty board has anchors %v", name, s1.anchor)
		}
		a, _ := played.Best(&rack, 86, Options{})
		b, _ := worked.Best(&rack, 86, Options{})
		if a.Notation() != b.Notation() || a.Score != b.Score {
			t.Errorf("%s: opening %s %d on the cleared board, %s %d on the worked-out one", name, a.Notation(), a.Score, b.Notation(), b.Score)
		}
	}
}
