package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/position"
	"scrabble/rules"
)

// nwlEnv is a test environment where NWL23 resolves from the shared lists
// (the test is skipped without them).
func nwlEnv(t *testing.T) *testEnv {
	t.Helper()
	dir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, dir)
	return e
}

var examplePos = filepath.Join("..", "..", "examples", "pos.cgp")

func TestSimUsage(t *testing.T) {
	e := nwlEnv(t)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"sim"}, 2, "--board FILE is required"},
		{[]string{"sim", "--board", examplePos, "--stop", "maybe"}, 2, `--stop "maybe": want none`},
		{[]string{"sim", "--board", examplePos, "--stop", "100"}, 2, "--stop"},
		{[]string{"sim", "--board", examplePos, "--stop", "NaN"}, 2, `--stop "NaN": want none`},
		{[]string{"sim", "--board", examplePos, "--stop", "nan%"}, 2, `--stop "nan%": want none`},
		{[]string{"sim", "--board", examplePos, "--stop", "Inf"}, 2, `--stop "Inf": want none`},
		{[]string{"sim", "--board", examplePos, "--stop", "-Inf"}, 2, `--stop "-Inf": want none`},
		{[]string{"sim", "--board", examplePos, "--plies", "0"}, 2, "--plies must be from 1"},
		{[]string{"sim", "--board", examplePos, "--iterations", "0"}, 2, "--iterations must be at least 1"},
		{[]string{"sim", "--board", examplePos, "--time", "0s"}, 2, "--time must be a positive duration"},
		{[]string{"sim", "--board", examplePos, "--threads", "0"}, 2, "--threads must be at least 1"},
		{[]string{"sim", "--board", examplePos, "--candidates", "0"}, 2, "--candidates must be from 1"},
		{[]string{"sim", "--board", examplePos, "--top", "-1"}, 2, "--top must be"},
		{[]string{"sim", "--board", examplePos, "--rack", "QQ"}, 1, "too many Qs"},
		{[]string{"best", "--board", examplePos, "--iterations", "10"}, 2, "--iterations is a simulation option: add --sim"},
		{[]string{"best", "--board", examplePos, "--add", "-"}, 2, "--add is a simulation option: add --sim"},
		{[]string{"sim", "--board", examplePos, "--add", "M11 RERANX"}, 2, `--add "M11 RERANX": word "RERANX" runs past the edge of the board`},
		{[]string{"sim", "--board", examplePos, "--add", "8D"}, 2, `--add "8D": want a position and a word`},
		{[]string{"sim", "--board", examplePos, "--add", "M11 (R)EZAN"}, 2, `--add "M11 (R)EZAN" is not a legal move for rack AEINRST in NWL23: tile Z not on rack`},
		{[]string{"sim", "--board", examplePos, "--add", "M11 (R)ANIE"}, 2, `--add "M11 (R)ANIE" is not a legal move for rack AEINRST in NWL23: phony word RANIE`},
		{[]string{"best", "--board", examplePos, "--sim", "--add", "-QQ"}, 2, `--add "-QQ" is not a legal move for rack AEINRST`},
		{[]string{"sim", "--board", filepath.Join("testdata", "endgame.cgp"), "--add", "-A"}, 2, `--add "-A" is not a legal move`},
		{[]string{"selfplay", "--p1", "equity", "--p1-iterations", "10"}, 2, "--p1-iterations is for the sim player, and --p1 is equity"},
		{[]string{"selfplay", "--p2", "sim", "--p2-stop", "often"}, 2, "--p2-stop"},
		{[]string{"selfplay", "--p2", "sim", "--p2-stop", "NaN"}, 2, "--p2-stop"},
		{[]string{"selfplay", "--p2", "sim", "--p2-plies", "0"}, 2, "--p2-plies must be from 1"},
		{[]string{"sim", "--board", examplePos, "--play-out", "-1"}, 2, "--play-out must be 0 (never) or more"},
		{[]string{"selfplay", "--p1", "full", "--p1-play-out", "-3"}, 2, "--p1-play-out must be 0 (never) or more"},
		{[]string{"selfplay", "--p1", "equity", "--p1-play-out", "10"}, 2, "--p1-play-out is for the sim player"},
	} {
		r := e.run(c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("scrabble %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), r.code, r.stderr, c.code, c.msg)
		}
	}
}

// simOutput holds the --json fields the tests look at.
type simOutput struct {
	Lexicon     string `json:"lexicon"`
	Rack        string `json:"rack"`
	Bag         int    `json:"bag"`
	Opponent    string `json:"opponent_rack"`
	Scores      []int  `json:"scores"`
	Players     int    `json:"players"`
	Rank        string `json:"rank"`
	Drawn       int    `json:"opponent_drawn"`
	Endgame     bool   `json:"endgame"`
	Plies       int    `json:"plies"`
	PlayedOut   bool   `json:"played_out"`
	Seed        uint64 `json:"seed"`
	Threads     int    `json:"threads"`
	Iterations  int    `json:"iterations"`
	Rollouts    int64  `json:"rollouts"`
	Generations int64  `json:"generations"`
	Stopped     string `json:"stopped"`
	Candidates  []struct {
		Kind        string  `json:"kind"`
		Move        string  `json:"move"`
		Score       int     `json:"score"`
		Leave       string  `json:"leave"`
		Equity      float64 `json:"equity"`
		SimEquity   float64 `json:"sim_equity"`
		SimEquitySE float64 `json:"sim_equity_se"`
		WinPct      float64 `json:"win_pct"`
		WinPctSE    float64 `json:"win_pct_se"`
		Iterations  int     `json:"iterations"`
		Pruned      bool    `json:"pruned"`
	} `json:"candidates"`
}

func parseSim(t *testing.T, out string) (simOutput, map[string]any) {
	t.Helper()
	var s simOutput
	var raw map[string]any
	if strings.Count(out, "\n") != 1 || json.Unmarshal([]byte(out), &s) != nil || json.Unmarshal([]byte(out), &raw) != nil {
		t.Fatalf("--json output is not one JSON object on a line:\n%s", out)
	}
	delete(raw, "seconds")
	delete(raw, "rollouts_per_second")
	delete(raw, "threads")
	return s, raw
}

// TestSimPlayOut: with --play-out N and at most N tiles in the bag every
// rollout ends the game, so each one's chance of winning is 0, 50 or 100%;
// with more tiles in the bag, or without the option, rollouts stop after
// --plies and the win table values them.
func TestSimPlayOut(t *testing.T) {
	e := nwlEnv(t)
	game := testlex.Game(t, "josh2.gcg")
	var board string
	bag := 0
	for turn := 28; turn > 10 && board == ""; turn-- {
		cgp := strings.TrimSpace(e.ok("position", game, "--turn", strconv.Itoa(turn), "--format", "cgp"))
		p, err := position.ParseCGP("test", cgp)
		if err != nil {
			t.Fatal(err)
		}
		unseen, err := rules.Unseen(&p.Board, p.Racks[0])
		if err != nil {
			t.Fatal(err)
		}
		if bag = unseen.Count() - rules.RackSize; bag >= 8 && bag <= 14 && p.Racks[0].Count() == rules.RackSize {
			board = e.file("late.cgp", cgp+"\n")
		}
	}
	if board == "" {
		t.Fatal("no turn of josh2.gcg with 8 to 14 tiles in the bag")
	}
	args := []string{"--lexicon", "NWL23", "sim", "--board", board, "--iterations", "20", "--candidates", "4", "--stop", "none", "--json", "--seed", "3"}
	for _, c := range []struct {
		playOut int
		want    bool
	}{{14, true}, {bag, true}, {bag - 1, false}, {0, false}} {
		s, _ := parseSim(t, e.ok(append(args, "--play-out", strconv.Itoa(c.playOut))...))
		whole := true
		for _, cand := range s.Candidates {
			n := cand.WinPct * float64(cand.Iterations) / 50
			whole = whole && math.Abs(n-math.Round(n)) < 1e-6
		}
		if s.PlayedOut != c.want || whole != c.want {
			t.Errorf("bag %d, --play-out %d: played out %v, every rollout's win 0, 50 or 100%%: %v; want %v", bag, c.playOut, s.PlayedOut, whole, c.want)
		}
	}
}

// TestSimJSON: the same seed, iterations and threads give the same table;
// without a stopping rule so does another thread count.
func TestSimJSON(t *testing.T) {
	e := nwlEnv(t)
	args := []string{"sim", "--board", examplePos, "--iterations", "12", "--candidates", "3", "--stop", "none", "--json", "--seed", "5"}
	s, raw := parseSim(t, e.ok(append(args, "--threads", "1")...))
	if s.Lexicon != "NWL23" || s.Rack != "AEINRST" || s.Bag != 45 || s.Opponent != "" || !reflect.DeepEqual(s.Scores, []int{129, 215}) ||
		s.Endgame || s.Plies != 2 || s.Seed != 5 || s.Iterations != 12 || s.Stopped != "iterations" {
		t.Errorf("header fields: %+v", s)
	}
	if len(s.Candidates) != 7 || s.Rollouts != 84 || s.Generations != 168 {
		t.Fatalf("%d candidates (want 3 plays, 3 exchanges and the pass), %d rollouts, %d generations", len(s.Candidates), s.Rollouts, s.Generations)
	}
	for i, c := range s.Candidates {
		if c.Iterations != 12 || c.Pruned || c.SimEquitySE <= 0 || c.WinPct <= 0 || c.WinPct >= 100 {
			t.Errorf("candidate %d: %+v", i+1, c)
		}
		if i > 0 && c.SimEquity > s.Candidates[i-1].SimEquity {
			t.Errorf("candidate %d (%.1f) ranks below one with a lower simulated equity", i+1, c.SimEquity)
		}
	}
	// The sums are integers: the thread count cannot change them.
	_, two := parseSim(t, e.ok(append(args, "--threads", "2")...))
	if !reflect.DeepEqual(raw, two) {
		t.Errorf("the same seed gave different tables:\n%v\n%v", raw, two)
	}
	_, other := parseSim(t, e.ok(append(args[:len(args)-1], "6")...))
	if reflect.DeepEqual(raw["candidates"], other["candidates"]) {
		t.Error("seeds 5 and 6 gave the same table")
	}
}

func TestBestSim(t *testing.T) {
	e := nwlEnv(t)
	out := e.ok("best", "--board", examplePos, "--sim", "--iterations", "16", "--candidates", "4", "--top", "2", "--threads", "1")
	for _, re := range []string{
		`(?m)^Rack AEINRST, lexicon NWL23: 45 tiles in the bag, the opponent's rack unknown, score 129-215; 2 plies`,
		`(?m)^Best (play|move) by simulation: \S+ \S+  \d+ points, simulated equity -?\d+\.\d \(static -?\d+\.\d\), win \d+\.\d%$`,
		`(?m)^#\s+MOVE\s+SCORE\s+LEAVE\s+STATIC\s+SIM\s+SE\s+WIN%\s+ITERATIONS$`,
		`(?m)^16 iterations, \d+ rollouts \(\d+ move searches\) in \S+ on 1 thread: [\d,]+ rollouts/s; stopped: `,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output does not match %s:\n%s", re, out)
		}
	}
	if rows := regexp.MustCompile(`(?m)^[123]  `).FindAllString(out, -1); len(rows) != 3 || strings.Contains(out, "\n4  ") {
		t.Errorf("want the best and 2 runners-up:\n%s", out)
	}
	// Without --sim, --json prints the static moves.
	js := e.ok("best", "--board", examplePos, "--json", "--top", "1")
	var moves []map[string]any
	if err := json.Unmarshal([]byte(js), &moves); err != nil || len(moves) != 2 {
		t.Errorf("best --json: %v\n%s", err, js)
	}
}

// TestSimEndgame: with the bag empty sim hands the position to the
// endgame solver, whether the CGP names the opponent's rack or leaves it
// to be inferred from the unseen tiles (a 7-against-7 endgame with a
// blank: a second's search gives a depth-limited answer).
func TestSimEndgame(t *testing.T) {
	e := nwlEnv(t)
	known := filepath.Join("testdata", "endgame.cgp")
	data, err := os.ReadFile(known)
	if err != nil {
		t.Fatal(err)
	}
	unknown := e.file("unknown.cgp", strings.Replace(string(data), "/ADPRST?", "/", 1))
	for _, f := range []string{known, unknown} {
		out := e.ok("sim", "--board", f, "--threads", "1", "--time", "1s")
		if !strings.Contains(out, "Endgame, lexicon NWL23: rack GLLORUU against ADPRST?, scores 305-444") ||
			!strings.Contains(out, "Principal variation:") {
			t.Errorf("%s:\n%s", f, out)
		}
		var got endgameJSON
		if err := json.Unmarshal([]byte(e.ok("sim", "--board", f, "--json", "--time", "1s")), &got); err != nil {
			t.Fatal(err)
		}
		if got.Rack != "GLLORUU" || got.OpponentRack != "ADPRST?" || got.Depth < 1 || len(got.PV) == 0 || got.Best.Move == "" {
			t.Errorf("%s: %+v", f, got)
		}
	}
}

// TestSelfplaySimPlayer plays a pair of games with the sim player on a tiny
// budget; --resume with the same options finds them done.
func TestSelfplaySimPlayer(t *testing.T) {
	e := nwlEnv(t)
	dir := filepath.Join(e.root, "run")
	args := []string{"--lexicon", "NWL23", "selfplay", "--games", "2", "--pairs", "--p1", "sim", "--p2", "equity",
		"--p1-iterations", "4", "--p1-candidates", "3", "--p1-plies", "1", "--workers", "1", "--json", "--out", dir}
	s, _ := parseSelfplayJSON(t, e.ok(args...))
	if s.Games != 2 || s.Players[0].Name != "sim" || s.Players[1].Name != "equity" {
		t.Fatalf("summary %+v", s)
	}
	again, _ := parseSelfplayJSON(t, e.ok(append(args, "--resume")...))
	if again.Played != 0 || again.WinRate != s.WinRate {
		t.Errorf("resumed: played %d, win rate %g (was %g)", again.Played, again.WinRate, s.WinRate)
	}
}

func TestWinpctTrainAndShow(t *testing.T) {
	e := nwlEnv(t)
	out := filepath.Join(e.root, "w.csv")
	args := []string{"--lexicon", "NWL23", "winpct", "train", "--games", "40", "--seed", "3", "--workers", "2", "--out", out}
	r := e.run(args...)
	if r.code != 0 || !regexp.MustCompile(`^Wrote \S+: 40 games, [\d,]+ turns observed`).MatchString(r.stdout) {
		t.Fatalf("train: %+v", r)
	}
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(first), "# P(win | spread, unseen tiles) from 40 games") {
		t.Errorf("the table's comments:\n%.300s", first)
	}
	// A second run refuses to overwrite the first's work unless resumed;
	// resumed, it finds the games done and writes the same table.
	if r := e.run(args...); r.code != 1 || !strings.Contains(r.stderr, "--resume") {
		t.Errorf("rerun without --resume: %+v", r)
	}
	e.ok(append(args, "--resume", "--workers", "1")...)
	second, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != string(second) {
		t.Error("the resumed run wrote another table")
	}
	show := e.ok("winpct", "show", out, "--unseen", "50,7", "--spreads", "-10,0,10", "--neutral")
	if !regexp.MustCompile(`(?m)^\s+50\s+-?\d+\.\d\s+\d+\.\d\s+50\.0\s+\d+\.\d$`).MatchString(show) {
		t.Errorf("show --neutral:\n%s", show)
	}
	if r := e.run("winpct", "show", "--spreads", "x"); r.code != 2 {
		t.Errorf("show --spreads x: %+v", r)
	}
	for _, u := range []string{"94", "-1", "7,200"} {
		if r := e.run("winpct", "show", "--unseen", u); r.code != 2 || !strings.Contains(r.stderr, "cannot be unseen") {
			t.Errorf("show --unseen %s: %+v", u, r)
		}
	}
	e.ok("winpct", "show", "--unseen", "0,93")
	if r := e.run("winpct", "show", filepath.Join(e.root, "missing.csv")); r.code != 1 || !strings.Contains(r.stderr, "missing.csv") {
		t.Errorf("show of a missing file: %+v", r)
	}
	builtin := e.ok("winpct", "show")
	if !strings.Contains(builtin, "Chance of winning") {
		t.Errorf("show:\n%s", builtin)
	}
}

func TestWinpctCheck(t *testing.T) {
	e := nwlEnv(t)
	check := func(extra ...string) result {
		return e.run(append([]string{"--lexicon", "NWL23", "winpct", "check", "--games", "30", "--seed", "5"}, extra...)...)
	}
	one, three := check("-j", "1"), check("-j", "3")
	if one.code != 0 || one.stdout != three.stdout {
		t.Fatalf("check with 1 and 3 workers:\n%+v\n%+v", one, three)
	}
	for _, want := range []string{"30 games (equity vs equity, lexicon NWL23, seed 5)", "PREDICTED", "90-100%", "Brier score 0."} {
		if !strings.Contains(one.stdout, want) {
			t.Errorf("check output lacks %q:\n%s", want, one.stdout)
		}
	}
	// Another seed, other games.
	if r := check("--seed", "6"); r.code != 0 || r.stdout == one.stdout {
		t.Errorf("another seed: %+v", r)
	}
	bad := filepath.Join(e.root, "bad.csv")
	if err := os.WriteFile(bad, []byte("not a table\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := check(bad); r.code != 1 || !strings.Contains(r.stderr, "bad.csv") {
		t.Errorf("a broken table: %+v", r)
	}
	if r := e.run("--lexicon", "NWL23", "winpct", "check", "--games", "0"); r.code != 2 {
		t.Errorf("--games 0: %+v", r)
	}
}

// TestSimAdd: --add simulates moves outside the candidates, marked added
// (text and JSON), valued as 'moves' values them; best --sim takes it too.
func TestSimAdd(t *testing.T) {
	e := nwlEnv(t)
	// A poor play and an exchange far down the static list, and the pass.
	var moves []struct {
		Move   string  `json:"move"`
		Score  int     `json:"score"`
		Equity float64 `json:"equity"`
	}
	if err := json.Unmarshal([]byte(e.ok("moves", "--board", examplePos, "--exchanges", "--top", "0", "--json")), &moves); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"M11 (R)ERAN": 0, "-AEI": 0, "-": 0}
	for _, m := range moves {
		if _, ok := want[m.Move]; ok {
			want[m.Move] = m.Equity
		}
	}
	args := []string{"sim", "--board", examplePos, "--iterations", "8", "--candidates", "2", "--stop", "none", "--json", "--threads", "1",
		"--add", "M11 (R)ERAN", "--add", "-AEI", "--add", "-"}
	s, raw := parseSim(t, e.ok(args...))
	if len(s.Candidates) != 2+3+1+2 {
		t.Errorf("%d candidates, want 2 plays, 3 exchanges, the pass and 2 added", len(s.Candidates))
	}
	added := map[string]bool{}
	for i, c := range s.Candidates {
		isAdded := raw["candidates"].([]any)[i].(map[string]any)["added"] == true
		if _, named := want[c.Move]; named != isAdded {
			t.Errorf("%s: added %v", c.Move, isAdded)
		}
		if isAdded {
			added[c.Move] = true
			if c.Equity != want[c.Move] || c.Iterations != 8 {
				t.Errorf("%s: static equity %.3f, %d iterations; want %.3f as 'moves' rates it, 8", c.Move, c.Equity, c.Iterations, want[c.Move])
			}
		}
	}
	if len(added) != 3 {
		t.Errorf("added moves in the table: %v", added)
	}
	_, two := parseSim(t, e.ok(append(args[:len(args)-8], "--threads", "2", "--add", "M11 (R)ERAN", "--add", "-AEI", "--add", "-")...))
	if !reflect.DeepEqual(raw, two) {
		t.Errorf("--add: 1 and 2 threads gave different tables")
	}
	// Below --top, the added move is still shown.
	out := e.ok("best", "--board", examplePos, "--sim", "--iterations", "8", "--candidates", "2", "--top", "1", "--threads", "1", "--add", "M11 (R)ERAN")
	if !regexp.MustCompile(`(?m)^\d+\s+M11 \(R\)ERAN\s+10\s+IST\s+22\.4 .*added`).MatchString(out) {
		t.Errorf("best --sim --add: the added play is not in the table:\n%s", out)
	}
}

// TestSimPartlyKnownOpponent: a CGP opponent rack of fewer tiles than a
// full rack while the bag has tiles is partly known: the bag is the unseen
// tiles less a full rack, and each iteration draws the rest.
func TestSimPartlyKnownOpponent(t *testing.T) {
	e := nwlEnv(t)
	data, err := os.ReadFile(examplePos)
	if err != nil {
		t.Fatal(err)
	}
	part := e.file("part.cgp", strings.Replace(string(data), " AEINRST/ ", " AEINRST/QUX ", 1))
	s, _ := parseSim(t, e.ok("sim", "--board", part, "--iterations", "4", "--candidates", "2", "--json"))
	// 100 tiles less 48 on the board and the 7 to move: 45 unseen in the
	// bag and on the opponent's rack of 7.
	if s.Bag != 45 || s.Opponent != "QUX" || s.Endgame {
		t.Errorf("bag %d, opponent %q, endgame %v; want 45, QUX, false", s.Bag, s.Opponent, s.Endgame)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(e.ok("sim", "--board", part, "--iterations", "4", "--candidates", "2", "--json")), &raw); err != nil || raw["opponent_drawn"] != 4.0 {
		t.Errorf("opponent_drawn %v, want 4 (%v)", raw["opponent_drawn"], err)
	}
	out := e.ok("sim", "--board", part, "--iterations", "4", "--candidates", "2")
	if !strings.Contains(out, "45 tiles in the bag, the opponent's rack partly known: QUX and 4 drawn at random") {
		t.Errorf("text:\n%s", out)
	}
}
