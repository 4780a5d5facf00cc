package benchset

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"

	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// positionsFile is the committed benchmark set: one CGP line per position,
// the rack of the player to move included. Make(lex, 12, 2026) with NWL23
// wrote it.
//
//go:embed positions.cgp
var positionsFile []byte

// Positions returns the committed benchmark positions.
func Positions() ([]*position.Position, error) {
	return Parse("internal/benchset/positions.cgp", positionsFile)
}

// Parse reads one CGP position a line (blank lines and # comments
// skipped); errors name the file and line.
func Parse(file string, data []byte) ([]*position.Position, error) {
	var out []*position.Position
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		p, err := position.Parse(fmt.Sprintf("%s:%d", file, line), text)
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

// Make plays games seeded games and returns the position before every
// turn, from the mover's side. Each player takes the best play by
// score plus keepLeave (exchanging seven, or passing, when there is none),
// so racks hold blanks and S's the way a strong player's do.
func Make(tables *movegen.Tables, games int, seed uint64) []*position.Position {
	lex := tables.Lexicon()
	var out []*position.Position
	for game := 0; game < games; game++ {
		bag := rules.NewBag(seed + uint64(game))
		gen := movegen.New(tables)
		gen.SetLeaves(keepLeave{})
		var racks [2]rules.Rack
		var scores [2]int
		for p := range racks {
			bag.DrawInto(&racks[p], rules.RackSize)
		}
		scoreless := 0
		for turn := 0; ; turn++ {
			me := turn % 2
			pos := &position.Position{
				Board:     *gen.Board(),
				Racks:     [rules.MaxPlayers]rules.Rack{racks[me]},
				Scores:    [rules.MaxPlayers]int{scores[me], scores[1-me]},
				ZeroTurns: scoreless,
				Lexicon:   lex.Header().Name,
			}
			out = append(out, pos)
			best, found := gen.Best(&racks[me], bag.Len(), movegen.Options{})
			switch {
			case found:
				gen.Apply(&best)
				racks[me].Sub(best.Used())
				scores[me] += int(best.Score)
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

// keepLeave is a fixed rule of thumb for the tiles kept, in whole points,
// standing in for learned leave values so that the benchmark positions
// resemble real play: blanks and S's are worth keeping, Q and duplicates
// are not, and a balance of vowels and consonants helps.
type keepLeave struct{}

// LeaveKey names keepLeave's values for movegen.KeyedLeaveValuer.
func (keepLeave) LeaveKey() uint64 { return 1<<61 + 2 }

func (keepLeave) LeaveValue(r *rules.Rack) rules.Equity {
	v := 25*int32(r[0]) + 8*int32(r[19]) - 7*int32(r[17])
	vowels := int32(r[1]) + int32(r[5]) + int32(r[9]) + int32(r[15]) + int32(r[21])
	for l := 1; l < rules.RackSlots; l++ {
		if r[l] > 1 {
			v -= 4 * int32(r[l]-1)
		}
	}
	cons := int32(r.Count()) - int32(r[0]) - vowels
	if d := vowels - cons; d > 1 || d < -2 {
		v -= 3 * (max(d, -d) - 1)
	}
	return rules.FromPoints(v)
}
