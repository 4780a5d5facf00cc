package move_test

import (
	"reflect"
	"testing"

	"scrabble/move"
	"scrabble/rules"
)

func TestDescribe(t *testing.T) {
	var b rules.Board
	rack, err := rules.ParseRack("EQTUX??")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		move string
		want move.Description
	}{
		{"8D QUiXoTE", move.Description{Kind: "play", Move: "8D QUiXoTE", Row: 8, Col: 4, Dir: "across",
			Word: "QUiXoTE", Tiles: "QUiXoTE", Words: []string{"QUiXoTE"}, Score: 112, Leave: ""}}, // Q on the 2L square 8D: (20+1+8+1+1)x2 + 50
		{"-QX", move.Description{Kind: "exchange", Move: "-QX", Tiles: "QX", Leave: "ETU??"}},
		{"-", move.Description{Kind: "pass", Move: "-", Leave: "EQTUX??"}},
	}
	for _, tt := range tests {
		m, err := move.Parse(tt.move, &b)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.move, err)
		}
		if got := move.Describe(&b, rack, &m); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Describe(%s) = %+v, want %+v", tt.move, got, tt.want)
		}
	}
}

func TestLeaveIgnoresTilesNotOnTheRack(t *testing.T) {
	var b rules.Board
	m, err := move.Parse("8D QAT", &b)
	if err != nil {
		t.Fatal(err)
	}
	rack, _ := rules.ParseRack("AT") // a rack recorded in part
	if got := m.Leave(rack); got.Count() != 0 {
		t.Errorf("leave %s, want none", got.String())
	}
}

func TestSame(t *testing.T) {
	var b rules.Board
	parse := func(s string) move.Move {
		m, err := move.Parse(s, &b)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		a, b string
		same bool
	}{
		{"-ABC", "-CBA", true}, // an exchange in any order
		{"-ABC", "-ABD", false},
		{"8D QAT", "8D QAT", true},
		{"8D QAT", "8E QAT", false},
		{"-", "-", true},
		{"-", "-A", false},
	}
	for _, tt := range tests {
		a, c := parse(tt.a), parse(tt.b)
		if got := move.Same(&a, &c); got != tt.same {
			t.Errorf("Same(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}
