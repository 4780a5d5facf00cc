package selfplay

import (
	"math"
	"slices"

	"scrabble/game"
	"scrabble/rules"
)

// GameResult is one finished game of a tournament: a line of results.jsonl.
// Players are numbered 1 to N as in the tournament, whoever moved first:
// each per-player slice holds N entries, [0] for player 1 (for two players
// the line is the one earlier versions wrote, so their files resume).
type GameResult struct {
	Game    int      `json:"game"`  // 0-based game index
	Seed    uint64   `json:"seed"`  // the game's bag seed
	First   int      `json:"first"` // the player who moved first: 1 to N
	Players []string `json:"players"`
	Scores  []int    `json:"scores"` // final scores, end-of-game adjustments included
	// Winner is the player placed first alone (1 to N), 0 when first
	// place is shared (a draw).
	Winner    int    `json:"winner"`
	Bingos    []int  `json:"bingos"`
	Exchanges []int  `json:"exchanges"`
	Passes    []int  `json:"passes"`
	Turns     int    `json:"turns"`
	End       string `json:"end"` // "out", "scoreless" or "target"
	// Adjustments are the end-of-game adjustments, recorded only under the
	// Hasbro tiebreak, where they can decide the places (the score before
	// them breaks a tie).
	Adjustments []int `json:"adjustments,omitempty"`
}

// Result condenses a game record into its tournament result. The record's
// seats are the tournament's players (a tournament seats player k in seat
// k and rotates the first mover; see Seating).
func Result(game int, rec *game.Record) GameResult {
	return result(game, rec, slices.Clone(rec.Players[:rec.Seats]))
}

// result is Result with the player names given: a tournament's own, shared
// by every result it keeps.
func result(game int, rec *game.Record, players []string) GameResult {
	n := rec.Seats
	// One block for the counts: a tournament keeps every result.
	ints := make([]int, 4*n)
	per := func(k int, a [rules.MaxPlayers]int) []int {
		s := ints[k*n : (k+1)*n : (k+1)*n]
		copy(s, a[:n])
		return s
	}
	r := GameResult{
		Game:      game,
		Seed:      rec.Seed,
		First:     rec.First + 1,
		Players:   players,
		Scores:    per(0, rec.Scores),
		Winner:    rec.Winner() + 1,
		Bingos:    per(1, rec.Bingos),
		Exchanges: per(2, rec.Exchanges),
		Passes:    per(3, rec.Passes),
		Turns:     len(rec.Turns),
		End:       rec.End.String(),
	}
	if rec.Rules.Tiebreak == rules.TiebreakHasbro {
		r.Adjustments = slices.Clone(rec.Adjustments[:n])
	}
	return r
}

// Places ranks the game's players (1 the winner, as rules.Places: players
// the tiebreak cannot separate share a place). Under the Hasbro tiebreak
// the result must hold its adjustments.
func (r *GameResult) Places(tb rules.Tiebreak) []int {
	before := slices.Clone(r.Scores)
	for i := range before {
		if i < len(r.Adjustments) {
			before[i] -= r.Adjustments[i]
		}
	}
	return rules.Places(r.Scores, before, tb)
}

// PlayerStats are one player's figures over a set of games. Intervals are
// 95% intervals: the win share's by the Wilson score method, the means'
// the normal approximation (mean ± 1.96 standard errors), each game one
// independent observation.
type PlayerStats struct {
	Name string `json:"name"`
	// Wins are games placed first alone, Draws games with first place
	// shared, Losses the others.
	Wins       int     `json:"wins"`
	Draws      int     `json:"draws"`
	Losses     int     `json:"losses"`
	MeanScore  float64 `json:"mean_score"`
	ScoreSD    float64 `json:"score_sd"`
	MeanSpread float64 `json:"mean_spread"` // own score minus the mean of the others' (the opponent's, for two)
	SpreadSD   float64 `json:"spread_sd"`
	// Bingos and exchanges per game, this player's alone.
	BingosPerGame    float64 `json:"bingos_per_game"`
	ExchangesPerGame float64 `json:"exchanges_per_game"`

	// WinShare is the player's share of the wins: a win counts 1, a first
	// place shared by k players 1/k (a draw of two counts half).
	WinShare     float64    `json:"win_share"`
	WinShareCI95 [2]float64 `json:"win_share_ci95"`
	ScoreCI95    [2]float64 `json:"score_ci95"`
	SpreadCI95   [2]float64 `json:"spread_ci95"`
	// MeanPlace is the mean finishing place (1 to N, the tiebreak applied;
	// players sharing a place both take the higher, as 1, 1, 3).
	MeanPlace float64    `json:"mean_place"`
	PlaceSD   float64    `json:"place_sd"`
	PlaceCI95 [2]float64 `json:"place_ci95"`
}

// SeatStats are the figures of a place in the order of play, whoever sat
// there: seat 1 moves first.
type SeatStats struct {
	WinShare     float64    `json:"win_share"` // as PlayerStats.WinShare
	WinShareCI95 [2]float64 `json:"win_share_ci95"`
	MeanScore    float64    `json:"mean_score"`
	ScoreCI95    [2]float64 `json:"score_ci95"`
	MeanPlace    float64    `json:"mean_place"`
}

// Summary describes a set of games between the same 2 to 4 players.
// Standard deviations are sample standard deviations (n-1).
type Summary struct {
	Games   int           `json:"games"`
	Players []PlayerStats `json:"players"` // by player: [0] is player 1
	// WinRate is player 1's share of the wins (PlayerStats.WinShare: for
	// two players a draw counts half), WinRateCI95 its 95% confidence
	// interval by the Wilson score method (CIMethod), treating each game
	// as one trial.
	WinRate     float64    `json:"win_rate"`
	WinRateCI95 [2]float64 `json:"win_rate_ci95"`
	CIMethod    string     `json:"ci_method"`
	// Per game, all players together.
	BingosPerGame    float64 `json:"bingos_per_game"`
	ExchangesPerGame float64 `json:"exchanges_per_game"`
	PassesPerGame    float64 `json:"passes_per_game"`
	TurnsPerGame     float64 `json:"turns_per_game"`
	// FirstWinRate is the first mover's share of the wins (Seats[0]).
	FirstWinRate float64 `json:"first_mover_win_rate"`
	// Seats are the figures by place in the order of play: [0] the first
	// mover's.
	Seats []SeatStats `json:"seats"`

	// Filled in by Run: the games asked for, those played by this
	// run (the others were resumed from a results file), and how fast.
	Planned        int     `json:"planned"`
	Played         int     `json:"played"`
	Seconds        float64 `json:"seconds"`
	GamesPerSecond float64 `json:"games_per_second"`
}

// z95 is the two-sided 95% standard normal quantile.
const z95 = 1.959963984540054

// Summarize computes the statistics of a set of results of the same
// players, in game order whatever the order of rs (rs is not modified), so
// the figures do not depend on which games finished first. Places are
// ranked with the tiebreak tb. Player names come from the first game.
func Summarize(rs []GameResult, tb rules.Tiebreak) Summary {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b GameResult) int { return a.Game - b.Game })
	s := Summary{Games: len(rs), CIMethod: "wilson", WinRateCI95: [2]float64{0, 1}}
	if len(rs) == 0 {
		return s
	}
	np := len(rs[0].Players)
	n := float64(len(rs))
	type series struct{ scores, spreads, places, shares []float64 }
	newSeries := func() series {
		return series{make([]float64, 0, len(rs)), make([]float64, 0, len(rs)), make([]float64, 0, len(rs)), make([]float64, 0, len(rs))}
	}
	var (
		byPlayer, bySeat = make([]series, np), make([]series, np)
		bingos, exch     = make([]int, np), make([]int, np)
		passes, turns    int
	)
	s.Players = make([]PlayerStats, np)
	for p := range np {
		s.Players[p].Name = rs[0].Players[p]
		byPlayer[p], bySeat[p] = newSeries(), newSeries()
	}
	for i := range rs {
		r := &rs[i]
		places := r.Places(tb)
		firsts := 0
		total := 0
		for p := range np {
			total += r.Scores[p]
			if places[p] == 1 {
				firsts++
			}
		}
		for p := range np {
			ps := &s.Players[p]
			share := 0.0
			switch {
			case places[p] > 1:
				ps.Losses++
			case firsts == 1:
				ps.Wins++
				share = 1
			default:
				ps.Draws++
				share = 1 / float64(firsts)
			}
			score := float64(r.Scores[p])
			// The others' mean: divided once, so two players' spread is
			// the exact difference.
			spread := score - float64(total-r.Scores[p])/float64(np-1)
			seat := (p - (r.First - 1) + np) % np
			for _, x := range []*series{&byPlayer[p], &bySeat[seat]} {
				x.scores = append(x.scores, score)
				x.spreads = append(x.spreads, spread)
				x.places = append(x.places, float64(places[p]))
				x.shares = append(x.shares, share)
			}
			bingos[p] += r.Bingos[p]
			exch[p] += r.Exchanges[p]
			passes += r.Passes[p]
		}
		turns += r.Turns
	}
	var allBingos, allExch int
	for p := range np {
		ps, x := &s.Players[p], &byPlayer[p]
		ps.MeanScore, ps.ScoreSD = meanSD(x.scores)
		ps.ScoreCI95 = normalCI(ps.MeanScore, ps.ScoreSD, n)
		ps.MeanSpread, ps.SpreadSD = meanSD(x.spreads)
		ps.SpreadCI95 = normalCI(ps.MeanSpread, ps.SpreadSD, n)
		ps.MeanPlace, ps.PlaceSD = meanSD(x.places)
		ps.PlaceCI95 = normalCI(ps.MeanPlace, ps.PlaceSD, n)
		ps.WinShare = sum(x.shares) / n
		ps.WinShareCI95 = wilson(ps.WinShare, n, z95)
		ps.BingosPerGame = float64(bingos[p]) / n
		ps.ExchangesPerGame = float64(exch[p]) / n
		allBingos += bingos[p]
		allExch += exch[p]
	}
	s.Seats = make([]SeatStats, np)
	for seat := range np {
		ss, x := &s.Seats[seat], &bySeat[seat]
		ss.WinShare = sum(x.shares) / n
		ss.WinShareCI95 = wilson(ss.WinShare, n, z95)
		var sd float64
		ss.MeanScore, sd = meanSD(x.scores)
		ss.ScoreCI95 = normalCI(ss.MeanScore, sd, n)
		ss.MeanPlace, _ = meanSD(x.places)
	}
	s.WinRate = s.Players[0].WinShare
	s.WinRateCI95 = s.Players[0].WinShareCI95
	s.BingosPerGame = float64(allBingos) / n
	s.ExchangesPerGame = float64(allExch) / n
	s.PassesPerGame = float64(passes) / n
	s.TurnsPerGame = float64(turns) / n
	s.FirstWinRate = s.Seats[0].WinShare
	return s
}

// sum adds in order, for reproducible results.
func sum(xs []float64) float64 {
	var t float64
	for _, x := range xs {
		t += x
	}
	return t
}

// meanSD returns the mean and the sample standard deviation (0 for fewer
// than two values), summing in order for reproducible results.
func meanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	mean = sum(xs) / float64(len(xs))
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

// normalCI is the 95% interval of a mean of n observations with sample
// standard deviation sd, by the normal approximation.
func normalCI(mean, sd, n float64) [2]float64 {
	half := float64(z95 * sd / math.Sqrt(n))
	return [2]float64{mean - half, mean + half}
}

// wilson is the Wilson score interval for a proportion p observed over n
// trials.
func wilson(p, n, z float64) [2]float64 {
	z2 := z * z
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	// The conversion keeps centre±half from being fused into one
	// multiply-add where the build targets x86-64-v3 (see meanSD).
	half := float64(z / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n)))
	return [2]float64{max(0, centre-half), min(1, centre+half)}
}
