package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/rules"
)

func letter(ch byte) rules.Letter { return rules.Letter(ch-'A') + 1 }

// TestPositionCommand shows the position before turn 5 of doug_v_emely.gcg:
// WINDY (8D), GALE (7C), JAVE..N (E3) and VOX (F2) are down, doug holds
// ADENOST and leads 66 to 55.
func TestPositionCommand(t *testing.T) {
	game := testlex.Game(t, "doug_v_emely.gcg")
	e := newTestEnv(t)

	cgp := e.ok("position", game, "--turn", "5", "--format", "cgp")
	p, err := rules.ParseCGP("out", strings.TrimSpace(cgp))
	if err != nil {
		t.Fatalf("%v\n%s", err, cgp)
	}
	want := map[[2]int]byte{}
	put := func(row, col int, down bool, word string) {
		for i := range len(word) {
			if down {
				want[[2]int{row + i, col}] = word[i]
			} else {
				want[[2]int{row, col + i}] = word[i]
			}
		}
	}
	put(7, 3, false, "WINDY")  // 8D
	put(6, 2, false, "GALE")   // 7C
	put(2, 4, true, "JAVELIN") // E3, through the L of GALE and the I of WINDY
	put(1, 5, true, "VOX")     // F2
	for r := range rules.Size {
		for c := range rules.Size {
			got := p.Board.At(r, c)
			if ch, ok := want[[2]int{r, c}]; ok && got != letter(ch) || !ok && got != rules.Empty {
				t.Errorf("square %d%c holds %v", r+1, 'A'+c, got)
			}
		}
	}
	if p.Racks[0].String() != "ADENOST" || p.Racks[1].Count() != 0 || p.Scores != [2]int{66, 55} || p.ZeroTurns != 0 {
		t.Errorf("racks %v, scores %v, zero turns %d", p.Racks, p.Scores, p.ZeroTurns)
	}

	text := e.ok("position", game, "--turn", "5", "--color", "never")
	for _, want := range []string{"Before turn 5 (line 7): doug to move; played 10B DONATES +82", "To move:   ADENOST   score 66",
		"Opponent:  -         score 55", "CGP: " + strings.TrimSpace(cgp)} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	// The CGP reads back.
	if r := e.runIn(cgp, "--data-dir", e.dataDir, "show", "--board", "-", "--format", "cgp"); r.code != 0 || r.stdout != cgp {
		t.Errorf("show --board - on the CGP: %+v", r)
	}
	// The game's #lexicon goes into the CGP.
	if out := e.ok("position", testlex.Game(t, "incomplete.gcg"), "--turn", "3", "--format", "cgp"); !strings.Contains(out, " lex NWL18;") {
		t.Errorf("CGP of incomplete.gcg: %q", out)
	}
	// After the last turn (26 turns): emely went out, doug would move.
	if out := e.ok("position", game, "--turn", "27", "--color", "never"); !strings.Contains(out, "After the last turn (26 turns): doug to move") {
		t.Errorf("end position:\n%s", out)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"position", game}, 2, "--turn must be from 1 to 27"},
		{[]string{"position", game, "--turn", "28"}, 2, "has 26 turns"},
		{[]string{"position", game, "--turn", "1", "--format", "xml"}, 2, "--format must be text or cgp"},
		{[]string{"position"}, 2, "accepts 1 arg"},
		{[]string{"position", filepath.Join(e.root, "nope.gcg"), "--turn", "1"}, 1, "reading game"},
		{[]string{"position", e.file("bad.gcg", "#player1 a\n#player2 b\n>a: AB 8D AB 10 10\n"), "--turn", "1"}, 1, "bad.gcg:3: score"},
	} {
		r := e.run(tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, tc.code, tc.msg)
		}
	}
	// A line that could not be applied before the turn is noted.
	bad := e.file("problem.gcg", "#player1 a\n#player2 b\n>a: AEINRST 8D RETAINS +60 60\n>b: ADIOQUZ E6 ZO(E)A +13 13\n")
	if r := e.run("position", bad, "--turn", "2", "--format", "cgp"); r.code != 0 || !strings.Contains(r.stderr, "note: "+bad+":3: recorded score +60, but the engine scores 8D RETAINS +66") {
		t.Errorf("problem note: %+v", r)
	}
}

// reviewEnv is a test environment where NWL23 comes from the shared lists.
func reviewEnv(t *testing.T) *testEnv {
	t.Helper()
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	return e
}

// TestReviewCommand: every shared game reviews without error on a fresh
// data directory, in text, JSON and HTML.
func TestReviewCommand(t *testing.T) {
	e := reviewEnv(t)
	games := testlex.Games(t)
	for _, game := range games {
		r := e.run("--lexicon", "NWL23", "review", game)
		if r.code != 0 || !strings.Contains(r.stdout, "Summary\n") || !strings.Contains(r.stdout, "Every line was applied as recorded.") {
			t.Errorf("review %s: exit %d\n%s\n%s", filepath.Base(game), r.code, r.stderr, r.stdout)
		}
	}

	game := testlex.Game(t, "doug_v_emely.gcg")
	out := e.ok("--lexicon", "NWL23", "review", game, "--top", "3")
	for _, want := range []string{"Review of " + game + ": doug vs emely", "Lexicon NWL23, static evaluation",
		"Turn 1, doug (line 3): rack DINNVWY", "Turn 26, emely (line 29): rack FS?", "Final score: doug 451, emely 345"} {
		if !strings.Contains(out, want) {
			t.Errorf("review lacks %q:\n%s", want, out)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^Turn \d+, `).FindAllString(out, -1)); n != 26 {
		t.Errorf("%d turns in the review, want 26", n)
	}

	out = e.ok("--lexicon", "NWL23", "review", game, "--player", "EMELY")
	if strings.Contains(out, ", doug (line") || !strings.Contains(out, "Turn 2, emely (line 4)") {
		t.Errorf("--player emely:\n%s", out)
	}

	var rep struct {
		Lexicon string `json:"lexicon"`
		Turns   []struct {
			Turn          int    `json:"turn"`
			Player        string `json:"player"`
			RecordedTotal int    `json:"recorded_total"`
			ComputedTotal int    `json:"computed_total"`
			Reviewed      bool   `json:"reviewed"`
		} `json:"turns"`
		Problems []any `json:"problems"`
	}
	if err := json.Unmarshal([]byte(e.ok("--lexicon", "NWL23", "review", game, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Lexicon != "NWL23" || len(rep.Turns) != 26 || rep.Problems == nil || len(rep.Problems) != 0 {
		t.Errorf("JSON: %+v", rep)
	}
	for _, tr := range rep.Turns {
		if tr.RecordedTotal != tr.ComputedTotal || !tr.Reviewed {
			t.Errorf("JSON turn %+v", tr)
		}
	}

	html := filepath.Join(e.root, "report.html")
	r := e.run("--lexicon", "NWL23", "review", game, "--html", html)
	page, err := os.ReadFile(html)
	if r.code != 0 || err != nil || !strings.Contains(r.stderr, "Wrote "+html) {
		t.Fatalf("--html: %+v, %v", r, err)
	}
	if n := strings.Count(string(page), `<section class="turn"`); n != 26 {
		t.Errorf("%d turn sections in the HTML, want 26", n)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"review", game, "--player", "nobody"}, 2, `--player "nobody" is neither player: doug (doug) or emely (emely)`},
		{[]string{"review", game, "--iterations", "5"}, 2, "--iterations is for --sim"},
		{[]string{"review", game, "--top", "0"}, 2, "--top must be at least 1"},
		{[]string{"review"}, 2, "accepts 1 arg"},
		{[]string{"review", e.file("bad.gcg", "#player1 a\n#player2 b\n>c: AB 8D AB +10 10\n")}, 1, `bad.gcg:3: unknown player "c"`},
		// The file's #lexicon (NWL18) is not installed, and there is no
		// default lexicon in a fresh data directory.
		{[]string{"review", testlex.Game(t, "incomplete.gcg")}, 1, "the game's lexicon NWL18 is not installed"},
	} {
		r := e.run(tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, tc.code, tc.msg)
		}
	}

	// Lines that cannot be applied are listed; the review still succeeds.
	bad := e.file("problem.gcg", "#player1 a\n#player2 b\n>a: AEINRST 8D RETAINS +60 60\n>b: ADIOQUZ E6 ZO(E)A +13 13\n")
	r = e.run("--lexicon", "NWL23", "review", bad)
	if r.code != 0 || !strings.Contains(r.stdout, bad+":3: recorded score +60, but the engine scores 8D RETAINS +66") ||
		!strings.Contains(r.stdout, "(the engine's totals: 66, 13)") {
		t.Errorf("review with a problem: %+v", r)
	}
}

// TestReviewSim runs --sim with a tiny budget on a three-turn game.
func TestReviewSim(t *testing.T) {
	e := reviewEnv(t)
	game := filepath.Join("..", "..", "review", "testdata", "tiny.gcg")
	out := e.ok("--lexicon", "NWL23", "review", game, "--sim", "--iterations", "2", "--player", "ann")
	if !strings.Contains(out, "Monte Carlo simulation (2 iterations") || !regexp.MustCompile(`(?m)^\s+#\s+MOVE\s+SCORE\s+EQUITY\s+LEAVE\s+VALUE$`).MatchString(out) {
		t.Errorf("review --sim:\n%s", out)
	}
}
