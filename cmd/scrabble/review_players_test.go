package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scrabble/internal/testlex"
)

// TestReviewPlayers reviews the three- and four-player games of
// gcg/testdata (the rule sheet's end of game): every player's turns, final
// score and place; the challenge rule from the file, the flag, or their
// disagreement; and what is two-player only in this build (the solvers,
// --sim, positions) said as such.
func TestReviewPlayers(t *testing.T) {
	e := reviewEnv(t)
	three := filepath.Join("..", "..", "gcg", "testdata", "three_players.gcg")
	four := filepath.Join("..", "..", "gcg", "testdata", "four_players.gcg")

	out := e.ok("--lexicon", "NWL23", "review", three)
	for _, want := range []string{
		"Review of " + three + ": Three players: the rule sheet's end of game",
		"Challenge rule double\n",
		"Note: the endgame and pre-endgame solvers are for two players: in this 3-player game the turns near the end are valued statically",
		"Turn 3, cal (line 15): rack EEOSTV?", "Turn 4, ann (line 17): rack DQU",
		"Final score: ann 105, ben 2, cal -3\n", "Places (naspa tiebreak): 1 ann, 2 ben, 3 cal\n",
		"Every line was applied as recorded.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("review of three players lacks %q:\n%s", want, out)
		}
	}

	var rep struct {
		ChallengeRule string `json:"challenge_rule"`
		Players       []struct {
			Nick string `json:"nick"`
		} `json:"players"`
		Recorded []int `json:"recorded_final"`
		Computed []int `json:"computed_final"`
		Places   []int `json:"places"`
		Tiebreak string
		Turns    []struct {
			Player string `json:"player"`
		} `json:"turns"`
		Timeline []struct {
			Recorded []int `json:"recorded"`
		} `json:"timeline"`
	}
	if err := json.Unmarshal([]byte(e.ok("--lexicon", "NWL23", "review", four, "--json", "--tiebreak", "hasbro")), &rep); err != nil {
		t.Fatal(err)
	}
	// cal went out: 52; ann 62, ben 3, dan -13. No pragma and no bonus:
	// the rule, inferred, is not reported.
	if len(rep.Players) != 4 || !slices.Equal(rep.Recorded, []int{62, 3, 52, -13}) || !slices.Equal(rep.Computed, rep.Recorded) ||
		!slices.Equal(rep.Places, []int{1, 3, 2, 4}) || rep.Tiebreak != "hasbro" || len(rep.Turns) != 7 || rep.ChallengeRule != "" ||
		len(rep.Timeline) != 7 || len(rep.Timeline[6].Recorded) != 4 {
		t.Errorf("JSON of four players: %+v", rep)
	}

	out = e.ok("--lexicon", "NWL23", "review", four, "--player", "cal")
	if strings.Contains(out, ", ann (line") || strings.Count(out, ", cal (line") != 2 {
		t.Errorf("--player cal:\n%s", out)
	}

	page := filepath.Join(e.root, "four.html")
	e.ok("--lexicon", "NWL23", "review", four, "--html", page)
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<span class="p4">Dan -13</span>`, `<polyline class="p4"`, "Places (naspa tiebreak): 1 ann, 3 ben, 2 cal, 4 dan"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}

	// The double-challenge game under single: doug's pass after emely
	// went out is a turn lost to a challenge, which single does not know.
	dc := testlex.Game(t, "doug_v_emely_double_challenge.gcg")
	out = e.ok("--lexicon", "NWL23", "review", dc, "--challenge", "single")
	if !strings.Contains(out, "Challenge rule single\n") || !strings.Contains(out, dc+":30: a turn lost to a challenge (emely went out on line 29), but under the single challenge rule (given) a wrong challenge costs no turn") {
		t.Errorf("review --challenge single:\n%s", out)
	}
	if out := e.ok("--lexicon", "NWL23", "review", dc, "--challenge", "double"); !strings.Contains(out, "Every line was applied as recorded.") {
		t.Errorf("review --challenge double:\n%s", out)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"review", three, "--challenge", "5pt"}, 1, "the file says #challenge-rule double, but --challenge is 5pt: leave out --challenge to use the file's"},
		{[]string{"review", three, "--challenge", "triple"}, 2, `--challenge: unknown challenge rule "triple"`},
		{[]string{"review", three, "--tiebreak", "coin"}, 2, `--tiebreak: unknown tiebreak "coin"`},
		{[]string{"review", four, "--player", "eve"}, 2, `--player "eve" is none of the players: ann (Ann), ben (Ben), cal (Cal), dan (Dan)`},
		{[]string{"review", e.file("five.gcg", "#player1 a\n#player2 b\n#player3 c\n#player4 d\n#player5 e\n")}, 1, "five.gcg:5: #player5: a game has 2 to 4 players"},
		{[]string{"review", e.file("rack3.gcg", "#player1 a\n#player2 b\n#rack3 ABC\n")}, 1, "rack3.gcg:3: #rack3 for a player who does not exist"},
	} {
		r := e.run(append([]string{"--lexicon", "NWL23"}, tc.args...)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, tc.code, tc.msg)
		}
	}
	// Simulation and positions of three and four players.
	if out := e.ok("--lexicon", "NWL23", "review", three, "--sim", "--iterations", "4"); !strings.Contains(out, "Final score: ann 105, ben 2, cal -3\n") {
		t.Errorf("review --sim of three players:\n%s", out)
	}
	cgp := strings.TrimSpace(e.ok("--lexicon", "NWL23", "position", four, "--turn", "2", "--format", "cgp"))
	if f := strings.Fields(cgp); len(f) < 3 || strings.Count(f[1], "/") != 3 || strings.Count(f[2], "/") != 3 {
		t.Errorf("position of a four-player game: %q, want four racks and four scores", cgp)
	}
	// Several games, of two, three and four players, with an index page.
	dir := filepath.Join(e.root, "pages")
	out = e.ok("--lexicon", "NWL23", "review", testlex.Game(t, "doug_v_emely.gcg"), three, four, "--html", dir)
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil || !strings.Contains(out, "dan") || !strings.Contains(string(index), "ann 62, ben 3, cal 52, dan -13") {
		t.Errorf("several games: %v\n%s", err, out)
	}

	// Totals that disagree are a problem naming the line; the review goes on.
	bad := e.file("totals.gcg", "#player1 a\n#player2 b\n#player3 c\n>a: AEINRST 8D RETAINS +66 66\n>b: ADIOQUZ E6 ZO(E)A +13 31\n")
	if r := e.run("--lexicon", "NWL23", "review", bad); r.code != 0 || !strings.Contains(r.stdout, bad+":5: cumulative score 31, but 0 +13 = 13") {
		t.Errorf("review of totals that disagree: %+v", r)
	}
}
