// Command scrabble is the command-line front end of the crossword-game
// engine: it manages compiled lexica, checks words and shows positions.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	dieByAbort()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// dieByAbort makes a fatal runtime error (out of memory, a stack overflow,
// concurrent map writes: nothing a recover can catch) end the process by
// SIGABRT, after Go's report, instead of with exit status 2, which is the
// status of a usage error. A shell shows 134 (128+6). No core file is
// written unless the user asks for one with GOTRACEBACK=crash: the core
// size limit is set to 0 first (see noCoreFile).
func dieByAbort() {
	if os.Getenv("GOTRACEBACK") != "crash" {
		noCoreFile()
	}
	debug.SetTraceback("crash")
}
