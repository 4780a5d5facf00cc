// Package testgen gives tests the move generator's tables of a lexicon,
// built once per test binary: tests make generators by the hundred, and
// movegen.NewTables takes a tenth of a second, where the engine
// builds them once where it loads the lexicon. Only tests import it
// (with testlex, for the lexicon: testgen.Tables(testlex.GADDAG(t, name))).
package testgen

import (
	"sync"

	"scrabble/gaddag"
	"scrabble/movegen"
)

var (
	mu     sync.Mutex
	tables = map[*gaddag.GADDAG]*movegen.Tables{}
)

// Tables returns lex's tables, built on the first call for lex.
func Tables(lex *gaddag.GADDAG) *movegen.Tables {
	mu.Lock()
	defer mu.Unlock()
	t, ok := tables[lex]
	if !ok {
		t = movegen.NewTables(lex)
		tables[lex] = t
	}
	return t
}
