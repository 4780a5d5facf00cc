package rules_test

import (
	"os"
	"strings"
	"testing"

	"scrabble/rules"
)

func ExampleRenderBoard() {
	p, err := rules.ParseCGP("", "15/15/15/15/15/15/7C7/5QUIz6/7T7/15/15/15/15/15/15 / 0/0 0")
	if err != nil {
		panic(err)
	}
	if err := rules.RenderBoard(os.Stdout, &p.Board, false); err != nil {
		panic(err)
	}
	// Output:
	//    A B C D E F G H I J K L M N O
	//  1 = . . ' . . . = . . . ' . . =
	//  2 . - . . . " . . . " . . . - .
	//  3 . . - . . . ' . ' . . . - . .
	//  4 ' . . - . . . ' . . . - . . '
	//  5 . . . . - . . . . . - . . . .
	//  6 . " . . . " . . . " . . . " .
	//  7 . . ' . . . ' C ' . . . ' . .
	//  8 = . . ' . Q U I z . . ' . . =
	//  9 . . ' . . . ' T ' . . . ' . .
	// 10 . " . . . " . . . " . . . " .
	// 11 . . . . - . . . . . - . . . .
	// 12 ' . . - . . . ' . . . - . . '
	// 13 . . - . . . ' . ' . . . - . .
	// 14 . - . . . " . . . " . . . - .
	// 15 = . . ' . . . = . . . ' . . =
}

func TestRenderBoardColor(t *testing.T) {
	var b rules.Board
	var sb strings.Builder
	if err := rules.RenderBoard(&sb, &b, true); err != nil {
		t.Fatal(err)
	}
	out := sb.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != rules.Size+1 {
		t.Fatalf("%d lines, want %d", len(lines), rules.Size+1)
	}
	for _, want := range []string{"\x1b[30;41m = ", "\x1b[30;44m \" ", "\x1b[30;48;5;218m * ", "\x1b[30;48;5;117m ' ", "\x1b[0m"} {
		if !strings.Contains(out, want) {
			t.Errorf("colour output lacks %q", want)
		}
	}
	b.Set(7, 7, 1)
	b.Set(7, 8, 2|rules.BlankBit)
	sb.Reset()
	if err := rules.RenderBoard(&sb, &b, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "\x1b[1;30;48;5;229m A \x1b[0m\x1b[1;30;48;5;229m b ") {
		t.Errorf("tiles not coloured:\n%q", strings.Split(sb.String(), "\n")[8])
	}
}
