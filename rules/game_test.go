package rules

import "testing"

func TestCanExchange(t *testing.T) {
	tests := []struct {
		bag  int
		want bool
	}{{0, false}, {1, false}, {6, false}, {7, true}, {8, true}, {86, true}, {100, true}}
	for _, tc := range tests {
		if got := CanExchange(tc.bag); got != tc.want {
			t.Errorf("CanExchange(%d) = %v, want %v", tc.bag, got, tc.want)
		}
	}
}

func TestGameOverByScoreless(t *testing.T) {
	tests := []struct {
		n    int
		want bool
	}{{0, false}, {5, false}, {6, true}, {7, true}}
	for _, tc := range tests {
		if got := GameOverByScoreless(tc.n); got != tc.want {
			t.Errorf("GameOverByScoreless(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

func TestEndOfGameAdjustments(t *testing.T) {
	tests := []struct {
		rack           string
		out, scoreless int
	}{
		{"", 0, 0},
		{"?", 0, 0},
		{"QZ?", 40, -20},     // 10+10+0
		{"AEIOUVW", 26, -13}, // 1*5 + 4+4
		{"JXKD", 46, -23},    // 8+8+5+2
	}
	for _, tc := range tests {
		r, err := ParseRack(tc.rack)
		if err != nil {
			t.Fatal(err)
		}
		if got := OutBonus(r); got != tc.out {
			t.Errorf("OutBonus(%s) = %d, want %d", tc.rack, got, tc.out)
		}
		if got := EndByScorelessAdjustment(r); got != tc.scoreless {
			t.Errorf("EndByScorelessAdjustment(%s) = %d, want %d", tc.rack, got, tc.scoreless)
		}
	}
}

func TestGameOver(t *testing.T) {
	tests := []struct {
		name      string
		bag       int
		racks     [2]int
		scoreless int
		want      bool
	}{
		{"start", 86, [2]int{7, 7}, 0, false},
		{"bag empty, both hold tiles", 0, [2]int{3, 7}, 0, false},
		{"first player out", 0, [2]int{0, 4}, 0, true},
		{"second player out", 0, [2]int{5, 0}, 0, true},
		{"empty rack but tiles left to draw", 2, [2]int{0, 7}, 0, false},
		{"five scoreless", 40, [2]int{7, 7}, 5, false},
		{"six scoreless", 40, [2]int{7, 7}, 6, true},
		{"six scoreless in the endgame", 0, [2]int{2, 3}, 6, true},
	}
	for _, tc := range tests {
		if got := GameOver(tc.bag, tc.racks, tc.scoreless); got != tc.want {
			t.Errorf("%s: GameOver(%d, %v, %d) = %v, want %v", tc.name, tc.bag, tc.racks, tc.scoreless, got, tc.want)
		}
	}
}
