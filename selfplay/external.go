package selfplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"scrabble/game"
	"scrabble/move"
	"scrabble/position"
	"scrabble/protocol"
	"scrabble/rules"
)

// ExternalPrefix starts the name of a player that is another program
// speaking the engine protocol: "external:scrabble engine" runs the program
// "scrabble" with the argument "engine" (words split at spaces; no shell).
const ExternalPrefix = "external:"

// externalPlayer plays the moves an engine program chooses, asked through
// the engine protocol (package protocol): each turn it sends the position
// as CGP (the board, its own rack, every player's score from its own on in
// turn order, the scoreless turns and the lexicon's name) and "go" with the player's go arguments, and plays the
// bestmove. The program starts on the player's first move, and one program
// serves all of the player's games.
type externalPlayer struct {
	name    string
	argv    []string
	goArgs  string
	stderr  io.Writer
	c       *protocol.Client
	lex     string
	seats   int
	newGame bool
}

func newExternalPlayer(name string, o PlayerOptions) (game.Player, error) {
	argv := strings.Fields(strings.TrimPrefix(name, ExternalPrefix))
	if len(argv) == 0 {
		return nil, errors.New(`an external player names its program: external:'PROGRAM ARGS', e.g. external:'scrabble engine'`)
	}
	switch {
	case o.Leaves != nil:
		return nil, errors.New("an external player takes no leave values: the program has its own (setoption in its engine protocol)")
	case !o.Terms.IsZero():
		return nil, errors.New("an external player takes no equity terms")
	case o.Infer != nil, o.Endgame > 0, o.PEG > 0:
		return nil, errors.New("an external player's program chooses every move itself: no inference, endgame or pre-endgame settings")
	}
	return &externalPlayer{name: name, argv: argv, goArgs: o.Go, stderr: o.EngineStderr}, nil
}

func (p *externalPlayer) Name() string { return p.name }

func (p *externalPlayer) StartGame(s game.Start) {
	p.lex = s.Tables.Lexicon().Header().Name
	p.seats = s.Seats
	p.newGame = true
}

func (p *externalPlayer) Observe(int, *move.Move) {}

func (p *externalPlayer) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	if p.c == nil {
		c, err := protocol.Start(p.argv, p.stderr)
		if err != nil {
			return move.Move{}, fmt.Errorf("external player: %w", err)
		}
		p.c = c
	}
	if p.newGame {
		if err := p.c.NewGame(ctx); err != nil {
			return move.Move{}, err
		}
		p.newGame = false
	}
	pos := position.Position{Board: *v.Board, Lexicon: p.lex, ZeroTurns: v.Scoreless}
	pos.Racks[0] = v.Rack
	// The scores from the mover on, in turn order, as CGP has them.
	for k := range v.Seats {
		pos.Scores[k] = v.Scores[(v.Seat+k)%v.Seats]
	}
	if v.Seats > 2 {
		pos.Seats = v.Seats
	}
	best, _, err := p.c.Best(ctx, pos.CGP(), p.goArgs)
	if err != nil {
		return move.Move{}, err
	}
	m, err := protocol.ParseMove(best, v.Board)
	if err != nil {
		return move.Move{}, fmt.Errorf("engine %s: bestmove %q: %w", p.argv[0], best, err)
	}
	if m.Kind == move.Play || m.Kind == move.Exchange {
		if !v.Rack.Contains(m.Used()) {
			return move.Move{}, fmt.Errorf("engine %s: bestmove %s uses tiles not on the rack %s", p.argv[0], best, v.Rack)
		}
	}
	if m.Kind == move.Exchange && !rules.CanExchange(v.BagLen) {
		return move.Move{}, fmt.Errorf("engine %s: bestmove %s exchanges with %d tiles in the bag", p.argv[0], best, v.BagLen)
	}
	return m, nil
}

// Close ends the program.
func (p *externalPlayer) Close() error {
	if p.c == nil {
		return nil
	}
	err := p.c.Close()
	p.c = nil
	return err
}
