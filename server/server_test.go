package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"scrabble/endgame"
	"scrabble/eval"
	"scrabble/gcg"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/review"
	"scrabble/rules"
)

// testLexicon is the tests' lexicon: testlex's, with its tables and leaves.
func testLexicon(tb testing.TB) *Lexicon {
	tb.Helper()
	name := testlex.Name()
	tables := testgen.Tables(testlex.GADDAG(tb, name))
	lex := &Lexicon{Name: tables.Lexicon().Header().Name, Tables: tables}
	table, err := eval.DefaultLeaves(lex.Name)
	if err != nil {
		tb.Fatal(err)
	}
	if table != nil {
		lex.Leaves = table
	}
	return lex
}

// newTestServer starts a server on the test lexicon; cfg's zero fields
// take the defaults.
func newTestServer(tb testing.TB, cfg Config) (*Server, *httptest.Server) {
	tb.Helper()
	lex := testLexicon(tb)
	if cfg.Lexicon == nil {
		cfg.Lexicon = func(name string) (*Lexicon, error) {
			if name == "" || strings.EqualFold(name, lex.Name) {
				return lex, nil
			}
			return nil, fmt.Errorf("lexicon %q is not installed", name)
		}
	}
	if cfg.Log == nil {
		cfg.Log = log.New(io.Discard, "", 0)
	}
	s, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ts := httptest.NewServer(s)
	tb.Cleanup(ts.Close)
	return s, ts
}

// post sends body to path and returns the status and the decoded JSON
// answer, failing the test when the answer is not JSON.
func post(tb testing.TB, ts *httptest.Server, path, body string, out any) int {
	tb.Helper()
	resp, err := ts.Client().Post(ts.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		tb.Fatalf("POST %s: Content-Type %q, want application/json; body %s", path, ct, data)
	}
	if out == nil {
		var e struct{ Error string }
		out = &e
	}
	if err := json.Unmarshal(data, out); err != nil {
		tb.Fatalf("POST %s: status %d, answer not JSON: %v\n%s", path, resp.StatusCode, err, data)
	}
	return resp.StatusCode
}

func body(cgp, rack string, extra string) string {
	b, _ := json.Marshal(map[string]string{"cgp": cgp, "rack": rack})
	if extra != "" {
		b = append(b[:len(b)-1], ","+extra+"}"...)
	}
	return string(b)
}

const emptyBoard = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"

// testPositions are positions with the rack to move, bag not empty.
func testPositions(tb testing.TB) []struct{ name, cgp, rack string } {
	pos, err := os.ReadFile("../examples/pos.cgp")
	if err != nil {
		tb.Fatal(err)
	}
	var cgp string
	for _, l := range strings.Split(string(pos), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			cgp = l
		}
	}
	endgame, err := os.ReadFile("../cmd/scrabble/testdata/endgame.cgp")
	if err != nil {
		tb.Fatal(err)
	}
	return []struct{ name, cgp, rack string }{
		{"opening", emptyBoard + " AEINRST/ 0/0 0", ""},
		{"opening blanks", emptyBoard + " / 0/0 0", "EIRST??"},
		{"opening poor rack", emptyBoard + " / 0/0 0", "IIUUVVW"},
		{"midgame", cgp, ""},
		{"midgame other rack", cgp, "QUIXOTE"},
		{"endgame", strings.TrimSpace(string(endgame)), ""},
		{"three players", emptyBoard + " AEINRST// 0/0/0 0", ""},
		{"four players midgame", strings.Replace(strings.Replace(cgp, " AEINRST/ 129/215 0", " AEINRST/// 129/215/100/90 0", 1), "lex NWL23;", "", 1), ""},
	}
}

// expected works out a position's generator as the engine's commands do.
func expected(tb testing.TB, lex *Lexicon, cgp, rackText string) (*movegen.Generator, *position.Position, rules.Rack, int) {
	tb.Helper()
	p, err := position.ParseCGP("cgp", cgp)
	if err != nil {
		tb.Fatal(err)
	}
	rack := p.Racks[0]
	if rackText != "" {
		if rack, err = rules.ParseRack(rackText); err != nil {
			tb.Fatal(err)
		}
	}
	unseen, err := rules.Unseen(&p.Board, rack)
	if err != nil {
		tb.Fatal(err)
	}
	bag := max(0, unseen.Count()-(p.Players()-1)*rules.RackSize)
	gen := movegen.New(lex.Tables)
	gen.SetBoard(&p.Board)
	gen.SetLeaves(eval.EquityWithAmong(lex.Leaves, eval.Terms{}, bag, unseen, p.Players()))
	return gen, p, rack, bag
}

// TestBestIsTheGenerators: best's first move is movegen's Best on the same
// position, and its count is every play, exchange and pass.
func TestBestIsTheGenerators(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	lex := testLexicon(t)
	for _, tc := range testPositions(t) {
		t.Run(tc.name, func(t *testing.T) {
			var got MovesResponse
			if code := post(t, ts, "/api/best", body(tc.cgp, tc.rack, `"top":5`), &got); code != http.StatusOK {
				t.Fatalf("status %d", code)
			}
			gen, p, rack, bag := expected(t, lex, tc.cgp, tc.rack)
			want, ok := gen.Best(&rack, bag, movegen.Options{Exchanges: true, Pass: true})
			if !ok {
				t.Fatal("the generator found no move")
			}
			wd := move.Describe(&p.Board, rack, &want)
			if got.Best == nil || got.Best.Move != wd.Move || got.Best.Equity != wd.Equity || got.Best.Score != wd.Score {
				t.Errorf("best %+v, the generator's %+v", got.Best, wd)
			}
			var all movegen.AllMoves
			gen.Generate(&rack, bag, movegen.Options{Exchanges: true, Pass: true}, &all)
			if got.Count != len(all.Moves) {
				t.Errorf("count %d, the generator made %d moves", got.Count, len(all.Moves))
			}
			if len(got.Moves) != min(5, len(all.Moves)) {
				t.Errorf("%d moves listed, want top 5", len(got.Moves))
			}
			for i := 1; i < len(got.Moves); i++ {
				if got.Moves[i].Equity > got.Moves[i-1].Equity {
					t.Errorf("moves not by equity: %v before %v", got.Moves[i-1], got.Moves[i])
				}
			}
			if got.Players != p.Players() {
				t.Errorf("players %d, want %d", got.Players, p.Players())
			}
			if got.Rack != rack.String() || got.Bag != bag || got.Lexicon != lex.Name {
				t.Errorf("rack %s bag %d lexicon %s, want %s %d %s", got.Rack, got.Bag, got.Lexicon, rack, bag, lex.Name)
			}
		})
	}
}

// TestMovesAreTheGenerators: moves lists every play the generator makes,
// by score, with score, equity and leave.
func TestMovesAreTheGenerators(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	lex := testLexicon(t)
	for _, tc := range testPositions(t) {
		for _, exch := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/exchanges=%v", tc.name, exch), func(t *testing.T) {
				var got MovesResponse
				extra := ""
				if exch {
					extra = `"exchanges":true`
				}
				if code := post(t, ts, "/api/moves", body(tc.cgp, tc.rack, extra), &got); code != http.StatusOK {
					t.Fatalf("status %d", code)
				}
				gen, p, rack, bag := expected(t, lex, tc.cgp, tc.rack)
				var all movegen.AllMoves
				gen.Generate(&rack, bag, movegen.Options{Exchanges: exch, Pass: exch}, &all)
				move.SortByScore(all.Moves)
				if got.Count != len(all.Moves) || len(got.Moves) != len(all.Moves) {
					t.Fatalf("count %d, %d listed; the generator made %d", got.Count, len(got.Moves), len(all.Moves))
				}
				for i := range all.Moves {
					want := move.Describe(&p.Board, rack, &all.Moves[i])
					g := got.Moves[i]
					if g.Move != want.Move || g.Score != want.Score || g.Equity != want.Equity || g.Leave != want.Leave {
						t.Fatalf("move %d: %+v, want %+v", i, g, want)
					}
				}
			})
		}
	}
	var top MovesResponse
	post(t, ts, "/api/moves", body(emptyBoard+" AEINRST/ 0/0 0", "", `"top":3`), &top)
	if len(top.Moves) != 3 || top.Count <= 3 {
		t.Errorf("top 3: %d listed of %d", len(top.Moves), top.Count)
	}
}

// TestBadRequests: every mistake is a 4xx with a JSON error saying what.
func TestBadRequests(t *testing.T) {
	_, ts := newTestServer(t, Config{MaxBody: 64 << 10})
	opening := emptyBoard + " AEINRST/ 0/0 0"
	game, err := os.ReadFile("../examples/game.gcg")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, body string
		status           int
		want             string // in the error
	}{
		{"empty body", "/api/best", "", 400, "empty body"},
		{"malformed JSON", "/api/best", `{"cgp": `, 400, "malformed JSON"},
		{"not an object", "/api/moves", `[1,2]`, 400, "malformed JSON"},
		{"two values", "/api/moves", body(opening, "", "") + "{}", 400, "more than one value"},
		{"unknown field", "/api/best", `{"cgp": "x", "board": "y"}`, 400, "unknown field"},
		{"no cgp", "/api/best", `{"rack": "AEINRST"}`, 400, "missing cgp"},
		{"huge CGP", "/api/best", body(strings.Repeat("15/", 2000)+"15", "", ""), 400, "bytes long"},
		{"two lines", "/api/best", body(opening+"\n"+opening, "", ""), 400, "one line"},
		{"broken CGP", "/api/best", body("15/15/15 AEINRST/ 0/0 0", "", ""), 400, "cgp"},
		{"no rack", "/api/best", body(emptyBoard+" / 0/0 0", "", ""), 400, "no rack"},
		{"illegal rack", "/api/moves", body(opening, "AB1", ""), 400, "rack"},
		{"rack too long", "/api/moves", body(opening, "AEINRSTU", ""), 400, "rack"},
		{"rack not in the bag", "/api/best", body(opening, "ZZZ", ""), 400, "does not fit"},
		{"negative top", "/api/moves", body(opening, "", `"top":-1`), 400, "top"},
		{"lexicon path", "/api/best", body(opening, "", `"lexicon":"../../etc/passwd"`), 400, "not a lexicon name"},
		{"lexicon not installed", "/api/best", body(opening, "", `"lexicon":"NOSUCH"`), 400, "not installed"},
		{"bad time", "/api/sim", body(opening, "", `"time":"forever"`), 400, "time"},
		{"plies", "/api/sim", body(opening, "", `"plies":1000`), 400, "plies"},
		{"endgame with tiles in the bag", "/api/endgame", body(opening, "", ""), 400, "bag holds"},
		{"peg at the opening", "/api/peg", body(opening, "", ""), 400, "pre-endgame"},
		{"endgame of three players", "/api/endgame", body(emptyBoard+" AEINRST// 0/0/0 0", "", ""), 400, "two players"},
		{"peg of three players", "/api/peg", body(emptyBoard+" AEINRST// 0/0/0 0", "", ""), 400, "two players"},
		{"other players' racks too many", "/api/best", body(emptyBoard+" AEINRST/QZ/Q 0/0/0 0", "", ""), 400, "too many Qs"},
		{"body too large", "/api/best", `{"cgp": "` + strings.Repeat(" ", 100<<10) + `"}`, 413, "larger than"},
		{"broken GCG", "/api/review", "#player1 a A\n#player2 b B\n>a: AB 8H AB +four 4\n", 400, "not a number"},
		{"not a GCG", "/api/review", "hello\n", 400, "neither a pragma"},
		{"empty GCG", "/api/review", "", 400, ""},
		{"GCG too large", "/api/review", string(game) + strings.Repeat("#note x\n", 20<<10), 413, "larger than"},
		{"no such endpoint", "/api/nothing", "{}", 404, "no such endpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e struct{ Error string }
			code := post(t, ts, tc.path, tc.body, &e)
			if code != tc.status || e.Error == "" || !strings.Contains(e.Error, tc.want) {
				t.Errorf("status %d, error %q; want %d and an error saying %q", code, e.Error, tc.status, tc.want)
			}
		})
	}
	// A GET of an analysis is refused, as a POST of the page.
	resp, err := ts.Client().Get(ts.URL + "/api/best")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /api/best: %d, want 405", resp.StatusCode)
	}
	if code := post(t, ts, "/index.html", "{}", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("POST /index.html: %d, want 405", code)
	}
}

// TestOriginsAndHosts: pages of other origins are refused unless allowed;
// with LoopbackHosts, so are host names other than the loopback's.
func TestOriginsAndHosts(t *testing.T) {
	opening := body(emptyBoard+" AEINRST/ 0/0 0", "", `"top":1`)
	for _, tc := range []struct {
		name, allow, origin, host string
		status                    int
		allowHeader               string
	}{
		{"no origin", "", "", "", 200, ""},
		{"same origin", "", "SELF", "", 200, ""},
		{"other origin", "", "http://evil.example", "", 403, ""},
		{"other origin allowed", "http://good.example", "http://good.example", "", 200, "http://good.example"},
		{"another origin than allowed", "http://good.example", "http://evil.example", "", 403, ""},
		{"any origin allowed", "*", "http://any.example", "", 200, "http://any.example"},
		{"rebinding host", "", "", "evil.example", 403, ""},
		{"localhost", "", "", "localhost:8080", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ts := newTestServer(t, Config{AllowOrigin: tc.allow, LoopbackHosts: true})
			req, _ := http.NewRequest("POST", ts.URL+"/api/best", strings.NewReader(opening))
			switch tc.origin {
			case "":
			case "SELF":
				req.Header.Set("Origin", ts.URL)
			default:
				req.Header.Set("Origin", tc.origin)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			data, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.status, data)
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != tc.allowHeader {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, tc.allowHeader)
			}
			if !json.Valid(data) {
				t.Errorf("answer not JSON: %s", data)
			}
		})
	}
	if _, err := New(Config{Lexicon: func(string) (*Lexicon, error) { return nil, nil }, AllowOrigin: "evil.example"}); err == nil {
		t.Error("an origin without a scheme was accepted")
	}
}

// TestBusy: with one analysis running and MaxAnalyses 1, another waits
// QueueWait, then gets 503 with a message; once the first is gone, the
// next is answered.
func TestBusy(t *testing.T) {
	_, ts := newTestServer(t, Config{MaxAnalyses: 1, QueueWait: 100 * time.Millisecond})
	opening := emptyBoard + " AEINRST/ 0/0 0"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/sim?stream=1", strings.NewReader(body(opening, "", `"time":"20s"`)))
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	// Its first event says the sim holds the one place.
	readEvents(t, resp.Body, func(string, []byte) bool { return false })
	var e struct{ Error string }
	if code := post(t, ts, "/api/best", body(opening, "", ""), &e); code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "busy") {
		t.Errorf("while busy: status %d, error %q; want 503 busy", code, e.Error)
	}
	cancel()
	resp.Body.Close()
	// The sim ends as its client goes; the place is free a moment later.
	code := 0
	for deadline := time.Now().Add(5 * time.Second); code != http.StatusOK && time.Now().Before(deadline); {
		code = post(t, ts, "/api/best", body(opening, "", ""), &MovesResponse{})
	}
	if code != http.StatusOK {
		t.Errorf("after the sim: status %d", code)
	}
}

// readEvents reads server-sent events until the stream ends.
func readEvents(t *testing.T, r io.Reader, each func(name string, data []byte) bool) {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if !each(name, []byte(strings.TrimPrefix(line, "data: "))) {
				return
			}
		}
	}
}

// TestSimStream: a streamed sim sends progress events, then the result,
// whose candidates are by simulated value; the plain answer is the same
// JSON.
func TestSimStream(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	req, _ := http.NewRequest("POST", ts.URL+"/api/sim", strings.NewReader(body(emptyBoard+" AEINRST/ 0/0 0", "", `"time":"1s","top":4`)))
	req.Header.Set("Accept", "text/event-stream")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	progress := 0
	var res *SimResponse
	readEvents(t, resp.Body, func(name string, data []byte) bool {
		switch name {
		case "progress":
			var p SimProgress
			if err := json.Unmarshal(data, &p); err != nil || p.Leader.Move == "" {
				t.Errorf("progress %s: %v", data, err)
			}
			progress++
		case "result":
			res = &SimResponse{}
			if err := json.Unmarshal(data, res); err != nil {
				t.Errorf("result: %v", err)
			}
		default:
			t.Errorf("event %q: %s", name, data)
		}
		return true
	})
	if progress < 2 || res == nil {
		t.Fatalf("%d progress events, result %v", progress, res)
	}
	if !res.Done || len(res.Candidates) < 4 || res.Iterations == 0 {
		t.Errorf("result: %+v", res)
	}
	// The sim ranks by the chance of winning, candidates within the noise
	// of each other by equity (sim.RankWin): so one may follow a
	// candidate of higher equity or one of higher win chance, never one
	// it beats on both. (Ordered by equity alone, two anagrams on the
	// same squares once came out 67.54 before 67.54, the second a hair
	// higher in equity and lower in win chance.)
	const eps = 1e-9
	for i := 1; i < len(res.Candidates); i++ {
		c, p := res.Candidates[i], res.Candidates[i-1]
		if !c.Pruned && !p.Pruned && c.SimEquity > p.SimEquity+eps && c.WinPct > p.WinPct+eps {
			t.Errorf("candidates out of order: %s (equity %.4f, win %.4f%%) before %s (%.4f, %.4f%%)", p.Move, p.SimEquity, p.WinPct, c.Move, c.SimEquity, c.WinPct)
		}
	}
	for _, cgp := range []string{emptyBoard + " AEINRST/ 0/0 0", emptyBoard + " AEINRST// 0/0/0 0", emptyBoard + " AEINRST/// 0/0/0/0 0"} {
		var plain SimResponse
		if code := post(t, ts, "/api/sim", body(cgp, "", `"iterations":50,"seed":3`), &plain); code != 200 || len(plain.Candidates) == 0 || plain.Stopped == "" {
			t.Errorf("plain sim of %s: status %d, %+v", cgp, code, plain)
		}
	}
}

// TestSimCancelledWhenTheClientGoes: a client that hangs up ends its
// simulation at once, freeing its place for the next analysis.
func TestSimCancelledWhenTheClientGoes(t *testing.T) {
	_, ts := newTestServer(t, Config{MaxAnalyses: 1, QueueWait: 2 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/sim?stream=1", strings.NewReader(body(emptyBoard+" AEINRST/ 0/0 0", "", `"time":"25s"`)))
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	// The first progress event says it runs; then the client goes.
	readEvents(t, resp.Body, func(string, []byte) bool { return false })
	cancel()
	resp.Body.Close()
	start := time.Now()
	if code := post(t, ts, "/api/best", body(emptyBoard+" AEINRST/ 0/0 0", "", ""), &MovesResponse{}); code != http.StatusOK {
		t.Errorf("after the cancelled sim: status %d", code)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the next analysis waited %v: the sim was not cancelled", d)
	}
}

// TestEndgame: the endgame's answer on a position with the bag empty is
// the solver's (depth-limited, to be quick and reproducible).
func TestEndgame(t *testing.T) {
	if testlex.Name() != "NWL23" {
		t.Skip("the endgame position is NWL23's")
	}
	_, ts := newTestServer(t, Config{})
	data, err := os.ReadFile("../cmd/scrabble/testdata/endgame.cgp")
	if err != nil {
		t.Fatal(err)
	}
	cgp := strings.TrimSpace(string(data))
	var got EndgameResponse
	if code := post(t, ts, "/api/endgame", body(cgp, "", `"time":"20s","plies":2`), &got); code != 200 {
		t.Fatalf("status %d", code)
	}
	p, err := position.ParseCGP("cgp", cgp)
	if err != nil {
		t.Fatal(err)
	}
	want, err := endgame.Solve(context.Background(), testLexicon(t).Tables, p, endgame.Options{Threads: 1, TTMB: endgameTTMB, Plies: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got.Best.Move != want.Best.NotationOn(&p.Board) || got.Value != want.Value || got.Depth != want.Depth {
		t.Errorf("endgame: %s value %d depth %d; the solver's %s %d %d", got.Best.Move, got.Value, got.Depth, want.Best.NotationOn(&p.Board), want.Value, want.Depth)
	}
	if len(got.PV) == 0 || got.PV[0].Move.Move != got.Best.Move || got.PV[0].Player != "mover" || got.FinalSpread != got.Scores[0]-got.Scores[1]+got.Value {
		t.Errorf("endgame: %+v", got)
	}
	if first := got.PV[0]; first.Scores != [2]int{got.Scores[0] + got.Best.Score, got.Scores[1]} && first.End == "" {
		t.Errorf("after %s (%d) from %v the scores are %v", got.Best.Move, got.Best.Score, got.Scores, first.Scores)
	}
	if got.Best.Equity == 0 {
		t.Errorf("the best move has no equity: %+v", got.Best)
	}
	if got.OpponentRack != "ADPRST?" || got.Rack != "GLLORUU" {
		t.Errorf("racks %s and %s", got.Rack, got.OpponentRack)
	}
}

// gameTurn finds a turn of a shared game with bagLen tiles in the bag and
// a full rack, and returns its position as CGP.
func gameTurn(t *testing.T, name string, bag func(int) bool) string {
	t.Helper()
	g, err := gcg.ReadFile(testlex.Game(t, name))
	if err != nil {
		t.Fatal(err)
	}
	r := g.Replay()
	for i := range r.Turns {
		tr := &r.Turns[i]
		if bag(tr.BagLen) && tr.Rack.Count() == rules.RackSize {
			p := &position.Position{Board: tr.Board}
			p.Racks[0] = tr.Rack
			p.Scores[0], p.Scores[1] = tr.Totals[tr.Player], tr.Totals[1-tr.Player]
			return p.CGP()
		}
	}
	t.Fatalf("%s has no such turn", name)
	return ""
}

// TestPEG: a pre-endgame's answer describes the draw and ranks what it
// valued within its time: exact records first, then estimates, deeper
// first, each by win percentage.
func TestPEG(t *testing.T) {
	if testlex.Name() != "NWL23" {
		t.Skip("the shared games are NWL23's")
	}
	_, ts := newTestServer(t, Config{})
	cgp := gameTurn(t, "doug_v_emely.gcg", func(n int) bool { return n == 1 })
	var got PEGResponse
	if code := post(t, ts, "/api/peg", body(cgp, "", `"time":"3s","top":3`), &got); code != 200 {
		t.Fatalf("status %d", code)
	}
	if got.BagTiles != 1 || len(got.Unseen) != rules.RackSize+1 || got.Moves == 0 || got.Stopped == "" {
		t.Fatalf("peg: %+v", got)
	}
	if (got.Best == nil) != (len(got.Candidates) == 0) {
		t.Errorf("best %v with %d candidates", got.Best, len(got.Candidates))
	}
	// Exact records first, then estimates deeper first; each group by
	// win percentage.
	for i := 1; i < len(got.Candidates); i++ {
		a, b := got.Candidates[i-1], got.Candidates[i]
		switch {
		case !a.Proven && b.Proven, !a.Proven && !b.Proven && b.Plies > a.Plies:
			t.Errorf("candidates %d and %d out of order: %+v", i, i+1, got.Candidates)
		case a.Proven == b.Proven && a.Plies == b.Plies && b.WinPct > a.WinPct:
			t.Errorf("candidates not by win%%: %+v", got.Candidates)
		}
		if b.Proven != (b.Spread != "estimate") {
			t.Errorf("candidate %d: proven %v, spread %q", i+1, b.Proven, b.Spread)
		}
	}
}

// TestReview: a posted game's review is review.Review's, with a board a
// turn and the win chances.
func TestReview(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	lex := testLexicon(t)
	file := testlex.Game(t, "doug_v_emely.gcg")
	if testlex.Name() != "NWL23" {
		file = "../examples/game.gcg"
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var got ReviewResponse
	if code := post(t, ts, "/api/review", string(data), &got); code != 200 {
		t.Fatalf("status %d", code)
	}
	g, err := gcg.Read("game", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	r := g.Replay()
	want, err := review.Review(context.Background(), r, review.Options{Tables: lex.Tables, Leaves: lex.Leaves, EndgameNodes: review.DefaultEndgameNodes})
	if err != nil {
		t.Fatal(err)
	}
	if got.Report == nil || len(got.Turns) != len(want.Turns) {
		t.Fatalf("review: %d turns, want %d", len(got.Turns), len(want.Turns))
	}
	for i := range want.Turns {
		if g, w := got.Turns[i], want.Turns[i]; g.Played.Move != w.Played.Move || g.EquityLost != w.EquityLost || len(g.Best) != len(w.Best) {
			t.Errorf("turn %d: played %s lost %.2f; want %s lost %.2f", w.Turn, g.Played.Move, g.EquityLost, w.Played.Move, w.EquityLost)
		}
	}
	if len(got.Boards) != len(r.Turns)+1 || len(got.WinProb) != len(r.Turns)+1 {
		t.Fatalf("%d boards, %d win chances for %d turns", len(got.Boards), len(got.WinProb), len(r.Turns))
	}
	if strings.Join(got.Boards[len(r.Turns)], "\n")+"\n" != r.Board.GridString() {
		t.Errorf("the last board is not the game's end")
	}
	for i, b := range got.Boards {
		if len(b) != rules.Size {
			t.Errorf("board %d has %d rows", i, len(b))
		}
	}
	for i, p := range got.WinProb {
		if p < 0 || p > 1 {
			t.Errorf("win chance %d: %v", i, p)
		}
	}
}

// TestReviewOfMorePlayers: games of three and four players are reviewed,
// with a board a turn and no win chances (the table is two players').
func TestReviewOfMorePlayers(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	for _, name := range []string{"three_players.gcg", "four_players.gcg"} {
		data, err := os.ReadFile("../gcg/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		g, err := gcg.Read(name, bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var got ReviewResponse
		if code := post(t, ts, "/api/review", string(data), &got); code != 200 {
			t.Fatalf("%s: status %d", name, code)
		}
		r := g.Replay()
		if got.Report == nil || len(got.Players) != len(g.Players) || len(got.Boards) != len(r.Turns)+1 || got.WinProb != nil {
			t.Errorf("%s: %d players, %d boards for %d turns, win chances %v", name, len(got.Players), len(got.Boards), len(r.Turns), got.WinProb)
		}
	}
}

// TestPanicIsA500: a panic in a handler is answered with a JSON 500 and
// logged, and the server goes on.
func TestPanicIsA500(t *testing.T) {
	var logged bytes.Buffer
	_, ts := newTestServer(t, Config{Log: log.New(&logged, "", 0), Lexicon: func(string) (*Lexicon, error) { panic("lexicon trouble") }})
	var e struct{ Error string }
	if code := post(t, ts, "/api/best", body(emptyBoard+" AEINRST/ 0/0 0", "", ""), &e); code != 500 || !strings.Contains(e.Error, "internal error") {
		t.Errorf("status %d, error %q", code, e.Error)
	}
	if !strings.Contains(logged.String(), "lexicon trouble") {
		t.Errorf("the panic was not logged: %q", logged.String())
	}
	if code := post(t, ts, "/api/best", body(emptyBoard+" AEINRST/ 0/0 0", "", ""), &e); code != 500 {
		t.Errorf("second request: %d", code)
	}
}

// TestPage: the page and its assets are served with their types, and no
// asset names another host.
func TestPage(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	for path, ctype := range map[string]string{"/": "text/html", "/app.js": "text/javascript", "/style.css": "text/css"} {
		resp, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) {
			t.Errorf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		// The SVG namespace is a name, not a place anything is loaded from.
		data = bytes.ReplaceAll(data, []byte(`"http://www.w3.org/2000/svg"`), nil)
		for _, host := range []string{"http://", "https://", "//cdn"} {
			if bytes.Contains(data, []byte(host)) {
				t.Errorf("%s names another host (%s)", path, host)
			}
		}
	}
}

// errorOf reads an answer's error, for fuzzing.
func errorOf(data []byte) (string, error) {
	var e struct {
		Error *string `json:"error"`
	}
	if err := json.Unmarshal(data, &e); err != nil {
		return "", err
	}
	if e.Error == nil {
		return "", errors.New("no error field")
	}
	return *e.Error, nil
}

// TestAnalysisOutlivesReadTimeout: the read timeout is for a slow client's
// request, not for the analysis that follows it: a sim longer than the
// server's ReadTimeout runs its whole time.
func TestAnalysisOutlivesReadTimeout(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := s.HTTPServer(ln.Addr().String())
	hs.ReadTimeout = 500 * time.Millisecond
	go hs.Serve(ln)
	defer hs.Close()
	for _, stream := range []string{"", "?stream=1"} {
		resp, err := http.Post("http://"+ln.Addr().String()+"/api/sim"+stream, "application/json",
			strings.NewReader(body(emptyBoard+" AEINRST/ 0/0 0", "", `"time":"1500ms"`)))
		if err != nil {
			t.Fatal(err)
		}
		var res SimResponse
		if stream == "" {
			err = json.NewDecoder(resp.Body).Decode(&res)
		} else {
			readEvents(t, resp.Body, func(name string, data []byte) bool {
				if name == "result" {
					err = json.Unmarshal(data, &res)
				}
				return true
			})
		}
		resp.Body.Close()
		if err != nil || res.Stopped != "time" || res.Seconds < 1.4 {
			t.Errorf("sim%s: stopped %q after %.2fs (%v); want the whole 1.5s", stream, res.Stopped, res.Seconds, err)
		}
	}
}
