package movegen

import (
	"sync"

	"scrabble/gaddag"
	"scrabble/rules"
)

// Tables are what every generator on one lexicon reads and none writes,
// worked out from the lexicon once: the annotated arcs and their after-run
// sets, the short runs' cross-checks, the empty board's sets and, on the
// first search that needs it, the anagram index. For NWL23 they take about
// 0.1 s and 10 MB, and the index 0.2 s and 20 MB more, so the caller builds
// them once where it loads the lexicon and hands them to every generator it
// makes (New). The big tables are mapped for huge pages (internal/hugemem),
// which are never returned to the system: a long-running caller keeps one
// Tables per lexicon. Safe for concurrent use.
type Tables struct {
	lex   *gaddag.GADDAG
	graph graph
	// empty is the board state of the empty board: every game starts
	// there, and copying it takes a twentieth of working it out.
	empty boardState

	// The anagram index is built by the first Best (or Prepare): a
	// caller that only lists moves never pays for it.
	anagramOnce sync.Once
	anagrams    *anagramIndex
	// whole, for tables pruned from another's lexicon (Pruned), is that
	// other's: its anagram index serves them, as true of every word the
	// pruned lexicon keeps (and never slower to ask).
	whole *Tables
}

// graph is what the walk and the cross-checks read of the lexicon: each
// generator holds a copy (a few words), so the walk reaches the arcs
// without going through the Tables pointer first.
type graph struct {
	xarcs []xarc
	// after holds, for the node starting at each arc index of xarcs, the
	// letters that can come right after the letters read so far in some
	// word, with any letters before them: the union, over the node and
	// every node below it by letter arcs (the word's earlier letters, read
	// backwards), of what follows their separator. Worked out with the
	// arcs, on another core.
	after []uint32
	short *shortCross // cross-checks next to short runs (see shortCross)
	root  gaddag.Node // the GADDAG root in xarcs
	dawg  gaddag.Node // the DAWG root in xarcs
	// rootSet is the letter set of the GADDAG root.
	rootSet uint32
	dawgSet uint32 // and of the DAWG root
}

// NewTables works out the tables of lex (all but the anagram index, which
// waits for the first search).
func NewTables(lex *gaddag.GADDAG) *Tables { return newTables(lex, true) }

// newTables is NewTables, with the big tables in huge pages kept for the
// process's life (huge) or in ordinary memory.
func newTables(lex *gaddag.GADDAG, huge bool) *Tables {
	t := &Tables{lex: lex, graph: newGraph(lex, huge)}
	t.empty = emptyBoardState(t)
	return t
}

// emptyBoardState works out the empty board's sets, on a generator of its
// own.
func emptyBoardState(t *Tables) boardState {
	g := &Generator{tables: t, graph: t.graph, stamp: newStamps()}
	g.setBoard(&rules.Board{})
	return g.boardState
}

// Lexicon returns the lexicon the tables were made from.
func (t *Tables) Lexicon() *gaddag.GADDAG { return t.lex }

// Prepare builds the anagram index now, which the first search would
// otherwise build: benchmarks call it so the clock sees searches only.
func (t *Tables) Prepare() { t.anagramIndex() }

// anagramIndex returns the anagram index, building it on first use.
func (t *Tables) anagramIndex() *anagramIndex {
	if t.whole != nil {
		return t.whole.anagramIndex()
	}
	t.anagramOnce.Do(func() { t.anagrams = buildAnagramIndex(t.lex) })
	return t.anagrams
}
