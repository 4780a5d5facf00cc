package eval_test

import (
	"testing"

	"scrabble/eval"
)

// TestDefaultLeaves: the built-in tables load, go to the right lexicon
// families, and hold what self-play teaches any strong player: a blank is
// worth keeping, a Q and duplicate U's are not.
func TestDefaultLeaves(t *testing.T) {
	for _, name := range []string{"NWL23", "nwl2020", "TWL06", "CSW24", "SOWPODS"} {
		table, err := eval.DefaultLeaves(name)
		if err != nil || table == nil {
			t.Fatalf("DefaultLeaves(%q) = %v, %v", name, table, err)
		}
		blank, s, q, uu := table.Value(rack(t, "?")), table.Value(rack(t, "S")), table.Value(rack(t, "Q")), table.Value(rack(t, "UU"))
		if blank < 10000 || s < 2000 || q > -2000 || uu > -5000 {
			t.Errorf("%s: ? %.1f, S %.1f, Q %.1f, UU %.1f: not what self-play should learn", name,
				float64(blank)/1000, float64(s)/1000, float64(q)/1000, float64(uu)/1000)
		}
	}
	nwl, _ := eval.DefaultLeaves("NWL23")
	csw, _ := eval.DefaultLeaves("CSW24")
	if nwl == csw {
		t.Error("NWL23 and CSW24 share a table")
	}
	if twl, _ := eval.DefaultLeaves("TWL06"); twl != nwl {
		t.Error("TWL06 does not use the NWL table")
	}
	if other, err := eval.DefaultLeaves("MYLIST"); other != nil || err != nil {
		t.Errorf("unknown lexicon: %v, %v; want no table", other, err)
	}
}
