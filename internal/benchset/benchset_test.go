package benchset_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"scrabble/internal/benchset"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
)

var update = flag.Bool("update", false, "rewrite positions.cgp from Make")

const (
	setGames = 12
	setSeed  = 2026
)

// TestPositionsAreReproducible regenerates the committed set from its seed:
// the file is the engine's own games, not hand-picked positions.
func TestPositionsAreReproducible(t *testing.T) {
	made := benchset.Make(testgen.Tables(testlex.GADDAG(t, "NWL23")), setGames, setSeed)
	var b strings.Builder
	b.WriteString("# Every turn of 12 seeded NWL23 games (benchset.Make(lex, 12, 2026)).\n")
	for _, p := range made {
		b.WriteString(p.CGP())
		b.WriteByte('\n')
	}
	if *update {
		if err := os.WriteFile("positions.cgp", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile("positions.cgp")
	if err != nil {
		t.Fatal(err)
	}
	if string(committed) != b.String() {
		t.Fatal("positions.cgp differs from Make(NWL23, 12, 2026); run go test ./internal/benchset -run Reproducible -update")
	}
}

func TestCommittedPositions(t *testing.T) {
	ps, err := benchset.Positions()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 200 {
		t.Fatalf("%d positions, want at least 200", len(ps))
	}
	for i, p := range ps {
		if p.Racks[0].Count() == 0 {
			t.Errorf("position %d has no rack to move", i+1)
		}
	}
}
