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
)

// WinStats counts, from self-play, how often the player to move went on to
// win from each spread and number of unseen tiles: the evidence a WinPct
// table is smoothed from. Counts are integers, so statistics gathered by
// several workers add up to the same totals in any order.
type WinStats struct {
	games int64
	// n and half count, by unseen count u (0..MaxUnseen) and spread s
	// (-WinStatsSpread..WinStatsSpread, clamped), the turns observed and
	// the mover's half-wins (2 a win, 1 a draw).
	n, half []int64
}

// WinStatsSpread is the largest spread counted on its own; larger spreads
// are counted with it (the mover has long since won or lost).
const WinStatsSpread = 600

const winStatsCols = 2*WinStatsSpread + 1

// maxWinCount is the most turns, or games, a win statistics file may count.
const maxWinCount = 1 << 60

// NewWinStats returns empty statistics.
func NewWinStats() *WinStats {
	size := (MaxUnseen + 1) * winStatsCols
	return &WinStats{n: make([]int64, size), half: make([]int64, size)}
}

func winStatsIndex(spread, unseen int) int {
	s := min(max(spread, -WinStatsSpread), WinStatsSpread)
	u := min(max(unseen, 0), MaxUnseen)
	return u*winStatsCols + s + WinStatsSpread
}

// Observe records a turn: the mover led by spread (negative: trailed) with
// unseen tiles they could not see, and went on to win (halfWins 2), draw
// (1) or lose (0).
func (s *WinStats) Observe(spread, unseen, halfWins int) {
	i := winStatsIndex(spread, unseen)
	s.n[i]++
	s.half[i] += int64(halfWins)
}

// AddGames counts finished games (for the record; the table uses turns).
func (s *WinStats) AddGames(n int) { s.games += int64(n) }

// Games is the number of games counted.
func (s *WinStats) Games() int64 { return s.games }

// Observations is the number of turns observed.
func (s *WinStats) Observations() int64 {
	var t int64
	for _, c := range s.n {
		t += c
	}
	return t
}

// Merge adds o's observations to s.
func (s *WinStats) Merge(o *WinStats) {
	for i := range s.n {
		s.n[i] += o.n[i]
		s.half[i] += o.half[i]
	}
	s.games += o.games
}

// Table smooths the statistics into a WinPct table (see README.md, "Win
// probability"):
//
//  1. Tempo: for each unseen count u, the mover's chance of winning by
//     spread, smoothed (below) without folding, crosses one half at some
//     spread -T(u): being on move is worth T(u) points. T is then smoothed
//     across u.
//  2. Every turn is moved to spread s + T(u), so that what is left is the
//     neutral chance of a lead; a turn led by a and won counts, mirrored, as
//     a turn trailed by a and lost, so the table is symmetric by
//     construction.
//  3. Kernel smoothing: P is the Gaussian-weighted share of wins around
//     (u, a), with a spread bandwidth that grows with u (a point matters
//     more when few tiles are left) and a narrow one across u.
//  4. Monotonicity: weighted isotonic regression in the spread (pool
//     adjacent violators, weights the smoothed counts), with 0.5 pinned at
//     spread 0.
//
// The result is stored every step points up to maxSpread.
func (s *WinStats) Table(step, maxSpread int) (*WinPct, error) {
	if step < 1 || maxSpread < step || maxSpread > WinStatsSpread || maxSpread%step != 0 {
		return nil, fmt.Errorf("win table: step %d and largest spread %d: want a step of at least 1 dividing a largest spread up to %d", step, maxSpread, WinStatsSpread)
	}
	if s.Observations() == 0 {
		return nil, errors.New("win table: no observations")
	}
	const M = WinStatsSpread
	// Turns and wins (a draw is half a win) by row and spread index.
	n := make([][]float64, MaxUnseen+1)
	wins := make([][]float64, MaxUnseen+1)
	for u := range n {
		n[u] = make([]float64, winStatsCols)
		wins[u] = make([]float64, winStatsCols)
		for j := range n[u] {
			n[u][j] = float64(s.n[u*winStatsCols+j])
			wins[u][j] = float64(s.half[u*winStatsCols+j]) / 2
		}
	}
	tempo := winTempo(n, wins)

	// Shift each row by its tempo (splitting a cell between the two
	// nearest spreads), then fold: for a >= 0, the turns at +a and -a, with
	// the wins of the player ahead.
	fn := make([][]float64, MaxUnseen+1)
	fw := make([][]float64, MaxUnseen+1)
	for u := range fn {
		sn, sw := make([]float64, winStatsCols), make([]float64, winStatsCols)
		for j, c := range n[u] {
			if c == 0 {
				continue
			}
			x := float64(j) + tempo[u]
			lo := math.Floor(x)
			f := x - lo
			for k, part := range [2]float64{1 - f, f} {
				i := min(max(int(lo)+k, 0), winStatsCols-1)
				sn[i] += part * c
				sw[i] += part * wins[u][j]
			}
		}
		fn[u], fw[u] = make([]float64, M+1), make([]float64, M+1)
		fn[u][0], fw[u][0] = sn[M], sn[M]/2
		for a := 1; a <= M; a++ {
			fn[u][a] = sn[M+a] + sn[M-a]
			fw[u][a] = sw[M+a] + sn[M-a] - sw[M-a]
		}
	}
	rows := make([][]float64, MaxUnseen+1)
	p := make([]float64, M+1)
	wt := make([]float64, M+1)
	for u := range rows {
		hu, ha := winBandwidths(u)
		for a := 0; a <= M; a++ {
			var num, den float64
			for v := max(0, u-int(3*hu)); v <= min(MaxUnseen, u+int(3*hu)); v++ {
				ku := gauss(float64(v-u) / hu)
				lo, hi := a-int(3*ha), a+int(3*ha)
				for b := max(0, lo); b <= min(M, hi); b++ {
					c := fn[v][b]
					if c == 0 {
						continue
					}
					// The point at +b, and its mirror at -b (when -b is in
					// the window), whose player ahead is the other one.
					k := ku * gauss(float64(b-a)/ha)
					num += k * fw[v][b]
					den += k * c
					if b > 0 && -b >= lo {
						k2 := ku * gauss(float64(-b-a)/ha)
						num += k2 * (c - fw[v][b])
						den += k2 * c
					}
				}
			}
			wt[a] = den
			if den > 0 {
				p[a] = num / den
			} else {
				p[a] = math.NaN()
			}
		}
		p[0], wt[0] = 0.5, 1e18 // pinned
		isotonic(p, wt)
		row := make([]float64, maxSpread/step+1)
		for j := range row {
			row[j] = min(1, p[j*step])
		}
		row[0] = 0.5
		rows[u] = row
	}
	// u = 0 never happens at the start of a turn (the game is over); the
	// row is the end of the game: the player ahead has won.
	for j := range rows[0] {
		rows[0][j] = 1
	}
	rows[0][0] = 0.5
	tempo[0] = 0
	return NewWinPct(step, rows, tempo)
}

// winBandwidths are the kernel's standard deviations at row u: across rows
// (tiles) and along the spread (points).
func winBandwidths(u int) (hu, ha float64) {
	return 1 + float64(u)/30, 2 + float64(u)/10
}

// winTempo estimates, for each row, what being on move is worth: minus the
// spread at which the mover's smoothed, monotone chance of winning crosses
// one half. Rows are then averaged with their neighbours (weighted by the
// turns near a tied score), so thin rows lean on thick ones.
func winTempo(n, wins [][]float64) []float64 {
	const M, reach = WinStatsSpread, 150 // spreads searched for the crossing
	raw := make([]float64, len(n))
	weight := make([]float64, len(n))
	p := make([]float64, 2*reach+1)
	wt := make([]float64, 2*reach+1)
	for u := 1; u < len(n); u++ {
		hu, ha := winBandwidths(u)
		for i := range p {
			sp := i - reach
			var num, den float64
			for v := max(0, u-int(3*hu)); v <= min(MaxUnseen, u+int(3*hu)); v++ {
				ku := gauss(float64(v-u) / hu)
				for b := max(-M, sp-int(3*ha)); b <= min(M, sp+int(3*ha)); b++ {
					if c := n[v][M+b]; c > 0 {
						k := ku * gauss(float64(b-sp)/ha)
						num += k * wins[v][M+b]
						den += k * c
					}
				}
			}
			wt[i] = den
			p[i] = math.NaN()
			if den > 0 {
				p[i] = num / den
			}
		}
		isotonic(p, wt)
		for i := 1; i < len(p); i++ {
			if p[i] >= 0.5 && p[i-1] < 0.5 {
				raw[u] = -(float64(i-1-reach) + (0.5-p[i-1])/(p[i]-p[i-1]))
				for b := -20; b <= 20; b++ {
					weight[u] += n[u][M+b]
				}
				break
			}
		}
	}
	tempo := make([]float64, len(n))
	for u := 1; u < len(n); u++ {
		var num, den float64
		for v := 1; v < len(n); v++ {
			k := gauss(float64(v-u)/2) * weight[v]
			num += k * raw[v]
			den += k
		}
		if den > 0 {
			tempo[u] = num / den
		}
	}
	return tempo
}

func gauss(x float64) float64 { return math.Exp(-x * x / 2) }

// isotonic replaces p by its weighted least-squares fit that never
// decreases (pool adjacent violators). Points with no weight (NaN) join the
// block after them, or past the last data keep the last level; a point
// with a huge weight pins the fit there.
func isotonic(p, w []float64) {
	type block struct {
		sum, weight float64
		n           int
	}
	blocks := make([]block, 0, len(p))
	for i := range p {
		if math.IsNaN(p[i]) || w[i] == 0 {
			blocks = append(blocks, block{n: 1})
			continue
		}
		blocks = append(blocks, block{sum: p[i] * w[i], weight: w[i], n: 1})
		for len(blocks) > 1 {
			// Merge back over empty blocks and violators.
			last := &blocks[len(blocks)-1]
			prev := &blocks[len(blocks)-2]
			if prev.weight > 0 && prev.sum/prev.weight <= last.sum/last.weight {
				break
			}
			prev.sum += last.sum
			prev.weight += last.weight
			prev.n += last.n
			blocks = blocks[:len(blocks)-1]
		}
	}
	i := 0
	level := math.NaN()
	for _, b := range blocks {
		if b.weight > 0 {
			level = b.sum / b.weight
		}
		for range b.n {
			p[i] = level
			i++
		}
	}
}

// Binary statistics file (little-endian): magic "SCRWINST", version (4
// bytes), unseen rows and spread columns (4 bytes each), games (8 bytes),
// then for every cell its turns and half-wins as uvarints, then a CRC-32C
// of everything before it.
const (
	winStatsMagic   = "SCRWINST"
	winStatsVersion = 1
)

// WriteTo writes the statistics in the binary form.
func (s *WinStats) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	b.WriteString(winStatsMagic)
	b.Write(binary.LittleEndian.AppendUint32(nil, winStatsVersion))
	b.Write(binary.LittleEndian.AppendUint32(nil, MaxUnseen+1))
	b.Write(binary.LittleEndian.AppendUint32(nil, winStatsCols))
	b.Write(binary.LittleEndian.AppendUint64(nil, uint64(s.games)))
	var buf []byte
	for i := range s.n {
		buf = binary.AppendUvarint(buf[:0], uint64(s.n[i]))
		buf = binary.AppendUvarint(buf, uint64(s.half[i]))
		b.Write(buf)
	}
	b.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(b.Bytes(), castagnoli)))
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

// Save writes the statistics to path atomically.
func (s *WinStats) Save(path string) error { return saveAtomic(path, "win statistics", s) }

// LoadWinStats reads statistics saved by Save.
func LoadWinStats(path string) (*WinStats, error) {
	data, err := readlimit.ReadFile(path, readlimit.Stats, "a training checkpoint")
	if err != nil {
		return nil, err
	}
	s, err := DecodeWinStats(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// DecodeWinStats parses the binary form.
//
// The counts must be possible: none negative, no cell with more wins than
// turns, the turns and games of a file each at most 2^60 (so that merging
// files cannot overflow). A file that fails is refused even with a valid
// checksum.
func DecodeWinStats(data []byte) (*WinStats, error) {
	const head = 8 + 4 + 4 + 4 + 8
	if len(data) < head+4 || string(data[:8]) != winStatsMagic {
		return nil, errors.New("not a win statistics file")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, errors.New("win statistics: checksum mismatch (the file is damaged)")
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != winStatsVersion {
		return nil, fmt.Errorf("win statistics: format version %d, want %d", v, winStatsVersion)
	}
	if r, c := binary.LittleEndian.Uint32(data[12:]), binary.LittleEndian.Uint32(data[16:]); r != MaxUnseen+1 || c != winStatsCols {
		return nil, fmt.Errorf("win statistics: %d x %d cells, want %d x %d", r, c, MaxUnseen+1, winStatsCols)
	}
	s := NewWinStats()
	s.games = int64(binary.LittleEndian.Uint64(data[20:]))
	var total int64 // turns so far, at most maxWinCount
	rest := body[head:]
	for i := range s.n {
		for _, dst := range []*int64{&s.n[i], &s.half[i]} {
			v, k := binary.Uvarint(rest)
			if k <= 0 {
				return nil, errors.New("win statistics: truncated")
			}
			*dst = int64(v)
			rest = rest[k:]
		}
		if s.n[i] < 0 || s.n[i] > maxWinCount-total || s.half[i] < 0 || s.half[i] > 2*s.n[i] {
			return nil, fmt.Errorf("win statistics: cell %d has %d half-wins from %d turns", i, s.half[i], s.n[i])
		}
		total += s.n[i]
	}
	if s.games < 0 || s.games > maxWinCount {
		return nil, fmt.Errorf("win statistics: %d games", s.games)
	}
	if len(rest) != 0 {
		return nil, errors.New("win statistics: trailing bytes")
	}
	return s, nil
}

// WinCalibration compares predicted chances of winning with what happened:
// predictions are grouped by tenths, and the Brier score (the mean squared
// difference between prediction and outcome) is kept along with that of
// always predicting one half.
type WinCalibration struct {
	bins              [10]CalibrationBin
	squares, coinSqrs float64
	n                 int64
}

// CalibrationBin is one tenth of the predictions: how many fell in it, their
// mean and the share of them that came true (a draw counts half).
type CalibrationBin struct {
	Low, High          float64 // the tenth: Low <= prediction < High (the last holds 1)
	N                  int64
	Predicted, Outcome float64 // means
}

// Add records a prediction p (0 to 1) of a win and the outcome in
// half-wins: 2 won, 1 drawn, 0 lost.
func (c *WinCalibration) Add(p float64, halfWins int) {
	o := float64(halfWins) / 2
	b := &c.bins[min(max(int(p*10), 0), 9)]
	b.N++
	b.Predicted += p
	b.Outcome += o
	c.squares += (p - o) * (p - o)
	c.coinSqrs += float64((0.5 - o) * (0.5 - o)) // no fused multiply-add (see meanSD in selfplay)
	c.n++
}

// N is the number of predictions recorded.
func (c *WinCalibration) N() int64 { return c.n }

// Bins returns the tenths that hold predictions, lowest first, with their
// means.
func (c *WinCalibration) Bins() []CalibrationBin {
	var out []CalibrationBin
	for i, b := range c.bins {
		if b.N == 0 {
			continue
		}
		b.Low, b.High = float64(i)/10, float64(i+1)/10
		b.Predicted /= float64(b.N)
		b.Outcome /= float64(b.N)
		out = append(out, b)
	}
	return out
}

// Brier returns the Brier score of the predictions and that of always
// predicting one half (0.25 but for draws); lower is better.
func (c *WinCalibration) Brier() (model, coin float64) {
	if c.n == 0 {
		return 0, 0
	}
	return c.squares / float64(c.n), c.coinSqrs / float64(c.n)
}
