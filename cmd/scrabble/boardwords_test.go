package main

import (
	"encoding/json"
	"strings"
	"testing"

	"scrabble/rules"
)

// phonyBoard holds CAT and, in the MOVES lexicon, the phonies QZX and FOOB
// (FOOb with a blank) and the cross-words they make: CQ, AZ and TXF.
var phonyBoard = strings.Repeat("...............\n", 7) +
	"......CAT......\n" +
	"......QZX......\n" +
	"........FOOb...\n" +
	strings.Repeat("...............\n", 5)

// manyPhonies is a board of 16 phonies: a column of 15 tiles through the
// centre, with a tile beside it on each row, left on even rows and right
// on odd ones (so the side tiles make no words down).
func manyPhonies() string {
	const spine, sides = "EIOEIOEIOEIOEIO", "NRLDUGTSPMBCHKY"
	var sb strings.Builder
	for r := range rules.Size {
		row := []byte("...............")
		row[7] = spine[r]
		if r%2 == 0 {
			row[6] = sides[r]
		} else {
			row[8] = sides[r]
		}
		sb.Write(row)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// TestBoardPhoniesWarn: show, best and moves accept a board holding words
// the lexicon lacks, and print one warning line on stderr naming them;
// stdout is what it would be without the warning.
func TestBoardPhoniesWarn(t *testing.T) {
	e := movesEnv(t)
	phony := e.file("phony.txt", phonyBoard)
	clean := e.file("clean.txt", gridBoard)
	want := "scrabble: warning: " + phony + ": words not in MOVES: QZX, FOOB, CQ, AZ, TXF\n"
	for _, args := range [][]string{
		{"show", "--board", phony},
		{"best", "--board", phony, "--rack", "AEST"},
		{"best", "--board", phony, "--rack", "AEST", "--json"},
		{"moves", "--board", phony, "--rack", "AEST", "--json"},
	} {
		r := e.run(args...)
		if r.code != 0 || r.stderr != want {
			t.Errorf("%v: exit %d, stderr %q; want 0 and %q", args, r.code, r.stderr, want)
		}
		if strings.Contains(r.stdout, "warning") || (args[len(args)-1] == "--json" && !json.Valid([]byte(r.stdout))) {
			t.Errorf("%v: stdout changed:\n%s", args, r.stdout)
		}
		// A board of real words gets no warning.
		args[2] = clean
		if r := e.run(args...); r.code != 0 || r.stderr != "" {
			t.Errorf("%v: %+v", args, r)
		}
	}
	// show without any lexicon installed shows the board, checking nothing:
	// the same stdout, no warning.
	bare := newTestEnv(t)
	r := bare.run("show", "--board", phony)
	if shown := e.run("show", "--board", phony); r.code != 0 || r.stderr != "" || r.stdout != shown.stdout {
		t.Errorf("show without a lexicon: %+v\nwant stdout %q", r, shown.stdout)
	}
	// From standard input, and a long list capped.
	many := manyPhonies()
	r = e.runIn(many, "--data-dir", e.dataDir, "show", "--board", "-")
	wantMany := "scrabble: warning: the position on standard input: words not in MOVES: NE, IR, LO, ED, UI, OG, TE, IS and 8 more\n"
	if r.code != 0 || r.stderr != wantMany {
		t.Errorf("show from stdin: stderr %q, want %q", r.stderr, wantMany)
	}
	one := strings.Repeat("...............\n", 7) + "......CATS.....\n" + strings.Repeat("...............\n", 7)
	if r := e.runIn(strings.Replace(one, "CATS", "CATZ", 1), "--data-dir", e.dataDir, "moves", "--board", "-", "--rack", "A"); !strings.HasSuffix(r.stderr, "word not in MOVES: CATZ\n") {
		t.Errorf("one phony: %+v", r)
	}
}
