package gcg

import (
	"fmt"
	"slices"
	"strings"

	"scrabble/move"
	"scrabble/rules"
)

// Replay is a game applied event by event with the engine's rules.
type Replay struct {
	Game *Game
	// Steps has one entry per event, in order.
	Steps []Step
	// Turns are the moves (plays, exchanges and passes) in order.
	Turns []Turn
	// Problems lists, in order, every line that could not be applied as
	// recorded or whose score or total disagrees with the engine's; each
	// names the file and line.
	Problems []Error
	Board    rules.Board // the board after the last event
	// Totals are the engine's final totals and Recorded the file's, by
	// player (entries past the players are 0).
	Totals   [rules.MaxPlayers]int
	Recorded [rules.MaxPlayers]int
	// Challenge is the challenge rule the events were checked against,
	// and ChallengeFrom where it came from (see ReplayOptions).
	Challenge     rules.ChallengeRule
	ChallengeFrom ChallengeSource
}

// ChallengeSource says where a replay's challenge rule came from.
type ChallengeSource uint8

const (
	// ChallengeInferred: neither the caller nor the file gave a rule; it
	// was read off the challenge bonuses (all 5 points: 5pt; all 10:
	// 10pt), else NASPA's double.
	ChallengeInferred ChallengeSource = iota
	// ChallengeFromFile: the file's #challenge-rule.
	ChallengeFromFile
	// ChallengeFromOptions: ReplayOptions.Challenge.
	ChallengeFromOptions
)

func (s ChallengeSource) String() string {
	switch s {
	case ChallengeFromFile:
		return "the file's #challenge-rule"
	case ChallengeFromOptions:
		return "given"
	}
	return "inferred from the file's challenge bonuses"
}

// ReplayOptions are the settings of a replay.
type ReplayOptions struct {
	// Challenge, when set, is the challenge rule the game was played
	// under; it overrides the file's #challenge-rule. When nil the file's
	// is used, and with none the rule is inferred (see ChallengeInferred).
	Challenge *rules.ChallengeRule
}

// Step is what one event did.
type Step struct {
	// Turn is the number of the turn the event belongs to: its own for a
	// move, the last move's for the other kinds (0 before any move).
	Turn int
	// Score is the engine's points for the event: the play's score, twice or
	// once the tiles' face value at the end, minus the withdrawn play's
	// score. Challenge bonuses and time penalties, and plays that could not
	// be placed, count as recorded.
	Score int
	// Totals are the engine's cumulative scores after the event, Recorded
	// the file's (the other players' carried forward), by player.
	Totals, Recorded [rules.MaxPlayers]int
	// Applied is false when the event could not be applied as recorded
	// (see Replay.Problems).
	Applied bool
}

// Turn is a move and the position before it.
type Turn struct {
	Number int // 1-based
	Event  int // index in Game.Events
	Player int
	// Rack is the rack as recorded (empty when not given; it may hold
	// only the tiles that were seen).
	Rack rules.Rack
	// Board, Totals, Recorded and Scoreless are as they were before the
	// move: the board, the engine's and the file's cumulative scores, and
	// the number of consecutive scoreless turns (over all players).
	Board            rules.Board
	Totals, Recorded [rules.MaxPlayers]int
	Scoreless        int
	// BagLen is the number of tiles in the bag before the move, from the
	// board: every player's rack is full while the bag holds tiles.
	BagLen int
	// Move is the move as read on the board. An exchange known only by its
	// count has Len 0 and NumTiles the count.
	Move move.Move
	// Placed says a play's tiles went on the board; false when the play
	// could not be read on it.
	Placed bool
	// Withdrawn says the play was taken back ("--").
	Withdrawn bool
	// LostChallenge says the move is a pass that is the turn the player
	// lost by challenging a play that stood (double challenge): a pass
	// noted "#unsuccessful-challenge" (as Macondo writes it), or one right
	// after the previous player went out, or followed by that player's
	// points for going out (the game would have ended there but for the
	// challenge).
	LostChallenge bool
	// Score is the move's score (before any withdrawal): the engine's, or
	// the recorded one when Scored is false.
	Score  int
	Scored bool
}

// Leave is the rack after the move as far as the record tells: the
// recorded rack less the tiles played or exchanged (all of it after a
// pass or a withdrawn play).
func (t *Turn) Leave() rules.Rack {
	r := t.Rack
	if t.Move.Kind == move.Pass || t.Withdrawn || t.Move.Kind == move.Play && !t.Placed || t.Move.Len == 0 && t.Move.Kind == move.Exchange {
		return r
	}
	used := t.Move.Used()
	for i := range r {
		r[i] -= min(r[i], used[i])
	}
	return r
}

// BagLen is the number of tiles in the bag of a game of players players
// while every rack is full: the set less the board and the racks.
func BagLen(b *rules.Board, players int) int {
	return max(0, rules.TileCount()-b.TileCount()-players*rules.RackSize)
}

type replayer struct {
	r         *Replay
	n         int // players
	board     rules.Board
	totals    [rules.MaxPlayers]int
	recorded  [rules.MaxPlayers]int
	scoreless int
	last      [rules.MaxPlayers]int // index in Turns of each player's last move, -1 for none
	// prevMover is the player of the last move, -1 before any.
	prevMover int
	// out is the player whose points for going out have been counted, -1
	// for none.
	out int
	// ended is the line of the sixth consecutive scoreless turn, which ends
	// the game (0 while it goes on); penalized says which players' end
	// penalty lines have been read since.
	ended     int
	penalized [rules.MaxPlayers]bool
	// after counts the lines after the end that are not applied, the last
	// of them on line lastAfter; the problem at index summary stands for
	// those past maxAfterEnd.
	after, lastAfter, summary int
	// dropped counts the lines not applied after maxProblems problems, the
	// first on line firstDropped and the last on lastDropped.
	dropped, firstDropped, lastDropped int
}

// maxProblems is how many problems a replay reports before it gives up on
// the file: no line after is applied, and one more problem covers them. A
// real game has far fewer lines than this, and only a file made up (of
// plays that cannot be placed, each scoring as recorded) could otherwise
// replay into a game of any length.
const maxProblems = 100

// maxAfterEnd is how many lines after the end of the game get a problem
// each; one more problem covers the rest, so that a file of 100,000 passes
// gives a short report.
const maxAfterEnd = 10

// Replay applies the events on an empty board with the engine's rules
// (rules.CheckPlacement and ScorePlay; no dictionary) and checks every
// score and cumulative total. A line that cannot be applied as recorded is
// a problem, and the game goes on as recorded where it can: a play whose
// letters disagree with the board still puts down its new tiles, a play
// that cannot be placed at all, or a score the engine cannot work out
// (a challenge bonus, a time penalty), counts the recorded points.
//
// Checked: each play's placement, its tiles against the recorded rack and
// the rack against the tiles left unseen, its score; exchanges (tiles on
// the rack, at least 7 in the bag, scoring 0) and passes (0); a withdrawn
// play ("--") taking back the player's last move, a play, and losing its
// score; end-of-game points against the racks when the record shows them;
// each recorded total against the previous total plus the score; the
// order of turn: each move is the next player's after the previous move
// (play passes to the left, #player1, #player2, ... and round again; a
// turn lost to a challenge is written as that player's pass).
//
// The end of the game: with two players the player who went out gains
// twice the opponent's tiles ("(TILES) +N"); with three or four, as the
// rule sheet says, the sum of every other player's tiles, written on one
// line with their tiles together, and each other player loses their own
// ("RACK (RACK) -N", rules.EndAdjustments).
//
// Six consecutive scoreless turns (passes, exchanges, plays scoring 0 or
// withdrawn, counted over all players; rules.MaxScorelessTurns) end the
// game, as under NASPA rules:
// after them only end penalties (each player once: their own tiles' value,
// rules.EndByScorelessAdjustment), time penalties, challenge bonuses and a
// withdrawal of the last play (before any line that is not applied) are
// applied. Any other line after the end is a problem and is
// not applied (its step changes no engine total; Recorded still follows the
// file); past the first ten such lines one problem covers the rest. After
// 100 problems the replay stops in the same way.
//
// Challenges are checked against the game's challenge rule (see
// ReplayOptions and ReplayWith): under void no phony is withdrawn and there
// is no challenge bonus; under single no bonus and no turn lost; under 5pt
// and 10pt a bonus of exactly 5 or 10 points to the player whose play was
// challenged and stood, right after that play, and no turn lost; under
// double no bonus (the challenger of a valid play loses a turn instead: a
// pass, see Turn.LostChallenge). Under every rule a phony withdrawn is the
// last move, its player's, whose turn it was.
func (g *Game) Replay() *Replay { return g.ReplayWith(ReplayOptions{}) }

// ReplayWith replays the game with opts (see Replay).
func (g *Game) ReplayWith(opts ReplayOptions) *Replay {
	rp := &replayer{r: &Replay{Game: g}, summary: -1, prevMover: -1, out: -1, n: len(g.Players)}
	for i := range rp.last {
		rp.last[i] = -1
	}
	rp.r.Challenge, rp.r.ChallengeFrom = challengeRule(g, opts)
	if err := rules.CheckPlayers(rp.n); err != nil {
		// A game built in code: Parse reads only 2 to 4 players.
		rp.r.Problems = append(rp.r.Problems, Error{File: g.File, Msg: err.Error()})
		rp.n = min(rp.n, rules.MaxPlayers)
	}
	for i := range g.Events {
		rp.event(i)
	}
	if rp.summary >= 0 {
		pr := &rp.r.Problems[rp.summary]
		pr.Msg = fmt.Sprintf("the game ended after six consecutive scoreless turns (line %d): this line and %d more after it, to line %d, are not applied",
			rp.ended, rp.after-maxAfterEnd-1, rp.lastAfter)
	}
	if rp.dropped > 0 {
		rp.r.Problems = append(rp.r.Problems, Error{File: g.File, Line: rp.firstDropped,
			Msg: fmt.Sprintf("the replay stopped after %d problems: this line and %d more after it, to line %d, are not applied", maxProblems, rp.dropped-1, rp.lastDropped)})
	}
	r := rp.r
	r.Board, r.Totals, r.Recorded = rp.board, rp.totals, rp.recorded
	return r
}

// challengeRule picks the rule a replay checks: the caller's, the file's,
// or one read off the challenge bonuses.
func challengeRule(g *Game, opts ReplayOptions) (rules.ChallengeRule, ChallengeSource) {
	if opts.Challenge != nil {
		return *opts.Challenge, ChallengeFromOptions
	}
	if g.ChallengeRule != "" {
		if c, err := rules.ParseChallengeRule(g.ChallengeRule); err == nil {
			return c, ChallengeFromFile
		}
	}
	// The first bonus tells; with none, NASPA's rule.
	i := slices.IndexFunc(g.Events, func(e Event) bool { return e.Kind == ChallengeBonus })
	switch {
	case i >= 0 && g.Events[i].Score == 5:
		return rules.ChallengeFivePoint, ChallengeInferred
	case i >= 0 && g.Events[i].Score == 10:
		return rules.ChallengeTenPoint, ChallengeInferred
	}
	return rules.ChallengeDouble, ChallengeInferred
}

func (rp *replayer) problem(e *Event, format string, args ...any) {
	rp.r.Problems = append(rp.r.Problems, Error{File: rp.r.Game.File, Line: e.Line, Msg: fmt.Sprintf(format, args...)})
}

func (rp *replayer) nick(p int) string { return rp.r.Game.Players[p].Nick }

// afterEnd reports whether event e comes after the end of the game and may
// not be applied there, and reports it as a problem.
func (rp *replayer) afterEnd(e *Event) bool {
	if rp.ended == 0 {
		return false
	}
	why := ""
	switch e.Kind {
	case TimePenalty, ChallengeBonus:
		return false
	case Withdrawn:
		if rp.after == 0 {
			return false // the play that ended the game, challenged off
		}
		why = "-- is not applied"
	case EndPenalty:
		if !rp.penalized[e.Player] {
			rp.penalized[e.Player] = true
			return false
		}
		why = fmt.Sprintf("%s's tiles have already been counted", rp.nick(e.Player))
	case EndPoints:
		why = "nobody went out, so nobody gets points for the opponent's tiles: each player loses their own tiles' value (RACK (TILES) -N)"
	default:
		why = fmt.Sprintf("%s is not applied", e.Move())
	}
	rp.after++
	rp.lastAfter = e.Line
	switch {
	case rp.after <= maxAfterEnd:
		rp.problem(e, "the game ended after six consecutive scoreless turns (line %d): %s", rp.ended, why)
	case rp.after == maxAfterEnd+1:
		rp.summary = len(rp.r.Problems)
		rp.problem(e, "") // worded once the last line is known
	}
	return true
}

func (rp *replayer) event(i int) {
	g := rp.r.Game
	e := &g.Events[i]
	p := e.Player
	if p < 0 || p >= rp.n {
		// A game built in code: Parse gives every event a player.
		rp.problem(e, "player %d does not exist: the game has %d players", p+1, len(g.Players))
		rp.r.Steps = append(rp.r.Steps, Step{Turn: len(rp.r.Turns), Totals: rp.totals, Recorded: rp.recorded})
		return
	}
	if len(rp.r.Problems) >= maxProblems {
		if rp.dropped == 0 {
			rp.firstDropped = e.Line
		}
		rp.dropped++
		rp.lastDropped = e.Line
	}
	if rp.dropped > 0 || rp.afterEnd(e) {
		rp.recorded[p] = e.Total
		rp.r.Steps = append(rp.r.Steps, Step{Turn: len(rp.r.Turns), Totals: rp.totals, Recorded: rp.recorded})
		return
	}
	score, scored, applied := e.Score, false, true
	switch e.Kind {
	case Play, Exchange, Pass:
		t := rp.move(i)
		score, scored, applied = t.Score, t.Scored, t.Move.Kind != move.Play || t.Placed
		if score > 0 {
			rp.scoreless = 0
		} else {
			rp.scoreless++
		}
	case Withdrawn:
		score, scored, applied = rp.withdraw(e)
	case ChallengeBonus:
		if e.Score < 0 {
			rp.problem(e, "a challenge bonus cannot take points away (%+d)", e.Score)
		}
		rp.checkBonus(e)
	case TimePenalty:
		if e.Score > 0 {
			rp.problem(e, "a time penalty cannot add points (%+d)", e.Score)
		}
	case EndPoints:
		score, scored = rp.endPoints(e), true
	case EndPenalty:
		score, scored = rules.EndByScorelessAdjustment(e.Tiles), true
		if rp.out == p {
			rp.problem(e, "%s went out: they hold no tiles to lose", rp.nick(p))
		}
		if e.Rack.Count() > 0 && e.Rack != e.Tiles {
			rp.problem(e, "the rack %s and the tiles (%s) differ", e.Rack, e.Tiles)
		} else if left, ok := rp.left(p); ok && left != e.Tiles {
			rp.problem(e, "%s holds %s, not %s", rp.nick(p), rackName(left), e.Tiles)
		}
	}
	if scored && score != e.Score {
		rp.problem(e, "recorded score %+d, but the engine scores %s %+d", e.Score, e.Move(), score)
	}
	if want := rp.recorded[p] + e.Score; e.Total != want {
		rp.problem(e, "cumulative score %d, but %d %+d = %d", e.Total, rp.recorded[p], e.Score, want)
	}
	if rp.ended == 0 && (e.Kind.IsMove() || e.Kind == Withdrawn) && rules.GameOverByScoreless(rp.scoreless) {
		rp.ended = e.Line
	}
	rp.totals[p] += score
	rp.recorded[p] = e.Total
	rp.r.Steps = append(rp.r.Steps, Step{
		Turn:     len(rp.r.Turns),
		Score:    score,
		Totals:   rp.totals,
		Recorded: rp.recorded,
		Applied:  applied,
	})
}

// endPoints checks the points for going out and returns the engine's:
// twice the opponent's tiles with two players, the sum of the others'
// tiles with more (rules.EndAdjustments).
func (rp *replayer) endPoints(e *Event) int {
	p := e.Player
	if rp.out >= 0 {
		rp.problem(e, "%s already got the points for going out (only one player goes out)", rp.nick(rp.out))
	}
	rp.out = p
	// The others' tiles, when the record shows them all.
	var others rules.Rack
	known := true
	for q := range rp.n {
		if q == p {
			continue
		}
		left, ok := rp.left(q)
		if !ok {
			known = false
			break
		}
		for i := range others {
			others[i] += left[i]
		}
	}
	if known && others != e.Tiles {
		who := "the others hold"
		if rp.n == 2 {
			who = rp.nick(1-p) + " holds"
		}
		rp.problem(e, "%s %s, not %s", who, rackName(others), e.Tiles)
	}
	if left, ok := rp.left(p); ok && left.Count() > 0 {
		rp.problem(e, "%s gets the points for going out but still holds %s", rp.nick(p), left)
	}
	if rp.n == 2 {
		return rules.OutBonus(e.Tiles)
	}
	return e.Tiles.Value()
}

// checkBonus checks a challenge bonus against the challenge rule: only
// 5pt and 10pt give one, of exactly that many points, to the player whose
// play was challenged and stood, right after it.
func (rp *replayer) checkBonus(e *Event) {
	c := rp.r.Challenge
	_, bonus := c.WrongChallenge()
	if bonus == 0 {
		why := "a wrong challenge costs nothing"
		switch c {
		case rules.ChallengeVoid:
			why = "nothing is challenged: a phony cannot be played"
		case rules.ChallengeDouble:
			why = "a wrong challenge costs the challenger a turn, not points"
		}
		rp.problem(e, "a challenge bonus, but under the %s challenge rule (%s) %s", c, rp.r.ChallengeFrom, why)
		return
	}
	if e.Score != bonus {
		rp.problem(e, "challenge bonus %+d, but the %s challenge rule (%s) gives %+d", e.Score, c, rp.r.ChallengeFrom, bonus)
	}
	turns := rp.r.Turns
	switch {
	case len(turns) == 0:
		rp.problem(e, "a challenge bonus before any play")
	case turns[len(turns)-1].Player != e.Player:
		rp.problem(e, "the challenge bonus goes to the player whose play was challenged, but the last move is %s's", rp.nick(turns[len(turns)-1].Player))
	case turns[len(turns)-1].Move.Kind != move.Play:
		rp.problem(e, "a challenge bonus for a %s: only a play is challenged", turns[len(turns)-1].Move.Kind)
	case turns[len(turns)-1].Withdrawn:
		rp.problem(e, "a challenge bonus for a play taken back: the challenge succeeded")
	}
}

func rackName(r rules.Rack) string {
	if r.Count() == 0 {
		return "no tiles"
	}
	return r.String()
}

// move applies a play, an exchange or a pass and records its turn.
func (rp *replayer) move(i int) *Turn {
	e := &rp.r.Game.Events[i]
	p := e.Player
	t := Turn{
		Number:    len(rp.r.Turns) + 1,
		Event:     i,
		Player:    p,
		Rack:      e.Rack,
		Board:     rp.board,
		Totals:    rp.totals,
		Recorded:  rp.recorded,
		Scoreless: rp.scoreless,
		BagLen:    BagLen(&rp.board, rp.n),
		Score:     e.Score,
	}
	// Play passes to the left: the next player after the last mover.
	if prev := rp.prevMover; prev >= 0 {
		switch next := (prev + 1) % rp.n; {
		case p == prev:
			rp.problem(e, "%s moves twice in a row (also turn %d)", rp.nick(p), rp.r.Turns[rp.last[p]].Number)
		case p != next:
			rp.problem(e, "out of turn: after %s (turn %d) it is %s's turn (#player%d), not %s's (#player%d): play passes from #player1 to #player%d and round again",
				rp.nick(prev), rp.r.Turns[rp.last[prev]].Number, rp.nick(next), next+1, rp.nick(p), p+1, rp.n)
		}
	}
	rp.prevMover = p
	if e.Rack.Count() > 0 {
		if _, err := rules.Unseen(&rp.board, e.Rack); err != nil {
			rp.problem(e, "the rack %s does not fit the tiles left: %v", e.Rack, err)
		}
	}
	switch e.Kind {
	case Play:
		rp.play(e, &t)
	case Exchange:
		t.Move = move.Move{Kind: move.Exchange, NumTiles: int8(e.Count)}
		if tiles := e.Tiles.Tiles(); len(tiles) > 0 {
			copy(t.Move.Tiles[:], tiles)
			t.Move.Len = int8(len(tiles))
			if e.Rack.Count() > 0 && !e.Rack.Contains(e.Tiles) {
				rp.problem(e, "cannot exchange %s: %s", e.Tiles, missing(e.Rack, e.Tiles))
			}
		} else if n := e.Rack.Count(); n > 0 && e.Count > n {
			rp.problem(e, "cannot exchange %d tiles from the rack %s", e.Count, e.Rack)
		}
		if !rules.CanExchange(t.BagLen) {
			rp.problem(e, "cannot exchange with %d tiles in the bag (%d needed)", t.BagLen, rules.ExchangeMinBag)
		}
		t.Score, t.Scored = 0, true
	case Pass:
		t.Move = move.Move{Kind: move.Pass}
		t.Score, t.Scored = 0, true
		rp.lostChallenge(i, &t)
	}
	rp.r.Turns = append(rp.r.Turns, t)
	rp.last[p] = len(rp.r.Turns) - 1
	return &rp.r.Turns[len(rp.r.Turns)-1]
}

// lostChallenge marks a pass that is a turn lost to a wrong challenge
// (see Turn.LostChallenge) and checks the challenge rule allows one.
func (rp *replayer) lostChallenge(i int, t *Turn) {
	g := rp.r.Game
	e := &g.Events[i]
	why := ""
	if slices.Contains(strings.Split(e.Note, "\n"), "#unsuccessful-challenge") {
		why = "noted #unsuccessful-challenge"
	} else if n := len(rp.r.Turns); n > 0 {
		prev := &rp.r.Turns[n-1]
		if prev.Player != t.Player && prev.Move.Kind == move.Play && prev.Placed && !prev.Withdrawn {
			if left, ok := rp.left(prev.Player); ok && left.Count() == 0 && prev.BagLen == 0 {
				why = fmt.Sprintf("%s went out on line %d", rp.nick(prev.Player), g.Events[prev.Event].Line)
			}
			for j := i + 1; why == "" && j < len(g.Events) && !g.Events[j].Kind.IsMove(); j++ {
				if o := &g.Events[j]; o.Kind == EndPoints && o.Player == prev.Player {
					why = fmt.Sprintf("%s's points for going out follow on line %d", rp.nick(prev.Player), o.Line)
				}
			}
		}
	}
	if why == "" {
		return
	}
	t.LostChallenge = true
	if c := rp.r.Challenge; c != rules.ChallengeDouble {
		rp.problem(e, "a turn lost to a challenge (%s), but under the %s challenge rule (%s) a wrong challenge costs no turn", why, c, rp.r.ChallengeFrom)
	}
}

// play reads a play on the board, checks it and puts its tiles down.
func (rp *replayer) play(e *Event, t *Turn) {
	m, err := move.Parse(e.Position+" "+e.Word, &rp.board)
	if err != nil {
		forced, ferr := forcePlay(e.Position, e.Word, &rp.board)
		if ferr != nil {
			rp.problem(e, "cannot place %s: %v", e.Move(), unquote(err))
			return
		}
		rp.problem(e, "%s: %v; the new tiles are placed as recorded", e.Move(), unquote(err))
		m = forced
	}
	t.Move = m
	placed := m.Placed()
	if err := rp.board.CheckPlacement(placed); err != nil {
		rp.problem(e, "%s: %v", e.Move(), err)
	} else {
		t.Score, t.Scored = int(m.Score), true
	}
	if e.Rack.Count() > 0 {
		if used := m.Used(); !e.Rack.Contains(used) {
			rp.problem(e, "%s: %s", e.Move(), missing(e.Rack, used))
		}
	}
	rp.board.Apply(placed)
	t.Placed = true
	if e.Rack.Count() == 0 {
		on := rp.board.TileCounts()
		for s := range on {
			if on[s] > rules.Distribution()[s] {
				rp.problem(e, "%s: the board now holds %d %s, the set only %d", e.Move(), on[s], tileName(s), rules.Distribution()[s])
			}
		}
	}
}

// unquote drops movegen's "move %q: " prefix: the problem names the move.
func unquote(err error) string {
	s := err.Error()
	if strings.HasPrefix(s, "move \"") {
		if i := strings.Index(s, "\": "); i >= 0 {
			return s[i+3:]
		}
	}
	return s
}

func tileName(slot int) string {
	if slot == 0 {
		return "blanks"
	}
	return string(rune('A'+slot-1)) + "s"
}

// missing says which tiles are not on the rack.
func missing(rack, want rules.Rack) string {
	var short rules.Rack
	for i := range want {
		if want[i] > rack[i] {
			short[i] = want[i] - rack[i]
		}
	}
	if short.Count() == 1 {
		return fmt.Sprintf("tile %s is not on the rack %s", short, rack)
	}
	return fmt.Sprintf("tiles %s are not on the rack %s", short, rack)
}

// forcePlay reads a play whose letters disagree with the board: every
// square that holds a tile counts as played through, whatever the word says
// there. It fails when the play runs off the board or marks an empty square
// as holding a tile.
func forcePlay(pos, word string, b *rules.Board) (move.Move, error) {
	if !isPosition(pos) {
		return move.Move{}, fmt.Errorf("bad position %q", pos)
	}
	u := strings.ToUpper(pos)
	var row, col int
	dir := rules.Across
	if u[0] >= 'A' && u[0] <= 'Z' {
		dir, col = rules.Down, int(u[0]-'A')
		fmt.Sscan(u[1:], &row)
	} else {
		col = int(u[len(u)-1] - 'A')
		fmt.Sscan(u[:len(u)-1], &row)
	}
	row--
	var sb strings.Builder
	inParens, i := false, 0
	for _, ch := range word {
		switch ch {
		case '(':
			inParens = true
			continue
		case ')':
			inParens = false
			continue
		}
		r, c := row, col+i
		if dir == rules.Down {
			r, c = row+i, col
		}
		i++
		if !rules.InBounds(r, c) {
			return move.Move{}, fmt.Errorf("%s %s runs off the board", pos, word)
		}
		switch {
		case b.At(r, c) != rules.Empty:
			sb.WriteByte('.')
		case ch == '.' || inParens:
			return move.Move{}, fmt.Errorf("%s %s marks the empty square %s as holding a tile", pos, word, rules.SquareName(r, c))
		default:
			sb.WriteRune(ch)
		}
	}
	return move.Parse(pos+" "+sb.String(), b)
}

// withdraw takes back the player's last move, which must be a play.
func (rp *replayer) withdraw(e *Event) (score int, scored, applied bool) {
	turns := rp.r.Turns
	if len(turns) == 0 {
		rp.problem(e, "-- takes back no play: no move yet")
		return e.Score, false, false
	}
	t := &turns[len(turns)-1]
	switch {
	case t.Player != e.Player:
		rp.problem(e, "-- takes back no play: the last move is %s's", rp.nick(t.Player))
		return e.Score, false, false
	case t.Move.Kind != move.Play:
		rp.problem(e, "-- takes back no play: the last move is a %s", t.Move.Kind)
		return e.Score, false, false
	case t.Withdrawn:
		rp.problem(e, "-- takes back a play already taken back")
		return e.Score, false, false
	}
	if c := rp.r.Challenge; !c.PhoniesPlayable() {
		rp.problem(e, "a play withdrawn, but under the %s challenge rule (%s) a phony cannot be played", c, rp.r.ChallengeFrom)
	}
	t.Withdrawn = true
	rp.board = t.Board
	rp.scoreless = t.Scoreless + 1
	return -t.Score, t.Scored, true
}

// left returns the tiles player p holds when the record shows them: their
// last move was made from a recorded rack and nothing was drawn after it,
// because the bag was empty, or because it was a pass or a withdrawn play
// from a full rack (all of which the record then shows).
func (rp *replayer) left(p int) (rules.Rack, bool) {
	i := rp.last[p]
	if i < 0 {
		return rules.Rack{}, false
	}
	t := &rp.r.Turns[i]
	if t.Rack.Count() == 0 || t.Move.Kind == move.Play && !t.Placed {
		return rules.Rack{}, false
	}
	kept := t.Move.Kind == move.Pass || t.Withdrawn
	if t.BagLen > 0 && !(kept && t.Rack.Count() == rules.RackSize) {
		return rules.Rack{}, false
	}
	return t.Leave(), true
}

// Places ranks the players by their recorded final totals (rules.Places:
// 1 the winner, equal players sharing a place). The tiebreak tb decides
// equal totals; Hasbro's compares the totals before the end of the game's
// lines (points for going out, tiles lost).
func (r *Replay) Places(tb rules.Tiebreak) []int {
	n := min(len(r.Game.Players), rules.MaxPlayers)
	final := r.Recorded[:n]
	before := append([]int(nil), final...)
	for i := range r.Game.Events {
		if e := &r.Game.Events[i]; (e.Kind == EndPoints || e.Kind == EndPenalty) && e.Player >= 0 && e.Player < n {
			before[e.Player] -= e.Score
		}
	}
	return rules.Places(final, before, tb)
}
