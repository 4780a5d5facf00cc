package sim

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"

	"scrabble/movegen"
)

// WriteGCG writes the game in the .gcg format (poslfit.com/scrabble/gcg):
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
func WriteGCG(w io.Writer, rec *GameRecord) error {
	bw := bufio.NewWriter(w)
	nicks := gcgNicks(rec.Players)
	fmt.Fprintln(bw, "#character-encoding UTF-8")
	for i, seat := range [2]int{rec.First, 1 - rec.First} {
		fmt.Fprintf(bw, "#player%d %s %s\n", i+1, nicks[seat], rec.Players[seat])
	}
	fmt.Fprintf(bw, "#lexicon %s\n", rec.Lexicon)
	fmt.Fprintf(bw, "#description self-play game, seed %d\n", rec.Seed)
	for i := range rec.Turns {
		t := &rec.Turns[i]
		m := &t.Move
		var move string
		switch m.Kind {
		case movegen.Play:
			move = m.Notation()
		case movegen.Exchange:
			used := m.Used()
			move = "-" + used.String()
		default:
			move = "-"
		}
		fmt.Fprintf(bw, ">%s: %s %s %+d %d\n", nicks[t.Player], t.Rack.String(), move, t.Score, t.Totals[t.Player])
	}
	totals := [2]int{}
	if n := len(rec.Turns); n > 0 {
		totals = rec.Turns[n-1].Totals
	}
	switch rec.End {
	case EndOut:
		out := rec.Turns[len(rec.Turns)-1].Player
		totals[out] += rec.Adjustments[out]
		fmt.Fprintf(bw, ">%s: (%s) %+d %d\n", nicks[out], rec.EndRacks[1-out].String(), rec.Adjustments[out], totals[out])
	case EndScoreless:
		for _, seat := range [2]int{rec.First, 1 - rec.First} {
			totals[seat] += rec.Adjustments[seat]
			fmt.Fprintf(bw, ">%s: (%s) -%d %d\n", nicks[seat], rec.EndRacks[seat].String(), -rec.Adjustments[seat], totals[seat])
		}
	}
	return bw.Flush()
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
