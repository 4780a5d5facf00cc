package movegen

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/rules"
)

// fnvLeaves values every leave at an arbitrary fixed -30..+30 points.
type fnvLeaves struct{}

func (fnvLeaves) LeaveValue(r *rules.Rack) int32 {
	h := fnv.New32a()
	h.Write(r[:])
	return int32(h.Sum32()%60001) - 30000
}

// TestFirstBoundMatchesShadow: the first pass's bound from prefix sums
// (firstBound) is exactly what stepping through every span (shadow, not
// refining) gives, for every anchor of the committed benchmark positions,
// with their racks and with random racks holding blanks, before any move
// is found and after.
func TestFirstBoundMatchesShadow(t *testing.T) {
	lex := testlex.GADDAG(t, "NWL23")
	data, err := os.ReadFile("../benchmarks/testdata/positions.cgp")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	checked := 0
	for line, text := range bytes.Split(data, []byte("\n")) {
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		p, err := rules.ParsePosition(fmt.Sprintf("positions.cgp:%d", line+1), text)
		if err != nil {
			t.Fatal(err)
		}
		g := New(lex)
		g.SetLeaves(fnvLeaves{})
		g.SetBoard(&p.Board)
		racks := []rules.Rack{p.Racks[0], randomRack(rng, 1), randomRack(rng, 2)}
		for _, rack := range racks {
			for _, found := range []bool{false, true} {
				if !g.setRackCached(&rack) {
					g.analyzeRack(&rack)
					ri := g.ri
					ri.rack, ri.valuer, ri.leaves, ri.valid = rack, g.valuer, g.leaves, true
				}
				g.sortRackValues()
				g.shadowStamp++
				g.best = bestEquity{}
				if found {
					// A best move of 20 points so far: spans below it drop out.
					g.best = bestEquity{m: Move{Equity: 20000}, found: true}
				}
				for d := 0; d < g.directions(); d++ {
					for lane := 0; lane < n; lane++ {
						last := -1
						g.sumWindows(g.shadowLane(d, lane))
						for set := g.anchor[d][lane]; set != 0; set &= set - 1 {
							pos := bits.TrailingZeros16(set)
							a := anchorBound{dir: int8(d), lane: int8(lane), pos: int8(pos), leftLimit: int8(last)}
							ok := g.shadow(&a)
							got := g.firstBound(&g.win, pos, last)
							if !ok {
								a.bound = minEquity
							}
							if got != a.bound {
								t.Fatalf("%s, rack %s, best found %v: anchor %d/%d/%d: firstBound %d, shadow %d",
									p.CGP(), rack.String(), found, d, lane, pos, got, a.bound)
							}
							checked++
							last = pos
						}
					}
				}
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d anchors checked", checked)
	}
}

// randomRack draws seven tiles with the given number of blanks.
func randomRack(rng *rand.Rand, blanks int) rules.Rack {
	var r rules.Rack
	r[rules.Blank] = uint8(blanks)
	for r.Count() < rules.RackSize {
		l := 1 + rng.IntN(rules.NumLetters)
		if r[l] < rules.Distribution[l] {
			r[l]++
		}
	}
	return r
}
