package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"scrabble/internal/readlimit"
	"scrabble/position"
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
premium squares and a legend of the marks (= triple word, - double word,
" triple letter, ' double letter, * the centre), then the racks and scores
if the position has them, and the unseen tiles: the full set less the board
and the rack to move, grouped by letter as on a tracking sheet, with how
many are in the bag and on the opponent's rack (all of them once the bag is
empty). A CGP "lm" opcode (the last move, e.g. "lm 8D WO.D;") is shown
under the board and its new tiles are marked: in colour on orange, without
colour in brackets ("[W O]R[D]", R having been on the board).

The cgp format prints the position as one line of CGP, its opcodes (lm
included) as read.`,
		Example: `  scrabble show --board position.txt
  scrabble show --board game.cgp --color never
  echo '15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 EINRST?/ 10/0 0 lm 8G CAT;' | scrabble show --board - --color never
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
			return printPosition(a.stdout, p, useColor)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP); '-' reads standard input")
	f.StringVarP(&format, "format", "f", "text", "output format: text or cgp")
	f.StringVar(&color, "color", "auto", "colour the board: auto (when printing to a terminal), always or never")
	return cmd
}

// readPosition parses the position in file, or standard input for "-".
func (a *app) readPosition(file string) (*position.Position, error) {
	var (
		data []byte
		err  error
		name = file
	)
	if file == "-" {
		name = "<stdin>"
		data, err = readlimit.ReadAll(name, a.stdin, readlimit.Position, "a position")
	} else {
		data, err = readlimit.ReadFile(file, readlimit.Position, "a position")
	}
	if err != nil {
		return nil, fmt.Errorf("reading position: %w", err)
	}
	return position.Parse(name, data)
}

// printPosition prints the board (the last move's new tiles highlighted
// when the position knows it), a legend of the marks, and the state below.
func printPosition(w io.Writer, p *position.Position, color bool) error {
	last, err := p.LastMove()
	if err != nil {
		return fmt.Errorf("last move: %w", err) // a parsed position was validated: not reached
	}
	var placed []int
	if last != nil {
		placed = last.NewSquares()
	}
	if err := position.RenderBoardWith(w, &p.Board, position.RenderOptions{Color: color, Highlight: placed}); err != nil {
		return err
	}
	if err := position.RenderLegend(w, color, len(placed) > 0); err != nil {
		return err
	}
	lastLine := ""
	if last != nil {
		lastLine = describeLastMove(last, &p.Board)
	}
	return printGameState(w, p, lastLine)
}

// describeLastMove says what the last move did for people: a play with the
// tiles it played through in parentheses, and the squares of its new tiles.
func describeLastMove(m *position.LastMove, b *rules.Board) string {
	switch m.Kind {
	case position.LastPass:
		return "pass (lm -)"
	case position.LastExchange:
		if m.Exchanged.Count() > 0 {
			return fmt.Sprintf("exchange of %s (lm %s)", m.Exchanged, m)
		}
		return fmt.Sprintf("exchange of %s (lm %s)", plural(m.Count, "tile"), m)
	}
	var word strings.Builder
	dr, dc := 0, 1
	if m.Play.Dir == rules.Down {
		dr, dc = 1, 0
	}
	open := false
	for i, t := range m.Play.Tiles {
		r, c := m.Play.Row+i*dr, m.Play.Col+i*dc
		through := t == rules.PlayedThrough
		if through != open {
			if through {
				word.WriteByte('(')
			} else {
				word.WriteByte(')')
			}
			open = through
		}
		switch {
		case !through:
			word.WriteRune(t.Rune())
		case b.At(r, c) == rules.Empty:
			word.WriteByte('.')
		default:
			word.WriteRune(b.At(r, c).Rune())
		}
	}
	if open {
		word.WriteByte(')')
	}
	play := m.Play.Coordinate() + " " + word.String()
	if m.ChallengedOff {
		return play + ", challenged off: its tiles went back to the rack"
	}
	var squares []string
	for _, sq := range m.NewSquares() {
		squares = append(squares, rules.SquareName(sq/rules.Size, sq%rules.Size))
	}
	s := fmt.Sprintf("%s, new tiles on %s", play, strings.Join(squares, " "))
	if m.HasBonus {
		s += fmt.Sprintf("; challenged in vain (+%d)", m.Bonus)
	}
	return s
}

// printGameState prints below the board the last move (lastMove, when
// not ""), the racks, scores and other state when the position has any,
// then the unseen tiles.
func printGameState(w io.Writer, p *position.Position, lastMove string) error {
	hasState := p.Racks != [rules.MaxPlayers]rules.Rack{} || p.Scores != [rules.MaxPlayers]int{} ||
		p.ZeroTurns != 0 || p.Lexicon != "" || p.Players() != 2
	if lastMove != "" || hasState {
		fmt.Fprintln(w)
	}
	if lastMove != "" {
		fmt.Fprintf(w, "Last move: %s\n", lastMove)
	}
	if hasState {
		rack := func(r rules.Rack) string {
			if r.Count() == 0 {
				return "-"
			}
			return r.String()
		}
		names := []string{"To move:", "Opponent:"}
		if n := p.Players(); n > 2 {
			names = []string{"To move:", "Next:", "Third:", "Fourth:"}[:n]
		}
		for k, name := range names {
			fmt.Fprintf(w, "%-10s %-8s  score %d\n", name, rack(p.Racks[k]), p.Scores[k])
		}
		if p.ZeroTurns > 0 {
			fmt.Fprintf(w, "Scoreless turns: %d\n", p.ZeroTurns)
		}
		if p.Lexicon != "" {
			fmt.Fprintf(w, "Lexicon: %s\n", p.Lexicon)
		}
	}
	return printUnseen(w, p)
}

// printUnseen prints the tiles the player to move cannot see, as a player
// tracks them: the full set less the board and their rack, grouped by
// letter ("AAAA B CC ... ??"), and how they split between the bag and the
// other players' racks. Racks refill from the bag while it has tiles, so
// each other player holds 7 of them while the bag has tiles; once it is
// empty, the others hold every unseen tile (with two players, the
// opponent; with more, split in a way the position does not say).
func printUnseen(w io.Writer, p *position.Position) error {
	unseen, err := rules.Unseen(&p.Board, p.Racks[0])
	if err != nil {
		return fmt.Errorf("unseen tiles: %w", err) // a parsed position was validated: not reached
	}
	n := unseen.Count()
	players := p.Players()
	others := (players - 1) * rules.RackSize // tiles on the other racks while the bag has tiles
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Unseen:    %s\n", groupTiles(unseen))
	var known rules.Rack
	for k := 1; k < players; k++ {
		for i, c := range p.Racks[k] {
			known[i] += c
		}
	}
	mover := p.Racks[0].Count()
	switch {
	case mover == 0:
		// Without the mover's rack the unseen tiles hold every rack.
		bag := max(0, n-players*rules.RackSize)
		fmt.Fprintf(w, "           %d unseen (no rack for the player to move): %d in the bag, %d on the %s racks\n",
			n, bag, n-bag, [...]string{"two", "three", "four"}[players-2])
		return nil
	case n <= others && players == 2:
		if n == 0 {
			fmt.Fprintln(w, "           Bag empty: the opponent's rack is empty too")
		} else {
			fmt.Fprintf(w, "           Bag empty: the opponent holds %s\n", unseen)
		}
	case n <= others:
		fmt.Fprintf(w, "           Bag empty: the other %d players hold these %d tiles between them\n", players-1, n)
	case players == 2:
		opp := fmt.Sprintf("%d on the opponent's rack", rules.RackSize)
		if k := known.Count(); k == rules.RackSize {
			opp += " (" + known.String() + ")"
		} else if k > 0 {
			opp += fmt.Sprintf(" (%s known)", known)
		}
		fmt.Fprintf(w, "           %d unseen: %d in the bag, %s\n", n, n-rules.RackSize, opp)
	default:
		opp := fmt.Sprintf("%d on each of the other %d racks", rules.RackSize, players-1)
		if known.Count() > 0 {
			opp += fmt.Sprintf(" (%s known)", known)
		}
		fmt.Fprintf(w, "           %d unseen: %d in the bag, %s\n", n, n-others, opp)
	}
	if mover < rules.RackSize && n > others {
		// A rack is full while the bag has tiles: this one is partly known.
		fmt.Fprintf(w, "           (the rack to move holds %d known tiles; the rest are among the unseen)\n", mover)
	}
	return nil
}

// groupTiles writes a rack's tiles grouped by letter, blanks last:
// "AAAA B CC ??".
func groupTiles(r rules.Rack) string {
	var b strings.Builder
	prev := rune(-1)
	for _, l := range r.Tiles() {
		ch := l.Rune()
		if prev != -1 && ch != prev {
			b.WriteByte(' ')
		}
		b.WriteRune(ch)
		prev = ch
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}
