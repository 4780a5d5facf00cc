package eval

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"scrabble/internal/readlimit"
	"scrabble/rules"
)

// MaxUnseen is the most tiles a player can have unseen at the start of a
// turn: the full set less their own rack.
const MaxUnseen = 100 - rules.RackSize

// WinPct estimates a player's chance of winning from the spread (their
// score minus the opponent's) and the number of tiles unseen by the player
// to move (bag plus the other player's rack).
//
// The table itself is symmetric, P(s, u) = 1 - P(-s, u): it is the chance
// of a player leading by s "in neutral", as if neither side were on move.
// Being on move is worth something, the tempo T(u) in points of spread: the
// player to move wins with P(s + T(u), u) (ProbToMove), and so the other
// player with P(s - T(u), u) = 1 - P(-s + T(u), u), which keeps the two
// chances summing to one.
//
// Row u stores P(win | spread = j*Step, unseen = u) for j = 0, 1, ...,
// non-decreasing in j, with 0.5 at spread 0, and T(u). Between stored
// spreads it interpolates linearly; beyond the largest it keeps the last
// value. Look-ups allocate nothing and may run concurrently.
type WinPct struct {
	step      int
	cols      int       // stored spreads per row: 0, step, ..., (cols-1)*step
	maxUnseen int       // rows 0..maxUnseen; more unseen tiles use the last row
	p         []float32 // (maxUnseen+1) rows of cols values
	tempo     []float32 // by row, points
}

// NewWinPct builds a table from rows of probabilities, rows[u][j] being
// P(win | spread j*step, u unseen tiles), and the tempo of each row (nil:
// 0). Every row must have the same length (at least 2), start at 0.5, never
// decrease and stay within [0.5, 1].
func NewWinPct(step int, rows [][]float64, tempo []float64) (*WinPct, error) {
	if step < 1 {
		return nil, fmt.Errorf("win table: spread step %d, want at least 1", step)
	}
	if len(rows) == 0 {
		return nil, errors.New("win table: no rows")
	}
	if tempo != nil && len(tempo) != len(rows) {
		return nil, fmt.Errorf("win table: %d tempo values for %d rows", len(tempo), len(rows))
	}
	cols := len(rows[0])
	if cols < 2 {
		return nil, errors.New("win table: rows need at least two spreads")
	}
	w := &WinPct{step: step, cols: cols, maxUnseen: len(rows) - 1,
		p: make([]float32, 0, len(rows)*cols), tempo: make([]float32, len(rows))}
	for u, row := range rows {
		if len(row) != cols {
			return nil, fmt.Errorf("win table: row %d has %d values, row 0 has %d", u, len(row), cols)
		}
		if row[0] != 0.5 {
			return nil, fmt.Errorf("win table: row %d: P(win) at spread 0 is %g, want 0.5 (the table is symmetric)", u, row[0])
		}
		for j, v := range row {
			switch {
			case math.IsNaN(v) || v < 0.5 || v > 1:
				return nil, fmt.Errorf("win table: row %d, spread %d: %g is not a probability from 0.5 to 1", u, j*step, v)
			case j > 0 && v < row[j-1]:
				return nil, fmt.Errorf("win table: row %d: P(win) falls from %g to %g at spread %d", u, row[j-1], v, j*step)
			}
			w.p = append(w.p, float32(v))
		}
		if tempo != nil {
			if t := tempo[u]; math.IsNaN(t) || math.Abs(t) > 100 {
				return nil, fmt.Errorf("win table: row %d: tempo %g, want a number of points from -100 to 100", u, t)
			}
			w.tempo[u] = float32(tempo[u])
		}
	}
	return w, nil
}

// Prob is the neutral chance of winning with the given spread and unseen
// tiles (symmetric; see WinPct). A negative unseen count is taken as 0, one
// above the table as its last row. It is total: a spread beyond the table,
// infinite ones included, has the last stored value, and NaN is taken as 0.
func (w *WinPct) Prob(spread float64, unseen int) float64 {
	u := min(max(unseen, 0), w.maxUnseen)
	if spread != spread { // NaN
		spread = 0
	}
	a := math.Abs(spread) / float64(w.step)
	row := w.p[u*w.cols : (u+1)*w.cols]
	var p float64
	if !(a < float64(w.cols-1)) { // before int(a): int of a huge float is undefined
		p = float64(row[w.cols-1])
	} else {
		j := int(a)
		f := a - float64(j)
		p = float64(row[j]) + float64(f*float64(row[j+1]-row[j])) // float64(): no fused multiply-add, the same bits from every build
	}
	if spread < 0 {
		return 1 - p
	}
	return p
}

// ProbToMove is the chance of winning of the player to move, leading by
// spread with unseen tiles they cannot see: Prob(spread + Tempo(unseen)).
// The other player's chance is 1 - ProbToMove(-spread, unseen).
func (w *WinPct) ProbToMove(spread float64, unseen int) float64 {
	return w.Prob(spread+w.Tempo(unseen), unseen)
}

// Tempo is what being on move is worth, in points of spread, with unseen
// tiles unseen by the player to move.
func (w *WinPct) Tempo(unseen int) float64 {
	return float64(w.tempo[min(max(unseen, 0), w.maxUnseen)])
}

// Step is the spread between stored columns, in points.
func (w *WinPct) Step() int { return w.step }

// MaxSpread is the largest stored spread; beyond it the last value holds.
func (w *WinPct) MaxSpread() int { return (w.cols - 1) * w.step }

// MaxUnseen is the last stored row.
func (w *WinPct) MaxUnseen() int { return w.maxUnseen }

// The text form, one CSV table:
//
//	# comment lines (how the table was made)
//	unseen,tempo,0,5,10,...    spreads, a multiple of the step apart
//	0,0.0,5000,5873,...        one row per unseen count from 0: the tempo
//	1,17.2,5000,5611,...       in points, then P(win) in ten-thousandths
//
// Ten-thousandths are finer than any table trained from self-play can
// resolve, and keep the file small enough to read in a diff.
const winHeader = "unseen,tempo"

// SaveCSV writes the table to the file path in the text form (WriteCSV),
// atomically: on any error, a full disk say, the file at path is left as
// it was.
func (w *WinPct) SaveCSV(path string, comments ...string) error {
	return saveAtomic(path, "the win% table", writerTo(func(out io.Writer) error { return w.WriteCSV(out, comments...) }))
}

// WriteCSV writes the table in the text form, after the comment lines (each
// written with a leading "# ").
func (w *WinPct) WriteCSV(out io.Writer, comments ...string) error {
	bw := bufio.NewWriter(out)
	for _, c := range comments {
		for _, line := range strings.Split(c, "\n") {
			fmt.Fprintf(bw, "# %s\n", line)
		}
	}
	bw.WriteString(winHeader)
	for j := range w.cols {
		fmt.Fprintf(bw, ",%d", j*w.step)
	}
	bw.WriteByte('\n')
	for u := 0; u <= w.maxUnseen; u++ {
		fmt.Fprintf(bw, "%d,%.1f", u, w.tempo[u])
		for _, v := range w.p[u*w.cols : (u+1)*w.cols] {
			fmt.Fprintf(bw, ",%d", int(math.Round(float64(v)*10000)))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadWinPct reads the text form; errors name file and line.
func ReadWinPct(file string, r io.Reader) (*WinPct, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var (
		step    int
		spreads []int
		rows    [][]float64
		tempo   []float64
		line    int
	)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Split(text, ",")
		if spreads == nil {
			if len(fields) < 4 || strings.Join(fields[:2], ",") != winHeader {
				return nil, fail("want the header %q followed by at least two spreads", winHeader+",0,STEP,...")
			}
			for i, f := range fields[2:] {
				s, err := strconv.Atoi(f)
				if err != nil {
					return nil, fail("spread %q is not a whole number", f)
				}
				spreads = append(spreads, s)
				if i == 1 {
					step = s
				}
				if s != i*step || (i == 1 && step < 1) {
					return nil, fail("spreads must be 0, STEP, 2*STEP, ...: got %d in column %d", s, i+3)
				}
			}
			continue
		}
		if len(fields) != len(spreads)+2 {
			return nil, fail("%d fields, want %d (unseen, tempo and a value per spread)", len(fields), len(spreads)+2)
		}
		u, err := strconv.Atoi(fields[0])
		if err != nil || u != len(rows) {
			return nil, fail("row for %q unseen tiles, want %d (rows go 0, 1, 2, ... in order)", fields[0], len(rows))
		}
		t, err := strconv.ParseFloat(fields[1], 64)
		if err != nil {
			return nil, fail("tempo %q is not a number", fields[1])
		}
		tempo = append(tempo, t)
		row := make([]float64, len(spreads))
		for j, f := range fields[2:] {
			v, err := strconv.Atoi(f)
			if err != nil || v < 0 || v > 10000 {
				return nil, fail("%q is not a probability in ten-thousandths (0 to 10000)", f)
			}
			row[j] = float64(v) / 10000
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no table (want a header line %q and a row per unseen count)", file, winHeader+",0,STEP,...")
	}
	w, err := NewWinPct(step, rows, tempo)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return w, nil
}

// LoadWinPct reads a table in the text form from path.
func LoadWinPct(path string) (*WinPct, error) {
	data, err := readlimit.ReadFile(path, readlimit.WinPct, "a win% table")
	if err != nil {
		return nil, err
	}
	return ReadWinPct(path, bytes.NewReader(data))
}
