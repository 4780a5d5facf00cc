package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"scrabble/eval"
	"scrabble/gcg"
	"scrabble/infer"
	"scrabble/internal/atomicfile"
	"scrabble/movegen"
	"scrabble/review"
	"scrabble/rules"
)

func newReviewCmd(a *app) *cobra.Command {
	var (
		player, htmlPath string
		top              int
		asJSON, useSim   bool
		useInfer         bool
		iterations       int
		endgameNodes     uint64
		pegTime          time.Duration
		challenge        string
		tiebreak         string
	)
	cmd := &cobra.Command{
		Use:         "review GAME.gcg|DIR...",
		Annotations: interruptible(),
		Short:       "Review recorded games (GCG) turn by turn against the engine",
		Long: `Replay a recorded game (GCG) with the engine's rules and review each turn of
the player (--player, a nickname or full name; every player if none): the
rack, the play made with its score and equity, the engine's best moves
(--top, 5 by default, 0 for all), the equity the play gave up, and flags for missed
bingos and phonies in the lexicon. A summary follows: equity lost in total
and per turn, missed bingos, phonies and the costliest turns, then every
line that could not be applied as recorded (the game goes on as recorded
where it can).

Games of 2 to 4 players (#player1 to #player4) are reviewed; the players
must move in turn (play passes to the left). With more than two players the
end of the game is the rule sheet's (the player who went out gains the sum of
everyone else's tiles, each other player loses their own), the report gives
each player's place (--tiebreak: naspa, a tie is a draw; hasbro, the higher
score before the end-of-game adjustments wins), turns near the end are
valued statically (the endgame and pre-endgame solvers are two-player), and
--sim is not available yet.

Challenges are checked against the challenge rule (--challenge): single (a
phony is withdrawn, a wrong challenge costs nothing), double (NASPA's: a
wrong challenger loses their next turn, recorded as a pass), void (phonies
cannot be played: no withdrawals), 5pt or 10pt (a wrong challenge gives the
player challenged that many points, ">nick: RACK (challenge) +5 TOTAL").
A file with a "#challenge-rule RULE" pragma is checked against its own rule
(--challenge must then agree); with neither, a file whose first challenge
bonus is 5 or 10 points is checked as 5pt or 10pt, any other as double.

Equity is the score plus the engine's value of the tiles kept; with the bag
empty, going out earns twice the opponent's tiles and tiles kept cost twice
their value (with N players, N/(N-1) times the others' tiles). A turn is reviewed when its rack was recorded in full. A pass
that is the turn lost to a challenge of the opponent's play that stood (the
play drew a challenge bonus, or it went out) is no decision: it is listed as
skipped (flag lost_challenge) and left out of the summary.

Several games: give several files, or directories (their *.gcg files, in
name order). Each game is reviewed, then a summary over all of them follows,
by player: a player is matched across games by nickname, ignoring case.
--player applies to every game (games it does not play are left out, with a
note). --json then prints one object: {"games": [one review each, as for a
single game], "summary": {"games", "players", "total", "costliest"}}.

The lexicon is --lexicon, else each game's #lexicon when installed (or in
SCRABBLE_LEXICA_DIR), else the newest installed lexicon of its family
(NWL2018 -> NWL23, TWL06 -> NWL23, CSW19 -> CSW24), else the default
lexicon. --json prints one JSON object (fields in docs/json.md); --html FILE
also writes a self-contained HTML page with a board per turn and charts;
with several games --html DIR writes a page per game and an index.html
linking them with the summaries. --sim values the engine's best moves and
the move played by Monte Carlo simulation (--iterations each).
Ctrl-C during a review prints the review of the turns done so far (with
several games, the games done so far), says at which turn it stopped, and
exits with status 130.`,
		Example: `  scrabble review game.gcg
  scrabble --lexicon NWL23 review game.gcg --player doug --top 3
  scrabble review game.gcg --json | jq '.summary'
  scrabble review game.gcg --html report.html
  scrabble review a.gcg b.gcg games/ --player doug
  scrabble review games/ --html reports/ --json | jq '.summary.players'
  scrabble review game.gcg --player doug --sim --iterations 200`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if top < 0 {
				return usagef("--top must be 0 (all) or more, not %d", top)
			}
			top = topLimit(top)
			if cmd.Flags().Changed("iterations") && !useSim {
				return usagef("--iterations is for --sim")
			}
			if useInfer && !useSim && pegTime == 0 {
				return usagef("--infer is for --sim and --peg")
			}
			if iterations < 1 {
				return usagef("--iterations must be at least 1, not %d", iterations)
			}
			var rule *rules.ChallengeRule
			if cmd.Flags().Changed("challenge") {
				c, err := rules.ParseChallengeRule(challenge)
				if err != nil {
					return usagef("--challenge: %v", err)
				}
				rule = &c
			}
			tb, err := rules.ParseTiebreak(tiebreak)
			if err != nil {
				return usagef("--tiebreak: %v", err)
			}
			files, several, err := reviewFiles(argv)
			if err != nil {
				return err
			}
			// Check the --html target before the review, which may take long.
			var page *htmlFile
			if htmlPath != "" {
				if several {
					err = makeHTMLDir(htmlPath)
				} else {
					page, err = createHTMLFile(htmlPath)
				}
				if err != nil {
					return err
				}
				if page != nil {
					defer page.abort()
				}
			}
			ctx := cmd.Context() // cancelled by Ctrl-C (see interruptible)
			if pegTime < 0 {
				return usagef("--peg must not be negative")
			}
			if useSim {
				noteSimReview(a.stderr, iterations)
			}
			rv := &gameReviewer{a: a, top: top, player: player, several: several, useSim: useSim, useInfer: useInfer, iterations: iterations, endgameNodes: endgameNodes,
				pegTime: pegTime, challenge: rule, tiebreak: tb, tables: map[string]*movegen.Tables{}}
			var reps []*review.Report
			var interrupted *review.Report // the game Ctrl-C stopped, with the turns done so far
			for _, file := range files {
				rep, err := rv.review(ctx, file)
				if err != nil {
					if errors.Is(err, context.Canceled) && rep != nil {
						interrupted = rep
						reps = append(reps, rep)
						break
					}
					if errors.Is(err, context.Canceled) {
						return exitStatus(130)
					}
					return err
				}
				if rep != nil {
					reps = append(reps, rep)
				}
			}
			if !several {
				if err := writeReview(a, reps[0], asJSON, page); err != nil {
					return err
				}
				if interrupted != nil {
					return reviewInterrupted(a, interrupted, asJSON, false)
				}
				return nil
			}
			if len(reps) == 0 {
				return usagef("--player %q plays none of the %d games", player, len(files))
			}
			if err := writeReviews(a, review.Collect(reps), asJSON, htmlPath); err != nil {
				return err
			}
			if interrupted != nil {
				return reviewInterrupted(a, interrupted, asJSON, true)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&player, "player", "p", "", "review only this player's turns (nickname or full name), in every game")
	f.IntVarP(&top, "top", "n", review.DefaultTop, "how many of the engine's best moves to list a turn (0: all)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object (fields in docs/json.md)")
	f.StringVar(&htmlPath, "html", "", "also write a self-contained HTML report to FILE (several games: pages and an index.html into DIR)")
	f.BoolVar(&useSim, "sim", false, "value the candidate moves by Monte Carlo simulation")
	f.IntVar(&iterations, "iterations", defaultReviewIterations, "with --sim: iterations a turn")
	f.BoolVar(&useInfer, "infer", false, "with --sim: draw the opponent's rack from what their previous move says they kept (scrabble infer); with --peg: weight the pre-endgames' draws by it")
	f.Uint64Var(&endgameNodes, "endgame-nodes", review.DefaultEndgameNodes, "solve every turn played with the bag empty, searching at most this many nodes (0: value them statically)")
	f.StringVar(&challenge, "challenge", "double", "the challenge rule the games were played under: single, double (NASPA's), void, 5pt or 10pt (default: a file's #challenge-rule, else read off its challenge bonuses, else double)")
	f.StringVar(&tiebreak, "tiebreak", "naspa", "the places of a game of more than two players: naspa (equal scores share a place) or hasbro (the higher score before the end-of-game adjustments wins)")
	f.DurationVar(&pegTime, "peg", 0, "solve every turn played with 1 to 4 tiles in the bag with the pre-endgame solver, at most this long a solve, e.g. 30s (0: off; with 2 to 4 tiles the solve is staged, its records estimates unless it completes)")
	return cmd
}

// reviewFiles expands the arguments of review into game files: a directory
// stands for its *.gcg files in name order, "-" for standard input. several
// says the output is for several games: more than one argument, or a
// directory (even one holding a single game), so that the output's shape
// follows the command line.
func reviewFiles(argv []string) (files []string, several bool, err error) {
	several = len(argv) > 1
	stdin := false
	for _, arg := range argv {
		if arg == "-" {
			if stdin {
				return nil, false, usagef("standard input (-) can be read only once")
			}
			stdin = true
			files = append(files, arg)
			continue
		}
		st, err := os.Stat(arg)
		if err != nil || !st.IsDir() {
			files = append(files, arg) // reading it names the problem
			continue
		}
		several = true
		entries, err := os.ReadDir(arg)
		if err != nil {
			return nil, false, fmt.Errorf("reading the directory %s: %w", arg, unwrapPath(err))
		}
		n := 0
		for _, e := range entries { // ReadDir sorts by name
			if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".gcg") {
				files = append(files, filepath.Join(arg, e.Name()))
				n++
			}
		}
		if n == 0 {
			return nil, false, fmt.Errorf("the directory %s holds no .gcg files", arg)
		}
	}
	return files, several, nil
}

// gameReviewer reviews the games of one command line, loading each lexicon
// once.
type gameReviewer struct {
	a               *app
	top, iterations int
	endgameNodes    uint64
	pegTime         time.Duration
	player          string
	several, useSim bool
	useInfer        bool
	challenge       *rules.ChallengeRule // --challenge, nil when not given
	tiebreak        rules.Tiebreak
	tables          map[string]*movegen.Tables // by the game's #lexicon: built once each
}

// review reviews one game; nil (and a note) when reviewing several games
// and --player plays none of this one.
func (rv *gameReviewer) review(ctx context.Context, file string) (*review.Report, error) {
	a := rv.a
	g, err := a.readGame(file)
	if err != nil {
		return nil, err
	}
	if c := rv.challenge; c != nil && g.ChallengeRule != "" && g.ChallengeRule != c.String() {
		return nil, fmt.Errorf("%s: the file says #challenge-rule %s, but --challenge is %s: leave out --challenge to use the file's", file, g.ChallengeRule, c)
	}
	opts := review.Options{Top: rv.top, EndgameNodes: rv.endgameNodes, PEG: rv.pegTime, Tiebreak: rv.tiebreak}
	if rv.player != "" {
		i, err := findPlayer(g, rv.player)
		if err != nil && rv.several {
			fmt.Fprintf(a.stderr, "scrabble: note: %s: left out: %v\n", file, err)
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		opts.Players[i] = true
	}
	tables, ok := rv.tables[g.Lexicon]
	if !ok {
		lex, err := a.sourceLexicon("game", g.Lexicon)
		if err != nil {
			if rv.several {
				err = fmt.Errorf("%s: %w", file, err)
			}
			return nil, err
		}
		tables = a.tablesFor(lex, movegen.Mapped)
		rv.tables[g.Lexicon] = tables
	}
	opts.Tables = tables
	table, err := eval.DefaultLeaves(tables.Lexicon().Header().Name)
	if err != nil {
		return nil, err
	}
	if table != nil {
		opts.Leaves = table
	}
	if rv.useSim {
		r := review.NewSimRanker(opts.Tables, opts.Leaves, rv.iterations)
		if rv.useInfer {
			r = r.WithInference(opts.Tables, infer.Options{})
		}
		opts.Ranker = r
	}
	if rv.useInfer && rv.pegTime > 0 {
		opts.PEGInfer = &infer.Options{}
	}
	rep, err := review.Review(ctx, g.ReplayWith(gcg.ReplayOptions{Challenge: rv.challenge}), opts)
	if rep != nil {
		rep.File = file // also on the partial report of an interrupted review
	}
	if err != nil && !(errors.Is(err, context.Canceled) && rep != nil) {
		return nil, err
	}
	return rep, err
}

// writeReview prints one game's review and writes its page, if asked.
func writeReview(a *app, rep *review.Report, asJSON bool, page *htmlFile) error {
	if page != nil {
		if err := page.write(func(w io.Writer) error { return review.WriteHTML(w, rep) }); err != nil {
			return err
		}
	}
	var err error
	if asJSON {
		err = review.WriteJSON(a.stdout, rep)
	} else {
		err = review.WriteText(a.stdout, rep)
	}
	if err == nil && page != nil {
		fmt.Fprintf(a.stderr, "Wrote %s\n", page.path)
	}
	return err
}

// writeReviews prints the reviews of several games and writes their pages
// and the index into htmlDir, if given.
func writeReviews(a *app, c *review.Collection, asJSON bool, htmlDir string) error {
	if htmlDir != "" {
		pages := pageNames(c.Games)
		for i, rep := range c.Games {
			if err := writeHTMLFile(filepath.Join(htmlDir, pages[i]), func(w io.Writer) error { return review.WriteHTML(w, rep) }); err != nil {
				return err
			}
		}
		index := filepath.Join(htmlDir, "index.html")
		if err := writeHTMLFile(index, func(w io.Writer) error { return review.WriteHTMLIndex(w, c, pages) }); err != nil {
			return err
		}
		defer fmt.Fprintf(a.stderr, "Wrote %s and %s\n", plural(len(pages), "page"), index)
	}
	if asJSON {
		return review.WriteCollectionJSON(a.stdout, c)
	}
	return review.WriteCollectionText(a.stdout, c)
}

// pageNames names each game's page after its file (game.gcg: game.html),
// numbered when two would clash or one would be the index.
func pageNames(reps []*review.Report) []string {
	used := map[string]bool{"index": true}
	names := make([]string, len(reps))
	for i, rep := range reps {
		base := strings.TrimSuffix(filepath.Base(rep.File), filepath.Ext(rep.File))
		if rep.File == "-" || base == "" {
			base = "stdin"
		}
		name := base
		for n := 2; used[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		used[strings.ToLower(name)] = true
		names[i] = name + ".html"
	}
	return names
}

// findPlayer matches --player against the nicknames and full names,
// ignoring case.
func findPlayer(g *gcg.Game, name string) (int, error) {
	for i, p := range g.Players {
		if strings.EqualFold(p.Nick, name) || strings.EqualFold(p.Name, name) {
			return i, nil
		}
	}
	names := make([]string, len(g.Players))
	for i, p := range g.Players {
		names[i] = fmt.Sprintf("%s (%s)", p.Nick, p.DisplayName())
	}
	if len(names) == 2 {
		return 0, usagef("--player %q is neither player: %s or %s", name, names[0], names[1])
	}
	return 0, usagef("--player %q is none of the players: %s", name, strings.Join(names, ", "))
}

// htmlFile is an HTML page being written: a temporary file beside the
// target, renamed onto it when complete, so that a failed run leaves no
// half page and the target is checked before the work starts.
type htmlFile struct {
	path string
	f    *atomicfile.File
}

// createHTMLFile checks that path can be written as a file and opens the
// temporary file beside it.
func createHTMLFile(path string) (*htmlFile, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, usagef("--html %s is a directory: give the file to write, such as %s (a directory is for several games)",
			path, filepath.Join(path, "report.html"))
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("--html %s: the directory %s: %w", path, dir, unwrapPath(err))
	} else if !st.IsDir() {
		return nil, fmt.Errorf("--html %s: %s is not a directory", path, dir)
	}
	// An earlier review killed while writing left its page's temporary.
	atomicfile.RemoveStale(dir, ".review-*.html")
	f, err := atomicfile.Create(path, atomicfile.Options{Pattern: ".review-*.html", Perm: 0o644, Sync: true})
	if err != nil {
		return nil, fmt.Errorf("--html %s: cannot write in %s: %w", path, dir, unwrapPath(err))
	}
	return &htmlFile{path: path, f: f}, nil
}

// write writes the page and puts it in place.
func (h *htmlFile) write(page func(io.Writer) error) error {
	f := h.f
	h.f = nil
	fail := func(err error) error { return fmt.Errorf("writing the HTML report %s: %w", h.path, unwrapPath(err)) }
	if err := page(f); err != nil {
		f.Abort()
		return fail(err)
	}
	if err := f.Commit(); err != nil {
		return fail(err)
	}
	return nil
}

// abort removes the temporary file of a page never written.
func (h *htmlFile) abort() {
	if h.f != nil {
		h.f.Abort()
	}
}

// writeHTMLFile writes one page to path through a temporary file beside it.
func writeHTMLFile(path string, page func(io.Writer) error) error {
	h, err := createHTMLFile(path)
	if err != nil {
		return err
	}
	defer h.abort()
	return h.write(page)
}

// makeHTMLDir checks or creates the directory --html names for several
// games.
func makeHTMLDir(dir string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return usagef("--html %s is a file: with several games --html names the directory to write a page per game and index.html into", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--html %s: cannot make the directory: %w", dir, unwrapPath(err))
	}
	return nil
}
