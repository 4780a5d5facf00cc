package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/internal/crash"
	"scrabble/internal/texttable"
	"scrabble/lexica"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// turn is a position ready for move generation: the board, the rack of the
// player to move, the tiles left in the bag and the lexicon.
type turn struct {
	pos  *position.Position
	rack rules.Rack
	bag  int // tiles in the bag: unseen minus the opponent's rack
	lex  *gaddag.GADDAG
	app  *app // for the lexicon's tables (tablesFor)
}

// tables returns the move generator's tables of the turn's lexicon.
func (t *turn) tables() *movegen.Tables { return t.app.tablesFor(t.lex, movegen.Mapped) }

// players is the number of players of the position.
func (t *turn) players() int { return t.pos.Players() }

// lexName is the name of the lexicon in use.
func (t *turn) lexName() string { return t.lex.Header().Name }

// generator returns a move generator on the turn's board that values moves
// by equity: score plus the engine's trained leave values for the lexicon
// (none for a lexicon it has no values for) and the balance term of terms,
// or, with the bag empty, the end-of-game arithmetic against the unseen
// tiles (the opponent's rack). The open term goes in the search's options
// (terms.OpenCost).
func (t *turn) generator(terms eval.Terms) (*movegen.Generator, error) {
	// The leave table (decompressed) and the generator's tables (built
	// from the lexicon) take about as long each: one on each core.
	var (
		table   *eval.LeaveTable
		err     error
		leavesG crash.Group
	)
	leavesG.Go(func() { table, err = eval.DefaultLeaves(t.lexName()) })
	gen := movegen.New(t.tables())
	gen.SetBoard(&t.pos.Board)
	if perr := leavesG.Wait(); perr != nil {
		return nil, perr
	}
	if err != nil {
		return nil, err
	}
	var leaves movegen.LeaveValuer
	if table != nil {
		leaves = table
	}
	unseen, err := rules.Unseen(&t.pos.Board, t.rack)
	if err != nil {
		return nil, err
	}
	// With more than two players, the end-of-game term weighs a move
	// against the other players on average (eval.EquityAmong).
	gen.SetLeaves(eval.EquityWithAmong(leaves, terms, t.bag, unseen, t.players()))
	return gen, nil
}

// parseTermsFlag reads the equity terms given to --flag.
func parseTermsFlag(flag, text string) (eval.Terms, error) {
	terms, err := eval.ParseTerms(text)
	if err != nil {
		return eval.Terms{}, usagef("--%s: %v", flag, err)
	}
	return terms, nil
}

// termsFlagUsage is the help line of a flag taking equity terms.
var termsFlagUsage = "equity terms, name=weight,... (" + strings.Join(eval.TermNames(), ", ") + "; docs/leaves.md, Equity terms); default none"

// loadTurn reads the position in file, takes the rack from rackFlag (or the
// position's rack of the player to move) and picks the lexicon.
func (a *app) loadTurn(file, rackFlag string) (*turn, error) {
	// The lexicon's tables are read while it loads (tablesCache.preload):
	// one-shot answers wait for the longer of the two, not their sum.
	a.tables.mu.Lock()
	a.tables.preloading = true
	a.tables.mu.Unlock()
	if file == "" {
		return nil, usagef("--board FILE is required (a 15-line grid or one line of CGP; '-' reads standard input)")
	}
	p, err := a.readPosition(file)
	if err != nil {
		return nil, err
	}
	rack := p.Racks[0]
	if rackFlag != "" {
		if rack, err = rules.ParseRack(rackFlag); err != nil {
			return nil, usageError{err}
		}
	} else if rack.Count() == 0 {
		return nil, usagef("--rack is required: %s has no rack for the player to move", positionName(file))
	}
	return a.newTurn(p, rack)
}

// newTurn checks that rack, the player to move's, fits position p, works out
// the bag and picks the lexicon (see positionLexicon).
func (a *app) newTurn(p *position.Position, rack rules.Rack) (*turn, error) {
	if n := rack.Count(); n > rules.RackSize {
		return nil, usagef("rack %s has %d tiles; a rack holds at most %d", rack, n, rules.RackSize)
	}
	unseen, err := rules.Unseen(&p.Board, rack)
	if err != nil {
		return nil, fmt.Errorf("rack %s does not fit the position: %w", rack, err)
	}
	t := &turn{pos: p, rack: rack, app: a}
	var opp rules.Rack // the other players' known tiles together
	for k := 1; k < p.Players(); k++ {
		opp = addTiles(opp, p.Racks[k])
	}
	if opp.Count() > 0 && !unseen.Contains(opp) {
		whose := "the opponent's rack " + opp.String() + " holds"
		if p.Players() > 2 {
			whose = "the other players' racks (" + opp.String() + ") hold"
		}
		for i := range unseen {
			if opp[i] > unseen[i] {
				return nil, fmt.Errorf("rack %s does not fit the position: too many %s: %s %d, but only %d are unseen",
					rack, tileName(i), whose, opp[i], unseen[i])
			}
		}
	}
	// Each other player holds a full rack while the bag has tiles, and
	// they hold every unseen tile once it is empty: a CGP rack of fewer
	// tiles is partly known.
	t.bag = max(0, unseen.Count()-(p.Players()-1)*rules.RackSize)
	if t.lex, err = a.positionLexicon(p.Lexicon); err != nil {
		return nil, err
	}
	return t, nil
}

// addTiles returns a with b's tiles added.
func addTiles(a, b rules.Rack) rules.Rack {
	for i := range a {
		a[i] += b[i]
	}
	return a
}

// tileName names the tiles of a rack slot in the plural: "Qs", "blanks (?)".
func tileName(slot int) string {
	if slot == 0 {
		return "blanks (?)"
	}
	return string(rune('A'+slot-1)) + "s"
}

func positionName(file string) string {
	if file == "-" {
		return "the position on standard input"
	}
	return file
}

// positionLexicon resolves the lexicon: the lexicon setting (flag,
// environment, config file) if given, else the position's own (the CGP lex
// opcode) when it can be loaded, else the newest installed lexicon of its
// family (lexica.Family: NWL2018 -> NWL23), else the default lexicon, with
// a note on stderr saying the position's lexicon was not available.
func (a *app) positionLexicon(posLex string) (*gaddag.GADDAG, error) {
	return a.sourceLexicon("position", posLex)
}

// sourceLexicon is positionLexicon for a lexicon named by a position or a
// game (what says which, for messages).
func (a *app) sourceLexicon(what, posLex string) (*gaddag.GADDAG, error) {
	if s := a.v.GetString("lexicon"); s != "" || posLex == "" {
		return a.reg.Resolve(s)
	}
	if lexica.ValidName(posLex) {
		g, err := a.reg.Resolve(posLex)
		if err == nil {
			return g, nil
		}
		if _, ierr := a.reg.Info(posLex); ierr == nil {
			return nil, err // installed, but unreadable: say so
		}
		// The same family's newest list judges the words most as the
		// game's players did, better than the default.
		if fam, ferr := a.reg.FamilyFallback(posLex); ferr == nil && fam != "" {
			g, err := a.reg.Resolve(fam)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(a.stderr, "scrabble: note: the %s's lexicon %s is not installed; using %s, the newest installed lexicon of its family (choose one with --lexicon)\n",
				what, posLex, g.Header().Name)
			return g, nil
		}
	}
	g, err := a.reg.Resolve("")
	if err != nil {
		if errors.Is(err, lexica.ErrNoDefault) {
			return nil, fmt.Errorf("the %s's lexicon %s is not installed, and there is no default lexicon: run `make` to install SOWPODS, or install one with `scrabble lexicon add NAME FILE --default`", what, posLex)
		}
		return nil, err
	}
	fmt.Fprintf(a.stderr, "scrabble: note: the %s's lexicon %s is not installed; using the default lexicon %s (choose one with --lexicon)\n",
		what, posLex, g.Header().Name)
	return g, nil
}

// moveJSON is one move in --json output (see move.Description).
type moveJSON = move.Description

// writeMovesJSON writes ms, made from rack on board b, as one JSON array, a
// move a line, describing and encoding each move as it is written (a
// position with blanks on the rack has thousands of plays: the output
// starts at once, and no list of descriptions is built).
func writeMovesJSON(w io.Writer, b *rules.Board, rack rules.Rack, ms []move.Move) error {
	bw := bufio.NewWriter(w)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // json.Marshal's bytes, and a newline
	bw.WriteString("[")
	for i := range ms {
		d := move.Describe(b, rack, &ms[i])
		buf.Reset()
		if err := enc.Encode(&d); err != nil {
			return err
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  ")
		if _, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
			return err // a closed pipe: stop describing
		}
	}
	if len(ms) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

// writeMovesTable writes moves as a table ranked from first.
func writeMovesTable(w io.Writer, ms []moveJSON, first int) error {
	rows := make([][]string, len(ms))
	for i, m := range ms {
		l := m.Leave
		if l == "" {
			l = "-"
		}
		words := strings.Join(m.Words, ", ")
		if m.Kind != "play" {
			words = "(" + m.Kind + ")"
		}
		rows[i] = []string{strconv.Itoa(first + i), m.Move, strconv.Itoa(m.Score),
			strconv.FormatFloat(m.Equity, 'f', 1, 64), l, words}
	}
	return writeTable(w, []string{"#", "MOVE", "SCORE", "EQUITY", "LEAVE", "WORDS"}, []bool{true, false, true, true, false, false}, rows)
}

// writeTable writes rows under a header (see texttable.Write).
func writeTable(w io.Writer, header []string, right []bool, rows [][]string) error {
	return texttable.Write(w, "", header, right, rows)
}

// countSummary says how many moves of each kind there are: "312 plays,
// 127 exchanges and the pass".
func countSummary(ms []move.Move) string {
	var plays, exch, pass int
	for i := range ms {
		switch ms[i].Kind {
		case move.Play:
			plays++
		case move.Exchange:
			exch++
		default:
			pass++
		}
	}
	parts := []string{plural(plays, "play")}
	if exch > 0 {
		parts = append(parts, plural(exch, "exchange"))
	}
	if pass > 0 {
		parts = append(parts, "the pass")
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return thousands(n) + " " + noun + "s"
}

func newMovesCmd(a *app) *cobra.Command {
	var (
		board, rack     string
		top             int
		exchanges, asJS bool
		termsText       string
	)
	cmd := &cobra.Command{
		Use:   "moves --board FILE [--rack TILES]",
		Short: "List the legal plays of a position, best score first",
		Long: `Generate every legal play for the rack on the board and list them by score,
highest first (ties in a fixed order), with the leave (the rack minus the
tiles used) and every word each play forms. Letters already on the board are
in parentheses ("8D QUIX(O)TE"); a blank is a lower-case letter.

--board takes a 15-line grid or one line of CGP ('-' reads standard input).
--rack gives the tiles to play (A-Z, '?' for a blank, at most 7); a CGP
position with a rack needs no --rack (--rack overrides it). The rack must fit
the unseen tiles: a letter the board and rack together use more often than
the set holds is an error naming it.

The lexicon is --lexicon (or SCRABBLE_LEXICON, or the config file), else the
CGP's lex opcode if that lexicon is installed, else the default lexicon.

--exchanges adds the exchanges (when the bag holds at least 7 tiles: the
unseen tiles less the opponent's rack, known from CGP or taken as 7; with 3
or 4 players in the CGP, less 7 for each other player) and the pass, both
scoring 0. --json prints one JSON array; the fields are described
in docs/json.md. Equity is score plus the engine's trained value
of the leave for NWL and Collins lexica (score alone for others), or with the
bag empty the end-of-game arithmetic.`,
		Example: `  scrabble moves --board examples/pos.txt --rack AEINRST
  scrabble moves --board examples/pos.cgp --rack 'AEINRS?' --top 10
  scrabble moves --board examples/pos.cgp --exchanges --top 20
  scrabble --lexicon NWL23 moves --board game.cgp --json | jq '.[0]'`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if top < 0 {
				return usagef("--top must be 0 (all) or more, not %d", top)
			}
			terms, err := parseTermsFlag("terms", termsText)
			if err != nil {
				return err
			}
			t, err := a.loadTurn(board, rack)
			if err != nil {
				return err
			}
			a.warnPhonies(board, &t.pos.Board, t.lex)
			gen, err := t.generator(terms)
			if err != nil {
				return err
			}
			var all movegen.AllMoves
			gen.Generate(&t.rack, t.bag, movegen.Options{Exchanges: exchanges, Pass: exchanges, OpenCost: terms.OpenCost(t.bag)}, &all)
			move.SortByScore(all.Moves)
			shown := all.Moves
			if top > 0 && len(shown) > top {
				shown = shown[:top]
			}
			if asJS {
				return writeMovesJSON(a.stdout, &t.pos.Board, t.rack, shown)
			}
			out := make([]moveJSON, len(shown))
			for i := range shown {
				out[i] = move.Describe(&t.pos.Board, t.rack, &shown[i])
			}
			fmt.Fprintf(a.stdout, "Rack %s, lexicon %s: %s", t.rack, t.lexName(), countSummary(all.Moves))
			if len(shown) < len(all.Moves) {
				fmt.Fprintf(a.stdout, " (top %d shown)", len(shown))
			}
			fmt.Fprintln(a.stdout)
			if exchanges && !rules.CanExchange(t.bag) {
				fmt.Fprintf(a.stdout, "No exchanges: the bag holds %s, fewer than %d.\n", plural(t.bag, "tile"), rules.ExchangeMinBag)
			}
			if len(out) == 0 {
				return nil
			}
			fmt.Fprintln(a.stdout)
			return writeMovesTable(a.stdout, out, 1)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP); '-' reads standard input")
	f.StringVarP(&rack, "rack", "r", "", "tiles on the rack, e.g. AEINRST or AEIRST? ('?' a blank); default: the CGP's rack")
	f.IntVarP(&top, "top", "n", 0, "show only the N best moves (0: all)")
	f.BoolVar(&exchanges, "exchanges", false, "also list the exchanges (when the bag holds 7 or more) and the pass")
	f.BoolVar(&asJS, "json", false, "print one JSON array (fields in docs/json.md)")
	f.StringVar(&termsText, "terms", "", termsFlagUsage)
	return cmd
}
