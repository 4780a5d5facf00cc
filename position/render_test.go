package position_test

import (
	"os"
	"strings"
	"testing"

	"scrabble/position"
	"scrabble/rules"
)

func ExampleRenderBoard() {
	p, err := position.ParseCGP("", "15/15/15/15/15/15/7C7/5QUIz6/7T7/15/15/15/15/15/15 / 0/0 0")
	if err != nil {
		panic(err)
	}
	if err := position.RenderBoard(os.Stdout, &p.Board, false); err != nil {
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
	if err := position.RenderBoard(&sb, &b, true); err != nil {
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
	if err := position.RenderBoard(&sb, &b, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "\x1b[1;30;48;5;229m A \x1b[0m\x1b[1;30;48;5;229m b ") {
		t.Errorf("tiles not coloured:\n%q", strings.Split(sb.String(), "\n")[8])
	}
}

// TestRenderHighlight marks the last move's squares: without colour the
// gaps around each run of marked squares become brackets and every square
// stays in its column; in colour the marked tiles get their own background.
func TestRenderHighlight(t *testing.T) {
	p, err := position.ParseCGP("", "15/15/15/15/15/15/7C7/5QUIz6/7T7/15/15/15/15/15/15 / 0/0 0")
	if err != nil {
		t.Fatal(err)
	}
	render := func(opt position.RenderOptions) []string {
		var sb strings.Builder
		if err := position.RenderBoardWith(&sb, &p.Board, opt); err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	}
	plain := render(position.RenderOptions{})
	sq := func(row, col int) int { return row*rules.Size + col }
	// setGap puts ch in the gap before column col of a plain line: the
	// row label takes 2 bytes, each square 2 (gap, mark).
	setGap := func(line string, col int, ch byte) string {
		b := []byte(line)
		if i := 2 + 2*col; i < len(b) {
			b[i] = ch
		} else {
			b = append(b, ch)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name      string
		highlight []int
		want      map[int]string // line index (0 is the header) -> line
	}{
		{"across with a tile played through", []int{sq(7, 5), sq(7, 6), sq(7, 8)}, map[int]string{
			8: setGap(setGap(setGap(setGap(plain[8], 5, '['), 7, ']'), 8, '['), 9, ']')}},
		{"down", []int{sq(6, 7), sq(7, 7), sq(8, 7)}, map[int]string{
			7: setGap(setGap(plain[7], 7, '['), 8, ']'),
			8: setGap(setGap(plain[8], 7, '['), 8, ']'),
			9: setGap(setGap(plain[9], 7, '['), 8, ']')}},
		{"at the right edge", []int{sq(0, 13), sq(0, 14)}, map[int]string{
			1: setGap(setGap(plain[1], 13, '['), 15, ']')}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := render(position.RenderOptions{Highlight: tc.highlight})
			for i := range plain {
				want, changed := tc.want[i]
				if !changed {
					want = plain[i]
				}
				if got[i] != want {
					t.Errorf("line %d:\n got %q\nwant %q", i, got[i], want)
				}
			}
		})
	}
	if got := render(position.RenderOptions{Highlight: []int{sq(7, 5), sq(7, 6)}})[8]; got != " 8 = . . ' .[Q U]I z . . ' . . =" {
		t.Errorf("row 8 with QU marked: %q", got)
	}

	// In colour the marked squares' tiles are bold black on orange, the
	// others keep the tile colour.
	const newTile, oldTile = "\x1b[1;30;48;5;214m", "\x1b[1;30;48;5;229m"
	out := strings.Join(render(position.RenderOptions{Color: true, Highlight: []int{sq(7, 5), sq(7, 6), sq(7, 8)}}), "\n")
	if n := strings.Count(out, newTile); n != 3 {
		t.Errorf("%d squares in the last move's colour, want 3", n)
	}
	if n := strings.Count(out, oldTile); n != p.Board.TileCount()-3 {
		t.Errorf("%d squares in the tile colour, want %d", n, p.Board.TileCount()-3)
	}
	if !strings.Contains(out, newTile+" Q \x1b[0m"+newTile+" U \x1b[0m"+oldTile+" I \x1b[0m"+newTile+" z ") {
		t.Errorf("row 8 in colour: %q", strings.Split(out, "\n")[8])
	}
	coloured := strings.Join(render(position.RenderOptions{Color: true, Highlight: []int{sq(7, 5)}}), "")
	if strings.ContainsAny(strings.ReplaceAll(coloured, "\x1b[", ""), "[]") {
		t.Error("brackets drawn in colour")
	}
}

func TestRenderLegend(t *testing.T) {
	for _, tc := range []struct {
		color, lastMove bool
		want            []string
		not             []string
	}{
		{false, false, []string{"= triple word", "- double word", `" triple letter`, "' double letter", "* centre"}, []string{"last move", "\x1b["}},
		{false, true, []string{"= triple word", "[A] last move"}, []string{"\x1b["}},
		{true, true, []string{"\x1b[30;41m = \x1b[0m triple word", "\x1b[30;44m \" \x1b[0m triple letter",
			"\x1b[1;30;48;5;214m A \x1b[0m last move"}, []string{"[A]"}},
	} {
		var sb strings.Builder
		if err := position.RenderLegend(&sb, tc.color, tc.lastMove); err != nil {
			t.Fatal(err)
		}
		out := sb.String()
		if strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "Legend:") {
			t.Errorf("legend is not one line: %q", out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("color %v, last move %v: legend %q lacks %q", tc.color, tc.lastMove, out, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(out, w) {
				t.Errorf("color %v, last move %v: legend %q has %q", tc.color, tc.lastMove, out, w)
			}
		}
	}
}
