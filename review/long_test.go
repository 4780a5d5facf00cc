package review

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/gcg"
	"scrabble/internal/testgen"
)

// TestReviewLongGame: a generated game of 100,000 recorded turns after six
// passes ended it (once 100,000 turns of review and 3.8 GB for --html)
// reviews the turns up to the end, and reports the lines after it as
// problems, in the text and the HTML page.
func TestReviewLongGame(t *testing.T) {
	tests := []struct {
		name string
		turn func(i int) string // the i-th line after the end
	}{
		{"passes", func(i int) string {
			if i%2 == 0 {
				return ">bob: - +0 0\n"
			}
			return ">alice: - +0 10\n"
		}},
		{"plays", func(i int) string {
			if i%2 == 0 {
				return ">bob: ACT 7G A(T) +2 0\n"
			}
			return ">alice: AACESTV 9G TA +4 10\n"
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("#player1 alice\n#player2 bob\n>alice: AACESTV 8G CAT +10 10\n")
			b.WriteString(strings.Repeat(">bob: - +0 0\n>alice: - +0 10\n", 3))
			for i := range 100_000 {
				b.WriteString(tc.turn(i))
			}
			path := filepath.Join(t.TempDir(), "long.gcg")
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			g, err := gcg.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rep := mustReview(t, g.Replay(), Options{Tables: testgen.Tables(tinyLexicon(t))})
			if len(rep.Turns) != 7 {
				t.Errorf("%d turns reviewed, want 7 (the game ends after six passes)", len(rep.Turns))
			}
			if len(rep.Problems) != 11 || rep.Problems[0].Line != 10 ||
				!strings.Contains(rep.Problems[10].Message, "to line 100009, are not applied") {
				t.Fatalf("problems %+v, want lines 10 to 19, then one to line 100009", rep.Problems)
			}
			var html bytes.Buffer
			if err := WriteHTML(&html, rep); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(html.String(), "line 10: the game ended after six consecutive scoreless turns (line 9)") {
				t.Errorf("the HTML page does not list the first line after the end")
			}
			var text bytes.Buffer
			if err := WriteText(&text, rep); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), "to line 100009") {
				t.Errorf("the text report does not name the last line:\n%s", text.String())
			}
		})
	}
}
