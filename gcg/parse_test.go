package gcg

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"scrabble/rules"
)

func rack(t *testing.T, s string) rules.Rack {
	t.Helper()
	r, err := rules.ParseRack(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustParse(t *testing.T, name string, data []byte) *Game {
	t.Helper()
	g, err := Parse(name, data)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return g
}

// eventsGame is testdata/events.gcg as the model should hold it, written
// out by hand from the file.
func eventsGame(t *testing.T) *Game {
	return &Game{
		File:        "testdata/events.gcg",
		Players:     []Player{{"alice", "Alice Ångström"}, {"bob", "Bob"}},
		Title:       "Every event kind",
		Description: "A hand-made game that uses every kind of event line.\nScores worked out by hand from the premium squares.",
		Lexicon:     "NWL23",
		ID:          "test events-1",
		Note:        "before the first move",
		Racks:       [rules.MaxPlayers]rules.Rack{rack(t, "EEST?"), rack(t, "BDILQUY")},
		Pragmas:     []Pragma{{"tile-set", "english"}},
		Events: []Event{
			{Line: 11, Kind: Play, Player: 0, Rack: rack(t, "AEINRST"), Position: "8D", Word: "RETAINS", Score: 66, Total: 66,
				Note: "RETAINS: R on the double letter D8 (2) + ETAINS (6) = 8,\ndoubled by the star = 16, plus 50 for all seven tiles."},
			{Line: 14, Kind: Play, Player: 1, Rack: rack(t, "ADIOQUZ"), Position: "E6", Word: "ZO(E)A", Score: 13, Total: 13},
			{Line: 15, Kind: Exchange, Player: 0, Rack: rack(t, "EEIIOUV"), Tiles: rack(t, "IIUV"), Count: 4, Score: 0, Total: 66},
			{Line: 16, Kind: Play, Player: 1, Rack: rack(t, "BDILQUY"), Position: "J5", Word: "QUD(S)", Score: 16, Total: 29,
				Note: "Q 10 + U on the triple letter J6 (3) + D 2 + S 1."},
			{Line: 18, Kind: Withdrawn, Player: 1, Rack: rack(t, "BDILQUY"), Score: -16, Total: 13},
			{Line: 19, Kind: Play, Player: 0, Rack: rack(t, "EEOSTV?"), Position: "D8", Word: ".OVE", Score: 9, Total: 75,
				Note: "ROVE 7 and OA 2 across row 9."},
			{Line: 21, Kind: ChallengeBonus, Player: 0, Score: 5, Total: 80},
			{Line: 22, Kind: Exchange, Player: 1, Count: 7, Score: 0, Total: 13},
			{Line: 23, Kind: Pass, Player: 0, Rack: rack(t, "EEST?"), Score: 0, Total: 80},
			{Line: 24, Kind: TimePenalty, Player: 1, Rack: rack(t, "BDILQUY"), Score: -10, Total: 3},
			{Line: 25, Kind: EndPenalty, Player: 0, Rack: rack(t, "EEST?"), Tiles: rack(t, "EEST?"), Score: -4, Total: 76},
			{Line: 26, Kind: EndPoints, Player: 1, Tiles: rack(t, "BDILQUY"), Score: 44, Total: 47},
		},
	}
}

func diffGames(t *testing.T, got, want *Game) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	if len(got.Events) != len(want.Events) {
		t.Errorf("%d events, want %d", len(got.Events), len(want.Events))
	}
	for i := range min(len(got.Events), len(want.Events)) {
		if !reflect.DeepEqual(got.Events[i], want.Events[i]) {
			t.Errorf("event %d:\n got %+v\nwant %+v", i, got.Events[i], want.Events[i])
		}
	}
	g, w := *got, *want
	g.Events, w.Events = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("game:\n got %+v\nwant %+v", g, w)
	}
}

func TestParseEvents(t *testing.T) {
	data := readTestdata(t, "events.gcg")
	want := eventsGame(t)
	diffGames(t, mustParse(t, "testdata/events.gcg", data), want)

	// Line ends: CRLF and lone CR give the same game and the same lines.
	for name, end := range map[string]string{"CRLF": "\r\n", "CR": "\r"} {
		t.Run(name, func(t *testing.T) {
			diffGames(t, mustParse(t, "testdata/events.gcg", []byte(strings.ReplaceAll(string(data), "\n", end))), want)
		})
	}
	// A byte-order mark is skipped.
	t.Run("BOM", func(t *testing.T) {
		diffGames(t, mustParse(t, "testdata/events.gcg", append([]byte("\xEF\xBB\xBF"), data...)), want)
	})
}

func TestParseNotes(t *testing.T) {
	g := mustParse(t, "notes.gcg", readTestdata(t, "notes.gcg"))
	if want := "A note about the game,\nbefore any move."; g.Note != want {
		t.Errorf("game note %q, want %q", g.Note, want)
	}
	if want := "First line.\n\nAfter a blank line.\nA second #note goes on with the first."; g.Events[0].Note != want {
		t.Errorf("note 1 %q, want %q", g.Events[0].Note, want)
	}
	if want := "Trailing blank lines are dropped."; g.Events[1].Note != want {
		t.Errorf("note 2 %q, want %q", g.Events[1].Note, want)
	}
	if g.Title != "Late title" || g.Players[1] != (Player{Nick: "ben"}) || g.Players[1].DisplayName() != "ben" {
		t.Errorf("title %q, player 2 %+v", g.Title, g.Players[1])
	}
	if g.Events[1].Line != 12 {
		t.Errorf("second event on line %d, want 12", g.Events[1].Line)
	}
}

func TestParseEncoding(t *testing.T) {
	latin := readTestdata(t, "latin1.gcg")
	tests := []struct {
		name string
		data []byte
		want [2]string // the players' names
		note string
	}{
		// No pragma and not UTF-8: ISO 8859-1, the format's default.
		{"latin1 default", latin, [2]string{"José Pérez", "Zoë"}, "café"},
		{"latin1 pragma", append([]byte("#character-encoding ISO-8859-1\n"), latin...), [2]string{"José Pérez", "Zoë"}, "café"},
		// No pragma but valid UTF-8: read as UTF-8.
		{"utf8 no pragma", []byte("#player1 p1 José\n#player2 p2 Zoë\n"), [2]string{"José", "Zoë"}, ""},
		{"utf8 pragma", []byte("#character-encoding utf-8\n#player1 p1 José\n#player2 p2 Zoë\n"), [2]string{"José", "Zoë"}, ""},
		// The pragma wins over what the bytes look like.
		{"pragma latin1 on utf8 bytes", []byte("#character-encoding ISO-8859-1\n#player1 p1 Jos\xc3\xa9\n#player2 p2 Z\n"), [2]string{"JosÃ©", "Z"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustParse(t, "x.gcg", tc.data)
			if got := [2]string{g.Players[0].Name, g.Players[1].Name}; got != tc.want {
				t.Errorf("names %q, want %q", got, tc.want)
			}
			if tc.note != "" && g.Events[0].Note != tc.note {
				t.Errorf("note %q, want %q", g.Events[0].Note, tc.note)
			}
		})
	}
}

// TestParseErrors: each broken input is an error naming the file, the line
// and the problem.
func TestParseErrors(t *testing.T) {
	head := "#player1 alice Alice\n#player2 bob Bob\n"
	tests := []struct {
		name, text string
		line       int // of the first error
		msg        string
	}{
		{"unknown player", head + ">carol: ABC 8D CAB +10 10\n", 3, `unknown player "carol"`},
		{"no colon", head + ">alice ABC 8D CAB +10 10\n", 3, "an event starts with '>nick:'"},
		{"too few fields", head + ">alice: +10 10\n", 3, "too few fields"},
		{"word missing", head + ">alice: ABC 8D +10 10\n", 3, `cannot read "8D"`},
		{"move missing", head + ">alice: ABC +10 10\n", 3, "no move after the rack"},
		{"three move fields", head + ">alice: ABC 8D CAB X +10 10\n", 3, `cannot read "8D CAB X"`},
		{"unsigned score", head + ">alice: ABC 8D CAB 10 10\n", 3, `score "10": want a sign`},
		{"total missing after a play", head + ">alice: ABC 8D CAB +10\n", 3, "the cumulative score is missing after the score +10"},
		{"total missing after a pass", head + ">alice: ABC - +0\n", 3, "the cumulative score is missing after the score +0"},
		{"total missing after a pass, no rack", head + ">alice: - +0\n", 3, "the cumulative score is missing after the score +0"},
		{"total missing after an exchange", head + ">alice: ABC -3 +0\n", 3, "the cumulative score is missing after the score +0"},
		{"total missing after a withdrawal", head + ">alice: ABC -- -10\n", 3, "the cumulative score is missing after the score -10"},
		{"total missing after a time penalty", head + ">alice: ABC (time) -10\n", 3, "the cumulative score is missing after the score -10"},
		{"bad total", head + ">alice: ABC 8D CAB +10 ten\n", 3, `cumulative score "ten": not a number`},
		{"huge score", head + ">alice: ABC 8D CAB +1000000 10\n", 3, "out of range"},
		{"bad position", head + ">alice: ABC H CAB +10 10\n", 3, `bad position "H"`},
		{"bad letter", head + ">alice: ABC 8D C@B +10 10\n", 3, `'@' is not a letter`},
		{"unclosed", head + ">alice: ABC 8D (CAB +10 10\n", 3, "never closed"},
		{"empty parens", head + ">alice: ABC 8D C()AB +10 10\n", 3, "closes no letters"},
		{"nested", head + ">alice: ABC 8D ((C))AB +10 10\n", 3, "nested"},
		{"long rack", head + ">alice: ABCDEFGH 8D CAB +10 10\n", 3, "8 tiles; a rack holds at most 7"},
		{"exchange count", head + ">alice: ABC -8 +0 0\n", 3, "exchange of 8 tiles"},
		{"exchange tiles", head + ">alice: ABC -A1 +0 0\n", 3, `exchange "-A1"`},
		{"end tiles", head + ">alice: (A1) +2 2\n", 3, "end-of-game tiles"},
		{"not a move", head + ">alice: ABC [x] +0 0\n", 3, `cannot read "[x]"`},
		{"second player1", head + "#player1 carol Carol\n", 3, "second #player1 (the first is on line 1)"},
		{"same nick", "#player1 alice A\n#player2 alice B\n", 2, `both players have the nickname "alice"`},
		{"player without nick", "#player1\n#player2 bob\n", 1, "#player1 needs a nickname"},
		{"lexicon", head + "#lexicon NWL 23\n", 3, "#lexicon wants one name"},
		{"encoding late", head + "#character-encoding UTF-8\n", 3, "must be the first line"},
		{"encoding unknown", "#character-encoding EBCDIC\n" + head, 1, `unsupported character encoding "EBCDIC"`},
		{"not UTF-8", "#character-encoding UTF-8\n" + head + "#note caf\xe9\n", 4, "not valid UTF-8"},
		{"stray text", head + "hello\n", 3, `"hello" is neither a pragma`},
		{"bare hash", head + "# comment\n", 3, "'#' must be followed by a pragma name"},
		{"event first", ">alice: ABC 8D CAB +10 10\n" + head, 1, "before #player1 and #player2"},
		{"rack pragma", head + "#rack1 AB1\n", 3, "#rack1: want letters"},
		{"no player2", "#player1 alice\n", 0, "no #player2 line"},
		{"empty", "", 0, "no #player1 line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.gcg", []byte(tc.text))
			if err == nil {
				t.Fatal("no error")
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *gcg.Error", err)
			}
			if pe.File != "bad.gcg" || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("error %q (line %d), want line %d and %q", pe, pe.Line, tc.line, tc.msg)
			}
			want := "bad.gcg: "
			if tc.line > 0 {
				want = "bad.gcg:" + strconv.Itoa(tc.line) + ": "
			}
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
		})
	}
}

// TestParseAllErrors: every bad line is reported, up to ten.
func TestParseAllErrors(t *testing.T) {
	text := "#player1 alice\n#player2 bob\n>alice: ABC 8D CAB 10 10\n>bob: ABC -9 +0 0\n>carol: A - +0 0\n"
	_, err := Parse("x.gcg", []byte(text))
	for _, want := range []string{"x.gcg:3: ", "x.gcg:4: ", "x.gcg:5: "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	many := "#player1 alice\n#player2 bob\n" + strings.Repeat("junk\n", 30)
	_, err = Parse("x.gcg", []byte(many))
	if n := strings.Count(err.Error(), "\n") + 1; n != maxErrors+1 || !strings.Contains(err.Error(), "stopped after 10 errors") {
		t.Errorf("%d lines of errors, want %d and a last one saying it stopped:\n%v", n, maxErrors+1, err)
	}
}
