package selfplay

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"scrabble/rules"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

func TestSummarize(t *testing.T) {
	// Player 1 wins 6 and draws 2 of 10: 7 points of 10.
	var rs []GameResult
	for i := range 10 {
		r := GameResult{Game: i, First: i%2 + 1, Players: []string{"equity", "score"}, Turns: 20, End: "out",
			Bingos: []int{1, i % 2}, Exchanges: []int{i % 3 / 2, 0}, Passes: []int{0, 0}}
		switch {
		case i < 6:
			r.Scores, r.Winner = []int{400 + 10*i, 350}, 1
		case i < 8:
			r.Scores, r.Winner = []int{380, 380}, 0
		default:
			r.Scores, r.Winner = []int{300, 420}, 2
		}
		rs = append(rs, r)
	}
	s := Summarize(rs, rules.TiebreakNASPA)
	p1, p2 := s.Players[0], s.Players[1]
	if s.Games != 10 || p1.Name != "equity" || p2.Name != "score" ||
		p1.Wins != 6 || p1.Draws != 2 || p1.Losses != 2 || p2.Wins != 2 || p2.Draws != 2 || p2.Losses != 6 {
		t.Fatalf("counts: %+v", s)
	}
	if !near(s.WinRate, 0.7) || s.CIMethod != "wilson" || !near(s.WinRateCI95[0], 0.396768) || !near(s.WinRateCI95[1], 0.892209) {
		t.Errorf("win rate %v, CI %v", s.WinRate, s.WinRateCI95)
	}
	// Scores 400..450, 380, 380, 300, 300: mean 391.
	if !near(p1.MeanScore, 391) || !near(p2.MeanScore, 370) || !near(p1.MeanSpread, 21) || !near(p2.MeanSpread, -21) {
		t.Errorf("means: %+v %+v", p1, p2)
	}
	if !near(p1.SpreadSD, p2.SpreadSD) || !near(p2.ScoreSD, math.Sqrt((6*20*20+2*10*10+2*50*50)/9.0)) {
		t.Errorf("sds: %+v %+v", p1, p2)
	}
	if !near(s.BingosPerGame, 1.5) || !near(p1.BingosPerGame, 1) || !near(p2.BingosPerGame, 0.5) ||
		!near(s.ExchangesPerGame, 0.3) || !near(s.TurnsPerGame, 20) {
		t.Errorf("per game: %+v", s)
	}
	// First movers (player 1 in even games) won games 0, 2, 4, drew 6 and
	// lost 8; player 2 moving first lost 1, 3, 5, drew 7 and won 9.
	if !near(s.FirstWinRate, (3+0.5+0+1+0.5)/10) {
		t.Errorf("first mover win rate %v", s.FirstWinRate)
	}

	// The order of the results does not matter.
	shuffled := append([]GameResult(nil), rs...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if got := Summarize(shuffled, rules.TiebreakNASPA); !reflect.DeepEqual(got, s) {
		t.Errorf("shuffled results: %+v\nwant %+v", got, s)
	}

	if z := Summarize(nil, rules.TiebreakNASPA); z.Games != 0 || z.WinRateCI95 != [2]float64{0, 1} {
		t.Errorf("no games: %+v", z)
	}
}
