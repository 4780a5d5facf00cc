package move

import (
	"cmp"
	"slices"
)

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

// ByEquity orders moves by equity, highest first, then by Compare.
func ByEquity(a, b *Move) int {
	switch {
	case a.Equity > b.Equity:
		return -1
	case a.Equity < b.Equity:
		return 1
	}
	return Compare(a, b)
}
