package train

import (
	"scrabble/eval"
	"scrabble/game"
	"scrabble/move"
	"scrabble/rules"
)

// ObserveWins adds a game's evidence about winning chances to stats: for
// every turn, the mover's lead before moving, the tiles they could not see
// (bag plus the opponent's rack), and whether they went on to win.
func ObserveWins(stats *eval.WinStats, rec *game.Record) {
	TurnOutcomes(rec, stats.Observe)
	stats.AddGames(1)
}

// TurnOutcomes calls fn for every turn of the game, in order, with the
// mover's lead before moving (negative: behind), the tiles they could not
// see (bag plus the opponent's rack) and how the game ended for them in
// half-wins: 2 won, 1 drawn, 0 lost. The game is a two-player one (the
// win-probability table is learned from those).
func TurnOutcomes(rec *game.Record, fn func(lead, unseen, halfWins int)) {
	var totals [rules.MaxPlayers]int
	onBoard := 0
	winner := rec.Winner()
	for i := range rec.Turns {
		t := &rec.Turns[i]
		p := t.Player
		unseen := rules.TileCount() - onBoard - t.Rack.Count()
		half := 1
		switch winner {
		case p:
			half = 2
		case 1 - p:
			half = 0
		}
		fn(totals[p]-totals[1-p], unseen, half)
		totals = t.Totals
		if t.Move.Kind == move.Play {
			onBoard += int(t.Move.NumTiles)
		}
	}
}
