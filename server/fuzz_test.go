package server

import (
	"encoding/json"

	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// fuzzHandler fuzzes one endpoint: whatever the body, the answer is JSON,
// 2xx, 4xx or a 503 (the time limit or the queue, busy fuzzing workers
// beside it), and a 4xx or 503 says what was wrong. The handler is called
// directly (no network), with short time limits.
func fuzzHandler(f *testing.F, path string, seeds ...string) {
	s, _ := newTestServer(f, Config{TimeLimit: 300 * time.Millisecond, MaxBody: 64 << 10})
	opening := emptyBoard + " AEINRST/ 0/0 0"
	for _, seed := range append(seeds,
		"", "{", "null", "[]", `{"cgp": 1}`, body(opening, "", ""), body(opening, "??", `"top":3`),
		body(opening, "", `"exchanges":true,"top":0`), body("15/15/15/15/15/15/15/15/15/15/15/15/15/15/14Q AEINRST/ 0/0 0", "", ""),
		body(opening+" lex NWL23;", "QQQ", ""), body(opening, "", `"lexicon":"../x"`), body(strings.Repeat("1", 5000), "", ""),
	) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", path, strings.NewReader(in))
		req.Header.Set("Content-Type", "application/json")
		s.ServeHTTP(rec, req)
		code := rec.Code
		if code >= 500 && code != 503 || code < 200 || code >= 300 && code < 400 {
			t.Fatalf("status %d for %q: %s", code, in, rec.Body.Bytes())
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("status %d, answer not JSON for %q: %s", code, in, rec.Body.Bytes())
		}
		if code >= 400 {
			if msg, err := errorOf(rec.Body.Bytes()); err != nil || msg == "" {
				t.Fatalf("status %d without an error message for %q: %s", code, in, rec.Body.Bytes())
			}
		}
	})
}

func FuzzMovesHandler(f *testing.F) { fuzzHandler(f, "/api/moves") }
func FuzzBestHandler(f *testing.F)  { fuzzHandler(f, "/api/best") }
func FuzzSimHandler(f *testing.F) {
	fuzzHandler(f, "/api/sim", body(emptyBoard+" AEINRST/ 0/0 0", "", `"iterations":5`),
		body(inferCGP, "", `"iterations":3,"infer":true`), body(inferCGP, "", `"iterations":3,"infer":true,"last":"-3"`))
}
func FuzzEndgameHandler(f *testing.F) {
	cgp, _ := os.ReadFile("../cmd/scrabble/testdata/endgame.cgp")
	fuzzHandler(f, "/api/endgame", body(strings.TrimSpace(string(cgp)), "", `"time":"100ms"`))
}
func FuzzPEGHandler(f *testing.F) {
	fuzzHandler(f, "/api/peg", body(inferCGP, "", `"infer":true,"time":"100ms"`))
}
func FuzzInferHandler(f *testing.F) {
	fuzzHandler(f, "/api/infer", body(inferCGP, "", ""), body(inferCGP, "", `"last":"challenge D12 GE.","top":0`),
		body(emptyBoard+" AEINRST/ 0/0 0 lm 8D WO.D;", "", ""), body(inferCGP, "", `"last":"8D WO(R)D +5"`))
}
func FuzzReviewHandler(f *testing.F) {
	game, _ := os.ReadFile("../examples/game.gcg")
	fuzzHandler(f, "/api/review", string(game), "#player1 a A\n#player2 b B\n>a: AB 8H AB +4 4\n", "#player1 a A\n")
}
