package train_test

import (
	"bytes"
	"context"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/rules"
	"scrabble/train"
)

// replayTurns replays a game's racks and returns, before each turn, the
// mover's lead and the tiles they cannot see (bag plus the opponent's rack).
func replayTurns(rec *game.Record) (leads, unseen []int) {
	racks := rec.Racks
	var totals [rules.MaxPlayers]int
	onBoard := 0
	for _, t := range rec.Turns {
		p := t.Player
		bag := rules.TileCount() - onBoard - racks[0].Count() - racks[1].Count()
		leads = append(leads, totals[p]-totals[1-p])
		unseen = append(unseen, bag+racks[1-p].Count())
		if t.Move.Kind == move.Play {
			onBoard += int(t.Move.NumTiles)
		}
		rk := racks[p]
		if t.Move.Kind != move.Pass {
			rk.Sub(t.Move.Used())
		}
		for l, n := range t.Drawn {
			rk[l] += n
		}
		racks[p] = rk
		totals = t.Totals
	}
	return leads, unseen
}

func TestObserveWins(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	ps := [2]game.Player{game.NewEquityPlayer(leaves, eval.Terms{}), game.NewEquityPlayer(leaves, eval.Terms{})}
	rec, err := game.Play(context.Background(), testgen.Tables(lex), ps, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := eval.NewWinStats()
	leads, unseen := replayTurns(rec)
	for i := range rec.Turns {
		half := 1
		switch rec.Winner() {
		case rec.Turns[i].Player:
			half = 2
		case 1 - rec.Turns[i].Player:
			half = 0
		}
		want.Observe(leads[i], unseen[i], half)
	}
	got := eval.NewWinStats()
	train.ObserveWins(got, rec)
	want.AddGames(1)
	var g, w bytes.Buffer
	got.WriteTo(&g)
	want.WriteTo(&w)
	if got.Observations() != int64(len(rec.Turns)) || !bytes.Equal(g.Bytes(), w.Bytes()) {
		t.Errorf("ObserveWins: %d turns observed, want %d, and the same counts as a replay", got.Observations(), len(rec.Turns))
	}
}
