package movegen

import (
	"slices"

	"scrabble/move"
)

// Recorder receives each generated move. The pointer is only valid during
// the call.
type Recorder interface {
	Record(m *move.Move)
}

// AllMoves keeps a copy of every move it is handed.
type AllMoves struct {
	Moves []move.Move
}

// Record implements Recorder.
func (a *AllMoves) Record(m *move.Move) { a.Moves = append(a.Moves, *m) }

// Reset empties the list, keeping its storage for the next position.
func (a *AllMoves) Reset() { a.Moves = a.Moves[:0] }

// TopN keeps the N best moves by a caller's order (move.ByScore when Better is
// nil) in a bounded heap, without building the full list.
type TopN struct {
	N int
	// Better reports a < 0 when a ranks above b.
	Better func(a, b *move.Move) int
	heap   []move.Move // worst kept move at heap[0]
}

func (t *TopN) better(a, b *move.Move) int {
	if t.Better != nil {
		return t.Better(a, b)
	}
	return move.ByScore(a, b)
}

// Record implements Recorder.
func (t *TopN) Record(m *move.Move) {
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
func (t *TopN) Moves() []move.Move {
	out := slices.Clone(t.heap)
	slices.SortFunc(out, func(a, b move.Move) int { return t.better(&a, &b) })
	return out
}

// Reset empties the heap for the next position.
func (t *TopN) Reset() { t.heap = t.heap[:0] }

// BestScore keeps only the highest-scoring move (ties broken by move.Compare).
type BestScore struct {
	Best  move.Move
	Found bool
}

// Record implements Recorder.
func (b *BestScore) Record(m *move.Move) {
	if !b.Found || move.ByScore(m, &b.Best) < 0 {
		b.Best, b.Found = *m, true
	}
}

// Reset forgets the best move.
func (b *BestScore) Reset() { b.Found = false }
