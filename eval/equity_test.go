package eval_test

import (
	"testing"

	"scrabble/eval"
	"scrabble/rules"
)

type constLeaves int32

func (c constLeaves) LeaveValue(*rules.Rack) rules.Equity { return rules.Equity(c) }

func TestEquityValuer(t *testing.T) {
	opp, _ := rules.ParseRack("QZ")
	keep, _ := rules.ParseRack("AE")
	var empty rules.Rack
	tests := []struct {
		name   string
		leaves constLeaves
		bag    int
		leave  rules.Rack
		want   rules.Equity
	}{
		{"bag open: the table", 1234, 10, keep, 1234},
		{"one tile left: still the table", -50, 1, keep, -50},
		{"bag empty, going out: twice the opponent's rack", 1234, 0, empty, 2 * 20 * 1000},
		{"bag empty, tiles kept: they cost twice", 1234, 0, keep, -2 * 2 * 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := eval.Equity(tc.leaves, tc.bag, opp)
			if got := v.LeaveValue(&tc.leave); got != tc.want {
				t.Errorf("LeaveValue(%s) = %d, want %d", tc.leave, got, tc.want)
			}
		})
	}
	if got := eval.Equity(nil, 30, opp).LeaveValue(&keep); got != 0 {
		t.Errorf("no table: LeaveValue = %d, want 0", got)
	}
}

// TestEquityAmong: with the bag empty in a game of N players, going out is
// worth the others' tiles N/(N-1) times (against the average opponent:
// they gain and each of them loses their own) and tiles kept cost as much
// (twice for two players, as Equity); the keys of different player counts
// differ, so a search's cache keeps them apart.
func TestEquityAmong(t *testing.T) {
	others, _ := rules.ParseRack("QZKE") // 10+10+5+1 = 26
	keep, _ := rules.ParseRack("AEX")    // 1+1+8 = 10
	var empty rules.Rack
	keys := map[uint64]int{}
	for _, c := range []struct {
		players   int
		out, kept rules.Equity
	}{
		{2, 52000, -20000},
		{3, 39000, -15000},
		{4, 34666, -13333},
	} {
		v := eval.EquityAmong(constLeaves(7), 0, others, c.players)
		if got := v.LeaveValue(&empty); got != c.out {
			t.Errorf("%d players, going out: %d, want %d", c.players, got, c.out)
		}
		if got := v.LeaveValue(&keep); got != c.kept {
			t.Errorf("%d players, %s kept: %d, want %d", c.players, keep, got, c.kept)
		}
		if got := eval.EquityAmong(constLeaves(7), 3, others, c.players).LeaveValue(&keep); got != 7 {
			t.Errorf("%d players, bag open: %d, want the table's 7", c.players, got)
		}
		keys[v.(interface{ LeaveKey() uint64 }).LeaveKey()] = c.players
	}
	if len(keys) != 3 {
		t.Errorf("the player counts share leave keys: %v", keys)
	}
	if eval.Equity(nil, 0, others).LeaveValue(&keep) != eval.EquityAmong(nil, 0, others, 2).LeaveValue(&keep) {
		t.Error("Equity and EquityAmong of two players differ")
	}
}
