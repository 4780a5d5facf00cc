package selfplay

import (
	"strings"
	"testing"
)

// The shards of a run cover its games once each, in order, as equal as can
// be.
func TestShardRanges(t *testing.T) {
	for games := 0; games <= 50; games++ {
		for m := 1; m <= 12; m++ {
			next := 0
			for k := 1; k <= m; k++ {
				lo, hi := Shard{k, m}.Range(games)
				if lo != next || hi < lo || hi-lo > games/m+1 || hi-lo < games/m {
					t.Fatalf("%d games, shard %d/%d: %d to %d after %d", games, k, m, lo, hi, next)
				}
				for i := lo; i < hi; i++ {
					if !(Shard{k, m}).Holds(i, games) {
						t.Fatalf("shard %d/%d does not hold its game %d", k, m, i)
					}
				}
				next = hi
			}
			if next != games {
				t.Fatalf("%d games in %d shards end at %d", games, m, next)
			}
		}
	}
	if lo, hi := (Shard{}).Range(7); lo != 0 || hi != 7 {
		t.Errorf("the whole run: %d to %d", lo, hi)
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/8"); err != nil || s != (Shard{2, 8}) || s.String() != "2/8" {
		t.Errorf("ParseShard(2/8) = %v, %v", s, err)
	}
	for _, bad := range []string{"", "2", "0/3", "4/3", "1/0", "a/b", "-1/2", "1/2/3"} {
		if _, err := ParseShard(bad); err == nil || !strings.Contains(err.Error(), "shard") {
			t.Errorf("ParseShard(%q): %v, want an error", bad, err)
		}
	}
}
