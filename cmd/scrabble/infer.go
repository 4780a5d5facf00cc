package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/infer"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// inferFlags are the inference's options, shared by infer, sim and review.
type inferFlags struct {
	model              string
	tau, margin, floor float64
	racks              int
}

func addInferFlags(f *pflag.FlagSet, ifl *inferFlags, prefix string) {
	f.StringVar(&ifl.model, prefix+"model", "softmax", "inference model: softmax (weight exp(-gap/tau)), margin (1 within the margin, the floor outside) or uniform (the play ignored)")
	f.Float64Var(&ifl.tau, prefix+"tau", infer.DefaultTau, "softmax temperature, points")
	f.Float64Var(&ifl.margin, prefix+"margin", infer.DefaultMargin, "margin model: points within the best that count as consistent")
	f.Float64Var(&ifl.floor, prefix+"floor", infer.DefaultFloor, "margin model: the weight of a rack outside the margin")
	f.IntVar(&ifl.racks, prefix+"racks", infer.DefaultRacks, "value every possible leave up to this many; past it, this many drawn at random")
}

func (ifl *inferFlags) options(prefix string, leaves movegen.LeaveValuer) (infer.Options, error) {
	m, err := infer.ParseModel(ifl.model)
	if err != nil {
		return infer.Options{}, usagef("--%smodel: %v", prefix, err)
	}
	switch {
	case !(ifl.tau > 0) || math.IsInf(ifl.tau, 0):
		return infer.Options{}, usagef("--%stau must be a number more than 0, not %g", prefix, ifl.tau)
	case !(ifl.margin >= 0) || math.IsInf(ifl.margin, 0):
		return infer.Options{}, usagef("--%smargin must be a number, 0 or more, not %g", prefix, ifl.margin)
	case !(ifl.floor > 0 && ifl.floor <= 1):
		return infer.Options{}, usagef("--%sfloor must be more than 0 and at most 1, not %g", prefix, ifl.floor)
	case ifl.racks < 1:
		return infer.Options{}, usagef("--%sracks must be at least 1, not %d", prefix, ifl.racks)
	}
	margin := ifl.margin
	if margin == 0 {
		margin = 1e-12 // Options reads 0 as the default
	}
	return infer.Options{Leaves: leaves, Model: m, Tau: ifl.tau, Margin: margin, Floor: ifl.floor, Racks: ifl.racks}, nil
}

// leavesFor is the engine's trained leave values for lex, nil without.
func leavesFor(lex *gaddag.GADDAG) (movegen.LeaveValuer, error) {
	table, err := eval.DefaultLeaves(lex.Header().Name)
	if err != nil || table == nil {
		return nil, err
	}
	return table, nil
}

func newInferCmd(a *app) *cobra.Command {
	var (
		board, rack, last, gcgFile string
		turn, top                  int
		asJSON                     bool
		seed                       uint64
		ifl                        inferFlags
	)
	cmd := &cobra.Command{
		Use:   "infer (--board FILE [--last MOVE] | --gcg GAME --turn N)",
		Short: "Infer the tiles the opponent kept from their last move",
		Long: `Work out what the opponent may hold from the move that led to the position:
every leave they may have kept after it (tiles unseen to the player to
move), weighed by how likely they were to have drawn the rack (the leave and
the tiles played, from the tiles unseen before the move) and by how close the
move made is to the best move of that rack by the engine's equity (score
plus its leave values; the best found by the same search the engine plays
with). The softmax model weighs a rack exp(-gap/tau), the gap in points;
the margin model 1 when the move is within --margin of the best and --floor
otherwise; uniform ignores the move (docs/benchmarks.md, Inference, measures
them). An exchange whose tiles were not seen is inferred from every rack
that may have made it; a pass tells nothing; a play challenged off puts its
tiles on the rack and tells nothing more.

The position is the one after the move: --board reads it (grid or CGP) with
the move from its lm opcode or from --last, written as an lm opcode's
operands ("8D WO.D", "8D WO(R)D", "-ABC", "-3", "-"), its tiles on the
board; or --gcg with --turn N takes the position before turn N of a recorded
game and the move of turn N-1. --rack is the player to move's rack (default:
the position's).

Prints the likeliest --top leaves with their probabilities and, for each
letter, the chance that the opponent's rack (the leave and the tiles drawn
after the move) holds at least one. With more possible leaves than --racks,
that many are drawn at random (--seed) and the figures are estimates.`,
		Example: `  scrabble --lexicon NWL23 infer --board pos.cgp                   # the CGP's lm opcode
  scrabble --lexicon NWL23 infer --board pos.cgp --last '8D WO.D' --top 20
  scrabble infer --gcg examples/game.gcg --turn 12 --json
  scrabble infer --gcg examples/game.gcg --turn 12 --model margin --margin 2`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if top < 0 {
				return usagef("--top must be 0 or more, not %d", top)
			}
			var (
				pos  *position.Position
				lex  *gaddag.GADDAG
				name string
				err  error
			)
			switch {
			case gcgFile != "" && (board != "" || last != ""):
				return usagef("--gcg takes the position and the move from the game: leave out --board and --last")
			case gcgFile != "":
				g, err := a.readGame(gcgFile)
				if err != nil {
					return err
				}
				if err := twoPlayers(g, gcgFile); err != nil {
					return err
				}
				r := g.Replay()
				if turn < 2 || turn > len(r.Turns)+1 {
					return usagef("--turn must be from 2 (the first move is then known) to %d (%s has %s), not %d",
						len(r.Turns)+1, gameName(gcgFile), plural(len(r.Turns), "turn"), turn)
				}
				pos, _ = positionBefore(g, r, turn)
				if lex, err = a.sourceLexicon("game", g.Lexicon); err != nil {
					return err
				}
				name = gameName(gcgFile)
			case board != "":
				if cmd.Flags().Changed("turn") {
					return usagef("--turn goes with --gcg")
				}
				if pos, err = a.readPosition(board); err != nil {
					return err
				}
				if last != "" {
					if err := pos.SetLastMoveText(last); err != nil {
						return usagef("--last (%s): %v", positionName(board), err)
					}
				}
				if lex, err = a.positionLexicon(pos.Lexicon); err != nil {
					return err
				}
				name = positionName(board)
			default:
				return usagef("--board FILE (with an lm opcode or --last) or --gcg GAME --turn N is required")
			}
			r := pos.Racks[0]
			if rack != "" {
				if r, err = rules.ParseRack(rack); err != nil {
					return usageError{err}
				}
			}
			if r.Count() == 0 {
				return usagef("--rack is required: %s has no rack for the player to move", name)
			}
			if n := pos.Players(); n > 2 {
				return fmt.Errorf("%s: infer: a %d-player position: inference handles two players (the last move is not the next player's)", name, n)
			}
			sit, err := infer.FromPosition(pos, r)
			if err != nil {
				if lm, _ := pos.LastMove(); lm == nil {
					return usagef("%s has no last move: give it with --last MOVE (e.g. --last '8D WO.D')", name)
				}
				return fmt.Errorf("%s: %w", name, err)
			}
			leaves, err := leavesFor(lex)
			if err != nil {
				return err
			}
			opts, err := ifl.options("", leaves)
			if err != nil {
				return err
			}
			opts.Seed = seed
			res, err := infer.New(a.tablesFor(lex, movegen.Mapped)).Infer(sit, opts)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			lm, _ := pos.LastMove()
			out := infer.NewReport(lex.Header().Name, r, lm.String(), opts, res, top)
			if asJSON {
				return json.NewEncoder(a.stdout).Encode(out)
			}
			return writeInferText(a.stdout, out)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&board, "board", "b", "", "position file (grid or CGP) after the opponent's move; '-' reads standard input")
	f.StringVarP(&rack, "rack", "r", "", "tiles of the player to move; default: the position's rack")
	f.StringVar(&last, "last", "", "the opponent's move that led to the position, as a CGP lm opcode writes it (default: the CGP's lm)")
	f.StringVar(&gcgFile, "gcg", "", "a recorded game (GCG) instead of --board: the position before --turn")
	f.IntVarP(&turn, "turn", "t", 0, "with --gcg: the turn to infer before (2: after the first move)")
	f.IntVarP(&top, "top", "n", 10, "print the N likeliest leaves (0: all)")
	f.BoolVar(&asJSON, "json", false, "print JSON (fields in docs/json.md)")
	f.Uint64Var(&seed, "seed", 1, "seed of the leaves drawn past --racks")
	addInferFlags(f, &ifl, "")
	return cmd
}

func writeInferText(w io.Writer, e *infer.Report) error {
	fmt.Fprintf(w, "Inference, lexicon %s: rack %s; the opponent's last move %s\n", e.Lexicon, e.Rack, e.LastMove)
	how := e.Model
	switch {
	case e.Model == "softmax":
		how += fmt.Sprintf(" (tau %g)", e.Tau)
	case e.Margin != nil:
		how += fmt.Sprintf(" (margin %g, floor %g)", *e.Margin, e.Floor)
	}
	fmt.Fprintf(w, "Their rack: %s (a leave of %d and %d drawn) from the %d unseen tiles %s\n",
		plural(e.RackTiles, "tile"), e.LeaveTiles, e.RackTiles-e.LeaveTiles, len([]rune(e.Unseen)), e.Unseen)
	switch {
	case e.Uniform && e.Known != "":
		fmt.Fprintf(w, "The move tells nothing but that %s are on their rack; the rest drawn at random\n", e.Known)
	case e.Uniform:
		fmt.Fprintln(w, "The move tells nothing: their rack is drawn at random from the unseen tiles")
	default:
		est := "every possible leave valued"
		if !e.Exact {
			est = "estimates: leaves drawn at random"
		}
		fmt.Fprintf(w, "Model %s: %s, %s (%s)\n\n", how, plural(e.Count, "leave"), est, plural(e.Racks, "rack")+" searched")
		rows := make([][]string, len(e.Leaves))
		for i, l := range e.Leaves {
			leave := l.Leave
			if leave == "" {
				leave = "(none)"
			}
			rows[i] = []string{strconv.Itoa(i + 1), leave, fmt.Sprintf("%.2f%%", 100*l.Prob)}
		}
		if err := writeTable(w, []string{"#", "KEPT", "PROB"}, []bool{true, false, true}, rows); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "\nChance their rack holds at least one:")
	rows := [][]string{}
	for i := 0; i < len(e.Letters); i += 9 {
		var row []string
		for _, l := range e.Letters[i:min(i+9, len(e.Letters))] {
			row = append(row, fmt.Sprintf("%s %5.1f%%", l.Letter, 100*l.Prob))
		}
		rows = append(rows, row)
	}
	for _, r := range rows {
		for j, c := range r {
			if j > 0 {
				fmt.Fprint(w, "  ")
			}
			fmt.Fprint(w, c)
		}
		fmt.Fprintln(w)
	}
	return nil
}
