package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"scrabble/gcg"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/position"
)

// chromium returns the path of a headless Chromium, skipping the test when
// there is none, except in CI (SCRABBLE_LEXICA_DIR set), where .ci/run
// installs it (as review's browser test does).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(testlex.EnvVar) != "" {
		t.Fatal("chromium is not installed (.ci/run installs it with apt-get install chromium)")
	}
	t.Skip("chromium is not installed; skipping the browser test")
	return ""
}

// page drives one browser tab.
type page struct {
	t   *testing.T
	ctx context.Context
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression into a string.
func (p *page) eval(expr string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return s
}

func (p *page) text(sel string) string {
	return p.eval(fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
}

// waitFor waits until the JavaScript expression is true, and fails the test
// after d.
func (p *page) waitFor(what, expr string, d time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			p.t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %v for %s; the status says %q, the review status %q", d, what, p.text("#status"), p.text("#rstatus"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// screenshot saves the page as a PNG in dir.
func (p *page) screenshot(dir, name string) string {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// TestPageInChromium drives the page in headless Chromium as a player
// would: set up a position by typing on the board, get the best moves (the
// server's best), show one on the board, run a short simulation and watch
// its progress, then open a shared game, review it and step through it
// with the buttons and the arrow keys, at desktop and phone widths. The
// page must log no error. Screenshots are saved in the test's artifact
// directory (go test -artifacts keeps them; SCRABBLE_SCREENSHOTS=DIR also
// copies them there).
func TestPageInChromium(t *testing.T) {
	browser := chromium(t)
	if testing.Short() {
		t.Skip("the browser test takes seconds; skipped with -short")
	}
	_, ts := newTestServer(t, Config{LoopbackHosts: true})
	out := t.ArtifactDir()
	if dir := os.Getenv("SCRABBLE_SCREENSHOTS"); dir != "" {
		out = dir
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1100, 900))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	p := &page{t: t, ctx: bctx}
	p.do() // starts the browser and its tab

	var (
		mu       sync.Mutex
		messages []string
	)
	console := chromedp.Console(bctx)
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == "error" || m.Type == "warning" {
				mu.Lock()
				messages = append(messages, m.String())
				mu.Unlock()
			}
		}
	}()

	p.do(chromedp.EmulateViewport(1100, 900), chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`#board .sq`))
	p.waitFor("the lexicon's name", `document.querySelector("#lexicon").textContent.includes("lexicon")`, 10*time.Second)

	// A position: CATs across from 8G (Shift+letter is a blank), typed on
	// the squares, then the rack.
	p.do(chromedp.Click(`#board .sq[data-i="111"]`), chromedp.SendKeys(`#boardinput`, "catS"))
	if got := p.eval(`document.querySelector('#board .sq[data-i="113"]').textContent`); got != "T" {
		t.Fatalf("typing on the board: 8I shows %q, want T", got)
	}
	p.do(chromedp.SendKeys(`#rack`, "aeinrs?"))
	cgp := p.eval(`document.querySelector("#cgp").value`)
	if want := "15/15/15/15/15/15/15/6CATs5/15/15/15/15/15/15/15 AEINRS?/ 0/0 0"; cgp != want {
		t.Fatalf("the page's CGP is %q, want %q", cgp, want)
	}

	// Best moves: the first row is the server's best, and clicking it
	// shows it on the board.
	p.do(chromedp.Click(`#best`))
	p.waitFor("the best moves", `document.querySelectorAll("#movelist tr").length > 0`, 20*time.Second)
	var want MovesResponse
	if code := post(t, ts, "/api/best", body(cgp, "", `"top":1`), &want); code != 200 || want.Best == nil {
		t.Fatalf("the API's best: %d", code)
	}
	if got := p.text(`#movelist tr:first-child td:nth-child(2)`); got != want.Best.Move {
		t.Errorf("the page's best move is %q, the API's %q", got, want.Best.Move)
	}
	if st := p.text("#status"); !strings.Contains(st, "Best: "+want.Best.Move) {
		t.Errorf("status %q", st)
	}
	p.do(chromedp.Click(`#movelist tr:first-child`))
	placed := len(want.Best.Tiles)
	if got := p.eval(`String(document.querySelectorAll("#board .sq.preview").length)`); got != fmt.Sprint(placed) {
		t.Errorf("the move shown covers %s squares, want %d (%s)", got, placed, want.Best.Move)
	}
	p.screenshot(out, "analysis-best.png")

	// A short simulation: progress, then the result with win chances.
	// The page itself notes a progress line when it is shown: polling
	// the status from here missed the second's progress on a loaded
	// machine, where one round trip to the browser can take as long.
	p.eval(`(() => {
		const st = document.querySelector("#status");
		window.sawProgress = false;
		new MutationObserver(() => {
			if (st.textContent.startsWith("Simulating:")) window.sawProgress = true;
		}).observe(st, { childList: true, characterData: true, subtree: true });
		return "";
	})()`)
	p.do(chromedp.SetValue(`#simtime`, "1s"), chromedp.Click(`#sim`))
	p.waitFor("the simulation", `document.querySelector("#status").textContent.startsWith("Simulated")`, 30*time.Second)
	if p.eval(`String(window.sawProgress)`) != "true" {
		t.Error("no progress of the simulation was shown")
	}
	if h := p.text(`#movehead`); !strings.Contains(h, "Win %") {
		t.Errorf("the simulation's table has the columns %q", h)
	}
	if n := p.eval(`String(document.querySelectorAll("#movelist tr").length)`); n == "0" {
		t.Error("the simulation listed no candidate")
	}
	p.do(chromedp.Click(`#movelist tr:first-child`))
	if got := p.eval(`String(document.querySelectorAll("#board .sq.preview").length)`); got == "0" {
		t.Error("the simulation's best, clicked, is not shown on the board")
	}
	p.screenshot(out, "analysis-sim.png")

	// A position of three players reads back whole.
	three := "15/15/15/15/15/15/15/6CATs5/15/15/15/15/15/15/15 AEINRS?/AB/ 10/20/30 0"
	p.do(chromedp.SetValue(`#cgp`, three), chromedp.Click(`#loadcgp`))
	if got := p.eval(`document.querySelector("#cgp").value`); got != three {
		t.Errorf("a 3-player CGP reads back as %q, want %q", got, three)
	}

	// An endgame pasted as CGP, solved within a second.
	eg, err := os.ReadFile("../cmd/scrabble/testdata/endgame.cgp")
	if err != nil {
		t.Fatal(err)
	}
	if testlex.Name() == "NWL23" {
		p.do(chromedp.SetValue(`#cgp`, strings.TrimSpace(string(eg))), chromedp.Click(`#loadcgp`))
		if got := p.eval(`document.querySelector("#rack").value`); got != "GLLORUU" {
			t.Errorf("the CGP's rack: %q", got)
		}
		if got, want := p.eval(`document.querySelector("#cgp").value`), strings.TrimSpace(string(eg)); got != want {
			t.Errorf("the CGP loaded reads back as %q, want %q", got, want)
		}
		p.do(chromedp.Click(`#endgame`))
		p.waitFor("the endgame", `document.querySelector("#status").textContent.startsWith("Endgame: ")`, 30*time.Second)
		if n := p.eval(`String(document.querySelectorAll("#pv li").length)`); n == "0" {
			t.Errorf("the endgame shows no line; status %q", p.text("#status"))
		}
		p.screenshot(out, "analysis-endgame.png")

		// A pre-endgame with the opponent's last move: with the infer box
		// ticked, the draws are weighted by it and counted in fractions.
		p.do(chromedp.SetValue(`#cgp`, inferCGP), chromedp.Click(`#loadcgp`), chromedp.Click(`#infer`), chromedp.SetValue(`#simtime`, "30s"), chromedp.Click(`#peg`))
		p.waitFor("the pre-endgame", `document.querySelector("#status").textContent.startsWith("Pre-endgame: ")`, 90*time.Second)
		var want PEGResponse
		if code := post(t, ts, "/api/peg", body(inferCGP, "", `"infer":true,"time":"30s","top":1`), &want); code != 200 || want.Best == nil || !want.Proven {
			t.Fatalf("the API's pre-endgame: %d, proven %v", code, want.Proven)
		}
		if st := p.text("#status"); !strings.Contains(st, "Pre-endgame: "+want.Best.Move.Move) || !strings.Contains(st, "inferred from their last move D12 GE.") {
			t.Errorf("status %q; want the API's %s, inferred from D12 GE.", st, want.Best.Move.Move)
		}
		u := float64(want.DrawUnit)
		wtl := fmt.Sprintf("%.2f-%.2f-%.2f", float64(want.Best.Wins)/u, float64(want.Best.Ties)/u, float64(want.Best.Losses)/u)
		if got := p.text(`#movelist tr:first-child td:nth-child(5)`); got != wtl {
			t.Errorf("the first row's W-T-L is %q, want %q", got, wtl)
		}
	}

	// Review: open a shared game through the file input, step through it.
	game := testlex.Game(t, "doug_v_emely.gcg")
	if testlex.Name() != "NWL23" {
		game, _ = filepath.Abs("../examples/game.gcg")
	}
	g, err := gcg.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	r := g.Replay()
	p.do(chromedp.Click(`#tab-review`))
	p.waitFor("the review tab", `!document.querySelector("#review").hidden`, 5*time.Second)
	p.do(chromedp.SetUploadFiles(`#gcgfile`, []string{game}))
	p.waitFor("the review", `document.querySelector("#turnno").textContent.startsWith("Turn 1 of")`, 60*time.Second)
	if got, want := p.text("#turnno"), fmt.Sprintf("Turn 1 of %d", len(r.Turns)); got != want {
		t.Errorf("turn counter %q, want %q", got, want)
	}
	e0 := &g.Events[r.Turns[0].Event]
	if got := p.text("#tplayer"); got != g.Players[r.Turns[0].Player].Nick {
		t.Errorf("turn 1's player %q, want %q (%s)", got, g.Players[r.Turns[0].Player].Nick, e0.Move())
	}
	p.do(chromedp.Click(`#next`))
	p.eval(`document.activeElement.blur(), ""`) // the arrow keys go to the page
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	if got := p.text("#turnno"); !strings.HasPrefix(got, "Turn 3 of") {
		t.Errorf("after next and the right arrow: %q", got)
	}
	// The board before turn 3 holds the tiles of turns 1 and 2.
	tiles := p.eval(`String(document.querySelectorAll("#rboard .sq.tile:not(.played)").length)`)
	if want := fmt.Sprint(r.Turns[2].Board.TileCount()); tiles != want {
		t.Errorf("the board before turn 3 has %s tiles, want %s", tiles, want)
	}
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	if got := p.text("#turnno"); !strings.HasPrefix(got, "Turn 2 of") {
		t.Errorf("after the left arrow: %q", got)
	}
	for _, sel := range []string{"#tplayed", "#tbest", "#tlost", "#track"} {
		if p.text(sel) == "" {
			t.Errorf("%s is empty on turn 2", sel)
		}
	}
	if n := p.eval(`String(document.querySelectorAll("#chart polyline").length)`); n != "3" {
		t.Errorf("the chart has %s lines, want 3 (two scores, the win chance)", n)
	}
	p.do(chromedp.Click(`#last`))
	if got := p.text("#turnno"); got != "End of the game" {
		t.Errorf("the last step: %q", got)
	}
	p.do(chromedp.Click(`#first`), chromedp.Click(`#next`), chromedp.Click(`#next`), chromedp.Click(`#next`), chromedp.Click(`#next`))
	p.screenshot(out, "review.png")

	// Turn 5's position, taken to the analysis board, is the replay's.
	p.do(chromedp.Click(`#toanalyze`))
	if p.eval(`String(document.querySelector("#analyze").hidden)`) != "false" {
		t.Fatal("Analyze this turn did not show the analysis board")
	}
	t5 := &r.Turns[4]
	if got, want := p.eval(`document.querySelector("#rack").value`), t5.Rack.String(); got != want {
		t.Errorf("turn 5's rack on the board: %q, want %q", got, want)
	}
	if got, want := p.eval(`String(document.querySelectorAll("#board .sq.tile").length)`), fmt.Sprint(t5.Board.TileCount()); got != want {
		t.Errorf("turn 5's board has %s tiles on the analysis board, want %s", got, want)
	}
	if got, want := p.eval(`document.querySelector("#score0").value + "/" + document.querySelector("#score1").value`),
		fmt.Sprintf("%d/%d", t5.Totals[t5.Player], t5.Totals[1-t5.Player]); got != want {
		t.Errorf("turn 5's scores: %s, want %s", got, want)
	}
	// With the opponent's turn 4 as its last move, so that the infer box
	// works on it: the CGP is the one scrabble position writes.
	pos := &position.Position{Board: t5.Board, Lexicon: testlex.Name()} // the review's lexicon, the server's
	pos.Racks[0] = t5.Rack
	pos.Scores[0], pos.Scores[1] = t5.Totals[t5.Player], t5.Totals[1-t5.Player]
	pos.ZeroTurns = t5.Scoreless
	t4 := &r.Turns[3]
	pos.SetLastMove(&position.LastMove{Kind: position.LastPlay, Play: t4.Move.Placed(), ChallengedOff: t4.Withdrawn})
	if t4.Move.Kind != move.Play || t4.Player == t5.Player {
		t.Fatalf("turn 4 of %s is not the other player's play", game)
	}
	if got, want := p.eval(`document.querySelector("#cgp").value`), pos.CGP(); got != want {
		t.Errorf("turn 5's CGP on the analysis board:\n%s\nwant\n%s", got, want)
	}
	// The opcode of other moves: board tiles as dots, a play taken back.
	for _, c := range []struct{ turn, want string }{
		{`{player: "a", played: {kind: "play", move: "8D W(O)R(D)S"}, flags: []}`, "lm 8D W.R.S;"},
		{`{player: "a", played: {kind: "play", move: "H1 (QUI)Z"}, flags: ["withdrawn"]}`, "lm challenge H1 ...Z;"},
		{`{player: "a", played: {kind: "exchange", move: "-AEI"}, flags: []}`, "lm -AEI;"},
		{`{player: "a", played: {kind: "pass", move: "-"}}`, "lm -;"},
		{`{player: "b", played: {kind: "pass", move: "-"}}`, ""},
	} {
		expr := fmt.Sprintf(`lastMoveOpcode({players: [{}, {}], turns: [%s, {player: "b"}]}, 1)`, c.turn)
		if got := p.eval(expr); got != c.want {
			t.Errorf("%s: %q, want %q", expr, got, c.want)
		}
	}
	p.do(chromedp.Click(`#tab-review`))

	// A phone's width: nothing wider than the screen.
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	if w := p.eval(`String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("at 390 px wide the page is %s px wide", w)
	}
	p.screenshot(out, "review-phone.png")
	p.do(chromedp.Click(`#tab-analyze`))
	if w := p.eval(`String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("at 390 px wide the analysis board is %s px wide", w)
	}
	p.screenshot(out, "analysis-phone.png")

	// A bad CGP is said on the page, not thrown.
	p.do(chromedp.SetValue(`#cgp`, "15/15/15 AB/ 0/0 0"), chromedp.Click(`#loadcgp`))
	if st := p.text("#status"); !strings.Contains(st, "CGP: ") {
		t.Errorf("a bad CGP: status %q", st)
	}

	time.Sleep(200 * time.Millisecond) // the last console messages
	mu.Lock()
	defer mu.Unlock()
	for _, m := range messages {
		t.Errorf("console: %s", m)
	}
	list, _ := json.Marshal([]string{"analysis-best.png", "analysis-sim.png", "analysis-endgame.png", "review.png", "review-phone.png", "analysis-phone.png"})
	t.Logf("screenshots in %s: %s", out, list)
}
