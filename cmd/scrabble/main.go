// Command scrabble is the command-line front end of the crossword-game
// engine: it manages compiled lexica, checks words and shows positions.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
