package selfplay

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"scrabble/game"
	"scrabble/gcg"
	"scrabble/move"
	"scrabble/rules"
)

// WriteGCG writes the game in the .gcg format (poslfit.com/scrabble/gcg)
// with gcg.Write, for a game of rec.Seats players:
//
//	#character-encoding UTF-8
//	#player1 nick Name           the first mover, then the others in turn order
//	#player2 nick Name
//	#lexicon NWL23
//	>nick: AEINRST 8D RETAINS +66 66
//	>nick: DGIOSU? H4 .OUsING +70 136   '.' a played-through square, a blank lower case
//	>nick: EIIOUUV -IIUUV +0 66         exchange
//	>nick: AEFLORT - +0 66              pass
//	>nick: (DIV) +14 420                going out, two players: twice the opponent's rack
//	>nick: (DIVEQ) +17 420              going out, three or four: the others' racks together,
//	>nick: EQ (EQ) -11 300              then each other player's own rack, in turn order
//	>nick: EIQ (EIQ) -12 380            six scoreless turns: each player's own rack, in turn order
//	>nick: ADEIRST 8D TIRADES +72 138   a phony, then
//	>nick: ADEIRST -- -72 66            challenged off (taken back)
//
// A challenge rule other than NASPA's double is written as #challenge-rule.
// A game ended at a target score has no end lines. Racks are sorted, '?'
// last. Nicknames are the player names with spaces replaced; equal names
// get the player's seat number (1 to 4) appended.
func WriteGCG(w io.Writer, rec *game.Record) error {
	n := rec.Seats
	if n == 0 {
		n = 2 // a record from before Seats
	}
	if n < 2 || n > len(rec.Players) || rec.First < 0 || rec.First >= n {
		return fmt.Errorf("selfplay: game record of %d seats, first mover %d", rec.Seats, rec.First)
	}
	nicks := gcgNicks(rec.Players[:n])
	g := &gcg.Game{
		Lexicon:     rec.Lexicon,
		Description: fmt.Sprintf("self-play game, seed %d", rec.Seed),
		Players:     make([]gcg.Player, n),
		Events:      make([]gcg.Event, 0, len(rec.Turns)+n),
	}
	if c := rec.Rules.Challenge; c != rules.ChallengeDouble {
		g.ChallengeRule = c.String() // NASPA's double, the default, goes unsaid
	}
	// #player1 is the first mover and the others follow in turn order;
	// index maps a seat to its player number.
	index := func(seat int) int { return (seat - rec.First + n) % n }
	for seat := range n {
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
		if t.Withdrawn {
			// The phony as played, with the points it claimed, then
			// taken back ("--").
			e.Score, e.Total = int(m.Score), e.Total+int(m.Score)
			g.Events = append(g.Events, e, gcg.Event{Kind: gcg.Withdrawn, Player: e.Player, Rack: t.Rack,
				Score: -int(m.Score), Total: t.Totals[t.Player]})
			continue
		}
		g.Events = append(g.Events, e)
	}
	var totals [len(rec.Players)]int
	if k := len(rec.Turns); k > 0 {
		totals = rec.Turns[k-1].Totals
	}
	// Seats in turn order from seat s.
	from := func(s int) []int {
		seats := make([]int, n)
		for i := range seats {
			seats[i] = (s + i) % n
		}
		return seats
	}
	switch rec.End {
	case game.EndOut:
		out := rec.Turns[len(rec.Turns)-1].Player
		var others rules.Rack
		for _, s := range from(out)[1:] {
			for i, c := range rec.EndRacks[s] {
				others[i] += c
			}
		}
		totals[out] += rec.Adjustments[out]
		g.Events = append(g.Events, gcg.Event{Kind: gcg.EndPoints, Player: index(out),
			Tiles: others, Score: rec.Adjustments[out], Total: totals[out]})
		if n > 2 {
			// The rule sheet: each other player loses their own tiles
			// (with two, NASPA's 2x stands in for it).
			for _, s := range from(out)[1:] {
				if rec.EndRacks[s].Count() == 0 {
					continue
				}
				totals[s] += rec.Adjustments[s]
				g.Events = append(g.Events, gcg.Event{Kind: gcg.EndPenalty, Player: index(s),
					Tiles: rec.EndRacks[s], Score: rec.Adjustments[s], Total: totals[s]})
			}
		}
	case game.EndScoreless:
		for _, seat := range from(rec.First) {
			if rec.EndRacks[seat].Count() == 0 {
				continue
			}
			totals[seat] += rec.Adjustments[seat]
			g.Events = append(g.Events, gcg.Event{Kind: gcg.EndPenalty, Player: index(seat),
				Tiles: rec.EndRacks[seat], Score: rec.Adjustments[seat], Total: totals[seat]})
		}
	}
	return gcg.Write(w, g)
}

// gcgNicks turns player names into distinct nicknames without white space.
func gcgNicks(names []string) []string {
	nicks := make([]string, len(names))
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
	// Equal nicknames get their seat's number appended, again while that
	// makes them equal to another (the names only grow, so this ends).
	for {
		count := map[string]int{}
		for _, n := range nicks {
			count[n]++
		}
		dup := false
		for i, n := range nicks {
			if count[n] > 1 {
				nicks[i] = n + strconv.Itoa(i+1)
				dup = true
			}
		}
		if !dup {
			break
		}
	}
	return nicks
}
