package eval

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"
)

// The engine's own win-probability table, learned by `scrabble winpct
// train` from NWL23 self-play (see README.md, "Win probability"). Used for
// every lexicon: how far a lead goes depends on the tiles left far more than
// on the word list.
//
//go:embed data/winpct.csv
var defaultWinPctFile []byte

// DefaultWinPct returns the built-in table, decoded once and shared.
var DefaultWinPct = sync.OnceValue(func() *WinPct {
	t, err := ReadWinPct("eval/data/winpct.csv", bytes.NewReader(defaultWinPctFile))
	if err != nil {
		panic(fmt.Sprintf("eval: the built-in win table is broken: %v", err)) // a test guards it
	}
	return t
})
