package review

import (
	"bytes"
	"strings"
	"testing"
)

// TestCollect: players are matched by nickname ignoring case, their sums
// and mean are over all their reviewed turns (not a mean of means), and
// the costliest turns come from every game, naming the file.
func TestCollect(t *testing.T) {
	a := &Report{File: "a.gcg", Players: []Player{{Nick: "Doug"}, {Nick: "emely"}}, Summary: Summary{
		Players: []PlayerSummary{
			{Player: "Doug", Turns: 2, Skipped: 1, EquityLost: 10, MeanEquityLost: 5, BestMoves: 1, MissedBingos: 1},
			{Player: "emely", Turns: 1, EquityLost: 3, MeanEquityLost: 3, Phonies: 1},
		},
		Costliest: []Costly{{Turn: 3, Player: "Doug", EquityLost: 8}, {Turn: 2, Player: "emely", EquityLost: 3}},
	}}
	b := &Report{File: "b.gcg", Players: []Player{{Nick: "ann"}, {Nick: "DOUG"}}, Summary: Summary{
		Players: []PlayerSummary{
			{Player: "ann", Turns: 1, EquityLost: 0, BestMoves: 1},
			{Player: "DOUG", Turns: 4, EquityLost: 2, MeanEquityLost: 0.5, BestMoves: 3},
		},
		Costliest: []Costly{{Turn: 7, Player: "DOUG", EquityLost: 9}},
	}}
	c := Collect([]*Report{a, b})
	s := c.Summary
	if s.Games != 2 || len(s.Players) != 3 {
		t.Fatalf("summary %+v", s)
	}
	d := s.Players[0]
	// Doug: 6 turns, 12 lost: mean 2, not (5+0.5)/2.
	if d.Player != "Doug" || d.Games != 2 || d.Turns != 6 || d.Skipped != 1 || d.EquityLost != 12 || d.MeanEquityLost != 2 ||
		d.BestMoves != 4 || d.MissedBingos != 1 {
		t.Errorf("Doug %+v", d)
	}
	if s.Players[1].Player != "emely" || s.Players[2].Player != "ann" || s.Players[2].Games != 1 {
		t.Errorf("players %+v", s.Players)
	}
	if s.Total.Turns != 8 || s.Total.EquityLost != 15 || s.Total.MeanEquityLost != 1.875 || s.Total.Phonies != 1 {
		t.Errorf("total %+v", s.Total)
	}
	if len(s.Costliest) != 3 || s.Costliest[0].File != "b.gcg" || s.Costliest[0].Turn != 7 || s.Costliest[1].File != "a.gcg" {
		t.Errorf("costliest %+v", s.Costliest)
	}
	var buf bytes.Buffer
	if err := WriteHTMLIndex(&buf, c, []string{"a.html", "b.html"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="a.html"`, `href="b.html"`, `href="b.html#turn-7"`, "Players over all the games"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("index lacks %q", want)
		}
	}
	if err := WriteHTMLIndex(&buf, c, []string{"a.html"}); err == nil {
		t.Error("an index with a page missing: no error")
	}
}

// TestCollectionTextCountsGames: the summary's heading counts the games in
// words that fit the number ("1 game", "2 games").
func TestCollectionTextCountsGames(t *testing.T) {
	one := &Report{File: "a.gcg", Players: []Player{{Nick: "a"}, {Nick: "b"}}}
	for _, c := range []struct {
		reps []*Report
		want string
	}{
		{[]*Report{one}, "Summary over 1 game ("},
		{[]*Report{one, one}, "Summary over 2 games ("},
	} {
		var buf bytes.Buffer
		if err := WriteCollectionText(&buf, Collect(c.reps)); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), c.want) {
			t.Errorf("%d games: text lacks %q:\n%s", len(c.reps), c.want, buf.String())
		}
	}
}
