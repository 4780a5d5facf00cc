package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"scrabble/eval"
	"scrabble/gcg"
	"scrabble/review"
)

func newReviewCmd(a *app) *cobra.Command {
	var (
		player, htmlPath string
		top              int
		asJSON, useSim   bool
		iterations       int
	)
	cmd := &cobra.Command{
		Use:   "review GAME.gcg",
		Short: "Review a recorded game (GCG) turn by turn against the engine",
		Long: `Replay a recorded game (GCG) with the engine's rules and review each turn of
the player (--player, a nickname or full name; both players if none): the
rack, the play made with its score and equity, the engine's best moves
(--top, 5 by default, 0 for all), the equity the play gave up, and flags for missed
bingos and phonies in the lexicon. A summary follows: equity lost in total
and per turn, missed bingos, phonies and the costliest turns, then every
line that could not be applied as recorded (the game goes on as recorded
where it can).

Equity is the score plus the engine's value of the tiles kept; with the bag
empty, going out earns twice the opponent's tiles and tiles kept cost twice
their value. A turn is reviewed when its rack was recorded in full.

The lexicon is --lexicon, else the game's #lexicon when installed (or in
SCRABBLE_LEXICA_DIR), else the default lexicon. --json prints one JSON
object (fields in README.md); --html FILE also writes a self-contained HTML
page with a board per turn and charts. --sim values the engine's best
moves and the move played by Monte Carlo simulation (--iterations each).`,
		Example: `  scrabble review game.gcg
  scrabble --lexicon NWL23 review game.gcg --player doug --top 3
  scrabble review game.gcg --json | jq '.summary'
  scrabble review game.gcg --html report.html
  scrabble review game.gcg --player doug --sim --iterations 200`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if top < 0 {
				return usagef("--top must be 0 (all) or more, not %d", top)
			}
			top = topLimit(top)
			if cmd.Flags().Changed("iterations") && !useSim {
				return usagef("--iterations is for --sim")
			}
			if iterations < 1 {
				return usagef("--iterations must be at least 1, not %d", iterations)
			}
			g, err := a.readGame(argv[0])
			if err != nil {
				return err
			}
			opts := review.Options{Top: top}
			if player != "" {
				i, err := findPlayer(g, player)
				if err != nil {
					return err
				}
				opts.Players[i] = true
			}
			if opts.Lexicon, err = a.sourceLexicon("game", g.Lexicon); err != nil {
				return err
			}
			table, err := eval.DefaultLeaves(opts.Lexicon.Header().Name)
			if err != nil {
				return err
			}
			if table != nil {
				opts.Leaves = table
			}
			if useSim {
				opts.Ranker = newSimRanker(opts.Lexicon, opts.Leaves, iterations)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			rep, err := review.Review(ctx, g.Replay(), opts)
			if err != nil {
				if errors.Is(err, context.Canceled) {
					return exitStatus(130)
				}
				return err
			}
			rep.File = argv[0]
			if htmlPath != "" {
				if err := writeHTMLReport(htmlPath, rep); err != nil {
					return err
				}
			}
			if asJSON {
				err = review.WriteJSON(a.stdout, rep)
			} else {
				err = review.WriteText(a.stdout, rep)
			}
			if err == nil && htmlPath != "" {
				fmt.Fprintf(a.stderr, "Wrote %s\n", htmlPath)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVarP(&player, "player", "p", "", "review only this player's turns (nickname or full name)")
	f.IntVarP(&top, "top", "n", review.DefaultTop, "how many of the engine's best moves to list a turn (0: all)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object (fields in README.md)")
	f.StringVar(&htmlPath, "html", "", "also write a self-contained HTML report to FILE")
	f.BoolVar(&useSim, "sim", false, "value the candidate moves by Monte Carlo simulation")
	f.IntVar(&iterations, "iterations", defaultReviewIterations, "with --sim: iterations a turn")
	return cmd
}

// findPlayer matches --player against the nicknames and full names,
// ignoring case.
func findPlayer(g *gcg.Game, name string) (int, error) {
	for i, p := range g.Players {
		if strings.EqualFold(p.Nick, name) || strings.EqualFold(p.Name, name) {
			return i, nil
		}
	}
	return 0, usagef("--player %q is neither player: %s (%s) or %s (%s)", name,
		g.Players[0].Nick, g.Players[0].DisplayName(), g.Players[1].Nick, g.Players[1].DisplayName())
}

// writeHTMLReport writes the page to a temporary file beside path and
// renames it, so that a failed run leaves no half page.
func writeHTMLReport(path string, rep *review.Report) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".review-*.html")
	if err != nil {
		return fmt.Errorf("writing the HTML report: %w", err)
	}
	defer os.Remove(f.Name())
	if err := review.WriteHTML(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("writing the HTML report %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the HTML report %s: %w", path, err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("writing the HTML report %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("writing the HTML report: %w", err)
	}
	return nil
}
