// Package benchmarks measures the engine's throughput on committed,
// realistic positions: every turn of the project's own seeded games.
package benchmarks

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"

	"scrabble/gaddag"
	"scrabble/movegen"
	"scrabble/rules"
)

// PositionsFile is the committed benchmark set: one CGP line per position,
// the rack of the player to move included. MakePositions(lex, 12, 2026)
// with NWL23 wrote it.
//
//go:embed testdata/positions.cgp
var positionsFile []byte

// Positions returns the committed benchmark positions.
func Positions() ([]*rules.Position, error) {
	return ParsePositions("benchmarks/testdata/positions.cgp", positionsFile)
}

// ParsePositions reads one CGP position a line (blank lines and # comments
// skipped); errors name the file and line.
func ParsePositions(file string, data []byte) ([]*rules.Position, error) {
	var out []*rules.Position
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		p, err := rules.ParsePosition(fmt.Sprintf("%s:%d", file, line), text)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// MakePositions plays games seeded games, each player taking the
// highest-scoring play (exchanging seven, or passing, when there is none),
// and returns the position before every turn, from the mover's side.
func MakePositions(lex *gaddag.GADDAG, games int, seed uint64) []*rules.Position {
	var out []*rules.Position
	for game := 0; game < games; game++ {
		bag := rules.NewBag(seed + uint64(game))
		gen := movegen.New(lex)
		var racks [2]rules.Rack
		var scores [2]int
		for p := range racks {
			bag.DrawInto(&racks[p], rules.RackSize)
		}
		scoreless := 0
		for turn := 0; ; turn++ {
			me := turn % 2
			pos := &rules.Position{
				Board:     *gen.Board(),
				Racks:     [2]rules.Rack{racks[me]},
				Scores:    [2]int{scores[me], scores[1-me]},
				ZeroTurns: scoreless,
				Lexicon:   lex.Header().Name,
			}
			out = append(out, pos)
			var best movegen.BestScore
			gen.GeneratePlays(&racks[me], &best)
			switch {
			case best.Found:
				gen.Apply(&best.Best)
				racks[me].Sub(best.Best.Used())
				scores[me] += int(best.Best.Score)
				scoreless = 0
			case rules.CanExchange(bag.Len()):
				tiles := racks[me].Tiles()
				racks[me] = rules.Rack{}
				bag.DrawInto(&racks[me], rules.RackSize)
				bag.Return(tiles...)
				scoreless++
			default:
				scoreless++
			}
			bag.DrawInto(&racks[me], rules.RackSize-racks[me].Count())
			if racks[me].Count() == 0 {
				scores[me] += rules.OutBonus(racks[1-me])
				break
			}
			if rules.GameOverByScoreless(scoreless) {
				break
			}
		}
	}
	return out
}
