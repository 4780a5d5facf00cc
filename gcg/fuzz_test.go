package gcg

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"scrabble/rules"
)

// FuzzParse: Parse never panics; an error is a *Error naming the file; a
// game it reads has 2 to 4 players and no rack of a player who does not
// exist, and replays (under every challenge rule) without panicking, with no turn after six
// consecutive scoreless turns, and written and read back is the same game
// with the same replay.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.gcg"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"#player1 a A\n#player2 b\n>a: ABC 8D CAB +14 14\n>b: DEF? 9C F.Ed +8 8\n>a: -2 +0 14\n",
		"#player1 a\r\n#player2 b\r\n>b: -- -3 -3\r\n#note x\r\n\r\ny\r\n",
		"#player1 a\n#player2 b\n>a: ?? 8H ab +0 0\n>b:  (challenge) +5 5\n>a: (time) -10 -10\n>b: Q (Q) -10 -5\n",
		"#character-encoding ISO-8859-1\n#player1 a J\xf6rg\n#player2 b\n#description d\n\n#e\n",
		"#player1 a\n#player2 b\n" + strings.Repeat(">a: - +0 0\n>b: - +0 0\n", 4) + ">a: (AB) +8 8\n>b: A (A) -1 -1\n>a: -- +0 8\n",
		// Three and four players, challenge rules, and what is wrong with them.
		"#player1 a\n#player2 b\n#player3 c\n#challenge-rule 5pt\n>a: ABC 8D CAB +14 14\n>a: (challenge) +5 19\n>b: - +0 0\n>c: - +0 0\n#note #unsuccessful-challenge\n>a: (QZ) +20 39\n>b: Q (Q) -10 -10\n>c: Z (Z) -10 -10\n",
		"#player1 a\n#player2 b\n#player3 c\n#player4 d\n#rack4 XYZ\n>d: - +0 0\n>b: - +0 0\n>a: -- -3 -3\n",
		"#player1 a\n#player2 b\n#player3 c\n#player4 d\n#player5 e\n#rack3 A\n",
		"#player1 a\n#player2 b\n#rack3 ABC\n#challenge-rule void\n>a: ABC 8D CAB +14 14\n>a: -- -14 0\n",
		"#player1 a\n#player3 c\n>c: - +0 0\n#player2 b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse("fuzz.gcg", data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "fuzz.gcg") {
				t.Fatalf("error %q is not a *gcg.Error naming the file", err)
			}
			return
		}
		if n := len(g.Players); n < rules.MinPlayers || n > rules.MaxPlayers {
			t.Fatalf("%d players read", n)
		}
		for i := len(g.Players); i < rules.MaxPlayers; i++ {
			if g.Racks[i].Count() > 0 {
				t.Fatalf("a rack for player %d of %d", i+1, len(g.Players))
			}
		}
		r := g.Replay()
		if len(r.Steps) != len(g.Events) {
			t.Fatalf("%d steps for %d events", len(r.Steps), len(g.Events))
		}
		for _, tr := range r.Turns {
			if tr.Scoreless >= rules.MaxScorelessTurns {
				t.Fatalf("turn %d (line %d) comes after %d scoreless turns: the game was over", tr.Number, g.Events[tr.Event].Line, tr.Scoreless)
			}
		}
		back, text := roundTrip(t, g)
		if !reflect.DeepEqual(withoutPlaces(back), withoutPlaces(g)) {
			t.Fatalf("written and read back, the game differs:\n%+v\n%+v\n%s", withoutPlaces(g), withoutPlaces(back), text)
		}
		// Replayed under every challenge rule, it does not panic either.
		for c := range rules.ChallengeTenPoint + 1 {
			if rc := g.ReplayWith(ReplayOptions{Challenge: &c}); len(rc.Steps) != len(g.Events) || rc.Challenge != c {
				t.Fatalf("under %v: %d steps for %d events", c, len(rc.Steps), len(g.Events))
			}
		}
		r2 := back.Replay()
		if r2.Totals != r.Totals || r2.Board != r.Board || len(r2.Problems) != len(r.Problems) {
			t.Fatalf("the written game replays differently: %v %d, was %v %d", r2.Totals, len(r2.Problems), r.Totals, len(r.Problems))
		}
	})
}
