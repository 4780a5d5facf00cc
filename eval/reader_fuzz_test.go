package eval

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzLoadAny: a leave file in any form (CSV, binary, gzip'ed binary, as
// sniffed) either fails naming the file, or loads into a table that writes
// as CSV and reads back the same. The fuzzing reads CSVs as partial (else
// almost every input would stop at the missing leaves); LoadAny must then
// fail naming the file, or agree.
func FuzzLoadAny(f *testing.F) {
	bin := encode(f, NewLeaveTable())
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(bin)
	zw.Close()
	f.Add(z.Bytes())
	f.Add(z.Bytes()[:30])
	f.Add(bin[:40])
	f.Add([]byte("leave,value\nEIRST?,25.125\nQ,-7.5\n"))
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte("SCRLEAVE"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "l")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		strict, strictErr := LoadAny(path)
		if strictErr != nil && !strings.Contains(strictErr.Error(), path) {
			t.Fatalf("error %q does not name the file", strictErr)
		}
		lt, err := LoadAnyPartial(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if strictErr == nil && !slices.Equal(strict.vals, lt.vals) {
			t.Fatal("LoadAny and LoadAnyPartial read different tables")
		}
		var buf bytes.Buffer
		if err := lt.WriteCSV(&buf, true); err != nil {
			t.Fatal(err)
		}
		again, err := ReadPartialCSV("again.csv", &buf)
		if err != nil || !slices.Equal(again.vals, lt.vals) {
			t.Fatalf("the loaded table does not round-trip through CSV: %v", err)
		}
	})
}

// FuzzReadWinPct: a win% CSV either fails naming the file, or gives a
// table whose chances are probabilities, symmetric, for every spread, and
// that writes and reads back the same.
func FuzzReadWinPct(f *testing.F) {
	f.Add([]byte("# c\nunseen,tempo,0,5,10\n0,0.0,5000,6000,7000\n1,1.5,5000,5500,10000\n"))
	f.Add([]byte("unseen,tempo,0,5\n0,NaN,5000,6000\n"))
	f.Add([]byte("unseen,tempo,0,5\n0,1e308,5000,6000\n"))
	f.Add([]byte("unseen,tempo,0,1000000000000\n0,0,5000,6000\n"))
	f.Add([]byte("unseen,tempo\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ReadWinPct("w.csv", bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "w.csv") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for u := -1; u <= w.MaxUnseen()+1; u++ {
			for _, s := range []float64{0, 1, float64(w.Step()), float64(w.MaxSpread()), 1e18} {
				p, q := w.Prob(s, u), w.Prob(-s, u)
				if !(p >= 0.5 && p <= 1) || p+q < 1-1e-6 || p+q > 1+1e-6 {
					t.Fatalf("P(%g, %d) = %g, P(-%g) = %g", s, u, p, s, q)
				}
			}
		}
		var buf bytes.Buffer
		if err := w.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := ReadWinPct("again.csv", &buf)
		if err != nil || again.MaxSpread() != w.MaxSpread() || again.MaxUnseen() != w.MaxUnseen() || again.Step() != w.Step() {
			t.Fatalf("the table does not read back: %v", err)
		}
	})
}
