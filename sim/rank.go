package sim

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Rank is the statistic that ranks the candidates, and that the pruning
// and stopping rule test.
type Rank int

const (
	// RankWin ranks by the chance of winning; candidates whose chances
	// differ by less than the noise (one standard error of their paired
	// difference) are ordered by simulated equity, as a player would
	// (Macondo's order). Without Options.WinPct it falls back to RankEquity
	// (Result.Rank says which ranked).
	RankWin Rank = iota
	// RankEquity ranks by simulated equity.
	RankEquity
)

func (k Rank) String() string {
	switch k {
	case RankWin:
		return "win"
	case RankEquity:
		return "equity"
	}
	return fmt.Sprintf("Rank(%d)", int(k))
}

// ParseRank reads "win" or "equity".
func ParseRank(s string) (Rank, error) {
	for _, k := range []Rank{RankWin, RankEquity} {
		if strings.EqualFold(s, k.String()) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("rank %q: want win or equity", s)
}

// Sampling says which candidates an iteration plays.
type Sampling int

const (
	// SamplingDefault is DefaultSampling.
	SamplingDefault Sampling = iota
	// SamplingPaired plays every candidate still in the race in every
	// iteration (after the first 16 iterations, the stopping rule prunes).
	SamplingPaired
	// SamplingTopTwo plays every candidate the first 16 iterations, then
	// each round only the leader and its closest challenger (the live
	// candidate least far behind it by the paired test's z score), 8
	// iterations further: the iterations go to the contenders.
	SamplingTopTwo
)

// DefaultSampling is the sampling Options.Sampling's zero value means: the
// one that found the true best move more often at equal time (see
// docs/simulation.md).
const DefaultSampling = SamplingTopTwo

func (s Sampling) String() string {
	switch s {
	case SamplingDefault:
		return DefaultSampling.String()
	case SamplingPaired:
		return "paired"
	case SamplingTopTwo:
		return "toptwo"
	}
	return fmt.Sprintf("Sampling(%d)", int(s))
}

// ParseSampling reads "paired" or "toptwo".
func ParseSampling(s string) (Sampling, error) {
	for _, k := range []Sampling{SamplingPaired, SamplingTopTwo} {
		if strings.EqualFold(s, k.String()) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("sampling %q: want paired or toptwo", s)
}

// topTwoBlock is how many iterations a top-two round adds to the
// challenger (and, as far as needed to pair them, the leader).
const topTwoBlock = 8

// rolled is one rollout's result: value in millipoints, win chance in
// millionths (both fit 32 bits).
type rolled struct{ v, w int32 }

// pairSums sums, for each pair of candidates x < y over the iterations
// both played, the difference x - y of their values and its square, for
// both statistics. The sums are integers added in a fixed order (by
// candidate, then iteration), so any thread count gives the same ones.
type pairSums struct {
	k                 int
	n, d, dd, wd, wdd []int64 // index x*k+y
}

func newPairSums(k int) *pairSums {
	return &pairSums{k: k, n: make([]int64, k*k), d: make([]int64, k*k), dd: make([]int64, k*k),
		wd: make([]int64, k*k), wdd: make([]int64, k*k)}
}

func (p *pairSums) add(x, y int, a, b rolled) {
	if x > y {
		x, y, a, b = y, x, b, a
	}
	i := x*p.k + y
	d, wd := int64(a.v)-int64(b.v), int64(a.w)-int64(b.w)
	p.n[i]++
	p.d[i] += d
	p.dd[i] += d * d
	p.wd[i] += wd
	p.wdd[i] += wd * wd / winSqScale
}

// diff is the mean and standard error of a - b, under rank k, over the
// iterations both played, in the sums' units (millipoints or millionths),
// and how many iterations that is.
func (p *pairSums) diff(a, b int, k Rank) (mean, se float64, n int64) {
	x, y, sign := a, b, 1.0
	if x > y {
		x, y, sign = y, x, -1
	}
	i := x*p.k + y
	n = p.n[i]
	if n == 0 {
		return 0, 0, 0
	}
	s, ss := float64(p.d[i]), float64(p.dd[i])
	if k == RankWin {
		s, ss = float64(p.wd[i]), float64(p.wdd[i])*winSqScale
	}
	return sign * s / float64(n), stdErr(float64(n), s, ss), n
}

// better compares candidates i and j by rank k's statistic over their own
// iterations, exactly (the integer sums): -1 when i is ahead, 1 when j
// is, 0 when equal.
func (a *simAcc) better(i, j int, k Rank) int {
	si, sj := a.sum[i], a.sum[j]
	if k == RankWin {
		si, sj = a.win[i], a.win[j]
	}
	// Exact comparison of the means from the integer sums.
	l, r := si*max(a.n[j], 1), sj*max(a.n[i], 1)
	switch {
	case l > r:
		return -1
	case l < r:
		return 1
	}
	return 0
}

// meanOf is candidate c's mean under rank k, in the sums' units.
func (a *simAcc) meanOf(c int, k Rank) float64 {
	if a.n[c] == 0 {
		return 0
	}
	s := a.sum[c]
	if k == RankWin {
		s = a.win[c]
	}
	return float64(s) / float64(a.n[c])
}

// order sorts cs, best first, under rank k. By equity: by simulated equity,
// ties by index (the static order). By win: by the chance of winning, then
// each run of candidates whose chance is within the noise of the run's
// first (the best left) is ordered by simulated equity. The noise is one
// standard error of the paired difference (of the independent means when
// the two shared fewer than 2 iterations).
func (a *simAcc) order(cs []int, k Rank) {
	byEq := func(i, j int) int {
		if c := a.better(i, j, RankEquity); c != 0 {
			return c
		}
		return i - j
	}
	if k == RankEquity {
		slices.SortStableFunc(cs, byEq)
		return
	}
	slices.SortStableFunc(cs, func(i, j int) int {
		if c := a.better(i, j, RankWin); c != 0 {
			return c
		}
		return byEq(i, j)
	})
	for i := 0; i < len(cs); {
		head, j := cs[i], i+1
		for j < len(cs) && a.tied(head, cs[j]) {
			j++
		}
		slices.SortStableFunc(cs[i:j], byEq)
		i = j
	}
}

// tied reports whether c's chance of winning is within the noise of
// head's (which is not below it).
func (a *simAcc) tied(head, c int) bool {
	gap := a.meanOf(head, RankWin) - a.meanOf(c, RankWin)
	_, se, n := a.pairs.diff(head, c, RankWin)
	if n < 2 {
		se = math.Hypot(a.winErr(head), a.winErr(c))
	}
	return gap <= se
}

// winErr is the standard error of c's chance of winning, in millionths.
func (a *simAcc) winErr(c int) float64 {
	return stdErr(float64(a.n[c]), float64(a.win[c]), float64(a.winSq[c])*winSqScale)
}
