package review_test

import (
	"context"
	"crypto/sha256"
	"fmt"

	"scrabble/gaddag"
	"scrabble/gcg"
	"scrabble/movegen"
	"scrabble/review"
)

// Review a game: parse it, replay it, review the turns, then read the
// report (or write it with WriteText, WriteJSON or WriteHTML).
func Example() {
	words := []string{"AT", "TA", "CAT", "ACT", "CAVEATS"}
	lex, err := gaddag.Build("TINY", words, sha256.Sum256([]byte("AT TA CAT ACT CAVEATS")))
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := gcg.Parse("game.gcg", []byte(`#player1 ann Ann
#player2 ben Ben
>ann: AACESTV 8G CAT +10 10
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	// No leave values: equity is the score.
	rep, err := review.Review(context.Background(), g.Replay(), review.Options{Tables: movegen.NewTables(lex)})
	if err != nil {
		fmt.Println(err)
		return
	}
	t := rep.Turns[0]
	fmt.Printf("turn %d: %s for %d, best %s for %d, %.1f lost, %v\n",
		t.Turn, t.Played.Move, t.Score, t.Best[0].Move, t.Best[0].Score, t.EquityLost, t.Flags)
	// Output:
	// turn 1: 8G CAT for 10, best 8B CAVEATS for 82, 72.0 lost, [missed_bingo]
}
