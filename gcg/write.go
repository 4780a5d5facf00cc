package gcg

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"scrabble/rules"
)

// Write writes the game in GCG, UTF-8 with LF line ends:
//
//	#character-encoding UTF-8
//	#player1 nick Full Name
//	#player2 nick Full Name          (to #player4: every player)
//	#title, #lexicon, #challenge-rule, #description, #id, other pragmas, the game's #note
//	>nick: RACK MOVE +SCORE TOTAL    each event, then its #note
//	#rack1, #rack2, ...
//
// Racks and tiles are written alphabetically with '?' last; a play's
// position and word as stored. A rack left empty is left out (the end
// lines of sim's games: ">nick: (DIV) +14 420"). Multi-line notes and
// descriptions continue on the next lines; a line that would read as a
// pragma or an event is written as a pragma of its own, which Parse joins
// back. Parse reads what Write writes into an equal Game (apart from File
// and the events' Line).
func Write(w io.Writer, g *Game) error {
	if err := check(g); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "#character-encoding UTF-8")
	for i, p := range g.Players {
		pragma(bw, fmt.Sprintf("player%d", i+1), trim(p.Nick+" "+p.Name))
	}
	if g.Title != "" {
		pragma(bw, "title", g.Title)
	}
	if g.Lexicon != "" {
		pragma(bw, "lexicon", g.Lexicon)
	}
	if g.ChallengeRule != "" {
		pragma(bw, "challenge-rule", g.ChallengeRule)
	}
	if g.Description != "" {
		text(bw, "description", g.Description)
	}
	if g.ID != "" {
		pragma(bw, "id", g.ID)
	}
	for _, p := range g.Pragmas {
		pragma(bw, p.Name, p.Value)
	}
	if g.Note != "" {
		text(bw, "note", g.Note)
	}
	for i := range g.Events {
		e := &g.Events[i]
		fields := []string{">" + g.Players[e.Player].Nick + ":"}
		if e.Rack.Count() > 0 {
			fields = append(fields, e.Rack.String())
		}
		fields = append(fields, e.Move())
		switch e.Kind {
		case EndPenalty:
			fields = append(fields, fmt.Sprintf("-%d", -e.Score))
		default:
			fields = append(fields, fmt.Sprintf("%+d", e.Score))
		}
		fields = append(fields, fmt.Sprint(e.Total))
		fmt.Fprintln(bw, strings.Join(fields, " "))
		if e.Note != "" {
			text(bw, "note", e.Note)
		}
	}
	for i, r := range g.Racks {
		if r.Count() > 0 {
			pragma(bw, fmt.Sprintf("rack%d", i+1), r.String())
		}
	}
	return bw.Flush()
}

func pragma(w io.Writer, name, value string) {
	if value == "" {
		fmt.Fprintf(w, "#%s\n", name)
		return
	}
	fmt.Fprintf(w, "#%s %s\n", name, value)
}

// text writes a note or the description: the first line as the pragma, the
// others as continuation lines, except a line that would not read as one.
func text(w io.Writer, name, s string) {
	for i, line := range strings.Split(s, "\n") {
		switch {
		case i == 0 || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ">"):
			pragma(w, name, line)
		default:
			fmt.Fprintln(w, line) // an empty line too: Parse keeps it when the text goes on
		}
	}
}

// check reports what Write cannot write so that Parse reads it back.
func check(g *Game) error {
	if err := rules.CheckPlayers(len(g.Players)); err != nil {
		return fmt.Errorf("gcg: %w", err)
	}
	for i, p := range g.Players {
		if p.Nick == "" || len(fields(p.Nick)) != 1 || p.Nick != trim(p.Nick) || strings.ContainsAny(p.Nick, "\r\n") {
			return fmt.Errorf("gcg: player %d's nickname %q: want one word", i+1, p.Nick)
		}
		if strings.ContainsAny(p.Name, "\r\n") {
			return fmt.Errorf("gcg: player %d's name %q spans lines", i+1, p.Name)
		}
	}
	for i, p := range g.Players {
		for j, q := range g.Players[:i] {
			if p.Nick == q.Nick {
				return fmt.Errorf("gcg: players %d and %d both have the nickname %q", j+1, i+1, p.Nick)
			}
		}
	}
	for i := len(g.Players); i < rules.MaxPlayers; i++ {
		if g.Racks[i].Count() > 0 {
			return fmt.Errorf("gcg: rack %d (%s) for a player who does not exist: the game has %d players", i+1, g.Racks[i], len(g.Players))
		}
	}
	if g.ChallengeRule != "" {
		if _, err := rules.ParseChallengeRule(g.ChallengeRule); err != nil {
			return fmt.Errorf("gcg: %w", err)
		}
	}
	for _, s := range []string{g.Title, g.Lexicon, g.ID} {
		if strings.ContainsAny(s, "\r\n") {
			return fmt.Errorf("gcg: pragma value %q spans lines", s)
		}
	}
	for _, p := range g.Pragmas {
		if p.Name == "" || len(fields(p.Name)) != 1 || strings.ContainsAny(p.Name+p.Value, "\r\n") {
			return fmt.Errorf("gcg: pragma #%s %q cannot be written", p.Name, p.Value)
		}
	}
	for i := range g.Events {
		e := &g.Events[i]
		bad := func(why string) error {
			return fmt.Errorf("gcg: event %d (%s): %s", i+1, e.Kind, why)
		}
		if e.Player < 0 || e.Player >= len(g.Players) {
			return bad(fmt.Sprintf("player %d: want 0 to %d", e.Player, len(g.Players)-1))
		}
		switch e.Kind {
		case Play:
			if !isPosition(e.Position) {
				return bad(fmt.Sprintf("bad position %q", e.Position))
			}
			if err := checkWord(e.Word); err != nil {
				return bad(err.Error())
			}
		case Exchange:
			if n := e.Tiles.Count(); n == 0 && (e.Count < 1 || e.Count > 7) || n > 0 && n != e.Count {
				return bad(fmt.Sprintf("%d tiles, count %d", n, e.Count))
			}
		case EndPoints, EndPenalty:
			if e.Tiles.Count() == 0 {
				return bad("no tiles")
			}
			if e.Kind == EndPoints && e.Score < 0 || e.Kind == EndPenalty && e.Score > 0 {
				return bad(fmt.Sprintf("score %+d has the wrong sign", e.Score))
			}
		case Pass, Withdrawn, ChallengeBonus, TimePenalty:
		default:
			return bad("unknown kind")
		}
	}
	return nil
}
