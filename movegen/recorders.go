package movegen

import (
	"cmp"
	"slices"
)

// AllMoves keeps a copy of every move it is handed.
type AllMoves struct {
	Moves []Move
}

// Record implements Recorder.
func (a *AllMoves) Record(m *Move) { a.Moves = append(a.Moves, *m) }

// Reset empties the list, keeping its storage for the next position.
func (a *AllMoves) Reset() { a.Moves = a.Moves[:0] }

// ByScore orders moves by score, highest first; ties in a fixed order (see
// Compare) so that output is reproducible.
func ByScore(a, b *Move) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return Compare(a, b)
}

// Compare is a total order on moves used to break ties: kind, then
// direction, row, column, length and tiles.
func Compare(a, b *Move) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Dir, b.Dir); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Row, b.Row); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Col, b.Col); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Len, b.Len); c != 0 {
		return c
	}
	return slices.Compare(a.Tiles[:a.Len], b.Tiles[:b.Len])
}

// SortByScore sorts moves by ByScore.
func SortByScore(ms []Move) {
	slices.SortFunc(ms, func(a, b Move) int { return ByScore(&a, &b) })
}

// TopN keeps the N best moves by a caller's order (ByScore when Better is
// nil) in a bounded heap, without building the full list.
type TopN struct {
	N int
	// Better reports a < 0 when a ranks above b.
	Better func(a, b *Move) int
	heap   []Move // worst kept move at heap[0]
}

func (t *TopN) better(a, b *Move) int {
	if t.Better != nil {
		return t.Better(a, b)
	}
	return ByScore(a, b)
}

// Record implements Recorder.
func (t *TopN) Record(m *Move) {
	if t.N <= 0 {
		return
	}
	if len(t.heap) < t.N {
		t.heap = append(t.heap, *m)
		t.up(len(t.heap) - 1)
		return
	}
	if t.better(m, &t.heap[0]) >= 0 {
		return
	}
	t.heap[0] = *m
	t.down(0)
}

// worse reports whether heap element i ranks below j.
func (t *TopN) worse(i, j int) bool { return t.better(&t.heap[i], &t.heap[j]) > 0 }

func (t *TopN) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.worse(i, p) {
			return
		}
		t.heap[i], t.heap[p] = t.heap[p], t.heap[i]
		i = p
	}
}

func (t *TopN) down(i int) {
	for {
		l, w := 2*i+1, i
		if l < len(t.heap) && t.worse(l, w) {
			w = l
		}
		if r := l + 1; r < len(t.heap) && t.worse(r, w) {
			w = r
		}
		if w == i {
			return
		}
		t.heap[i], t.heap[w] = t.heap[w], t.heap[i]
		i = w
	}
}

// Moves returns the kept moves, best first.
func (t *TopN) Moves() []Move {
	out := slices.Clone(t.heap)
	slices.SortFunc(out, func(a, b Move) int { return t.better(&a, &b) })
	return out
}

// Reset empties the heap for the next position.
func (t *TopN) Reset() { t.heap = t.heap[:0] }

// BestScore keeps only the highest-scoring move (ties broken by Compare).
type BestScore struct {
	Best  Move
	Found bool
}

// Record implements Recorder.
func (b *BestScore) Record(m *Move) {
	if !b.Found || ByScore(m, &b.Best) < 0 {
		b.Best, b.Found = *m, true
	}
}

// Reset forgets the best move.
func (b *BestScore) Reset() { b.Found = false }
