package main

import (
	"fmt"
	"io"

	"scrabble/review"
)

// defaultReviewIterations is the simulation budget a turn for review --sim.
const defaultReviewIterations = 100

// noteSimReview says on stderr that a review by simulation is starting
// (it takes a while) and how to stop it.
func noteSimReview(w io.Writer, iterations int) {
	fmt.Fprintf(w, "Reviewing by simulation (%s a turn); Ctrl-C stops and prints the turns reviewed so far ...\n", plural(iterations, "iteration"))
}

// reviewInterrupted ends a review stopped by Ctrl-C (or SIGTERM, SIGHUP)
// once the turns done so far are printed: it says where it stopped (on
// stdout too for the text report, which has no field for it), naming the
// game when there are several, and exits 130, as a shell does for SIGINT.
func reviewInterrupted(a *app, rep *review.Report, asJSON, several bool) error {
	msg := fmt.Sprintf("interrupted at turn %d: the review shows the turns before it", rep.Interrupted)
	if several {
		msg = fmt.Sprintf("interrupted in %s at turn %d: the review shows the games and turns before it", rep.File, rep.Interrupted)
	}
	if !asJSON {
		fmt.Fprintf(a.stdout, "\nReview %s.\n", msg)
	}
	fmt.Fprintf(a.stderr, "scrabble: %s\n", msg)
	return exitStatus(130)
}
