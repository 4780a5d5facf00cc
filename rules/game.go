package rules

// End-of-game rules as played under NASPA (two players).

const (
	// MaxScorelessTurns ends the game: six consecutive scoreless turns
	// (passes, exchanges, plays lost to a challenge), counted over both
	// players, mean neither side is making progress.
	MaxScorelessTurns = 6
	// ExchangeMinBag is the fewest tiles the bag must hold for an exchange:
	// a player may only exchange while a full rack's worth remains.
	ExchangeMinBag = 7
)

// CanExchange reports whether the bag is full enough for an exchange.
func CanExchange(bagLen int) bool { return bagLen >= ExchangeMinBag }

// GameOverByScoreless reports whether that many consecutive scoreless turns
// end the game.
func GameOverByScoreless(consecutiveScoreless int) bool {
	return consecutiveScoreless >= MaxScorelessTurns
}

// OutBonus is what the player who goes out gains: in a two-player game they
// receive twice the face value of the tiles left on the opponent's rack
// (instead of the opponent losing them), which has the same effect on the
// spread.
func OutBonus(opponentRack Rack) int { return OutBonusOfValue(opponentRack.Value()) }

// OutBonusOfValue is OutBonus of a rack whose tiles' face value is v.
func OutBonusOfValue(v int) int { return 2 * v }

// EndByScorelessAdjustment is the change to a player's score when the game
// ends on six scoreless turns: nobody went out, so each player loses the face
// value of their own rack.
func EndByScorelessAdjustment(rack Rack) int { return -rack.Value() }

// GameOver reports whether the game has ended: a player has emptied their
// rack after the bag ran out (a rack can only empty once no tiles are left to
// draw), or there have been six consecutive scoreless turns.
func GameOver(bagLen int, rackLens [2]int, scoreless int) bool {
	if bagLen == 0 && (rackLens[0] == 0 || rackLens[1] == 0) {
		return true
	}
	return GameOverByScoreless(scoreless)
}
