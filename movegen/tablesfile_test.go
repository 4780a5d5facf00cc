package movegen_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"scrabble/gaddag"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// TestTablesFileMatchesReference: tables read back from a tables file give
// every play of hundreds of random positions exactly as the brute-force
// reference lists them, and the best-move search (which reads the anagram
// index, stored in the file too) picks exactly the move the tables worked
// out in the process pick, with leaves, exchanges and the pass.
func TestTablesFileMatchesReference(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	for i, name := range testlex.Names() {
		t.Run(name, func(t *testing.T) {
			lex := testlex.GADDAG(t, name)
			path := filepath.Join(t.TempDir(), name+".tables")
			if err := movegen.WriteTablesFile(movegen.TablesFor(lex), path); err != nil {
				t.Fatal(err)
			}
			loaded, err := movegen.ReadTablesFile(lex, path, []movegen.Memory{movegen.Mapped, movegen.HugePages}[i%2])
			if err != nil {
				t.Fatal(err)
			}
			refLex(t, name)
			g, built := movegen.New(loaded), movegen.New(movegen.TablesFor(lex))
			g.SetLeaves(hashLeaves{})
			built.SetLeaves(hashLeaves{})
			opts := movegen.Options{Exchanges: true, Pass: true}
			failures := 0
			for _, pos := range randomPositions(t, name, n, uint64(7100+i)) {
				g.SetBoard(&pos.board)
				built.SetBoard(&pos.board)
				ok := checkCollected(t, "loaded tables", pos, enginePlays(g, pos.rack), pos.ref)
				got, gotOK := g.Best(&pos.rack, pos.bagLen, opts)
				want, wantOK := built.Best(&pos.rack, pos.bagLen, opts)
				if got != want || gotOK != wantOK {
					t.Errorf("Best with loaded tables = %v (eq %d), with built ones %v (eq %d)\n%v",
						got.NotationOn(&pos.board), got.Equity, want.NotationOn(&pos.board), want.Equity, pos)
					ok = false
				}
				if !ok {
					if failures++; failures == 5 {
						t.Fatalf("stopping after %d failing positions", failures)
					}
				}
			}
		})
	}
}

// tinyLexicon compiles a few words and saves them in dir, so the lexicon
// has a path for its tables file.
func tinyLexicon(t *testing.T, dir string) *gaddag.GADDAG {
	t.Helper()
	lex, err := gaddag.Build("TINY", []string{"AA", "AB", "BA", "CAB", "CABS", "QI", "QIS", "SCAB", "ZA"}, [32]byte{1})
	if err != nil {
		t.Fatal(err)
	}
	if err := lex.Save(filepath.Join(dir, "TINY.gaddag")); err != nil {
		t.Fatal(err)
	}
	return lex
}

// bestOf is a generator's best play on an empty board.
func bestOf(tables *movegen.Tables, rack string) move.Move {
	g := movegen.New(tables)
	g.SetBoard(&rules.Board{})
	r, _ := rules.ParseRack(rack)
	m, _ := g.Best(&r, 50, movegen.Options{})
	return m
}

// TestOpenTables: the first open works the tables out and stores them
// beside the lexicon; the next reads that file (it is not written again); a
// damaged file is replaced; a directory that cannot take the file gives a
// warning with tables that work all the same.
func TestOpenTables(t *testing.T) {
	dir := t.TempDir()
	lex := tinyLexicon(t, dir)
	path := movegen.TablesPath(lex)
	if path != filepath.Join(dir, "TINY.tables") {
		t.Fatalf("TablesPath = %q", path)
	}
	want := bestOf(movegen.NewTables(lex), "ABCQSIZ")
	if want.Len == 0 {
		t.Fatal("no play on the tiny lexicon")
	}
	check := func(what string) {
		t.Helper()
		tables, warn := movegen.OpenTables(lex, movegen.Mapped)
		if warn != nil {
			t.Fatalf("%s: warning %v", what, warn)
		}
		if got := bestOf(tables, "ABCQSIZ"); got != want {
			t.Fatalf("%s: best play %v, want %v", what, got, want)
		}
	}
	check("first open")
	st1, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no tables file after the first open: %v", err)
	}
	check("second open")
	if st2, err := os.Stat(path); err != nil || !os.SameFile(st1, st2) {
		t.Fatalf("the second open wrote the file again (%v)", err)
	}
	// Damaged: a byte flipped mid-file. Refused, then replaced.
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0x40
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := movegen.ReadTablesFile(lex, path, movegen.Mapped); err == nil {
		t.Fatal("a damaged tables file was read")
	}
	check("open of a damaged file")
	if _, err := movegen.ReadTablesFile(lex, path, movegen.Mapped); err != nil {
		t.Fatalf("the damaged file was not replaced: %v", err)
	}
	// Read ahead of the lexicon's load: the same tables; a preload of
	// another file, or of this one for another lexicon, is not taken.
	st1, _ = os.Stat(path)
	pre := movegen.PreloadTablesFile(path, movegen.Mapped)
	if tables, warn := pre.Open(lex, movegen.Mapped); warn != nil || bestOf(tables, "ABCQSIZ") != want {
		t.Fatalf("preloaded tables: warning %v", warn)
	}
	if st2, err := os.Stat(path); err != nil || !os.SameFile(st1, st2) {
		t.Fatalf("opening preloaded tables wrote the file again (%v)", err)
	}
	var none *movegen.PreloadedTables
	if tables, warn := none.Open(lex, movegen.Mapped); warn != nil || bestOf(tables, "ABCQSIZ") != want {
		t.Fatalf("no preload: warning %v", warn)
	}
	elsewhere := movegen.PreloadTablesFile(filepath.Join(t.TempDir(), "other.tables"), movegen.Mapped)
	if tables, warn := elsewhere.Open(lex, movegen.Mapped); warn != nil || bestOf(tables, "ABCQSIZ") != want {
		t.Fatalf("a preload of another file: warning %v", warn)
	}
	// Another lexicon's file: stale.
	lex2, err := gaddag.Build("TINY", []string{"AA", "QI", "ZA"}, [32]byte{2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := movegen.ReadTablesFile(lex2, path, movegen.Mapped); !errors.Is(err, movegen.ErrTablesStale) {
		t.Fatalf("another lexicon's tables: %v, want ErrTablesStale", err)
	}
	// lex2 saved over the lexicon: the preloaded file (lex's tables) is
	// refused and lex2's worked out and stored in its place.
	pre = movegen.PreloadTablesFile(path, movegen.Mapped)
	if err := lex2.Save(lex.Path()); err != nil {
		t.Fatal(err)
	}
	want2 := bestOf(movegen.NewTables(lex2), "AQIZ")
	if tables, warn := pre.Open(lex2, movegen.Mapped); warn != nil || bestOf(tables, "AQIZ") != want2 {
		t.Fatalf("a preload of another lexicon's tables: warning %v", warn)
	}
	if _, err := movegen.ReadTablesFile(lex2, path, movegen.Mapped); err != nil {
		t.Fatalf("lex2's tables were not stored: %v", err)
	}
	if err := lex.Save(lex.Path()); err != nil {
		t.Fatal(err)
	}
	// Nowhere to store them: the place of the file is a directory.
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	tables, warn := movegen.OpenTables(lex, movegen.Mapped)
	if warn == nil {
		t.Fatal("no warning when the tables cannot be stored")
	}
	if got := bestOf(tables, "ABCQSIZ"); got != want {
		t.Fatalf("unstored tables: best play %v, want %v", got, want)
	}
}
