package selfplay

import (
	"math"
	"slices"

	"scrabble/game"
	"scrabble/rules"
)

// GameResult is one finished game of a tournament: a line of results.jsonl.
// Players are numbered 1 and 2 as in the tournament (the arrays are indexed
// by player: [0] is player 1), whoever moved first.
type GameResult struct {
	Game      int       `json:"game"`  // 0-based game index
	Seed      uint64    `json:"seed"`  // the game's bag seed
	First     int       `json:"first"` // the player who moved first: 1 or 2
	Players   [2]string `json:"players"`
	Scores    [2]int    `json:"scores"`
	Winner    int       `json:"winner"` // 1 or 2; 0 for a draw
	Bingos    [2]int    `json:"bingos"`
	Exchanges [2]int    `json:"exchanges"`
	Passes    [2]int    `json:"passes"`
	Turns     int       `json:"turns"`
	End       string    `json:"end"` // "out" or "scoreless"
}

// two is the first two seats of a record's per-seat array: a tournament
// plays two-player games (issue 28 adds more).
func two[T any](a [rules.MaxPlayers]T) [2]T { return [2]T{a[0], a[1]} }

// Result condenses a game record into its tournament result.
func Result(game int, rec *game.Record) GameResult {
	return GameResult{
		Game:      game,
		Seed:      rec.Seed,
		First:     rec.First + 1,
		Players:   two(rec.Players),
		Scores:    two(rec.Scores),
		Winner:    rec.Winner() + 1,
		Bingos:    two(rec.Bingos),
		Exchanges: two(rec.Exchanges),
		Passes:    two(rec.Passes),
		Turns:     len(rec.Turns),
		End:       rec.End.String(),
	}
}

// PlayerStats are one player's figures over a set of games.
type PlayerStats struct {
	Name       string  `json:"name"`
	Wins       int     `json:"wins"`
	Draws      int     `json:"draws"`
	Losses     int     `json:"losses"`
	MeanScore  float64 `json:"mean_score"`
	ScoreSD    float64 `json:"score_sd"`
	MeanSpread float64 `json:"mean_spread"` // own score minus the opponent's
	SpreadSD   float64 `json:"spread_sd"`
	// Bingos and exchanges per game, this player's alone.
	BingosPerGame    float64 `json:"bingos_per_game"`
	ExchangesPerGame float64 `json:"exchanges_per_game"`
}

// Summary describes a set of games between player 1 and player 2. Standard
// deviations are sample standard deviations (n-1).
type Summary struct {
	Games   int            `json:"games"`
	Players [2]PlayerStats `json:"players"`
	// WinRate is player 1's share of the points, a draw counting half a
	// win; WinRateCI95 its 95% confidence interval by the Wilson score
	// method (CIMethod), treating each game as one trial.
	WinRate     float64    `json:"win_rate"`
	WinRateCI95 [2]float64 `json:"win_rate_ci95"`
	CIMethod    string     `json:"ci_method"`
	// Per game, both players together.
	BingosPerGame    float64 `json:"bingos_per_game"`
	ExchangesPerGame float64 `json:"exchanges_per_game"`
	PassesPerGame    float64 `json:"passes_per_game"`
	TurnsPerGame     float64 `json:"turns_per_game"`
	// FirstWinRate is the first mover's share of the points.
	FirstWinRate float64 `json:"first_mover_win_rate"`

	// Filled in by Run: the games asked for, those played by this
	// run (the others were resumed from a results file), and how fast.
	Planned        int     `json:"planned"`
	Played         int     `json:"played"`
	Seconds        float64 `json:"seconds"`
	GamesPerSecond float64 `json:"games_per_second"`
}

// z95 is the two-sided 95% standard normal quantile.
const z95 = 1.959963984540054

// Summarize computes the statistics of a set of results, in game order
// whatever the order of rs (rs is not modified), so the figures do not
// depend on which games finished first. Player names come from the first
// game.
func Summarize(rs []GameResult) Summary {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b GameResult) int { return a.Game - b.Game })
	s := Summary{Games: len(rs), CIMethod: "wilson", WinRateCI95: [2]float64{0, 1}}
	if len(rs) == 0 {
		return s
	}
	n := float64(len(rs))
	var (
		scores, spreads [2][]float64
		bingos, exch    [2]int
		passes, turns   int
		firstPoints     float64
	)
	for p := range 2 {
		s.Players[p].Name = rs[0].Players[p]
		scores[p] = make([]float64, 0, len(rs))
		spreads[p] = make([]float64, 0, len(rs))
	}
	for _, r := range rs {
		for p := range 2 {
			switch r.Winner {
			case 0:
				s.Players[p].Draws++
			case p + 1:
				s.Players[p].Wins++
			default:
				s.Players[p].Losses++
			}
			scores[p] = append(scores[p], float64(r.Scores[p]))
			spreads[p] = append(spreads[p], float64(r.Scores[p]-r.Scores[1-p]))
			bingos[p] += r.Bingos[p]
			exch[p] += r.Exchanges[p]
			passes += r.Passes[p]
		}
		turns += r.Turns
		switch r.Winner {
		case 0:
			firstPoints += 0.5
		case r.First:
			firstPoints++
		}
	}
	for p := range 2 {
		ps := &s.Players[p]
		ps.MeanScore, ps.ScoreSD = meanSD(scores[p])
		ps.MeanSpread, ps.SpreadSD = meanSD(spreads[p])
		ps.BingosPerGame = float64(bingos[p]) / n
		ps.ExchangesPerGame = float64(exch[p]) / n
	}
	p1 := s.Players[0]
	s.WinRate = (float64(p1.Wins) + float64(0.5*float64(p1.Draws))) / n
	s.WinRateCI95 = wilson(s.WinRate, n, z95)
	s.BingosPerGame = float64(bingos[0]+bingos[1]) / n
	s.ExchangesPerGame = float64(exch[0]+exch[1]) / n
	s.PassesPerGame = float64(passes) / n
	s.TurnsPerGame = float64(turns) / n
	s.FirstWinRate = firstPoints / n
	return s
}

// meanSD returns the mean and the sample standard deviation (0 for fewer
// than two values), summing in order for reproducible results.
func meanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		// The conversion keeps the compiler from fusing the multiply and
		// the add (an FMA where the build targets x86-64-v3): the same
		// summary, bit for bit, from every build.
		d := x - mean
		ss += float64(d * d)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// wilson is the Wilson score interval for a proportion p observed over n
// trials.
func wilson(p, n, z float64) [2]float64 {
	z2 := z * z
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := z / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return [2]float64{max(0, centre-half), min(1, centre+half)}
}
