package gcg_test

import (
	"fmt"
	"os"

	"scrabble/gcg"
)

// Read a game, replay it and see where the record and the engine disagree.
func Example() {
	text := `#player1 ann Ann
#player2 ben Ben
>ann: AEINRST 8D RETAINS +66 66
>ben: ADIOQUZ E6 ZO(E)A +15 15
`
	g, err := gcg.Parse("game.gcg", []byte(text))
	if err != nil {
		fmt.Println(err)
		return
	}
	r := g.Replay()
	for _, p := range r.Problems {
		fmt.Println(p.Error())
	}
	n := len(g.Players)
	fmt.Println("engine:", r.Totals[:n], "recorded:", r.Recorded[:n])
	// Output:
	// game.gcg:4: recorded score +15, but the engine scores E6 ZO(E)A +13
	// engine: [66 13] recorded: [66 15]
}

// Write a game built in code.
func ExampleWrite() {
	g := &gcg.Game{
		Players: []gcg.Player{{Nick: "ann", Name: "Ann"}, {Nick: "ben", Name: "Ben"}},
		Lexicon: "NWL23",
		Events: []gcg.Event{
			{Kind: gcg.Play, Player: 0, Position: "8D", Word: "RETAINS", Score: 66, Total: 66, Note: "a bingo"},
			{Kind: gcg.Pass, Player: 1},
		},
	}
	if err := gcg.Write(os.Stdout, g); err != nil {
		fmt.Println(err)
	}
	// Output:
	// #character-encoding UTF-8
	// #player1 ann Ann
	// #player2 ben Ben
	// #lexicon NWL23
	// >ann: 8D RETAINS +66 66
	// #note a bingo
	// >ben: - +0 0
}
