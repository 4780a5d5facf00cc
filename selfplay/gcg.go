package selfplay

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"scrabble/game"
	"scrabble/gcg"
	"scrabble/move"
)

// WriteGCG writes the game in the .gcg format (poslfit.com/scrabble/gcg)
// with gcg.Write:
//
//	#character-encoding UTF-8
//	#player1 nick Name           the first mover
//	#player2 nick Name
//	#lexicon NWL23
//	>nick: AEINRST 8D RETAINS +66 66
//	>nick: DGIOSU? H4 .OUsING +70 136   '.' a played-through square, a blank lower case
//	>nick: EIIOUUV -IIUUV +0 66         exchange
//	>nick: AEFLORT - +0 66              pass
//	>nick: (DIV) +14 420                going out: twice the opponent's rack
//	>nick: (EIQ) -12 380                six scoreless turns: each player's own rack
//
// Racks are sorted, '?' last. Nicknames are the player names with spaces
// replaced; equal names get the player's number (1 or 2) appended.
func WriteGCG(w io.Writer, rec *game.Record) error {
	nicks := gcgNicks(two(rec.Players))
	g := &gcg.Game{
		Lexicon:     rec.Lexicon,
		Description: fmt.Sprintf("self-play game, seed %d", rec.Seed),
		Events:      make([]gcg.Event, 0, len(rec.Turns)+2),
	}
	// #player1 is the first mover; index maps a seat to its player number.
	index := func(seat int) int {
		if seat == rec.First {
			return 0
		}
		return 1
	}
	for seat := range 2 {
		g.Players[index(seat)] = gcg.Player{Nick: nicks[seat], Name: rec.Players[seat]}
	}
	for i := range rec.Turns {
		t := &rec.Turns[i]
		m := &t.Move
		e := gcg.Event{Player: index(t.Player), Rack: t.Rack, Score: t.Score, Total: t.Totals[t.Player]}
		switch m.Kind {
		case move.Play:
			e.Kind = gcg.Play
			e.Position, e.Word, _ = strings.Cut(m.Notation(), " ")
		case move.Exchange:
			e.Kind, e.Tiles, e.Count = gcg.Exchange, m.Used(), int(m.NumTiles)
		default:
			e.Kind = gcg.Pass
		}
		g.Events = append(g.Events, e)
	}
	totals := [2]int{}
	if n := len(rec.Turns); n > 0 {
		totals = two(rec.Turns[n-1].Totals)
	}
	switch rec.End {
	case game.EndOut:
		out := rec.Turns[len(rec.Turns)-1].Player
		totals[out] += rec.Adjustments[out]
		g.Events = append(g.Events, gcg.Event{Kind: gcg.EndPoints, Player: index(out),
			Tiles: rec.EndRacks[1-out], Score: rec.Adjustments[out], Total: totals[out]})
	case game.EndScoreless:
		for _, seat := range [2]int{rec.First, 1 - rec.First} {
			totals[seat] += rec.Adjustments[seat]
			g.Events = append(g.Events, gcg.Event{Kind: gcg.EndPenalty, Player: index(seat),
				Tiles: rec.EndRacks[seat], Score: rec.Adjustments[seat], Total: totals[seat]})
		}
	}
	return gcg.Write(w, g)
}

// gcgNicks turns player names into distinct nicknames without white space.
func gcgNicks(names [2]string) [2]string {
	var nicks [2]string
	for i, n := range names {
		n = strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) || r == ':' {
				return '_'
			}
			return r
		}, n)
		if n == "" {
			n = "player"
		}
		nicks[i] = n
	}
	if nicks[0] == nicks[1] {
		nicks[0] += "1"
		nicks[1] += "2"
	}
	return nicks
}
