package review

import (
	"encoding/json"
	"io"

	"scrabble/move"
	"scrabble/rules"
)

// Report is a reviewed game. Its JSON form (WriteJSON) is a stable
// contract: the field names below keep their names and meaning; new fields
// may be added.
type Report struct {
	File  string `json:"file"`
	Title string `json:"title,omitempty"`
	// Lexicon is the lexicon the review used; Evaluation how moves were
	// valued: "static" (score plus leave values) or the ranker's name.
	Lexicon    string `json:"lexicon"`
	Evaluation string `json:"evaluation"`
	// ChallengeRule is the challenge rule the replay checked the game
	// against, when the file (#challenge-rule) or the caller
	// (Options.Challenge) gave one; "" when it was inferred from the file
	// (see gcg.ChallengeInferred).
	ChallengeRule string `json:"challenge_rule,omitempty"`
	// Players are the game's players, 2 to 4, in their order of turn;
	// every per-player list below has one entry each.
	Players []Player `json:"players"`
	// Turns are the reviewed players' turns in order.
	Turns   []Turn  `json:"turns"`
	Summary Summary `json:"summary"`
	// Timeline has every player's totals after every turn of the game.
	Timeline []Point `json:"timeline"`
	// Recorded and Computed are the final totals, by player: the file's and
	// the engine's.
	Recorded []int `json:"recorded_final"`
	Computed []int `json:"computed_final"`
	// Places ranks the players of a game of more than two by their
	// recorded final totals (1 the winner; equal places share a rank,
	// under Options.Tiebreak); nil for two players.
	Places   []int  `json:"places,omitempty"`
	Tiebreak string `json:"tiebreak,omitempty"` // with Places: naspa or hasbro
	// Notes say what the review could not do as asked, e.g. the endgame
	// solver on a game of more than two players.
	Notes []string `json:"notes,omitempty"`
	// Problems lists every line that could not be applied as recorded.
	Problems []Problem `json:"problems"`
	// Interrupted is the number of the turn the review was interrupted at
	// (that turn and the later ones are not in Turns), 0 for a whole review.
	Interrupted int `json:"interrupted_at_turn,omitempty"`
}

// Player is one of the players.
type Player struct {
	Nick string `json:"nick"`
	Name string `json:"name"` // the full name, or the nickname
}

// Turn is one reviewed turn.
type Turn struct {
	Turn   int    `json:"turn"`   // 1-based number among all the game's moves
	Line   int    `json:"line"`   // of the move in the file
	Player string `json:"player"` // nickname
	Rack   string `json:"rack"`   // as recorded, alphabetical, '?' last
	// Played is the move made, valued like the engine's moves; Score is
	// what the turn scored (0 for a play taken back) and Equity what it
	// yielded (for a play taken back: nothing scored, the rack kept).
	Played Move    `json:"played"`
	Score  int     `json:"score"`
	Equity float64 `json:"equity"`
	// RecordedTotal and ComputedTotal are the player's cumulative score
	// after the turn (with a withdrawal or a challenge bonus that belongs
	// to it): the file's and the engine's.
	RecordedTotal int `json:"recorded_total"`
	ComputedTotal int `json:"computed_total"`
	// Reviewed is false when the turn could not be reviewed; Skipped says
	// why.
	Reviewed bool   `json:"reviewed"`
	Skipped  string `json:"skipped,omitempty"`
	// Best are the engine's best moves, best first.
	Best []Move `json:"best"`
	// EquityLost is the best move's equity less what the turn yielded
	// (negative when a phony that stood beat every legal move). With a
	// ranker it is the best value less the move made's value, unless the
	// ranker could not value them (flag "not_ranked").
	EquityLost float64 `json:"equity_lost"`
	// Rank is the place of the move made among all legal moves by static
	// equity (1: nothing was better); 0 when it was not legal. Moves counts
	// the legal moves.
	Rank  int `json:"rank"`
	Moves int `json:"moves"`
	// Flags: "missed_bingo", "phony", "withdrawn", "not_ranked",
	// "lost_challenge" (a pass that is the turn lost by challenging a play
	// that stood; such a turn is skipped).
	Flags []string `json:"flags"`
	// Phonies are the words of the play made that the lexicon lacks.
	Phonies []string `json:"phonies,omitempty"`
	// BestBingo is the best bingo the player missed.
	BestBingo *Move `json:"best_bingo,omitempty"`
	// Endgame is the endgame solver's verdict on a turn played with the
	// bag empty (Options.EndgameNodes); EquityLost is then the spread
	// given up against perfect play.
	Endgame *Endgame `json:"endgame,omitempty"`
	// PEG is the pre-endgame solver's verdict on a turn played with 1 to
	// PEGMaxBag tiles in the bag (Options.PEG).
	PEG  *PEG   `json:"peg,omitempty"`
	Note string `json:"note,omitempty"`

	board  rules.Board // before the move
	seat   int         // player index
	played move.Move   // the move made
	best   move.Move   // the engine's choice
}

// Flags a turn may carry.
const (
	// FlagMissedBingo: a bingo was possible and the move made was not one
	// (a phony or withdrawn bingo misses it too).
	FlagMissedBingo = "missed_bingo"
	// FlagPhony: the play made formed a word the lexicon lacks.
	FlagPhony = "phony"
	// FlagWithdrawn: the play was challenged off.
	FlagWithdrawn = "withdrawn"
	// FlagNotRanked: the ranker could not value the move made or the best,
	// so equity_lost is by static equity.
	FlagNotRanked = "not_ranked"
	// FlagLostChallenge: the turn is a pass that the player did not choose:
	// they challenged the opponent's play in vain and lost their turn. It
	// is skipped (not reviewed) and left out of the summary's equity.
	FlagLostChallenge = "lost_challenge"
)

// Move is a move in a report: the fields of "scrabble moves --json" and a
// few more.
type Move struct {
	move.Description
	Bingo bool `json:"bingo"` // all seven tiles placed
	// Value is the ranker's value, when a ranker was used and could
	// value the move.
	Value *float64 `json:"value,omitempty"`

	m move.Move
}

// Summary sums up the reviewed turns.
type Summary struct {
	Players []PlayerSummary `json:"players"`
	// Costliest are the turns that gave up the most equity, most first.
	Costliest []Costly `json:"costliest"`
}

// PlayerSummary sums up one player's reviewed turns.
type PlayerSummary struct {
	Player         string  `json:"player"`
	Turns          int     `json:"turns"`   // reviewed
	Skipped        int     `json:"skipped"` // not reviewed
	EquityLost     float64 `json:"equity_lost"`
	MeanEquityLost float64 `json:"mean_equity_lost"` // per reviewed turn
	BestMoves      int     `json:"best_moves"`       // turns that lost nothing
	MissedBingos   int     `json:"missed_bingos"`
	Phonies        int     `json:"phonies"`
}

// Costly is a turn that gave up equity.
type Costly struct {
	// File is the game's file; set only in a Collection's summary.
	File       string  `json:"file,omitempty"`
	Turn       int     `json:"turn"`
	Player     string  `json:"player"`
	Played     string  `json:"played"`
	Best       string  `json:"best"`
	EquityLost float64 `json:"equity_lost"`

	game int // index in Collection.Games
}

// Point is the score after a turn: Recorded and Computed by player.
type Point struct {
	Turn     int    `json:"turn"`
	Player   string `json:"player"` // who moved
	Recorded []int  `json:"recorded"`
	Computed []int  `json:"computed"`
}

// Problem is a line of the game that could not be applied as recorded.
type Problem struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// WriteJSON writes the report as one indented JSON object.
func WriteJSON(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
