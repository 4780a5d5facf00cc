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
