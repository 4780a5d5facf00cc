package protocol

import (
	"context"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// Every move of every turn of real games survives FormatMove and ParseMove:
// the same move, with the same score.
func TestMoveRoundTrip(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	table := game.NewTable(tables)
	gen := movegen.New(tables)
	games, moves := 4, 0
	if testing.Short() {
		games = 2
	}
	for g := range games {
		players := [2]game.Player{game.NewEquityPlayer(nil, eval.Terms{}), game.NewScorePlayer()}
		rec, err := table.Play(context.Background(), players, uint64(g+1), g%2)
		if err != nil {
			t.Fatal(err)
		}
		var b rules.Board
		for i := range rec.Turns {
			turn := &rec.Turns[i]
			gen.SetBoard(&b)
			var all movegen.AllMoves
			gen.Generate(&turn.Rack, 20, movegen.Options{Exchanges: true, Pass: true}, &all)
			for j := range all.Moves {
				m := &all.Moves[j]
				s := FormatMove(m, &b)
				if strings.ContainsAny(s, " ()") {
					t.Fatalf("game %d turn %d: %s written %q, with a space or parenthesis", g, i, m.NotationOn(&b), s)
				}
				got, err := ParseMove(s, &b)
				if err != nil {
					t.Fatalf("game %d turn %d: ParseMove(%q) of %s: %v", g, i, s, m.NotationOn(&b), err)
				}
				if !move.Same(&got, m) || (m.Kind == move.Play && got.Score != m.Score) {
					t.Fatalf("game %d turn %d: %s written %q, read back as %s (score %d, want %d)", g, i, m.NotationOn(&b), s, got.NotationOn(&b), got.Score, m.Score)
				}
				moves++
			}
			if turn.Move.Kind == move.Play {
				b.Apply(turn.Move.Placed())
			}
		}
	}
	t.Logf("%d moves written and read back", moves)
}

func TestParseMoveForms(t *testing.T) {
	var b rules.Board
	cat := mustParse(t, "8D CAT", &b)
	b.Apply(cat.Placed())
	tests := []struct{ in, want string }{
		{"8D.CATS", "8D CATS"},
		{"8D CATS", "8D CATS"},
		{"8D (CAT)S", "8D CATS"},
		{"d8.cAT", "D8 cAT"},
		{"ex.AB?", "-AB?"},
		{"-AB?", "-AB?"},
		{"pass", "-"},
		{"-", "-"},
	}
	for _, tt := range tests {
		m, err := ParseMove(tt.in, &b)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", tt.in, err)
			continue
		}
		want := mustParse(t, tt.want, &b)
		if !move.Same(&m, &want) {
			t.Errorf("ParseMove(%q) = %s, want %s", tt.in, m.NotationOn(&b), want.NotationOn(&b))
		}
	}
	for _, bad := range []string{"", "ex.", "8D.", ".CAT", "8D.C4T", "Z99.CAT", "8D.DOG", "exchange"} {
		if m, err := ParseMove(bad, &b); err == nil {
			t.Errorf("ParseMove(%q) = %s, want an error", bad, m.NotationOn(&b))
		}
	}
}

func mustParse(t *testing.T, s string, b *rules.Board) move.Move {
	t.Helper()
	m, err := move.Parse(s, b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
