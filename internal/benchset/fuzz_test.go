package benchset

import (
	"strings"
	"testing"
)

// FuzzParse: the --positions reader either fails naming the file, or
// returns positions that print as CGP and read back the same.
func FuzzParse(f *testing.F) {
	lines := strings.SplitN(string(positionsFile), "\n", 8)
	f.Add([]byte(strings.Join(lines[:7], "\n")))
	f.Add([]byte("# only a comment\n\n"))
	f.Add([]byte("15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AEINRST/ 5/0 0 lex NWL23;\n"))
	f.Add([]byte("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 9999999/0 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := Parse("p.cgp", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "p.cgp") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		var b strings.Builder
		for _, p := range ps {
			b.WriteString(p.CGP() + "\n")
		}
		again, err := Parse("again.cgp", []byte(b.String()))
		if err != nil || len(again) != len(ps) {
			t.Fatalf("%d positions written as CGP read back as %d: %v", len(ps), len(again), err)
		}
		for i := range ps {
			if again[i].CGP() != ps[i].CGP() {
				t.Fatalf("position %d: %s read back as %s", i+1, ps[i].CGP(), again[i].CGP())
			}
		}
	})
}
