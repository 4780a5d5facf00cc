package gcg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/rules"
)

// TestRealGames: every game in ../shared/games loads, replays without a
// problem, and every recorded cumulative score equals the engine's total
// after that event; written back and read again it is the same game.
func TestRealGames(t *testing.T) {
	// What each file says, read off the files by hand: events, moves,
	// withdrawn plays, challenge bonuses, exchanges, final totals.
	type facts struct {
		events, turns, withdrawn, bonuses, exchanges int
		final                                        [rules.MaxPlayers]int
	}
	known := map[string]facts{
		"doug_v_emely.gcg":                  {28, 26, 1, 0, 0, [rules.MaxPlayers]int{451, 345}},
		"doug_v_emely_double_challenge.gcg": {29, 27, 1, 0, 0, [rules.MaxPlayers]int{451, 345}},
		"incomplete.gcg":                    {20, 20, 0, 0, 0, [rules.MaxPlayers]int{336, 298}},
		"josh2.gcg":                         {34, 28, 1, 4, 1, [rules.MaxPlayers]int{397, 291}},
		"noah_vs_mishu.gcg":                 {36, 35, 0, 0, 3, [rules.MaxPlayers]int{377, 388}},
		"utf8_dos.gcg":                      {24, 23, 0, 0, 0, [rules.MaxPlayers]int{375, 488}},
		"vs_andy.gcg":                       {27, 26, 0, 0, 1, [rules.MaxPlayers]int{423, 363}},
	}
	for _, path := range testlex.Games(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			g, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r := g.Replay()
			for _, p := range r.Problems {
				t.Errorf("problem: %v", &p)
			}
			for i, s := range r.Steps {
				if s.Totals != s.Recorded {
					t.Errorf("line %d: engine totals %v, recorded %v", g.Events[i].Line, s.Totals, s.Recorded)
				}
			}
			var f facts
			f.events, f.turns, f.final = len(g.Events), len(r.Turns), r.Totals
			for _, e := range g.Events {
				switch e.Kind {
				case Withdrawn:
					f.withdrawn++
				case ChallengeBonus:
					f.bonuses++
				case Exchange:
					f.exchanges++
				}
			}
			if want, ok := known[name]; ok && f != want {
				t.Errorf("read %+v, want %+v", f, want)
			}

			back, _ := roundTrip(t, g)
			diffGames(t, withoutPlaces(back), withoutPlaces(g))
			if r2 := back.Replay(); r2.Totals != r.Totals || r2.Board != r.Board || len(r2.Problems) != 0 {
				t.Errorf("written and read back: totals %v, problems %v", r2.Totals, r2.Problems)
			}
		})
	}
}

// TestRealGameDetails checks what particular files hold.
func TestRealGameDetails(t *testing.T) {
	g, err := ReadFile(testlex.Game(t, "utf8_dos.gcg"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Players[1] != (Player{"Michal_Josko", "Michal Josko"}) {
		t.Errorf("player 2 %+v", g.Players[1])
	}
	// The note on line 22 goes on over the next line, which has no '#'.
	if n := g.Events[9].Note; !strings.HasPrefix(n, "tennises dentines way more points\nsince ive been behind") {
		t.Errorf("note of event 10 (line %d): %q", g.Events[9].Line, n)
	}
	g, err = ReadFile(testlex.Game(t, "incomplete.gcg"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Lexicon != "NWL18" {
		t.Errorf("lexicon %q", g.Lexicon)
	}
}

// TestRealGameEndCheck: the end-of-game points are checked against the
// opponent's tiles, which the record shows once the bag is empty.
func TestRealGameEndCheck(t *testing.T) {
	data, err := os.ReadFile(testlex.Game(t, "vs_andy.gcg"))
	if err != nil {
		t.Fatal(err)
	}
	// andy's last rack DEIINQR less the Q he played is DEIINR; the file
	// says (DEINIR) +14. Claim an X instead of the R: 2 x (2+1+1+1+1+8).
	text := strings.Replace(string(data), ">cesar:  (DEINIR) +14 363", ">cesar:  (DEINIX) +28 377", 1)
	if text == string(data) {
		t.Fatal("the end line of vs_andy.gcg is not as expected")
	}
	g, err := Parse("vs_andy.gcg", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	r := g.Replay()
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Msg, "andy holds DEIINR, not DEIINX") {
		t.Errorf("problems %v, want one saying andy holds DEIINR", r.Problems)
	}
}
