package movegen

import "scrabble/rules"

// refine bounds again every span of the anchor at (d, lane, pos), now that
// the anchor's first-pass bound (firstBound) comes first in line: spans
// reaching left no further than leftLimit+1, right to the edge, with at most
// a rack of new tiles, each with the word check for its number of tiles
// (throughLeave) and the tile-once bound (shadowOnce). Each span that could
// beat the best move goes in line (queueSpan).
func (g *Generator) refine(a *anchorBound) {
	pos, leftLimit := int(a.pos), int(a.leftLimit)
	sqs := g.shadowLane(int(a.dir), int(a.lane))
	left := shadowSpan{wordMul: 1}
	if !g.shadowAdd(&left, sqs, pos) {
		return
	}
	for l := pos; ; {
		if l == 0 || sqs[l-1].tile == rules.Empty {
			g.refineRight(left, sqs, l, pos, a)
		}
		if l == 0 {
			break
		}
		l--
		if q := &sqs[l]; q.tile != rules.Empty {
			left.fixed += int32(q.value)
			left.through = q.tile.Unblanked()
			left.board += fingerprints[left.through]
			left.length++
			continue
		}
		if l <= leftLimit || !g.shadowAdd(&left, sqs, l) {
			break
		}
	}
}

// refineRight extends a copy of the span, which starts at start, rightwards
// from the anchor, and puts each span that ends where a word may end and
// could beat the best move in line.
func (g *Generator) refineRight(s shadowSpan, sqs *[n]shadowSquare, start, anchor int, a *anchorBound) {
	r := anchor
	for {
		for r+1 < n && sqs[r+1].tile != rules.Empty {
			r++
			q := &sqs[r]
			s.fixed += int32(q.value)
			s.through = q.tile.Unblanked()
			s.board += fingerprints[s.through]
			s.length++
		}
		switch {
		case s.length < 2:
		case s.length == s.k: // new tiles only: a word the rack spells
			if g.ri.spell.formable[s.k] {
				score := g.shadowScore(&s, &g.ri.spell.values[s.k], &g.ri.spell.top[s.k], g.ri.spell.leave[s.k])
				g.queueSpan(a, start, r, s.k, rules.FromPoints(score)+g.ri.spell.leave[s.k])
			}
		default:
			score := g.shadowScore(&s, &g.tileValues, &g.tileTop, g.leaves.best[s.k])
			need := minEquity
			if g.best.found {
				need = g.best.m.Equity - rules.FromPoints(score)
			}
			if leave := g.throughLeave(&s, need); leave != minEquity && leave >= need {
				g.queueSpan(a, start, r, s.k, rules.FromPoints(score)+leave)
			}
		}
		if r+1 >= n || !g.shadowAdd(&s, sqs, r+1) {
			return
		}
		r++
	}
}

// queueSpan puts a span of the anchor being refined in line for placing,
// if it could beat the best move found.
func (g *Generator) queueSpan(a *anchorBound, start, end, k int, bound rules.Equity) {
	if g.best.found && bound < g.best.m.Equity {
		return
	}
	g.spans = append(g.spans, span{dir: a.dir, lane: a.lane, start: int8(start), end: int8(end), k: int8(k)})
	g.queue.push(queueKey(bound, len(g.spans)-1, spanEntry))
}
