package movegen

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/position"
	"scrabble/rules"
)

// fnvLeaves values every leave at an arbitrary fixed -30..+30 points.
type fnvLeaves struct{}

func (fnvLeaves) LeaveValue(r *rules.Rack) rules.Equity {
	h := fnv.New32a()
	h.Write(r[:])
	return rules.Equity(h.Sum32()%60001) - 30000
}

// TestShadowMatchesStepping: the first pass's bound from prefix sums
// (firstBound) is exactly what stepping through every span's squares gives
// (refSpans, a plain reference), and so are the spans a refined anchor puts
// in line with their bounds (refine), on every anchor of the committed
// benchmark positions with their racks and with random racks holding
// blanks, before any move is found and after.
func TestShadowMatchesStepping(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	data, err := os.ReadFile("../internal/benchset/positions.cgp")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	checked, queued := 0, 0
	for line, text := range bytes.Split(data, []byte("\n")) {
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		p, err := position.Parse(fmt.Sprintf("positions.cgp:%d", line+1), text)
		if err != nil {
			t.Fatal(err)
		}
		g := New(tablesFor(lex))
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
					g.best = bestEquity{m: move.Move{Equity: 20000}, found: true}
				}
				for d := 0; d < g.directions(); d++ {
					for lane := 0; lane < n; lane++ {
						last := -1
						g.sumWindows(g.shadowLane(d, lane))
						for set := g.anchor[d][lane]; set != 0; set &= set - 1 {
							pos := bits.TrailingZeros16(set)
							a := anchorBound{dir: int8(d), lane: int8(lane), pos: int8(pos), leftLimit: int8(last)}
							last = pos
							where := func() string {
								return fmt.Sprintf("%s, rack %s, best found %v: anchor %d/%d/%d", p.CGP(), rack.String(), found, d, lane, pos)
							}
							for _, refining := range []bool{false, true} {
								g.spans = g.spans[:0]
								g.queue.reset()
								got := minEquity
								if refining {
									g.refine(&a)
								} else {
									got = g.firstBound(&g.win, pos, int(a.leftLimit))
								}
								var gotSpans []refQueued
								for g.queue.top != 0 {
									key := g.queue.pop()
									sp := g.spans[int(key&(1<<queueShift-1))>>2]
									gotSpans = append(gotSpans, refQueued{int(sp.start), int(sp.end), int(sp.k), rules.Equity(key >> queueShift)})
								}
								want, wantSpans := refSpans(g, &a, refining)
								if !refining && got != want {
									t.Fatalf("%s: first pass bound %d, stepping %d", where(), got, want)
								}
								sortQueued(gotSpans)
								sortQueued(wantSpans)
								if !slices.Equal(gotSpans, wantSpans) {
									t.Fatalf("%s, refining %v: spans in line %v, stepping %v", where(), refining, gotSpans, wantSpans)
								}
								queued += len(gotSpans)
							}
							checked++
						}
					}
				}
			}
		}
	}
	if checked < 10000 || queued < 10000 {
		t.Fatalf("only %d anchors checked, %d spans queued", checked, queued)
	}
}

// refQueued is a span put in line: its squares, new tiles and bound.
type refQueued struct {
	start, end, k int
	bound         rules.Equity
}

func sortQueued(q []refQueued) {
	slices.SortFunc(q, func(a, b refQueued) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(a.bound, b.bound))
	})
}

// refSquare is what stepping needs of one square of a lane.
type refSquare struct {
	tile                                  rules.Letter
	usable                                bool
	lm, wm                                int32
	free                                  bool
	value, hookMain, hookCross, crossBase int32
	crossX                                int32
}

// refSpan is a span being stepped through.
type refSpan struct {
	k, length            int
	fixed, wordMul       int32
	hookMain, hookCross  int32
	crossBase            int32
	through              rules.Letter
	board                uint64
	free, double, triple int32
	tileLM, tileX        [rules.RackSize]int32
}

// refSpans bounds the anchor's spans by stepping through their squares one
// by one: the anchor's bound (minEquity: none), and while refining the
// spans that would go in line with their bounds.
func refSpans(g *Generator, a *anchorBound, refining bool) (rules.Equity, []refQueued) {
	var sqs [n]refSquare
	d, lane := int(a.dir), int(a.lane)
	playable := g.letterMask | g.blankMask
	for pos := range n {
		sq := lane*n + pos
		q := &sqs[pos]
		*q = refSquare{tile: g.tiles[d][sq], lm: letterMul[d][sq], wm: wordMul[d][sq]}
		if q.tile != rules.Empty {
			q.value = int32(q.tile.Value())
			continue
		}
		cross := g.cross[d][sq]
		allowed := cross & (g.ext[d][sq] | hasCross)
		q.usable = allowed&playable != 0
		if cross&hasCross == 0 && allowed&allLetters == allLetters {
			q.free = true
			continue
		}
		best := int32(0)
		for l := rules.Letter(1); l <= rules.NumLetters; l++ {
			if g.rack[l] > 0 && allowed&(1<<l) != 0 {
				best = max(best, int32(l.Value()))
			}
		}
		q.hookMain = best * q.lm
		if cross&hasCross != 0 {
			q.crossBase = g.crossScore[d][sq] * q.wm
			q.hookCross = best*q.lm*q.wm + q.crossBase
			q.crossX = q.lm * q.wm
		}
	}
	add := func(s *refSpan, p int) bool {
		q := &sqs[p]
		if !q.usable || s.k == g.rackTiles {
			return false
		}
		if q.free {
			s.free++
			switch q.lm {
			case 2:
				s.double++
			case 3:
				s.triple++
			}
		}
		s.hookMain += q.hookMain
		s.hookCross += q.hookCross
		s.crossBase += q.crossBase
		s.tileLM[s.k], s.tileX[s.k] = q.lm, q.crossX
		s.wordMul *= q.wm
		s.k++
		s.length++
		return true
	}
	score := func(s *refSpan, values *[rules.RackSize]int32, leave rules.Equity) int32 {
		var top [rules.RackSize + 1]int32
		prefixSums(&top, values)
		main := s.fixed + s.hookMain + top[s.triple] + top[s.triple+s.double] + top[s.free]
		total := main*s.wordMul + s.hookCross
		if s.k == rules.RackSize {
			total += rules.BingoBonus
		}
		if refining && int32(s.k) > s.free && (!g.best.found || rules.FromPoints(total)+leave >= g.best.m.Equity) {
			coef := make([]int32, s.k)
			for i := range s.k {
				coef[i] = s.tileLM[i]*s.wordMul + s.tileX[i]
			}
			slices.SortFunc(coef, func(a, b int32) int { return cmp.Compare(b, a) })
			once := s.fixed*s.wordMul + s.crossBase
			for i, c := range coef {
				once += c * values[i]
			}
			if s.k == rules.RackSize {
				once += rules.BingoBonus
			}
			total = min(total, once)
		}
		return total
	}
	bound := minEquity
	var queued []refQueued
	consider := func(s refSpan, start, end int) {
		if s.length < 2 {
			return
		}
		var b rules.Equity
		if s.length == s.k {
			if !g.ri.spell.formable[s.k] {
				return
			}
			leave := g.ri.spell.leave[s.k]
			b = rules.FromPoints(score(&s, &g.ri.spell.values[s.k], leave)) + leave
		} else {
			sc := score(&s, &g.tileValues, g.leaves.best[s.k])
			if !refining && rules.FromPoints(sc)+g.leaves.best[s.k] <= bound {
				return
			}
			need := minEquity
			if g.best.found {
				need = g.best.m.Equity - rules.FromPoints(sc)
			}
			// The first pass checks words only for the whole rack or all
			// but one tile.
			leave := g.leaves.best[s.k]
			if refining || g.rackTiles-s.k <= 1 {
				leave = g.throughLeave(&shadowSpan{k: s.k, length: s.length, through: s.through, board: s.board}, need)
			}
			if leave == minEquity || leave < need {
				return
			}
			b = rules.FromPoints(sc) + leave
		}
		bound = max(bound, b)
		if refining && !(g.best.found && b < g.best.m.Equity) {
			queued = append(queued, refQueued{start, end, s.k, b})
		}
	}
	pos, leftLimit := int(a.pos), int(a.leftLimit)
	left := refSpan{wordMul: 1}
	if !add(&left, pos) {
		return minEquity, nil
	}
	for l := pos; ; {
		if l == 0 || sqs[l-1].tile == rules.Empty {
			// Every span starting at l, extended right.
			s, r := left, pos
			for {
				for r+1 < n && sqs[r+1].tile != rules.Empty {
					r++
					s.fixed += sqs[r].value
					s.through = sqs[r].tile.Unblanked()
					s.board += fingerprints[s.through]
					s.length++
				}
				consider(s, l, r)
				if r+1 >= n || !add(&s, r+1) {
					break
				}
				r++
			}
		}
		if l == 0 {
			break
		}
		l--
		if q := &sqs[l]; q.tile != rules.Empty {
			left.fixed += q.value
			left.through = q.tile.Unblanked()
			left.board += fingerprints[left.through]
			left.length++
			continue
		}
		if l <= leftLimit || !add(&left, l) {
			break
		}
	}
	return bound, queued
}

// randomRack draws seven tiles with the given number of blanks.
func randomRack(rng *rand.Rand, blanks int) rules.Rack {
	var r rules.Rack
	r[rules.Blank] = uint8(blanks)
	for r.Count() < rules.RackSize {
		l := 1 + rng.IntN(rules.NumLetters)
		if r[l] < rules.Distribution()[l] {
			r[l]++
		}
	}
	return r
}
