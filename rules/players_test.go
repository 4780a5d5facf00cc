package rules

import (
	"slices"
	"strings"
	"testing"
)

func racksOf(t *testing.T, s ...string) []Rack {
	t.Helper()
	out := make([]Rack, len(s))
	for i, r := range s {
		rack, err := ParseRack(r)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = rack
	}
	return out
}

// TestEndAdjustments works the rule sheet's end of game by hand: with
// three or four players each loses their tiles' value and the player who
// went out gains the others' sum; with two, NASPA's twice the opponent's
// tiles; after six scoreless turns everyone loses their own.
func TestEndAdjustments(t *testing.T) {
	for _, c := range []struct {
		name  string
		racks []string
		out   int
		want  []int
	}{
		// B: Q 10 + E 1; C: X 8 + Y 4 + blank 0.
		{"three players, the first out", []string{"", "QE", "XY?"}, 0, []int{23, -11, -12}},
		// A: 1+3; B: 10; D: K 5 + J 8.
		{"four players, the third out", []string{"AB", "Z", "", "KJ"}, 2, []int{-4, -10, 27, -13}},
		{"four players, the others' racks empty but one", []string{"", "", "", "V"}, 1, []int{0, 4, 0, -4}},
		{"two players (NASPA: twice the opponent's)", []string{"QZ?", ""}, 1, []int{0, 40}},
		{"three players, six scoreless turns", []string{"AE", "Q", "?"}, -1, []int{-2, -10, 0}},
		{"two players, six scoreless turns", []string{"JX", "B"}, -1, []int{-16, -3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := EndAdjustments(racksOf(t, c.racks...), c.out)
			if !slices.Equal(got, c.want) {
				t.Fatalf("EndAdjustments(%q, %d) = %v, want %v", c.racks, c.out, got, c.want)
			}
			sum := 0
			for _, v := range got {
				sum += v
			}
			if len(c.racks) > 2 && c.out >= 0 && sum != 0 {
				t.Fatalf("adjustments %v do not sum to 0", got)
			}
		})
	}
}

// TestPlaces: the tiebreak separates equal final scores under hasbro by the
// scores before the adjustments, and never under naspa; players it cannot
// separate share a place and the next place is skipped.
func TestPlaces(t *testing.T) {
	for _, c := range []struct {
		name          string
		final, before []int
		naspa, hasbro []int
	}{
		{"a clear order", []int{310, 420, 280}, []int{300, 410, 290}, []int{2, 1, 3}, []int{2, 1, 3}},
		{"a tie for first", []int{300, 300, 250}, []int{290, 305, 260}, []int{1, 1, 3}, []int{2, 1, 3}},
		{"a tie hasbro cannot break", []int{300, 300}, []int{310, 310}, []int{1, 1}, []int{1, 1}},
		{"four players, two ties", []int{200, 250, 200, 250}, []int{215, 240, 200, 262}, []int{3, 1, 3, 1}, []int{3, 2, 4, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Places(c.final, c.before, TiebreakNASPA); !slices.Equal(got, c.naspa) {
				t.Errorf("naspa: %v, want %v", got, c.naspa)
			}
			if got := Places(c.final, c.before, TiebreakHasbro); !slices.Equal(got, c.hasbro) {
				t.Errorf("hasbro: %v, want %v", got, c.hasbro)
			}
		})
	}
}

func TestGameEnded(t *testing.T) {
	for _, c := range []struct {
		bag       int
		racks     []int
		scoreless int
		want      bool
	}{
		{0, []int{3, 0, 5}, 0, true},
		{0, []int{3, 2, 5, 7}, 0, false},
		{4, []int{7, 0, 7}, 0, false}, // a rack empties only with the bag empty; not an end
		{20, []int{7, 7, 7, 7}, 5, false},
		{20, []int{7, 7, 7, 7}, 6, true}, // six over all players, not six each
	} {
		if got := GameEnded(c.bag, c.racks, c.scoreless); got != c.want {
			t.Errorf("GameEnded(%d, %v, %d) = %v, want %v", c.bag, c.racks, c.scoreless, got, c.want)
		}
	}
}

func TestTargetScore(t *testing.T) {
	if TargetReached([]int{69, 12}, 70) || !TargetReached([]int{12, 70, 3}, 70) || TargetReached([]int{500}, 0) {
		t.Error("TargetReached: a score reaching the target ends the game; no target never does")
	}
	for players, want := range map[int][3]int{2: {70, 120, 200}, 3: {60, 100, 180}, 4: {50, 90, 160}} {
		if got, err := SuggestedTargets(players); err != nil || got != want {
			t.Errorf("SuggestedTargets(%d) = %v, %v; want %v", players, got, err, want)
		}
	}
	for _, n := range []int{0, 1, 5} {
		if _, err := SuggestedTargets(n); err == nil || !strings.Contains(err.Error(), "2 to 4") {
			t.Errorf("SuggestedTargets(%d): %v, want an error naming 2 to 4", n, err)
		}
	}
}

func TestSettingsByName(t *testing.T) {
	for _, c := range []struct {
		name      string
		rule      ChallengeRule
		losesTurn bool
		bonus     int
		phonies   bool
	}{
		{"double", ChallengeDouble, true, 0, true},
		{"single", ChallengeSingle, false, 0, true},
		{"void", ChallengeVoid, false, 0, false},
		{"5pt", ChallengeFivePoint, false, 5, true},
		{"10PT", ChallengeTenPoint, false, 10, true},
	} {
		r, err := ParseChallengeRule(c.name)
		if err != nil || r != c.rule || !strings.EqualFold(r.String(), c.name) {
			t.Errorf("ParseChallengeRule(%q) = %v, %v", c.name, r, err)
		}
		if lt, b := r.WrongChallenge(); lt != c.losesTurn || b != c.bonus || r.PhoniesPlayable() != c.phonies {
			t.Errorf("%s: wrong challenge (%v, %d), phonies %v", r, lt, b, r.PhoniesPlayable())
		}
	}
	if _, err := ParseChallengeRule("triple"); err == nil || !strings.Contains(err.Error(), "10pt") {
		t.Errorf("an unknown challenge rule: %v", err)
	}
	for _, n := range []string{"naspa", "Hasbro"} {
		tb, err := ParseTiebreak(n)
		if err != nil || !strings.EqualFold(tb.String(), n) {
			t.Errorf("ParseTiebreak(%q) = %v, %v", n, tb, err)
		}
	}
	if _, err := ParseTiebreak("coin"); err == nil {
		t.Error("an unknown tiebreak was read")
	}
	if CheckPlayers(2) != nil || CheckPlayers(4) != nil || CheckPlayers(5) == nil || CheckPlayers(1) == nil {
		t.Error("CheckPlayers: 2 to 4")
	}
}
