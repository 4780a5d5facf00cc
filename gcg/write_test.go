package gcg

import (
	"bytes"
	"strings"
	"testing"
)

// withoutPlaces clears what Write does not keep: the file name and lines.
func withoutPlaces(g *Game) *Game {
	c := *g
	c.File = ""
	c.Events = append([]Event(nil), g.Events...)
	for i := range c.Events {
		c.Events[i].Line = 0
	}
	return &c
}

// roundTrip writes g and parses it back.
func roundTrip(t testing.TB, g *Game) (*Game, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatalf("Write: %v", err)
	}
	back, err := Parse("written.gcg", buf.Bytes())
	if err != nil {
		t.Fatalf("Parse of Write's output: %v\n%s", err, buf.String())
	}
	return back, buf.String()
}

func TestWriteRoundTrip(t *testing.T) {
	for _, name := range []string{"events.gcg", "notes.gcg", "latin1.gcg"} {
		t.Run(name, func(t *testing.T) {
			g := mustParse(t, name, readTestdata(t, name))
			back, text := roundTrip(t, g)
			if !strings.HasPrefix(text, "#character-encoding UTF-8\n") {
				t.Errorf("output does not start with the encoding pragma:\n%s", text)
			}
			diffGames(t, withoutPlaces(back), withoutPlaces(g))
		})
	}
}

// TestWriteText checks the exact text for a game built in code, every kind
// of line and a note that needs its second line written as a pragma.
func TestWriteText(t *testing.T) {
	g := &Game{
		Players:     []Player{{"ann", "Ann Lee"}, {"ben", ""}},
		Lexicon:     "CSW24",
		Description: "two\nlines",
		Pragmas:     []Pragma{{"tile-set", "english"}},
		Events: []Event{
			{Kind: Play, Player: 0, Rack: rack(t, "TSRNIEA"), Position: "8D", Word: "RETAINS", Score: 66, Total: 66,
				Note: "best\n#hashtag\n\nlast"},
			{Kind: Exchange, Player: 1, Rack: rack(t, "?QUVVWW"), Tiles: rack(t, "VVWW"), Count: 4, Total: 0},
			{Kind: Exchange, Player: 0, Count: 3, Total: 66},
			{Kind: Pass, Player: 1, Total: 0},
			{Kind: Withdrawn, Player: 1, Score: -8, Total: -8},
			{Kind: ChallengeBonus, Player: 0, Score: 5, Total: 71},
			{Kind: TimePenalty, Player: 1, Score: -10, Total: -18},
			{Kind: EndPenalty, Player: 1, Rack: rack(t, "Q?"), Tiles: rack(t, "Q?"), Score: -10, Total: -28},
			{Kind: EndPenalty, Player: 0, Tiles: rack(t, "?"), Score: 0, Total: 71},
			{Kind: EndPoints, Player: 0, Tiles: rack(t, "QV"), Score: 28, Total: 99},
		},
	}
	want := `#character-encoding UTF-8
#player1 ann Ann Lee
#player2 ben
#lexicon CSW24
#description two
lines
#tile-set english
>ann: AEINRST 8D RETAINS +66 66
#note best
#note #hashtag

last
>ben: QUVVWW? -VVWW +0 0
>ann: -3 +0 66
>ben: - +0 0
>ben: -- -8 -8
>ann: (challenge) +5 71
>ben: (time) -10 -18
>ben: Q? (Q?) -10 -28
>ann: (?) -0 71
>ann: (QV) +28 99
`
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
	back, _ := roundTrip(t, g)
	diffGames(t, withoutPlaces(back), g)
}

func TestWriteRefuses(t *testing.T) {
	ok := func() *Game {
		return &Game{Players: []Player{{"a", ""}, {"b", ""}}, Events: []Event{{Kind: Pass}}}
	}
	tests := []struct {
		name   string
		change func(g *Game)
	}{
		{"nick with a space", func(g *Game) { g.Players[0].Nick = "a b" }},
		{"no nick", func(g *Game) { g.Players[1].Nick = "" }},
		{"same nicks", func(g *Game) { g.Players[1].Nick = "a" }},
		{"name on two lines", func(g *Game) { g.Players[0].Name = "x\ny" }},
		{"player 2", func(g *Game) { g.Events[0].Player = 2 }},
		{"bad kind", func(g *Game) { g.Events[0].Kind = 0 }},
		{"bad position", func(g *Game) { g.Events[0] = Event{Kind: Play, Position: "88", Word: "AB"} }},
		{"bad word", func(g *Game) { g.Events[0] = Event{Kind: Play, Position: "8D", Word: "A B"} }},
		{"exchange of nothing", func(g *Game) { g.Events[0] = Event{Kind: Exchange} }},
		{"end points without tiles", func(g *Game) { g.Events[0] = Event{Kind: EndPoints, Score: 2} }},
		{"negative end points", func(g *Game) { g.Events[0] = Event{Kind: EndPoints, Tiles: rack(t, "A"), Score: -2} }},
		{"title on two lines", func(g *Game) { g.Title = "a\nb" }},
	}
	if err := Write(&bytes.Buffer{}, ok()); err != nil {
		t.Fatalf("the unchanged game: %v", err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := ok()
			tc.change(g)
			if err := Write(&bytes.Buffer{}, g); err == nil {
				t.Error("no error")
			}
		})
	}
}
