package hugemem

import "testing"

func TestSliceIsZeroedAndUsable(t *testing.T) {
	for _, n := range []int{0, 1, 1000, minSize/8 + 1, 3 * minSize / 8} {
		s := Slice[uint64](n)
		if len(s) != n {
			t.Fatalf("len %d, want %d", len(s), n)
		}
		for i := range s {
			if s[i] != 0 {
				t.Fatalf("n=%d: s[%d] = %d, want 0", n, i, s[i])
			}
			s[i] = uint64(i) * 3
		}
		for i := range s {
			if s[i] != uint64(i)*3 {
				t.Fatalf("n=%d: s[%d] = %d after writing %d", n, i, s[i], i*3)
			}
		}
		Free(s)
	}
}
