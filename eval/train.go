package eval

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"scrabble/internal/readlimit"
	"scrabble/rules"
)

// LeaveStats gathers, from self-play, what holding each leave was worth:
// what the turns played from racks holding leave L were worth
// (ObserveSubsets), or, after a turn that kept L, what the player's next
// turn was worth (Observe): the score, and with bootstrapping also the value
// of the tiles that turn kept. A leave's value is how far its mean lies
// above the mean over all turns. Sums are in millipoints.
type LeaveStats struct {
	sum   []int64 // millipoints the turns were worth, by leave index
	count []int64
	// All observed turns, for the overall mean.
	totalSum, totalCount int64
}

// NewLeaveStats returns empty statistics.
func NewLeaveStats() *LeaveStats {
	return &LeaveStats{sum: make([]int64, numLeaves), count: make([]int64, numLeaves)}
}

// Observe records that a player kept leave and then scored nextScore
// points on their next turn. The empty leave (a play of every tile) counts
// only towards the overall mean.
func (s *LeaveStats) Observe(leave *rules.Rack, nextScore int) {
	s.ObserveValue(leave, int64(rules.FromPoints(nextScore)))
}

// ObserveValue is Observe with the next turn's worth in millipoints.
func (s *LeaveStats) ObserveValue(leave *rules.Rack, millipoints int64) {
	s.totalSum += millipoints
	s.totalCount++
	if i, ok := leaveIndex(leave); ok {
		s.sum[i] += millipoints
		s.count[i]++
	}
}

// ObserveSubsets records one turn played from rack, worth millipoints (the
// equity of the move made): every distinct leave of 1 to MaxLeave tiles the
// rack holds gets the observation, so a leave's mean is what a rack holding
// it was worth. A rack of seven tiles gives 126 or fewer; the turn counts
// once towards the overall mean.
func (s *LeaveStats) ObserveSubsets(rack *rules.Rack, millipoints int64) {
	s.totalSum += millipoints
	s.totalCount++
	var sub rules.Rack
	s.observeSubsets(rack, &sub, 0, 0, millipoints)
}

func (s *LeaveStats) observeSubsets(rack, sub *rules.Rack, l, k int, millipoints int64) {
	for l < rules.RackSlots && rack[l] == 0 {
		l++
	}
	if l == rules.RackSlots {
		if k > 0 && k <= MaxLeave {
			if i, ok := leaveIndex(sub); ok {
				s.sum[i] += millipoints
				s.count[i]++
			}
		}
		return
	}
	for c := uint8(0); c <= rack[l]; c++ {
		sub[l] = c
		s.observeSubsets(rack, sub, l+1, k+int(c), millipoints)
	}
	sub[l] = 0
}

// MeanWorth is the mean worth of all observed turns, in points.
func (s *LeaveStats) MeanWorth() float64 {
	if s.totalCount == 0 {
		return 0
	}
	return rules.MilliToPoints(float64(s.totalSum) / float64(s.totalCount))
}

// Observations is the number of turns observed.
func (s *LeaveStats) Observations() int64 { return s.totalCount }

// Count is how often leave was observed.
func (s *LeaveStats) Count(leave *rules.Rack) int64 {
	if i, ok := leaveIndex(leave); ok {
		return s.count[i]
	}
	return 0
}

// Merge adds o's observations to s.
func (s *LeaveStats) Merge(o *LeaveStats) {
	for i := range s.sum {
		s.sum[i] += o.sum[i]
		s.count[i] += o.count[i]
	}
	s.totalSum += o.totalSum
	s.totalCount += o.totalCount
}

// Table turns the statistics into leave values. A leave seen n times gets
// its observed excess shrunk towards an estimate, with weight n against
// prior: leaves seen often keep what was measured, rare ones lean on the
// estimate.
//
// The estimate is a model with one value per tile and one correction per
// pair of tiles (duplicates, vowel pairs, Q with U...): a leave is worth its
// tiles' values plus its pairs' corrections. The model is fitted by least
// squares to every observation of every leave, so a tile that is seldom
// kept alone (a blank is usually played or kept with others) is still
// measured through the leaves that hold it.
func (s *LeaveStats) Table(prior int) *LeaveTable {
	t := NewLeaveTable()
	if s.totalCount == 0 {
		return t
	}
	mean := rules.MilliToPoints(float64(s.totalSum) / float64(s.totalCount))
	beta := s.fitPairModel(mean)
	for i := 0; i < numLeaves; i++ {
		r := leaveAt(i)
		est := 0.0
		forEachFeature(&r, func(f int, x float64) { est += x * beta[f] })
		if n := float64(s.count[i]); n > 0 {
			observed := rules.MilliToPoints(float64(s.sum[i])/n) - mean
			est = (n*observed + float64(prior)*est) / (n + float64(prior))
		}
		t.vals[i] = clampPoints(est)
	}
	return t
}

// clampPoints rounds points to an Equity, clamped to its range (NaN is 0):
// statistics near the limits must not wrap round.
func clampPoints(p float64) rules.Equity {
	switch {
	case p != p:
		return 0
	case p > rules.MaxPoints:
		return rules.RoundPoints(rules.MaxPoints)
	case p < -rules.MaxPoints:
		return rules.RoundPoints(-rules.MaxPoints)
	}
	return rules.RoundPoints(p)
}

// The pair model's features: one per tile (how many of it the leave holds)
// and one per unordered pair of tiles (how many such pairs it holds).
const (
	numSingles  = rules.RackSlots
	numFeatures = numSingles + rules.RackSlots*(rules.RackSlots+1)/2
)

func pairFeature(a, b int) int { // a <= b
	return numSingles + b*(b+1)/2 + a
}

func forEachFeature(r *rules.Rack, fn func(f int, x float64)) {
	for a := 0; a < rules.RackSlots; a++ {
		if r[a] == 0 {
			continue
		}
		na := float64(r[a])
		fn(a, na)
		if r[a] > 1 {
			fn(pairFeature(a, a), na*(na-1)/2)
		}
		for b := a + 1; b < rules.RackSlots; b++ {
			if r[b] > 0 {
				fn(pairFeature(a, b), na*float64(r[b]))
			}
		}
	}
}

// fitPairModel solves the ridge-regularized least-squares problem for the
// pair model over all observations (each leave's observations enter as
// their count and mean).
func (s *LeaveStats) fitPairModel(mean float64) []float64 {
	const ridge = 1.0 // keeps features never observed at 0
	a := make([]float64, numFeatures*numFeatures)
	b := make([]float64, numFeatures)
	var fs [32]int
	var xs [32]float64
	for i := 0; i < numLeaves; i++ {
		n := float64(s.count[i])
		if n == 0 {
			continue
		}
		y := rules.MilliToPoints(float64(s.sum[i])/n) - mean
		r := leaveAt(i)
		k := 0
		forEachFeature(&r, func(f int, x float64) { fs[k], xs[k] = f, x; k++ })
		for p := 0; p < k; p++ {
			b[fs[p]] += n * xs[p] * y
			for q := 0; q < k; q++ {
				a[fs[p]*numFeatures+fs[q]] += n * xs[p] * xs[q]
			}
		}
	}
	for f := 0; f < numFeatures; f++ {
		a[f*numFeatures+f] += ridge
	}
	return solveSPD(a, b, numFeatures)
}

// solveSPD solves a x = b for a symmetric positive definite n x n matrix
// (row-major) by Cholesky decomposition, in place.
func solveSPD(a, b []float64, n int) []float64 {
	for j := 0; j < n; j++ {
		d := a[j*n+j]
		for k := 0; k < j; k++ {
			d -= a[j*n+k] * a[j*n+k]
		}
		d = math.Sqrt(d)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			v := a[i*n+j]
			for k := 0; k < j; k++ {
				v -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = v / d
		}
	}
	x := make([]float64, n)
	for i := 0; i < n; i++ { // L y = b
		v := b[i]
		for k := 0; k < i; k++ {
			v -= a[i*n+k] * x[k]
		}
		x[i] = v / a[i*n+i]
	}
	for i := n - 1; i >= 0; i-- { // L^T x = y
		v := x[i]
		for k := i + 1; k < n; k++ {
			v -= a[k*n+i] * x[k]
		}
		x[i] = v / a[i*n+i]
	}
	return x
}

// Statistics file layout (little endian): magic "SCRLSTAT", version,
// entries n, total sum, total count, n sums, n counts (int64), CRC-32C.
const (
	statsMagic   = "SCRLSTAT"
	statsVersion = 2 // 2: sums in millipoints
)

// WriteTo writes the statistics in binary form, for checkpoints.
func (s *LeaveStats) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	b.WriteString(statsMagic)
	binary.Write(&b, binary.LittleEndian, uint32(statsVersion))
	binary.Write(&b, binary.LittleEndian, uint32(numLeaves))
	binary.Write(&b, binary.LittleEndian, s.totalSum)
	binary.Write(&b, binary.LittleEndian, s.totalCount)
	binary.Write(&b, binary.LittleEndian, s.sum)
	binary.Write(&b, binary.LittleEndian, s.count)
	binary.Write(&b, binary.LittleEndian, crc32.Checksum(b.Bytes(), castagnoli))
	return b.WriteTo(w)
}

// Save writes the statistics to path atomically.
func (s *LeaveStats) Save(path string) error { return saveAtomic(path, "leave statistics", s) }

// LoadLeaveStats reads statistics written by Save.
func LoadLeaveStats(path string) (*LeaveStats, error) {
	data, err := readlimit.ReadFile(path, readlimit.Stats, "a training checkpoint")
	if err != nil {
		return nil, fmt.Errorf("loading leave statistics: %w", err)
	}
	s, err := DecodeLeaveStats(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// DecodeLeaveStats reads statistics in the form Save writes, and checks
// they could have been observed: counts not negative, no leave seen more
// often than there were turns, no sum beyond what its count of turns can
// be worth. A file that fails is refused even with a valid checksum.
func DecodeLeaveStats(data []byte) (*LeaveStats, error) {
	want := len(statsMagic) + 4 + 4 + 8 + 8 + 16*numLeaves + 4
	switch {
	case len(data) < len(statsMagic) || string(data[:len(statsMagic)]) != statsMagic:
		return nil, errors.New("not a leave statistics file")
	case len(data) != want:
		return nil, fmt.Errorf("%d bytes, want %d (truncated, or for another tile set)", len(data), want)
	case binary.LittleEndian.Uint32(data[want-4:]) != crc32.Checksum(data[:want-4], castagnoli):
		return nil, errors.New("checksum mismatch (file damaged)")
	}
	r := bytes.NewReader(data[len(statsMagic):])
	var version, n uint32
	binary.Read(r, binary.LittleEndian, &version)
	binary.Read(r, binary.LittleEndian, &n)
	if version != statsVersion || int(n) != numLeaves {
		return nil, fmt.Errorf("version %d with %d entries; this program writes version %d with %d", version, n, statsVersion, numLeaves)
	}
	s := NewLeaveStats()
	binary.Read(r, binary.LittleEndian, &s.totalSum)
	binary.Read(r, binary.LittleEndian, &s.totalCount)
	binary.Read(r, binary.LittleEndian, s.sum)
	binary.Read(r, binary.LittleEndian, s.count)
	if err := checkSum(s.totalSum, s.totalCount); err != nil {
		return nil, fmt.Errorf("leave statistics: all turns: %w", err)
	}
	for i := range s.count {
		if err := checkSum(s.sum[i], s.count[i]); err != nil {
			return nil, fmt.Errorf("leave statistics: leave %s: %w", leaveAt(i).String(), err)
		}
		if s.count[i] > s.totalCount {
			return nil, fmt.Errorf("leave statistics: leave %s seen %d times in %d turns", leaveAt(i).String(), s.count[i], s.totalCount)
		}
	}
	return s, nil
}

// checkSum checks a count of turns and the millipoints they were worth:
// the count not negative, each turn worth what an Equity holds.
func checkSum(sum, count int64) error {
	const most = math.MaxInt32 // millipoints a turn may be worth, either way
	switch {
	case count < 0:
		return fmt.Errorf("%d turns", count)
	case sum/most > count || -(sum/most) > count:
		return fmt.Errorf("%d millipoints from %d turns", sum, count)
	}
	return nil
}
