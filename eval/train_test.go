package eval_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/rules"
)

func rack(t *testing.T, s string) *rules.Rack {
	t.Helper()
	r, err := rules.ParseRack(s)
	if err != nil {
		t.Fatal(err)
	}
	return &r
}

func near(got rules.Equity, want float64) bool { return math.Abs(got.Points()-want) < 0.01 }

func TestLeaveStatsTable(t *testing.T) {
	s := eval.NewLeaveStats()
	// Mean next-turn score over all turns: (4*40 + 4*20 + 2*10) / 10 = 26.
	for i := 0; i < 4; i++ {
		s.Observe(rack(t, "?"), 40)
		s.Observe(rack(t, "S"), 20)
	}
	s.Observe(rack(t, "Q"), 10)
	s.Observe(rack(t, "Q"), 10)
	if s.Observations() != 10 || s.Count(rack(t, "?")) != 4 {
		t.Fatalf("observations %d, count(?) %d", s.Observations(), s.Count(rack(t, "?")))
	}

	// With no prior weight, observed leaves keep their excess exactly.
	exact := s.Table(0)
	for _, tc := range []struct {
		leave string
		want  float64
	}{{"?", 14}, {"S", -6}, {"Q", -16}, {"E", 0}} {
		if got := exact.Value(rack(t, tc.leave)); !near(got, tc.want) {
			t.Errorf("Table(0)[%s] = %.3f, want %.3f", tc.leave, float64(got)/1000, tc.want)
		}
	}
	// An unseen leave is estimated by the fitted model: with each tile seen
	// only alone, a tile's value is its n observations' excess with a ridge
	// weight of 1 (n*y/(n+1)), and an unseen pair adds nothing:
	// ?S = 4*14/5 + 4*-6/5.
	if got := exact.Value(rack(t, "S?")); !near(got, 6.4) {
		t.Errorf("estimate for S? = %.3f, want 6.4", float64(got)/1000)
	}
	// A prior of 4 pulls the 2-observation Q towards the model's -32/3:
	// (2*-16 + 4*-32/3) / 6.
	if got := s.Table(4).Value(rack(t, "Q")); !near(got, (2*-16+4*-32.0/3)/6) {
		t.Errorf("Table(4)[Q] = %.3f, want %.3f", float64(got)/1000, (2*-16+4*-32.0/3)/6)
	}
}

// TestLeaveStatsLearnsTilesFromBiggerLeaves: a tile never kept alone is
// still valued through the leaves that hold it.
func TestLeaveStatsLearnsTilesFromBiggerLeaves(t *testing.T) {
	s := eval.NewLeaveStats()
	for i := 0; i < 50; i++ {
		s.Observe(rack(t, "E"), 30)
		s.Observe(rack(t, "S"), 32)
		s.Observe(rack(t, "ES"), 32)
		s.Observe(rack(t, "E?"), 50)
		s.Observe(rack(t, "S?"), 52)
		s.Observe(rack(t, "ES?"), 55)
	}
	table := s.Table(20)
	blank, e := table.Value(rack(t, "?")), table.Value(rack(t, "E"))
	if blank < 10000 || blank <= e {
		t.Errorf("? is worth %.3f and E %.3f: the blank's worth in ?E, ?S, ?ES should show", float64(blank)/1000, float64(e)/1000)
	}
	if q := table.Value(rack(t, "Q")); q != 0 {
		t.Errorf("Q, never seen, is worth %.3f, want 0", float64(q)/1000)
	}
}

func TestLeaveStatsMergeSaveLoad(t *testing.T) {
	a, b := eval.NewLeaveStats(), eval.NewLeaveStats()
	a.Observe(rack(t, "ERS"), 30)
	b.Observe(rack(t, "ERS"), 10)
	b.Observe(rack(t, "VV"), 5)
	a.Merge(b)
	path := filepath.Join(t.TempDir(), "stats")
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	c, err := eval.LoadLeaveStats(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Observations() != 3 || c.Count(rack(t, "ERS")) != 2 || c.Count(rack(t, "VV")) != 1 {
		t.Errorf("after merge and reload: %d observations, ERS %d, VV %d", c.Observations(), c.Count(rack(t, "ERS")), c.Count(rack(t, "VV")))
	}
	if a.Table(0).Value(rack(t, "ERS")) != c.Table(0).Value(rack(t, "ERS")) {
		t.Error("tables differ after reload")
	}

	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 1
	os.WriteFile(path, data, 0o644)
	if _, err := eval.LoadLeaveStats(path); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("damaged file: error %v, want a checksum error", err)
	}
	os.WriteFile(path, data[:100], 0o644)
	if _, err := eval.LoadLeaveStats(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("truncated file: error %v should name the file", err)
	}
}
