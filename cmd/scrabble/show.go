package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"scrabble/rules"
)

func newShowCmd(a *app) *cobra.Command {
	var board, format, color string
	cmd := &cobra.Command{
		Use:   "show --board FILE",
		Short: "Show a board position",
		Long: `Read a position from FILE ('-' for standard input) and print it.

A position is either a grid (15 lines of 15 squares: '.' empty, A-Z a tile,
a-z a blank) or one line of CGP. The text format draws the board with its
premium squares, then the racks and scores if the position has them; the cgp
format prints the position as one line of CGP.`,
		Example: `  scrabble show --board position.txt
  scrabble show --board game.cgp --color never
  echo '15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AEINRST/ 10/0 0' | scrabble show --board -`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if board == "" {
				return usagef("show needs --board FILE ('-' for standard input)")
			}
			if format != "text" && format != "cgp" {
				return usagef("--format must be text or cgp, not %q", format)
			}
			var useColor bool
			switch color {
			case "always":
				useColor = true
			case "never":
			case "auto":
				useColor = isTerminal(a.stdout) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
			default:
				return usagef("--color must be auto, always or never, not %q", color)
			}
			p, err := a.readPosition(board)
			if err != nil {
				return err
			}
			a.warnShownPhonies(board, p)
			if format == "cgp" {
				_, err := fmt.Fprintln(a.stdout, p.CGP())
				return err
			}
			if err := rules.RenderBoard(a.stdout, &p.Board, useColor); err != nil {
				return err
			}
			return printGameState(a.stdout, p)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP); '-' reads standard input")
	f.StringVarP(&format, "format", "f", "text", "output format: text or cgp")
	f.StringVar(&color, "color", "auto", "colour the board: auto (when printing to a terminal), always or never")
	return cmd
}

// readPosition parses the position in file, or standard input for "-".
func (a *app) readPosition(file string) (*rules.Position, error) {
	var (
		data []byte
		err  error
		name = file
	)
	if file == "-" {
		name = "<stdin>"
		data, err = io.ReadAll(a.stdin)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, fmt.Errorf("reading position: %w", err)
	}
	return rules.ParsePosition(name, data)
}

// printGameState prints the racks, scores and other state below the board
// when the position has any.
func printGameState(w io.Writer, p *rules.Position) error {
	if p.Racks[0].Count() == 0 && p.Racks[1].Count() == 0 && p.Scores == [2]int{} &&
		p.ZeroTurns == 0 && p.Lexicon == "" {
		return nil
	}
	rack := func(r rules.Rack) string {
		if r.Count() == 0 {
			return "-"
		}
		return r.String()
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "To move:   %-8s  score %d\n", rack(p.Racks[0]), p.Scores[0])
	fmt.Fprintf(w, "Opponent:  %-8s  score %d\n", rack(p.Racks[1]), p.Scores[1])
	if p.ZeroTurns > 0 {
		fmt.Fprintf(w, "Scoreless turns: %d\n", p.ZeroTurns)
	}
	if p.Lexicon != "" {
		fmt.Fprintf(w, "Lexicon: %s\n", p.Lexicon)
	}
	return nil
}
