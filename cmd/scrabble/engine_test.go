package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"scrabble/internal/testlex"
)

// engineLines runs `scrabble engine` on script and returns its output lines.
func engineLines(t *testing.T, e *testEnv, script string) []string {
	t.Helper()
	r := e.runIn(script, "--data-dir", e.dataDir, "--lexicon", "NWL23", "engine")
	if r.code != 0 {
		t.Fatalf("engine: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	return strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
}

// bestmoves returns the answers of the go commands, in order, with the info
// line before each.
func bestmoves(lines []string) (best, lastInfo []string) {
	info := ""
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, "info "); ok {
			info = v
		}
		if v, ok := strings.CutPrefix(l, "bestmove "); ok {
			best = append(best, v)
			lastInfo = append(lastInfo, info)
			info = ""
		}
	}
	return best, lastInfo
}

// go static answers what best answers: the same equity, and the same move
// unless two share it. Positions: turns of a recorded game.
func TestEngineStatic(t *testing.T) {
	e := nwlEnv(t)
	game := testlex.Game(t, "josh2.gcg")
	var script strings.Builder
	script.WriteString("ucgi\nisready\n")
	var cgps []string
	for turn := 1; turn <= 20; turn += 3 {
		cgp := strings.TrimSpace(e.ok("position", game, "--turn", strconv.Itoa(turn), "--format", "cgp"))
		cgps = append(cgps, cgp)
		fmt.Fprintf(&script, "position cgp %s\ngo static\n", cgp)
	}
	lines := engineLines(t, e, script.String())
	if lines[0] != "id name scrabble" && !strings.HasPrefix(lines[0], "id name scrabble ") {
		t.Fatalf("first line %q, want id name scrabble", lines[0])
	}
	best, infos := bestmoves(lines)
	if len(best) != len(cgps) {
		t.Fatalf("%d bestmove lines for %d go commands:\n%s", len(best), len(cgps), strings.Join(lines, "\n"))
	}
	eqRE := regexp.MustCompile(`score eq (-?[0-9.]+)`)
	for i, cgp := range cgps {
		board := e.file(fmt.Sprintf("pos%d.cgp", i), cgp+"\n")
		var moves []struct {
			Move   string  `json:"move"`
			Equity float64 `json:"equity"`
		}
		out := e.ok("--lexicon", "NWL23", "best", "--board", board, "--json", "--top", "0", "--static")
		if err := json.Unmarshal([]byte(out), &moves); err != nil {
			t.Fatalf("best --json: %v\n%s", err, out)
		}
		m := eqRE.FindStringSubmatch(infos[i])
		if m == nil {
			t.Fatalf("position %d: info %q has no score eq", i, infos[i])
		}
		eq, _ := strconv.ParseFloat(m[1], 64)
		if eq != moves[0].Equity {
			t.Errorf("position %d: engine's %s has equity %v, best's %s %v", i, best[i], eq, moves[0].Move, moves[0].Equity)
		}
		found := false
		for _, mv := range moves {
			if mv.Equity != moves[0].Equity {
				break
			}
			found = found || wireNotation(mv.Move) == best[i]
		}
		if !found {
			t.Errorf("position %d: engine's %s is not among best's moves of top equity (%s %v)", i, best[i], moves[0].Move, moves[0].Equity)
		}
	}
}

// go endgame gives the shared positions' proven values (those the
// scoreless-turn rule does not change: no pass in the line).
func TestEngineEndgame(t *testing.T) {
	e := nwlEnv(t)
	dir := os.Getenv(testlex.EnvVar)
	f, err := os.Open(filepath.Join(dir, "..", "endgame", "positions.jsonl"))
	if err != nil {
		t.Skipf("no shared endgame positions beside the lexica: %v", err)
	}
	defer f.Close()
	type pos struct {
		ID      string   `json:"id"`
		CGP     string   `json:"cgp"`
		Value   int      `json:"value"`
		Seconds float64  `json:"magpie_seconds_1t"`
		Cats    []string `json:"category"`
	}
	var want []pos
	var script strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(want) < 6 {
		var p pos
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		if p.Seconds > 0.3 || strings.Contains(strings.Join(p.Cats, ","), "passes") {
			continue
		}
		want = append(want, p)
		fmt.Fprintf(&script, "position cgp %s\ngo endgame time 60s\n", p.CGP)
	}
	best, infos := bestmoves(engineLines(t, e, script.String()))
	if len(best) != len(want) || len(want) < 3 {
		t.Fatalf("%d answers for %d positions", len(best), len(want))
	}
	for i, p := range want {
		wantInfo := fmt.Sprintf("score spread %d ", p.Value)
		if !strings.Contains(infos[i], wantInfo) || !strings.Contains(infos[i], " proven pv "+best[i]) {
			t.Errorf("%s: info %q, bestmove %s: want %q, proven, and a pv from the best move", p.ID, infos[i], best[i], wantInfo)
		}
	}
}

// TestEngineInfer: with the Infer option, go sim and go peg answer what
// sim --infer and peg --infer answer (the same seed, the same table), and
// without it what they answer without; a position with no last move is
// simulated with the opponent's rack drawn at random, and says so.
func TestEngineInfer(t *testing.T) {
	e := nwlEnv(t)
	file, err := filepath.Abs("testdata/peg-infer.cgp")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cgp := strings.TrimSpace(string(text))
	noLM := strings.Replace(cgp, " lm D12 GE.;", "", 1)
	lines := engineLines(t, e, strings.Join([]string{
		"position cgp " + cgp, "go sim iterations 40 seed 3", "go peg",
		"setoption name Infer value true",
		"position cgp " + cgp, "go sim iterations 40 seed 3", "go peg",
		"position cgp " + noLM, "go sim iterations 40 seed 3",
		"setoption name Infer value maybe", "",
	}, "\n"))
	best, infos := bestmoves(lines)
	if len(best) != 5 {
		t.Fatalf("%d answers, want 5:\n%s", len(best), strings.Join(lines, "\n"))
	}
	eqRE := regexp.MustCompile(`score eq (-?[0-9.]+) wp (-?[0-9.]+) pv (.*)$`)
	spreadRE := regexp.MustCompile(`score wp ([0-9.]+) spread (-?[0-9.]+) .* proven pv (.*)$`)
	for i, inferred := range []bool{false, true} {
		args := []string{"--lexicon", "NWL23", "sim", "--board", file, "--iterations", "40", "--seed", "3", "--json"}
		pargs := []string{"--lexicon", "NWL23", "peg", "--board", file, "--top", "1", "--json"}
		if inferred {
			args, pargs = append(args, "--infer"), append(pargs, "--infer")
		}
		var sj simJSON
		if err := json.Unmarshal([]byte(e.ok(args...)), &sj); err != nil {
			t.Fatal(err)
		}
		m := eqRE.FindStringSubmatch(infos[2*i])
		c := sj.Candidates[0]
		if m == nil || m[1] != fmt.Sprintf("%.3f", c.SimEquity) || m[2] != fmt.Sprintf("%.3f", c.WinPct) || wireNotation(c.Move) != best[2*i] {
			t.Errorf("infer %v: go sim: %q, bestmove %s; sim: %s %.3f %.3f", inferred, infos[2*i], best[2*i], c.Move, c.SimEquity, c.WinPct)
		}
		var pj pegJSON
		if err := json.Unmarshal([]byte(e.ok(pargs...)), &pj); err != nil {
			t.Fatal(err)
		}
		m = spreadRE.FindStringSubmatch(infos[2*i+1])
		if pj.Best == nil || m == nil || m[2] != fmt.Sprintf("%.3f", *pj.Best.MeanSpread) || m[3] != best[2*i+1] {
			t.Errorf("infer %v: go peg: %q, bestmove %s; peg: %+v", inferred, infos[2*i+1], best[2*i+1], pj.Best)
		}
	}
	said := map[string]bool{}
	for _, l := range lines {
		if strings.HasPrefix(l, "info string infer: ") || strings.HasPrefix(l, "info string error: ") {
			said[l] = true
		}
	}
	for _, want := range []string{
		"info string infer: the opponent's last move D12 GE.: ",
		"info string infer: the position has no last move (lm opcode): the opponent's rack drawn at random",
		"info string error: line 10: setoption Infer: want true or false",
	} {
		found := false
		for l := range said {
			found = found || strings.HasPrefix(l, want)
		}
		if !found {
			t.Errorf("no line %q in:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

func TestEngineErrors(t *testing.T) {
	e := nwlEnv(t)
	lines := engineLines(t, e, strings.Join([]string{
		"go",
		"position cgp 15/15 A/ 0/0 0",
		"position cgp 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0",
		"go endgame",
		"go peg",
		"setoption name Threads value many",
		"setoption name Lexicon value NOSUCH",
		"setoption name Leaves value some",
		"position gcg nosuch.gcg turn 1",
		"",
	}, "\n"))
	want := []string{
		"info string error: go: no position: send position cgp CGP first",
		"bestmove (none)",
		"info string error: line 2: position: cgp:1:6: board has 2 rows",
		"info string error: go: go endgame: the bag holds 86 tiles; the endgame solver needs it empty",
		"bestmove (none)",
		"info string error: go: go peg: a pre-endgame is a full rack with 1 to 4 tiles in the bag",
		"bestmove (none)",
		"info string error: line 6: setoption Threads: want a number from 1 to",
		"info string error: line 7: setoption Lexicon:",
		"info string error: line 8: setoption Leaves: want default",
		"info string error: line 9: position: reading game: open nosuch.gcg",
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d: %q, want it to start %q", i+1, lines[i], want[i])
		}
	}
}

// A game against an external player that is this engine through the
// protocol, in another process, is the same game as in-process play:
// go static is the equity player's choice.
func TestSelfplayThroughProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary and plays games through a process")
	}
	e := nwlEnv(t)
	bin := buildBinary(t, t.TempDir())
	if strings.ContainsAny(bin+e.dataDir, " \t") {
		t.Skip("a temporary path with spaces: external player commands are split at spaces")
	}
	engine := fmt.Sprintf("external:%s --data-dir %s engine", bin, e.dataDir)
	ext, local := filepath.Join(e.root, "ext"), filepath.Join(e.root, "local")
	common := []string{"--lexicon", "NWL23", "selfplay", "--games", "12", "--pairs", "--seed", "31", "--threads", "2"}
	e.ok(append(common, "--p1", engine, "--p1-go", "static", "--p2", "equity", "--out", ext)...)
	e.ok(append(common, "--p1", "equity", "--p2", "equity", "--out", local)...)
	nick := regexp.MustCompile(`(?m)^(>[^:]*:|#player[12] .*|#description .*)`)
	for i := range 12 {
		name := fmt.Sprintf("game-%06d.gcg", i)
		a, err := os.ReadFile(filepath.Join(ext, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(local, name))
		if err != nil {
			t.Fatal(err)
		}
		ga, gb := nick.ReplaceAllString(string(a), "X"), nick.ReplaceAllString(string(b), "X")
		if ga != gb {
			t.Fatalf("%s through the protocol differs from in-process play:\n%s\n---\n%s", name, a, b)
		}
	}
	// A program that is not an engine is a clear error, not a hang.
	r := e.run(append(common[:len(common)-2], "--threads", "1", "--p1", "external:"+bin+" version", "--p2", "equity")...)
	if r.code == 0 || !strings.Contains(r.stderr, "waiting for ucgiok") {
		t.Fatalf("an external player that is not an engine: exit %d, stderr %q", r.code, r.stderr)
	}
	r = e.run("selfplay", "--games", "1", "--p1", "external:", "--p2", "equity")
	if r.code != 2 || !strings.Contains(r.stderr, "an external player names its program") {
		t.Fatalf("external: with no program: exit %d, stderr %q", r.code, r.stderr)
	}
}
