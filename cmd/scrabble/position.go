package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"scrabble/gcg"
	"scrabble/lexica"
	"scrabble/move"
	"scrabble/position"
)

func newPositionCmd(a *app) *cobra.Command {
	var (
		turn          int
		format, color string
	)
	cmd := &cobra.Command{
		Use:   "position GAME.gcg --turn N",
		Short: "Show the position before a turn of a recorded game (GCG)",
		Long: `Replay a recorded game (GCG) up to turn N and print the position before it:
the board with the move of turn N-1 marked, a legend of the marks, that
move, the rack of the player to move and the scores, the unseen tiles (as
in 'scrabble show'), then the same position as one line of CGP, ready for
'scrabble best' or 'scrabble moves'. The CGP carries the move of turn N-1
as its lm opcode ("lm 8D WO.D;", with "+5" for a bonus from a challenge
that failed, "lm challenge 8D WO.D;" for a play challenged off, "lm -ABC;"
or "lm -;").

Turns are the moves (plays, exchanges and passes) counted from 1 over both
players; a withdrawn play, a challenge bonus or a time penalty belongs to the
turn before it. --turn one past the last turn shows the end of the game (with
the racks of #rack1/#rack2, if the file has them). The rack is the one
recorded on the turn's line; the opponent's is left unknown, so the bag is
worked out as the unseen tiles less a full rack. Lines before the turn that
the replay could not apply as recorded are noted on stderr.`,
		Example: `  scrabble position game.gcg --turn 12
  scrabble position game.gcg --turn 12 --format cgp | scrabble best --board -`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if format != "text" && format != "cgp" {
				return usagef("--format must be text or cgp, not %q", format)
			}
			useColor, err := colorSetting(color, a.stdout)
			if err != nil {
				return err
			}
			g, err := a.readGame(argv[0])
			if err != nil {
				return err
			}
			r := g.Replay()
			last := len(r.Turns) + 1
			if turn < 1 || turn > last {
				return usagef("--turn must be from 1 to %d (%s has %s; %d is the end of the game), not %d",
					last, gameName(argv[0]), plural(len(r.Turns), "turn"), last, turn)
			}
			pos, head := positionBefore(g, r, turn)
			for _, p := range r.Problems {
				if turn == last || p.Line < g.Events[r.Turns[turn-1].Event].Line {
					fmt.Fprintf(a.stderr, "scrabble: note: %v\n", &p)
				}
			}
			if format == "cgp" {
				_, err := fmt.Fprintln(a.stdout, pos.CGP())
				return err
			}
			fmt.Fprintln(a.stdout, head)
			fmt.Fprintln(a.stdout)
			if err := printPosition(a.stdout, pos, useColor); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "\nCGP: %s\n", pos.CGP())
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVarP(&turn, "turn", "t", 0, "the turn to show the position before (1: the first move)")
	f.StringVarP(&format, "format", "f", "text", "output format: text (board, racks, scores and CGP) or cgp (the CGP line only)")
	f.StringVar(&color, "color", "auto", "colour the board: auto (when printing to a terminal), always or never")
	return cmd
}

// twoPlayers refuses a game of more than two players: positions are
// two-player in this build.
func twoPlayers(g *gcg.Game, file string) error {
	if n := len(g.Players); n > 2 {
		return fmt.Errorf("%s: positions of %d-player games: not in this build (a position holds two racks and two scores)", gameName(file), n)
	}
	return nil
}

// positionBefore returns the position before turn n (1-based; one past the
// last turn is the end) and a line saying whose turn it is. Racks and
// scores run from the player to move on, in turn order.
func positionBefore(g *gcg.Game, r *gcg.Replay, n int) (*position.Position, string) {
	pos := &position.Position{}
	if lexica.ValidName(g.Lexicon) {
		pos.Lexicon = g.Lexicon // a name CGP can carry
	}
	players := len(g.Players)
	if players > 2 {
		pos.Seats = players
	}
	if n > len(r.Turns) {
		mover := 0
		if k := len(r.Turns); k > 0 {
			mover = (r.Turns[k-1].Player + 1) % players
		}
		pos.Board = r.Board
		for k := range players {
			pos.Racks[k] = g.Racks[(mover+k)%players]
			pos.Scores[k] = r.Recorded[(mover+k)%players]
		}
		pos.SetLastMove(lastMoveBefore(g, r, n))
		return pos, fmt.Sprintf("After the last turn (%s): %s to move", plural(len(r.Turns), "turn"), g.Players[mover].Nick)
	}
	t := &r.Turns[n-1]
	e := &g.Events[t.Event]
	pos.Board = t.Board
	pos.Racks[0] = t.Rack
	for k := range players {
		pos.Scores[k] = t.Recorded[(t.Player+k)%players]
	}
	pos.ZeroTurns = t.Scoreless
	pos.SetLastMove(lastMoveBefore(g, r, n))
	return pos, fmt.Sprintf("Before turn %d (line %d): %s to move; played %s %+d",
		n, e.Line, g.Players[t.Player].Nick, e.Move(), e.Score)
}

// lastMoveBefore returns the move of the turn before turn n (1-based; one
// past the last turn is the end, after the last turn) as the CGP lm opcode
// gives it: with a play's challenge bonus, or challenged off when it was
// withdrawn. It is nil before the first turn and for a play the replay
// could not read on the board.
func lastMoveBefore(g *gcg.Game, r *gcg.Replay, n int) *position.LastMove {
	if n < 2 || n-2 >= len(r.Turns) {
		return nil
	}
	t := &r.Turns[n-2]
	m := &position.LastMove{}
	switch t.Move.Kind {
	case move.Pass:
		m.Kind = position.LastPass
	case move.Exchange:
		m.Kind, m.Count = position.LastExchange, int(t.Move.NumTiles)
		if t.Move.Len > 0 {
			m.Exchanged = t.Move.Used()
		}
	default:
		if !t.Placed {
			return nil
		}
		m.Kind, m.Play, m.ChallengedOff = position.LastPlay, t.Move.Placed(), t.Withdrawn
		// The events up to the next turn belong to this one.
		end := len(g.Events)
		if n-1 < len(r.Turns) {
			end = r.Turns[n-1].Event
		}
		for _, e := range g.Events[t.Event+1 : end] {
			if e.Kind == gcg.ChallengeBonus {
				m.HasBonus = true
				m.Bonus += e.Score
			}
		}
	}
	return m
}

// readGame reads and parses a GCG file, or standard input for "-".
func (a *app) readGame(file string) (*gcg.Game, error) {
	if file == "-" {
		return gcg.Read("<stdin>", a.stdin)
	}
	return gcg.ReadFile(file)
}

func gameName(file string) string {
	if file == "-" {
		return "the game on standard input"
	}
	return file
}

// colorSetting turns --color into whether to colour the board.
func colorSetting(color string, w io.Writer) (bool, error) {
	switch color {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return isTerminal(w) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb", nil
	}
	return false, usagef("--color must be auto, always or never, not %q", color)
}
