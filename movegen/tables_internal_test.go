package movegen

import (
	"sync"

	"scrabble/gaddag"
)

var (
	testTablesMu sync.Mutex
	testTables   = map[*gaddag.GADDAG]*Tables{}
)

// tablesFor returns lex's tables, built once per test binary: the tests
// make many generators, and tables take a tenth of a second.
func tablesFor(lex *gaddag.GADDAG) *Tables {
	testTablesMu.Lock()
	defer testTablesMu.Unlock()
	t, ok := testTables[lex]
	if !ok {
		t = NewTables(lex)
		testTables[lex] = t
	}
	return t
}

// TablesFor is tablesFor for the package's external tests.
var TablesFor = tablesFor

// NewTablesHeap is NewTables in ordinary memory, for a test that makes
// tables for many lexica (a fuzz target): huge pages are never returned.
func NewTablesHeap(lex *gaddag.GADDAG) *Tables { return newTables(lex, false) }
