package selfplay

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"scrabble/game"
	"scrabble/rules"
)

// FuzzReadResults: the results file read on resume either fails naming the
// file, or gives results of this tournament: each game once, in range, with
// its seed and seating, possible scores and winner, each from a line that
// is one JSON object and nothing else, and a good length within the data
// ending a line.
func FuzzReadResults(f *testing.F) {
	cfg := Config{Players: []string{"equity", "score"}, Games: 10, Seed: 7}
	line := func(i int) string {
		return `{"game":` + string(rune('0'+i)) + `,"seed":` + strconv.FormatUint(GameSeed(cfg.Seed, i, 2, false), 10) + `,"first":` + string(rune('1'+FirstPlayer(i, 2))) +
			`,"players":["equity","score"],"scores":[300,280],"winner":1,"turns":20}`
	}
	f.Add([]byte(line(0) + "\n" + line(1) + "\n"))
	f.Add([]byte(line(0) + "\n" + line(0) + "\n"))
	f.Add([]byte(line(3) + "\n" + line(4)[:20]))
	f.Add([]byte("\n\n{}\n"))
	f.Add([]byte(line(2) + " " + line(3) + "\n"))
	f.Add([]byte(line(2) + "}\n"))
	f.Add([]byte(strings.Replace(line(5), `"winner":1`, `"winner":2`, 1) + "\n"))
	f.Add([]byte(strings.Replace(line(5), `[300,280]`, `[-300,99999999]`, 1) + "\n"))
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
			if r.Game < 0 || r.Game >= cfg.Games || r.Seed != GameSeed(cfg.Seed, r.Game, len(cfg.Players), cfg.Pairs) || !slices.Equal(r.Players, cfg.Players) {
				t.Fatalf("accepted %+v", r)
			}
			if err := checkResult(&r, len(cfg.Players), cfg.Rules); err != nil || r.Winner < 0 || r.Winner > 2 || r.Scores[0] < -maxRackValue || r.Scores[1] < -maxRackValue {
				t.Fatalf("accepted an impossible result %+v: %v", r, err)
			}
		}
		// Every line kept is one JSON value and nothing else (json.Valid
		// refuses anything after the first value).
		for _, l := range strings.Split(string(data[:good]), "\n") {
			if l = strings.TrimSpace(l); l != "" && !json.Valid([]byte(l)) {
				t.Fatalf("accepted the line %q", l)
			}
		}
	})
}

// FuzzReadResultsField is FuzzReadResults for a three-player tournament
// with paired deals, a target score and the Hasbro tiebreak: a line
// accepted has three of everything, its adjustments, and a winner its
// places give.
func FuzzReadResultsField(f *testing.F) {
	cfg := Config{Players: []string{"equity", "score", "equity"}, Games: 9, Seed: 7, Pairs: true,
		Rules: game.Rules{TargetScore: 100, Tiebreak: rules.TiebreakHasbro}}
	line := func(i int, scores, adj string, winner int, end string) string {
		return `{"game":` + strconv.Itoa(i) + `,"seed":` + strconv.FormatUint(GameSeed(cfg.Seed, i, 3, true), 10) +
			`,"first":` + strconv.Itoa(FirstPlayer(i, 3)+1) + `,"players":["equity","score","equity"],"scores":` + scores +
			`,"winner":` + strconv.Itoa(winner) + `,"bingos":[0,0,0],"exchanges":[0,0,0],"passes":[0,0,0],"turns":9,"end":"` + end +
			`","adjustments":` + adj + `}`
	}
	f.Add([]byte(line(0, "[101,80,90]", "[0,0,0]", 1, "target") + "\n" + line(1, "[90,90,50]", "[3,-2,-1]", 2, "out") + "\n"))
	f.Add([]byte(line(4, "[90,90,50]", "[-1,-1,2]", 0, "out") + "\n"))
	f.Add([]byte(line(2, "[90,90,50]", "[0,0]", 0, "scoreless") + "\n"))
	f.Add([]byte(line(3, "[90,90]", "[0,0,0]", 0, "out") + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := &tournament{cfg: cfg, done: map[int]bool{}}
		_, err := tr.readResults("r.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "r.jsonl") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, r := range tr.results {
			if len(r.Scores) != 3 || len(r.Adjustments) != 3 || len(r.Bingos) != 3 || !slices.Equal(r.Players, cfg.Players) {
				t.Fatalf("accepted %+v", r)
			}
			places := r.Places(cfg.Rules.Tiebreak)
			firsts := 0
			for _, p := range places {
				if p == 1 {
					firsts++
				}
			}
			if r.Winner < 0 || r.Winner > 3 || r.Winner > 0 && (places[r.Winner-1] != 1 || firsts != 1) || r.Winner == 0 && firsts == 1 {
				t.Fatalf("accepted winner %d with places %v: %+v", r.Winner, places, r)
			}
			if r.End == "target" && slices.Max(r.Scores) < cfg.Rules.TargetScore {
				t.Fatalf("accepted a target end below the target: %+v", r)
			}
		}
	})
}
