package selfplay

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/infer"
	"scrabble/movegen"
	"scrabble/rules"
	"scrabble/sim"
)

// PlayerOptions configures a player made by NewPlayer.
type PlayerOptions struct {
	// Leaves values the tiles kept (millipoints); nil means every leave is
	// worth 0. Used by the equity player (the score player takes none).
	Leaves movegen.LeaveValuer
	// Terms are equity terms beyond score and leave (eval.Terms) for the
	// equity player; zero is none.
	Terms eval.Terms
	// Sim is the sim player's budget and settings, sim.DefaultPlayer when
	// zero (Leaves above, the seed from the game; Threads defaults to 1).
	Sim sim.Options
	// Endgame, if positive, makes the player solve every turn with the bag
	// empty with the endgame solver, stopping each search after this long
	// (a search cut by it plays the deepest answer found: such games depend
	// on the machine's speed, not on the seed alone).
	Endgame time.Duration
	// PEG, if positive, makes the player solve every turn with 1 to
	// PEGBag tiles in the bag with the pre-endgame solver, within this
	// long a move (the leaders when time runs out; machine-dependent, as
	// Endgame is).
	PEG time.Duration
	// PEGBag is the most tiles in the bag for which PEG applies (0:
	// peg.MaxBag). With more than one the solve is staged: its answer is
	// an estimate unless the budget lets it finish.
	PEGBag int
	// PEGInfer weights the pre-endgame solver's draws (PEG) by what the
	// opponent's last move says they kept, with the Infer options when
	// set, else the defaults (Leaves default to the player's).
	PEGInfer bool
	// Infer, if set, makes the sim player draw the opponent's rack from
	// what their last move says they kept (sim.NewInferPlayer), with these
	// options (Leaves default to the player's).
	Infer *infer.Options
	// Go is what an external player (ExternalPrefix) sends after "go"
	// each turn, such as "static" or "sim iterations 200"; "" lets the
	// program choose. EngineStderr receives its program's standard error
	// (nil: discarded).
	Go           string
	EngineStderr io.Writer
}

// The full player's budgets a move when PlayerOptions leave them zero,
// and its simulation's iterations a move when PlayerOptions.Sim is zero:
// against the equity player 256 iterations won 59.2% of 4,000 games where
// the sim player's default of 64 won 57.0% of the same deals
// (docs/benchmarks.md, "Strength: the full player"), and the stopping rule
// ends most moves well before the cap.
const (
	FullEndgame    = 5 * time.Second
	FullPEG        = 10 * time.Second
	FullIterations = 256
)

// PlayerInfo describes a registered player.
type PlayerInfo struct {
	Name        string
	Description string
}

type playerEntry struct {
	PlayerInfo
	make func(PlayerOptions) (game.Player, error)
}

var registry = []playerEntry{
	{PlayerInfo{"score", "the top-scoring play; with none, exchanges all 7 tiles (or passes)"},
		func(o PlayerOptions) (game.Player, error) {
			if o.Infer != nil {
				return nil, fmt.Errorf("the score player makes no use of inference")
			}
			if o.Leaves != nil {
				return nil, fmt.Errorf("the score player uses no leave values")
			}
			if !o.Terms.IsZero() {
				return nil, fmt.Errorf("the score player uses no equity terms")
			}
			return game.NewScorePlayer(), nil
		}},
	{PlayerInfo{"equity", "the top-equity move (score + leave value, exchanges and pass too)"},
		func(o PlayerOptions) (game.Player, error) {
			if o.Infer != nil {
				return nil, fmt.Errorf("the equity player makes no use of inference")
			}
			return game.NewEquityPlayer(o.Leaves, o.Terms), nil
		}},
	{PlayerInfo{"sim", "the best move by Monte Carlo simulation (equity player's candidates and answers)"}, newSimPlayer},
	{PlayerInfo{"full", "sim for the middle game, the pre-endgame solver with 1-4 tiles in the bag, the endgame solver with none"},
		func(o PlayerOptions) (game.Player, error) {
			if reflect.DeepEqual(o.Sim, sim.Options{}) {
				o.Sim = sim.DefaultPlayer()
				o.Sim.Iterations = FullIterations
			}
			return newSimPlayer(o)
		}},
}

// newSimPlayer makes the sim player: o.Sim (sim.DefaultPlayer when zero)
// with o.Leaves.
func newSimPlayer(o PlayerOptions) (game.Player, error) {
	if !o.Terms.IsZero() {
		return nil, fmt.Errorf("the sim player takes no equity terms (its rollouts use score and leave)")
	}
	so := o.Sim
	so.Progress = nil
	if reflect.DeepEqual(so, sim.Options{}) {
		so = sim.DefaultPlayer()
	}
	so.Leaves = o.Leaves
	if o.Infer != nil {
		return sim.NewInferPlayer(so, *o.Infer)
	}
	return sim.NewPlayer(so)
}

// Players lists the registered players by name.
func Players() []PlayerInfo {
	out := make([]PlayerInfo, len(registry))
	for i, e := range registry {
		out[i] = e.PlayerInfo
	}
	slices.SortFunc(out, func(a, b PlayerInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// NewPlayer returns a new player of the named kind (see Players).
//
// A name starting with ExternalPrefix is a program speaking the engine
// protocol ("external:scrabble engine"); it starts on its first move, and
// the caller closes it (io.Closer) when done with it.
func NewPlayer(name string, opts PlayerOptions) (game.Player, error) {
	if strings.HasPrefix(name, ExternalPrefix) {
		p, err := newExternalPlayer(name, opts)
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", name, err)
		}
		return p, nil
	}
	if opts.Go != "" {
		return nil, fmt.Errorf("player %s: go arguments are for an external player (%sPROGRAM)", name, ExternalPrefix)
	}
	for _, e := range registry {
		if e.Name == name {
			p, err := e.make(opts)
			if err != nil {
				return nil, fmt.Errorf("player %s: %w", name, err)
			}
			if name == "full" {
				if opts.Endgame == 0 {
					opts.Endgame = FullEndgame
				}
				if opts.PEG == 0 {
					opts.PEG = FullPEG
				}
			}
			if opts.PEG > 0 {
				var io *infer.Options
				if opts.PEGInfer {
					io = &infer.Options{}
					if opts.Infer != nil {
						*io = *opts.Infer
					}
					if io.Leaves == nil {
						io.Leaves = opts.Leaves
					}
				}
				p = withPEG(p, opts.PEG, opts.PEGBag, io)
			} else if opts.PEGInfer {
				return nil, fmt.Errorf("player %s: inference for the pre-endgame solver, which it does not use (no PEG budget)", name)
			}
			if opts.Endgame > 0 {
				p = withEndgame(p, opts.Endgame)
			}
			return p, nil
		}
	}
	names := make([]string, 0, len(registry))
	for _, e := range Players() {
		names = append(names, e.Name)
	}
	return nil, fmt.Errorf("unknown player %q: want one of %s", name, strings.Join(names, ", "))
}

// twoPlayerOnly names what in a player plays two-player games only: the
// endgame and pre-endgame solvers, and so the full player, which uses
// them, and the sim player's inference; "" when the player plays any number (the score, equity and sim
// players, and external ones).
func twoPlayerOnly(name string, opts PlayerOptions) string {
	switch {
	case opts.Infer != nil:
		return "inference (of the one opponent's rack, from their last move)"
	case name == "full":
		return "the full player (sim and the solvers)"
	case opts.Endgame > 0:
		return "the endgame solver"
	case opts.PEG > 0:
		return "the pre-endgame solver"
	}
	return ""
}

// CheckSeats reports an error when the named player, with opts, cannot sit
// at a game of players players: a player of two-player games at a table
// of more.
func CheckSeats(name string, opts PlayerOptions, players int) error {
	if what := twoPlayerOnly(name, opts); what != "" && players > 2 {
		return fmt.Errorf("%s plays two-player games, not %d (the score, equity, sim and external players play games of 2 to %d)", what, players, rules.MaxPlayers)
	}
	return nil
}
