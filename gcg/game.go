// Package gcg reads and writes recorded games in the GCG format
// (poslfit.com/scrabble/gcg) and replays them with the engine's rules.
//
// A file is pragma lines ("#player1 nick Full Name", "#lexicon NWL23",
// "#note ...") and event lines, one per move or score change:
//
//	>nick: AEINRST 8D RETAINS +66 66     a play (across: row then column)
//	>nick: DGIOSU? H4 .OUsING +70 136    down (column then row); '.' or "(O)" a tile on the board, lower case a blank
//	>nick: EIIOUUV -IIUUV +0 66          an exchange (-3 when only the count is known)
//	>nick: AEFLORT - +0 66               a pass
//	>nick: AEFLORT -- -24 42             the previous play withdrawn (a phony challenged off)
//	>nick: AEFLORT (challenge) +5 71     bonus for a play challenged in vain
//	>nick: AEFLORT (time) -10 61         time penalty
//	>nick:  (DIV) +14 420                going out: twice the opponent's tiles
//	>nick: EIQ (EIQ) -12 380             the player's own tiles when the game ends otherwise
//
// A game has 2 to 4 players (#player1 to #player4), who move in that order
// of turn (play passes to the left), and may carry the challenge rule it
// was played under ("#challenge-rule double"; see ReplayOptions). With
// three or four players the end of the game follows the rule sheet: the
// player who went out gains the sum of everyone else's tiles, ">nick:
// (TILES) +N" with every other player's tiles together, and each other
// player loses their own, ">nick: RACK (RACK) -N".
//
// Parse builds a Game (syntax only: every line is checked for its shape and
// every error names the file and line); Replay applies it on a board and
// checks every score; Write writes a Game back.
package gcg

import (
	"strconv"

	"scrabble/rules"
)

// Game is a recorded game: what its pragmas say and its events in order.
type Game struct {
	// File names the source in problems and errors ("" for a game built in
	// code). Write ignores it.
	File string
	// Players are #player1 to #playerN, 2 to rules.MaxPlayers of them, in
	// their order of turn. Events refer to them by index.
	Players []Player
	Title   string // #title
	// Description (#description) and notes may span lines, joined by "\n".
	Description string
	Lexicon     string // #lexicon, e.g. "NWL23"; "" if not given
	ID          string // #id: authority and identifier, as written
	// Note holds #note lines that come before the first event.
	Note string
	// ChallengeRule is #challenge-rule, the rule the game was played under
	// by its rules.ChallengeRule name ("double", "5pt", ...); "" if not
	// given. No common program writes this pragma: the engine's own.
	ChallengeRule string
	// Racks are #rack1 to #rack4: the racks when a game stops part-way,
	// by player (empty past the players).
	Racks [rules.MaxPlayers]rules.Rack
	// Pragmas keeps every other pragma, in order, so that they are written
	// back.
	Pragmas []Pragma
	Events  []Event
}

// Player is one of the players.
type Player struct {
	Nick string // the name event lines use: no spaces
	Name string // the full name; may be empty
}

// DisplayName is the full name, or the nickname when there is none.
func (p Player) DisplayName() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Nick
}

// Pragma is a pragma the model has no field for: "#name value".
type Pragma struct {
	Name, Value string
}

// Kind says what an event does.
type Kind uint8

const (
	// Play places tiles: ">nick: RACK 8D WORD +score total".
	Play Kind = iota + 1
	// Exchange swaps tiles with the bag: "-TILES", or "-N" when only the
	// count is known.
	Exchange
	// Pass: "-".
	Pass
	// Withdrawn takes back the player's previous play, a phony challenged
	// off: "--" with minus that play's score.
	Withdrawn
	// ChallengeBonus is the bonus for a play challenged in vain:
	// "(challenge) +N".
	ChallengeBonus
	// TimePenalty is points lost for overtime: "(time) -N".
	TimePenalty
	// EndPoints are the points for going out: "(TILES) +N", twice the face
	// value of the opponent's tiles with two players, the sum of every
	// other player's tiles with more.
	EndPoints
	// EndPenalty is the face value of the player's own tiles when the game
	// ends without them going out: "RACK (TILES) -N".
	EndPenalty
)

func (k Kind) String() string {
	switch k {
	case Play:
		return "play"
	case Exchange:
		return "exchange"
	case Pass:
		return "pass"
	case Withdrawn:
		return "withdrawn"
	case ChallengeBonus:
		return "challenge bonus"
	case TimePenalty:
		return "time penalty"
	case EndPoints:
		return "end points"
	case EndPenalty:
		return "end penalty"
	}
	return "unknown"
}

// IsMove reports whether the event is a player's turn: a play, an exchange
// or a pass. The other kinds change the score only.
func (k Kind) IsMove() bool { return k == Play || k == Exchange || k == Pass }

// Event is one event line.
type Event struct {
	// Line is the 1-based line of the event in its file (0 when built in
	// code).
	Line   int
	Kind   Kind
	Player int // 0 for #player1, 1 for #player2, ...
	// Rack is the rack before the event as recorded; empty when the line
	// gives none. It may hold only the tiles that were seen.
	Rack rules.Rack
	// Position ("8D" across, "D8" down) and Word (the whole main word as
	// written: '.' or "(X)" for a tile already on the board, lower case for
	// a blank) describe a play.
	Position, Word string
	// Tiles are the tiles exchanged (empty when only Count is known), or the
	// tiles in parentheses of EndPoints and EndPenalty.
	Tiles rules.Rack
	// Count is the number of tiles exchanged.
	Count int
	// Score is the points the event adds: negative for Withdrawn,
	// TimePenalty and EndPenalty.
	Score int
	// Total is the player's cumulative score after the event.
	Total int
	// Note holds the #note lines after the event.
	Note string
}

// Move writes the event's move as GCG does: "8D WORD", "-ABC", "-3", "-",
// "--", "(challenge)", "(time)" or "(TILES)".
func (e *Event) Move() string {
	switch e.Kind {
	case Play:
		return e.Position + " " + e.Word
	case Exchange:
		if e.Tiles.Count() == 0 {
			return "-" + strconv.Itoa(e.Count)
		}
		return "-" + e.Tiles.String()
	case Pass:
		return "-"
	case Withdrawn:
		return "--"
	case ChallengeBonus:
		return "(challenge)"
	case TimePenalty:
		return "(time)"
	case EndPoints, EndPenalty:
		return "(" + e.Tiles.String() + ")"
	}
	return "?"
}
