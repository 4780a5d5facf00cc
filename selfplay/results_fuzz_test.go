package selfplay

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzReadResults: the results file read on resume either fails naming the
// file, or gives results of this tournament: each game once, in range, with
// its seed and seating, and a good length within the data ending a line.
func FuzzReadResults(f *testing.F) {
	cfg := Config{Players: [2]string{"equity", "score"}, Games: 10, Seed: 7}
	line := func(i int) string {
		return `{"game":` + string(rune('0'+i)) + `,"seed":` + strconv.FormatUint(GameSeed(cfg.Seed, i, false), 10) + `,"first":` + string(rune('1'+FirstPlayer(i))) +
			`,"players":["equity","score"],"scores":[300,280],"winner":1,"turns":20}`
	}
	f.Add([]byte(line(0) + "\n" + line(1) + "\n"))
	f.Add([]byte(line(0) + "\n" + line(0) + "\n"))
	f.Add([]byte(line(3) + "\n" + line(4)[:20]))
	f.Add([]byte("\n\n{}\n"))
	f.Add([]byte(line(2) + " " + line(3) + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := &tournament{cfg: cfg, done: map[int]bool{}}
		good, err := tr.readResults("r.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "r.jsonl") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if good < 0 || good > len(data) || (good > 0 && data[good-1] != '\n') {
			t.Fatalf("good length %d of %d bytes", good, len(data))
		}
		if len(tr.results) != len(tr.done) {
			t.Fatalf("%d results for %d games", len(tr.results), len(tr.done))
		}
		for _, r := range tr.results {
			if r.Game < 0 || r.Game >= cfg.Games || r.Seed != GameSeed(cfg.Seed, r.Game, cfg.Pairs) || r.Players != cfg.Players {
				t.Fatalf("accepted %+v", r)
			}
		}
	})
}
