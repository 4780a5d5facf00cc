package rules

import (
	"fmt"
	"strings"
)

// The rules of games of two to four players, and the settings the rule
// sheets leave to the players: the challenge rule, the tiebreak and the
// target-score variant. (The game and replay code still plays two; these
// are the rules they grow into.)

const (
	// MinPlayers and MaxPlayers bound a game: the box holds four racks.
	MinPlayers = 2
	MaxPlayers = 4
)

// CheckPlayers reports an error unless n players can play a game.
func CheckPlayers(n int) error {
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("%d players: a game has %d to %d", n, MinPlayers, MaxPlayers)
	}
	return nil
}

// Tiebreak decides between players whose final scores are equal.
type Tiebreak uint8

const (
	// TiebreakNASPA: equal final scores are a draw (tournament practice).
	TiebreakNASPA Tiebreak = iota
	// TiebreakHasbro: the higher score before the end-of-game adjustments
	// wins; still equal is a draw (the box's rule sheet).
	TiebreakHasbro
)

var tiebreakNames = [...]string{TiebreakNASPA: "naspa", TiebreakHasbro: "hasbro"}

func (t Tiebreak) String() string {
	if int(t) < len(tiebreakNames) {
		return tiebreakNames[t]
	}
	return fmt.Sprintf("tiebreak(%d)", uint8(t))
}

// ParseTiebreak reads a tiebreak by name: naspa or hasbro.
func ParseTiebreak(s string) (Tiebreak, error) {
	for i, n := range tiebreakNames {
		if strings.EqualFold(s, n) {
			return Tiebreak(i), nil
		}
	}
	return 0, fmt.Errorf("unknown tiebreak %q: naspa (a tie is a draw) or hasbro (the higher score before the end-of-game adjustments wins)", s)
}

// ChallengeRule is what happens when a play is challenged, by the names the
// CGP format's cr opcode uses.
type ChallengeRule uint8

const (
	// ChallengeDouble: a phony is taken back and its player loses the
	// turn; a challenger who is wrong loses their next turn (NASPA, and
	// the rule sheets).
	ChallengeDouble ChallengeRule = iota
	// ChallengeSingle: a phony is taken back; a wrong challenge costs
	// nothing.
	ChallengeSingle
	// ChallengeVoid: a phony cannot be played at all (the word is checked
	// as it is placed), so there is nothing to challenge.
	ChallengeVoid
	// ChallengeFivePoint and ChallengeTenPoint: a wrong challenge gives
	// the player challenged 5 or 10 points instead of costing a turn.
	ChallengeFivePoint
	ChallengeTenPoint
)

var challengeNames = [...]string{
	ChallengeDouble: "double", ChallengeSingle: "single", ChallengeVoid: "void",
	ChallengeFivePoint: "5pt", ChallengeTenPoint: "10pt",
}

func (c ChallengeRule) String() string {
	if int(c) < len(challengeNames) {
		return challengeNames[c]
	}
	return fmt.Sprintf("challenge(%d)", uint8(c))
}

// ParseChallengeRule reads a challenge rule by its CGP name: single,
// double, void, 5pt or 10pt.
func ParseChallengeRule(s string) (ChallengeRule, error) {
	for i, n := range challengeNames {
		if strings.EqualFold(s, n) {
			return ChallengeRule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown challenge rule %q: single, double, void, 5pt or 10pt", s)
}

// WrongChallenge is what a challenge of a valid play costs under c: the
// challenger's next turn, or points given to the player challenged.
func (c ChallengeRule) WrongChallenge() (losesTurn bool, bonus int) {
	switch c {
	case ChallengeDouble:
		return true, 0
	case ChallengeFivePoint:
		return false, 5
	case ChallengeTenPoint:
		return false, 10
	}
	return false, 0
}

// PhoniesPlayable reports whether a play forming a word not in the
// lexicon may be placed at all (and then challenged off): not under void.
func (c ChallengeRule) PhoniesPlayable() bool { return c != ChallengeVoid }

// EndAdjustments returns each player's end-of-game change of score, given
// the tiles left on every rack and the player who went out (-1 when six
// scoreless turns ended the game: then each player loses the face value of
// their own tiles). With three or four players, as the rule sheet says,
// each player loses their tiles' value and the player who went out gains
// the sum of everyone else's. With two, as NASPA scores it, the player who
// went out gains twice the opponent's tiles and the opponent loses
// nothing: the same spread as the rule sheet's, and what recorded games
// show.
func EndAdjustments(racks []Rack, out int) []int {
	adj := make([]int, len(racks))
	switch {
	case out < 0:
		for i := range racks {
			adj[i] = EndByScorelessAdjustment(racks[i])
		}
	case len(racks) == 2:
		adj[out] = OutBonus(racks[1-out])
	default:
		for i := range racks {
			if i != out {
				v := racks[i].Value()
				adj[i] = -v
				adj[out] += v
			}
		}
	}
	return adj
}

// GameEnded reports whether a game of len(rackLens) players has ended: a
// player has emptied their rack with the bag empty, or there have been six
// consecutive scoreless turns counted over all players.
func GameEnded(bagLen int, rackLens []int, scoreless int) bool {
	if bagLen == 0 {
		for _, n := range rackLens {
			if n == 0 {
				return true
			}
		}
	}
	return GameOverByScoreless(scoreless)
}

// TargetReached reports whether a game played to target points has ended:
// some player's score has reached it (checked at the end of each turn).
// A target of 0 or less is no target.
func TargetReached(scores []int, target int) bool {
	if target <= 0 {
		return false
	}
	for _, s := range scores {
		if s >= target {
			return true
		}
	}
	return false
}

// SuggestedTargets are the rule sheet's targets for a game to a target
// score: a short, a middling and a long game for that many players.
func SuggestedTargets(players int) ([3]int, error) {
	switch players {
	case 2:
		return [3]int{70, 120, 200}, nil
	case 3:
		return [3]int{60, 100, 180}, nil
	case 4:
		return [3]int{50, 90, 160}, nil
	}
	return [3]int{}, CheckPlayers(players)
}

// Places ranks the players of a finished game: place 1 is the winner, and
// players the tiebreak cannot separate share a place (the next place is
// then skipped, as in 1, 1, 3). final are the final scores;
// beforeAdjustments the scores before the end-of-game adjustments, read
// only by the Hasbro tiebreak.
func Places(final, beforeAdjustments []int, tb Tiebreak) []int {
	places := make([]int, len(final))
	for i := range final {
		places[i] = 1
		for j := range final {
			if ranksAbove(j, i, final, beforeAdjustments, tb) {
				places[i]++
			}
		}
	}
	return places
}

// ranksAbove reports whether player a finished above player b.
func ranksAbove(a, b int, final, before []int, tb Tiebreak) bool {
	if final[a] != final[b] {
		return final[a] > final[b]
	}
	return tb == TiebreakHasbro && before[a] > before[b]
}
