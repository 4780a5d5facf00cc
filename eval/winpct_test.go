package eval

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trueWin is the neutral chance the synthetic statistics are drawn from:
// the final margin moves by a normal amount whose spread grows with the
// tiles left.
func trueWin(spread float64, unseen int) float64 {
	sd := 8 + 1.2*float64(unseen)
	return 0.5 * (1 + math.Erf(spread/sd/math.Sqrt2))
}

// trueTempo is what being on move is worth in the synthetic games.
const trueTempo = 15

// syntheticStats draws n turns: a spread and unseen count for the player to
// move, who wins with trueWin(spread + trueTempo).
func syntheticStats(n int, seed uint64) *WinStats {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := NewWinStats()
	for range n {
		u := 1 + rng.IntN(MaxUnseen)
		spread := int(math.Round(rng.NormFloat64() * (20 + float64(u))))
		p := trueWin(float64(spread+trueTempo), u)
		half := 0
		if x := rng.Float64(); x < p {
			half = 2
		}
		s.Observe(spread, u, half)
	}
	s.AddGames(n / 20)
	return s
}

// checkShape fails unless w is a proper table: 0.5 at spread 0, symmetric,
// never decreasing in the spread, within [0, 1].
func checkShape(t *testing.T, w *WinPct) {
	t.Helper()
	for u := 0; u <= MaxUnseen; u++ {
		if p := w.Prob(0, u); p != 0.5 {
			t.Fatalf("P(0, %d) = %g, want 0.5", u, p)
		}
		prev := 0.0
		for s := -400.0; s <= 400; s += 0.5 {
			p := w.Prob(s, u)
			if p < prev || p < 0 || p > 1 {
				t.Fatalf("P(%g, %d) = %g after %g: not a non-decreasing probability", s, u, p, prev)
			}
			if q := w.Prob(-s, u); math.Abs(p+q-1) > 1e-6 {
				t.Fatalf("P(%g, %d) + P(%g, %d) = %g, want 1", s, u, -s, u, p+q)
			}
			prev = p
		}
	}
}

func TestWinStatsTable(t *testing.T) {
	stats := syntheticStats(400_000, 1)
	w, err := stats.Table(5, 300)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, w)
	// Close to the neutral model where the data are dense.
	for _, c := range []struct{ spread, unseen int }{
		{10, 80}, {50, 80}, {-30, 60}, {25, 40}, {5, 10}, {20, 10}, {-60, 30}, {100, 50},
	} {
		got, want := w.Prob(float64(c.spread), c.unseen), trueWin(float64(c.spread), c.unseen)
		if math.Abs(got-want) > 0.03 {
			t.Errorf("P(%d, %d) = %.3f, the model says %.3f", c.spread, c.unseen, got, want)
		}
	}
	// The value of being on move is recovered where the data are dense.
	for _, u := range []int{20, 40, 60, 80} {
		if tm := w.Tempo(u); math.Abs(tm-trueTempo) > 3 {
			t.Errorf("tempo with %d unseen: %.1f, want about %d", u, tm, trueTempo)
		}
		if got, want := w.ProbToMove(10, u), trueWin(10+trueTempo, u); math.Abs(got-want) > 0.03 {
			t.Errorf("ProbToMove(10, %d) = %.3f, the model says %.3f", u, got, want)
		}
	}
	// No unseen tiles: the game is over, the player ahead has won.
	if p := w.Prob(5, 0); p != 1 {
		t.Errorf("P(5, 0) = %g, want 1", p)
	}
}

func TestWinStatsTableNeedsData(t *testing.T) {
	if _, err := NewWinStats().Table(5, 300); err == nil {
		t.Error("a table from no observations: no error")
	}
	s := syntheticStats(1000, 2)
	for _, c := range [][2]int{{0, 300}, {7, 300}, {5, 0}, {5, WinStatsSpread + 5}} {
		if _, err := s.Table(c[0], c[1]); err == nil {
			t.Errorf("Table(%d, %d): no error", c[0], c[1])
		}
	}
}

// TestWinStatsMonotoneFromNoisyData: even from little, noisy data the table
// keeps its shape (the smoothing and the isotonic fit see to it).
func TestWinStatsMonotoneFromNoisyData(t *testing.T) {
	w, err := syntheticStats(3000, 3).Table(5, 300)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, w)
}

func TestIsotonic(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		p, w, want []float64
	}{
		{[]float64{0.5, 0.6, 0.7}, []float64{1, 1, 1}, []float64{0.5, 0.6, 0.7}},
		{[]float64{0.5, 0.7, 0.6}, []float64{1, 1, 1}, []float64{0.5, 0.65, 0.65}},
		{[]float64{0.5, 0.8, 0.6}, []float64{1, 1, 3}, []float64{0.5, 0.65, 0.65}},
		{[]float64{0.5, 0.4, 0.9}, []float64{1, 1, 1}, []float64{0.45, 0.45, 0.9}},
		{[]float64{0.5, nan, 0.7, nan}, []float64{1, 0, 1, 0}, []float64{0.5, 0.7, 0.7, 0.7}},
		{[]float64{nan, 0.3, 0.2, 0.9}, []float64{0, 1, 1, 1}, []float64{0.25, 0.25, 0.25, 0.9}},
		{[]float64{0.5, 0.1, 0.9}, []float64{1e18, 1, 1}, []float64{0.5, 0.5, 0.9}},
	} {
		p := append([]float64(nil), c.p...)
		isotonic(p, c.w)
		for i := range p {
			if math.Abs(p[i]-c.want[i]) > 1e-9 {
				t.Errorf("isotonic(%v, %v) = %v, want %v", c.p, c.w, p, c.want)
				break
			}
		}
	}
}

func TestWinPctCSVRoundTrip(t *testing.T) {
	w, err := syntheticStats(50_000, 4).Table(5, 300)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := w.WriteCSV(&buf, "made by a test", "two lines\nof comments"); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.HasPrefix(text, "# made by a test\n# two lines\n# of comments\nunseen,tempo,0,5,10,") {
		t.Fatalf("CSV starts %q", text[:min(80, len(text))])
	}
	back, err := ReadWinPct("t.csv", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	for u := 0; u <= MaxUnseen; u++ {
		for s := -320.0; s <= 320; s += 2.5 {
			if a, b := w.Prob(s, u), back.Prob(s, u); math.Abs(a-b) > 0.0001 { // stored to 1e-4
				t.Fatalf("P(%g, %d): %g written, %g read back", s, u, a, b)
			}
			if a, b := w.Tempo(u), back.Tempo(u); math.Abs(a-b) > 0.05 {
				t.Fatalf("tempo at %d: %g written, %g read back", u, a, b)
			}
		}
	}
	// Writing what was read gives the same file.
	var again bytes.Buffer
	if err := back.WriteCSV(&again, "made by a test", "two lines\nof comments"); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Error("the CSV does not round-trip byte for byte")
	}
	path := filepath.Join(t.TempDir(), "w.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadWinPct(path); err != nil {
		t.Fatal(err)
	}
}

func TestReadWinPctErrors(t *testing.T) {
	for _, c := range []struct{ text, msg string }{
		{"", "no table"},
		{"# only a comment\n", "no table"},
		{"spread,tempo,0,5\n", `want the header "unseen,tempo,0,STEP,..."`},
		{"unseen,0,5\n", `want the header "unseen,tempo,0,STEP,..."`},
		{"unseen,tempo,0\n", "at least two spreads"},
		{"unseen,tempo,0,5,11\n0,0,5000,6000,7000\n", "spreads must be 0, STEP"},
		{"unseen,tempo,0,5,x\n", `spread "x" is not a whole number`},
		{"unseen,tempo,0,5\n0,0,5000\n", "3 fields, want 4"},
		{"unseen,tempo,0,5\n1,0,5000,6000\n", "rows go 0, 1, 2"},
		{"unseen,tempo,0,5\n0,x,5000,6000\n", `tempo "x" is not a number`},
		{"unseen,tempo,0,5\n0,500,5000,6000\n", "tempo 500"},
		{"unseen,tempo,0,5\n0,0,5000,12000\n", "ten-thousandths"},
		{"unseen,tempo,0,5\n0,0,4000,6000\n", "at spread 0 is 0.4, want 0.5"},
		{"unseen,tempo,0,5,10\n0,0,5000,7000,6000\n", "falls from 0.7 to 0.6 at spread 10"},
	} {
		_, err := ReadWinPct("w.csv", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "w.csv") {
			t.Errorf("%q: error %v, want one naming w.csv and saying %q", c.text, err, c.msg)
		}
	}
}

func TestWinPctProb(t *testing.T) {
	w, err := NewWinPct(10, [][]float64{
		{0.5, 1, 1},
		{0.5, 0.7, 0.9},
	}, []float64{0, 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spread float64
		unseen int
		want   float64
	}{
		{0, 1, 0.5}, {10, 1, 0.7}, {5, 1, 0.6}, {15, 1, 0.8}, {20, 1, 0.9}, {500, 1, 0.9},
		{-5, 1, 0.4}, {-500, 1, 0.1}, {5, 0, 0.75}, {5, 50, 0.6}, {5, -3, 0.75},
		// Total: no spread panics; beyond the table is its edge, NaN is 0.
		{math.NaN(), 1, 0.5}, {math.Inf(1), 1, 0.9}, {math.Inf(-1), 1, 0.1},
		{1e300, 1, 0.9}, {-1e300, 1, 0.1}, {math.MaxFloat64, 0, 1}, {9.3e18, 1, 0.9}, {-9.3e18, 1, 0.1},
	} {
		if got := w.Prob(c.spread, c.unseen); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("Prob(%g, %d) = %g, want %g", c.spread, c.unseen, got, c.want)
		}
	}
	// On move with a lead of 5 and a tempo of 5: the neutral chance at 10.
	if got := w.ProbToMove(5, 1); math.Abs(got-0.7) > 1e-6 || w.ProbToMove(-5, 1) != 0.5 || w.Tempo(7) != 5 {
		t.Errorf("ProbToMove(5, 1) = %g, ProbToMove(-5, 1) = %g, Tempo(7) = %g; want 0.7, 0.5, 5", got, w.ProbToMove(-5, 1), w.Tempo(7))
	}
	if w.Step() != 10 || w.MaxSpread() != 20 || w.MaxUnseen() != 1 {
		t.Errorf("step %d, max spread %d, max unseen %d", w.Step(), w.MaxSpread(), w.MaxUnseen())
	}
}

func TestWinStatsSaveLoad(t *testing.T) {
	s := syntheticStats(20_000, 5)
	path := filepath.Join(t.TempDir(), "w.winstats")
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadWinStats(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Games() != s.Games() || back.Observations() != s.Observations() {
		t.Fatalf("read back %d games, %d turns; wrote %d, %d", back.Games(), back.Observations(), s.Games(), s.Observations())
	}
	for i := range s.n {
		if s.n[i] != back.n[i] || s.half[i] != back.half[i] {
			t.Fatalf("cell %d differs", i)
		}
	}
	// Merging is adding: two halves make the whole.
	a, b := syntheticStats(10_000, 6), syntheticStats(10_000, 7)
	m := NewWinStats()
	m.Merge(a)
	m.Merge(b)
	if m.Observations() != 20_000 || m.Games() != a.Games()+b.Games() {
		t.Errorf("merged %d turns, %d games", m.Observations(), m.Games())
	}
	var buf bytes.Buffer
	if _, err := s.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for _, c := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, "not a win statistics file"},
		{"damaged", flip(data, len(data)/2), "checksum"},
		{"truncated", data[:len(data)-9], "checksum"},
	} {
		if _, err := DecodeWinStats(c.data); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.msg)
		}
	}
}

func flip(data []byte, i int) []byte {
	out := append([]byte(nil), data...)
	out[i] ^= 0x40
	return out
}

// TestDefaultWinPct: the built-in table reads, has every row, keeps the
// table's shape, and says what common sense says.
func TestDefaultWinPct(t *testing.T) {
	w := DefaultWinPct()
	if w.MaxUnseen() != MaxUnseen {
		t.Fatalf("the built-in table has rows to %d unseen tiles, want %d", w.MaxUnseen(), MaxUnseen)
	}
	checkShape(t, w)
	for _, c := range []struct {
		spread   float64
		unseen   int
		lo, high float64
	}{
		{30, 80, 0.55, 0.8},   // early lead: useful, far from decisive
		{30, 7, 0.75, 1},      // the same lead with the bag empty: usually won
		{100, 40, 0.85, 1},    // a big lead in mid-game
		{-10, 60, 0.35, 0.5},  // a small deficit early
		{150, 93, 0.9, 1.0},   // not a real position, but monotone
		{5, 20, 0.5, 0.65},    // a hair ahead
		{-200, 30, 0.0, 0.02}, // lost
	} {
		if p := w.Prob(c.spread, c.unseen); p < c.lo || p > c.high {
			t.Errorf("P(%g, %d) = %.3f, want %.2f to %.2f", c.spread, c.unseen, p, c.lo, c.high)
		}
	}
	// Leads count for more as the tiles run out.
	if early, late := w.Prob(40, 80), w.Prob(40, 14); late <= early {
		t.Errorf("a 40-point lead: %.3f with 80 unseen, %.3f with 14", early, late)
	}
}

func ExampleWinPct_Prob() {
	w := DefaultWinPct()
	fmt.Printf("%.0f%% %.0f%%\n", 100*w.Prob(0, 50), 100*(w.Prob(25, 50)+w.Prob(-25, 50)))
	// Output: 50% 100%
}

func TestWinCalibration(t *testing.T) {
	var c WinCalibration
	if m, coin := c.Brier(); m != 0 || coin != 0 || c.N() != 0 || len(c.Bins()) != 0 {
		t.Fatalf("empty: Brier %v %v, N %d, bins %v", m, coin, c.N(), c.Bins())
	}
	// Predictions and outcomes (half-wins): two in the 0.1 tenth, one
	// draw at 0.5, one certain win (1.0 lands in the last tenth).
	for _, x := range []struct {
		p    float64
		half int
	}{{0.1, 0}, {0.15, 2}, {0.5, 1}, {1, 2}} {
		c.Add(x.p, x.half)
	}
	want := []CalibrationBin{
		{Low: 0.1, High: 0.2, N: 2, Predicted: 0.125, Outcome: 0.5},
		{Low: 0.5, High: 0.6, N: 1, Predicted: 0.5, Outcome: 0.5},
		{Low: 0.9, High: 1, N: 1, Predicted: 1, Outcome: 1},
	}
	got := c.Bins()
	if len(got) != len(want) {
		t.Fatalf("bins %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.N != w.N || math.Abs(g.Low-w.Low) > 1e-12 || math.Abs(g.High-w.High) > 1e-12 ||
			math.Abs(g.Predicted-w.Predicted) > 1e-12 || math.Abs(g.Outcome-w.Outcome) > 1e-12 {
			t.Errorf("bin %d = %+v, want %+v", i, g, w)
		}
	}
	// (0.01 + 0.7225 + 0 + 0) / 4 and (0.25 + 0.25 + 0 + 0.25) / 4.
	model, coin := c.Brier()
	if math.Abs(model-0.183125) > 1e-12 || math.Abs(coin-0.1875) > 1e-12 || c.N() != 4 {
		t.Errorf("Brier %v and %v (N %d), want 0.183125 and 0.1875 (4)", model, coin, c.N())
	}
}
