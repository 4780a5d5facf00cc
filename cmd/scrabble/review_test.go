package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/position"
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
	p, err := position.ParseCGP("out", strings.TrimSpace(cgp))
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
	if p.Racks[0].String() != "ADENOST" || p.Racks[1].Count() != 0 || p.Scores != [rules.MaxPlayers]int{66, 55} || p.ZeroTurns != 0 {
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
		{[]string{"review", game, "--top", "-1"}, 2, "--top must be 0 (all) or more"},
		{[]string{"review"}, 2, "requires at least 1 arg"},
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

// TestReviewLexiconFamily: a game's #lexicon that is not installed falls
// back to the newest installed lexicon of its family, with a note, before
// the default; phonies are judged in that list. A CGP's lex opcode follows
// the same rule.
func TestReviewLexiconFamily(t *testing.T) {
	e := newTestEnv(t)
	e.ok("lexicon", "add", "DEF", e.file("def.txt", "DOG\n"), "--default")
	e.ok("lexicon", "add", "NWL20", e.file("nwl20.txt", "DOG\n"))
	e.ok("lexicon", "add", "NWL23", e.file("nwl23.txt", "CAT\nACT\n"))
	e.ok("lexicon", "add", "CSW24", e.file("csw24.txt", "DOG\n"))
	for _, tc := range []struct{ lexicon, uses, note string }{
		{"NWL2018", "NWL23", "the game's lexicon NWL2018 is not installed; using NWL23, the newest installed lexicon of its family"},
		{"TWL06", "NWL23", "the game's lexicon TWL06 is not installed; using NWL23"},
		{"CSW19", "CSW24", "the game's lexicon CSW19 is not installed; using CSW24"},
		{"ODS8", "DEF", "the game's lexicon ODS8 is not installed; using the default lexicon DEF"},
	} {
		game := e.file(tc.lexicon+".gcg", "#player1 a\n#player2 b\n#lexicon "+tc.lexicon+"\n>a: ACEIRST 8F CAT +10 10\n")
		r := e.run("review", game, "--json")
		var rep struct {
			Lexicon string `json:"lexicon"`
			Turns   []struct {
				Phonies []string `json:"phonies"`
			} `json:"turns"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil {
			t.Fatalf("%s: %+v", tc.lexicon, r)
		}
		if !strings.Contains(r.stderr, "scrabble: note: "+tc.note) || rep.Lexicon != tc.uses {
			t.Errorf("#lexicon %s: lexicon %s, stderr %q; want %s and %q", tc.lexicon, rep.Lexicon, r.stderr, tc.uses, tc.note)
		}
		// CAT is a word of NWL23 only.
		if phony := len(rep.Turns) == 1 && len(rep.Turns[0].Phonies) > 0; phony != (tc.uses != "NWL23") {
			t.Errorf("#lexicon %s: turns %+v", tc.lexicon, rep.Turns)
		}
	}
	cgp := e.file("pos.cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACT/ 0/0 0 lex NWL2018;\n")
	r := e.run("best", "--board", cgp)
	if r.code != 0 || !strings.Contains(r.stdout, "lexicon NWL23") || !strings.Contains(r.stderr, "using NWL23, the newest installed lexicon of its family") {
		t.Errorf("best of a CGP with lex NWL2018: %+v", r)
	}
}

// reviewSummary is the summary part of review --json, for one game or
// several.
type reviewSummary struct {
	Players []struct {
		Player         string  `json:"player"`
		Games          int     `json:"games"`
		Turns          int     `json:"turns"`
		Skipped        int     `json:"skipped"`
		EquityLost     float64 `json:"equity_lost"`
		MeanEquityLost float64 `json:"mean_equity_lost"`
		BestMoves      int     `json:"best_moves"`
		MissedBingos   int     `json:"missed_bingos"`
		Phonies        int     `json:"phonies"`
	} `json:"players"`
	Total struct {
		Turns      int     `json:"turns"`
		EquityLost float64 `json:"equity_lost"`
	} `json:"total"`
	Costliest []struct {
		File       string  `json:"file"`
		Turn       int     `json:"turn"`
		EquityLost float64 `json:"equity_lost"`
	} `json:"costliest"`
}

// TestReviewSeveralGames: several files and directories are reviewed one by
// one, then summed up by player (matched by nickname) over all the games;
// the sums are checked against each game reviewed on its own.
func TestReviewSeveralGames(t *testing.T) {
	e := reviewEnv(t)
	dir := filepath.Join(e.root, "games")
	names := []string{"doug_v_emely_double_challenge.gcg", "doug_v_emely.gcg", "vs_andy.gcg"}
	for _, n := range names {
		data, err := os.ReadFile(testlex.Game(t, n))
		if err != nil {
			t.Fatal(err)
		}
		e.file(filepath.Join("games", n), string(data))
	}
	e.file("games/notes.txt", "not a game\n")
	// Each game on its own.
	single := map[string]reviewSummary{}
	for _, n := range names {
		var rep struct {
			Summary reviewSummary `json:"summary"`
		}
		if err := json.Unmarshal([]byte(e.ok("--lexicon", "NWL23", "review", filepath.Join(dir, n), "--json")), &rep); err != nil {
			t.Fatal(err)
		}
		single[n] = rep.Summary
	}

	var all struct {
		Games []struct {
			File  string `json:"file"`
			Turns []any  `json:"turns"`
		} `json:"games"`
		Summary struct {
			Games int `json:"games"`
			reviewSummary
		} `json:"summary"`
	}
	// A file and a directory holding it again: four games, the directory's
	// in name order.
	first := testlex.Game(t, "vs_andy.gcg")
	if err := json.Unmarshal([]byte(e.ok("--lexicon", "NWL23", "review", first, dir, "--json")), &all); err != nil {
		t.Fatal(err)
	}
	order := []string{first, filepath.Join(dir, "doug_v_emely.gcg"), filepath.Join(dir, "doug_v_emely_double_challenge.gcg"), filepath.Join(dir, "vs_andy.gcg")}
	if len(all.Games) != len(order) || all.Summary.Games != len(order) {
		t.Fatalf("%d games, summary of %d; want %d", len(all.Games), all.Summary.Games, len(order))
	}
	for i, g := range all.Games {
		if g.File != order[i] || len(g.Turns) == 0 {
			t.Errorf("game %d: %s with %d turns, want %s", i, g.File, len(g.Turns), order[i])
		}
	}
	// Sums by player from the single reviews (vs_andy counted twice).
	type sum struct {
		games, turns, skipped, best, missed, phonies int
		lost                                         float64
	}
	want := map[string]*sum{}
	totalTurns := 0
	for _, n := range []string{"vs_andy.gcg", "doug_v_emely.gcg", "doug_v_emely_double_challenge.gcg", "vs_andy.gcg"} {
		for _, p := range single[n].Players {
			s := want[p.Player]
			if s == nil {
				s = &sum{}
				want[p.Player] = s
			}
			s.games++
			s.turns += p.Turns
			s.skipped += p.Skipped
			s.best += p.BestMoves
			s.missed += p.MissedBingos
			s.phonies += p.Phonies
			s.lost += p.EquityLost
			totalTurns += p.Turns
		}
	}
	if len(all.Summary.Players) != len(want) {
		t.Errorf("%d players, want %d", len(all.Summary.Players), len(want))
	}
	near := func(a, b float64) bool { return a-b < 0.002 && b-a < 0.002 }
	for _, p := range all.Summary.Players {
		w := want[p.Player]
		if w == nil || p.Games != w.games || p.Turns != w.turns || p.Skipped != w.skipped || p.BestMoves != w.best ||
			p.MissedBingos != w.missed || p.Phonies != w.phonies || !near(p.EquityLost, w.lost) || !near(p.MeanEquityLost, w.lost/float64(w.turns)) {
			t.Errorf("player %+v, want %+v", p, w)
		}
	}
	if all.Summary.Total.Turns != totalTurns {
		t.Errorf("total turns %d, want %d", all.Summary.Total.Turns, totalTurns)
	}
	c := all.Summary.Costliest
	if len(c) != 5 || c[0].File == "" {
		t.Errorf("costliest %+v", c)
	}
	for i := 1; i < len(c); i++ {
		if c[i].EquityLost > c[i-1].EquityLost {
			t.Errorf("costliest not in order: %+v", c)
		}
	}

	// Text: each game, then the summary over all.
	out := e.ok("--lexicon", "NWL23", "review", dir)
	for _, w := range []string{"Review of " + filepath.Join(dir, "doug_v_emely.gcg"), "Review of " + filepath.Join(dir, "vs_andy.gcg"),
		"Summary over 3 games (players matched by nickname)", "Costliest turns of all the games:"} {
		if !strings.Contains(out, w) {
			t.Errorf("text lacks %q", w)
		}
	}
	if !regexp.MustCompile(`(?m)^doug +2 +`).MatchString(out) {
		t.Errorf("text lacks doug over 2 games:\n%s", out[strings.Index(out, "Summary over"):])
	}

	// --player applies to every game; the games it does not play are left out.
	r := e.run("--lexicon", "NWL23", "review", dir, "--player", "DOUG", "--json")
	all.Games = nil
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &all) != nil || len(all.Games) != 2 || len(all.Summary.Players) != 1 ||
		all.Summary.Players[0].Player != "doug" || !strings.Contains(r.stderr, "vs_andy.gcg: left out: --player \"DOUG\" is neither player") {
		t.Errorf("--player doug: %d games, %+v, stderr %q", len(all.Games), all.Summary.Players, r.stderr)
	}

	// --html DIR: a page per game and an index linking them.
	html := filepath.Join(e.root, "html")
	r = e.run("--lexicon", "NWL23", "review", dir, first, "--html", html)
	if r.code != 0 || !strings.Contains(r.stderr, "Wrote 4 pages and "+filepath.Join(html, "index.html")) {
		t.Fatalf("--html DIR: %+v", r)
	}
	index, err := os.ReadFile(filepath.Join(html, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"doug_v_emely.html", "doug_v_emely_double_challenge.html", "vs_andy.html", "vs_andy-2.html"} {
		page, err := os.ReadFile(filepath.Join(html, p))
		if err != nil || !strings.Contains(string(page), `<section class="turn"`) {
			t.Errorf("page %s: %v", p, err)
		}
		if !strings.Contains(string(index), `href="`+p+`"`) {
			t.Errorf("index.html does not link %s", p)
		}
	}
	if !strings.Contains(string(index), "Players over all the games") || !strings.Contains(string(index), "Review of 4 games") {
		t.Errorf("index.html lacks the summary")
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"review", filepath.Dir(e.file("empty/x.txt", ""))}, 1, "the directory " + filepath.Join(e.root, "empty") + " holds no .gcg files"},
		{[]string{"review", dir, "--player", "nobody"}, 2, `--player "nobody" plays none of the 3 games`},
		{[]string{"review", dir, "--html", filepath.Join(dir, "notes.txt")}, 2, "--html " + filepath.Join(dir, "notes.txt") + " is a file: with several games --html names the directory"},
		{[]string{"review", "-", "-"}, 2, "standard input (-) can be read only once"},
	} {
		r := e.run(append([]string{"--lexicon", "NWL23"}, tc.args...)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, tc.code, tc.msg)
		}
	}
}

// TestReviewHTMLTarget: an --html target that is a directory or cannot be
// written is a clear error naming it, found before the review; the
// temporary file goes beside the target and never stays behind.
func TestReviewHTMLTarget(t *testing.T) {
	e := reviewEnv(t)
	game := testlex.Game(t, "doug_v_emely.gcg")
	out := filepath.Join(e.root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	aFile := e.file("file.txt", "x")
	for _, tc := range []struct {
		target string
		code   int
		msg    string
	}{
		{out, 2, "--html " + out + " is a directory: give the file to write, such as " + filepath.Join(out, "report.html")},
		{"/", 2, "--html / is a directory"},
		{filepath.Join(e.root, "missing", "r.html"), 1, "--html " + filepath.Join(e.root, "missing", "r.html") + ": the directory " + filepath.Join(e.root, "missing") + ": no such file or directory"},
		{filepath.Join(aFile, "r.html"), 1, "--html " + filepath.Join(aFile, "r.html") + ": " + aFile + " is not a directory"},
	} {
		r := e.run("--lexicon", "NWL23", "review", game, "--html", tc.target)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) || r.stdout != "" {
			t.Errorf("--html %s: exit %d, stderr %q; want %d and %q before any review", tc.target, r.code, r.stderr, tc.code, tc.msg)
		}
	}
	// A review that fails leaves nothing beside the target.
	bad := e.file("bad.gcg", "#player1 a\n#player2 b\n>c: AB 8D AB +10 10\n")
	if r := e.run("--lexicon", "NWL23", "review", bad, "--html", filepath.Join(out, "r.html")); r.code != 1 {
		t.Errorf("bad game: %+v", r)
	}
	// A good one leaves the page only.
	e.ok("--lexicon", "NWL23", "review", game, "--html", filepath.Join(out, "r.html"))
	entries, err := os.ReadDir(out)
	if err != nil || len(entries) != 1 || entries[0].Name() != "r.html" {
		t.Errorf("%s holds %v (%v), want r.html only", out, entries, err)
	}
}
