// Package testgen gives tests the move generator's tables of a lexicon,
// built once per test binary: tests make generators by the hundred, and
// movegen.NewTables takes a few hundred milliseconds, where the engine
// builds them once where it loads the lexicon. Only tests import it.
package testgen

import (
	"sync"
	"testing"

	"scrabble/gaddag"
	"scrabble/internal/testlex"
	"scrabble/movegen"
)

var (
	mu     sync.Mutex
	tables = map[*gaddag.GADDAG]*movegen.Tables{}
)

// Tables returns the tables of the named list (see testlex.GADDAG, which
// skips the test when the list is missing).
func Tables(tb testing.TB, name string) *movegen.Tables {
	tb.Helper()
	return Of(testlex.GADDAG(tb, name))
}

// Of returns lex's tables, built on the first call for lex.
func Of(lex *gaddag.GADDAG) *movegen.Tables {
	mu.Lock()
	defer mu.Unlock()
	t, ok := tables[lex]
	if !ok {
		t = movegen.NewTables(lex)
		tables[lex] = t
	}
	return t
}
