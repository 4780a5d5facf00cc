package move

import (
	"strings"

	"scrabble/rules"
)

// Description is a move as the commands' JSON output and the review report
// show it. The field names are a stable contract documented in README.md
// ("JSON output").
type Description struct {
	Kind   string   `json:"kind"`           // "play", "exchange" or "pass"
	Move   string   `json:"move"`           // notation: "8D QUIX(O)TE", "-ABC", "-"
	Row    int      `json:"row,omitempty"`  // 1-based, plays only
	Col    int      `json:"col,omitempty"`  // 1-based (A = 1), plays only
	Dir    string   `json:"dir,omitempty"`  // "across" or "down", plays only
	Word   string   `json:"word,omitempty"` // the whole main word, plays only
	Tiles  string   `json:"tiles"`          // tiles placed, or exchanged; "" for a pass
	Words  []string `json:"words,omitempty"`
	Score  int      `json:"score"`
	Leave  string   `json:"leave"`
	Equity float64  `json:"equity"` // points: score plus the leave's value
}

// Describe describes m, made from rack on board b.
func Describe(b *rules.Board, rack rules.Rack, m *Move) Description {
	d := Description{
		Kind:   m.Kind.String(),
		Move:   m.NotationOn(b),
		Score:  int(m.Score),
		Leave:  m.Leave(rack).String(),
		Equity: m.Equity.Points(),
	}
	var sb strings.Builder
	for _, t := range m.Tiles[:m.Len] {
		if m.Kind == Play && t == rules.PlayedThrough {
			continue
		}
		sb.WriteRune(t.Rune()) // blanks lower case; '?' for an exchanged blank
	}
	d.Tiles = sb.String()
	if m.Kind == Play {
		d.Row, d.Col, d.Dir = int(m.Row)+1, int(m.Col)+1, m.Dir.String()
		d.Word = m.MainWord(b)
		d.Words = m.Words(b)
	}
	return d
}

// Leave returns rack less the tiles the move uses (the whole rack for a
// pass). Tiles the rack does not hold, as in a recorded game whose rack is
// known only in part, are ignored.
func (m *Move) Leave(rack rules.Rack) rules.Rack {
	if m.Kind == Pass {
		return rack
	}
	used := m.Used()
	for i := range rack {
		rack[i] -= min(rack[i], used[i])
	}
	return rack
}

// Same reports whether a and b do the same thing: Compare's equality,
// except that exchanges of the same tiles are the same in any order.
func Same(a, b *Move) bool {
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == Exchange {
		return a.Used() == b.Used()
	}
	return Compare(a, b) == 0
}
