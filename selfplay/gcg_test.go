package selfplay

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"scrabble/game"
	"scrabble/gcg"
	"scrabble/internal/gametest"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/rules"
)

// gcgEvent is a move or end-of-game line of a GCG file, as the minimal
// parser below reads it.
type gcgEvent struct {
	nick, rack, move string // move: "8D WORD", "-ABC", "-", or "" for an end line
	score, total     int
	endRack          string // the rack in parentheses of an end line
}

func parseGCG(t *testing.T, text string) (pragmas map[string]string, events []gcgEvent) {
	t.Helper()
	pragmas = map[string]string{}
	for n, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		fail := func(why string) { t.Helper(); t.Fatalf("GCG line %d %q: %s", n+1, line, why) }
		if key, val, ok := strings.Cut(line, " "); ok && strings.HasPrefix(key, "#") {
			pragmas[key[1:]] = val
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], ">") || !strings.HasSuffix(f[0], ":") {
			fail("not an event")
		}
		e := gcgEvent{nick: f[0][1 : len(f[0])-1]}
		var err error
		if e.total, err = strconv.Atoi(f[len(f)-1]); err != nil {
			fail("bad total")
		}
		if e.score, err = strconv.Atoi(f[len(f)-2]); err != nil || !strings.ContainsAny(f[len(f)-2][:1], "+-") {
			fail("bad score")
		}
		if strings.HasPrefix(f[1], "(") {
			if len(f) != 4 || !strings.HasSuffix(f[1], ")") {
				fail("bad end line")
			}
			e.endRack = f[1][1 : len(f[1])-1]
		} else {
			e.rack = f[1]
			e.move = strings.Join(f[2:len(f)-2], " ")
		}
		events = append(events, e)
	}
	return pragmas, events
}

// TestWriteGCG writes games and reads them back: the pragmas, every rack
// and cumulative total line by line against the record, and the moves
// replayed with move.Parse on a board score what the record says.
func TestWriteGCG(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	ps := newPlayers(t, [2]string{"equity", "score"}, [2]PlayerOptions{{Leaves: gametest.ToyLeaves{}}, {}})
	var blanks, dots, exchanges int
	for g := range 12 {
		rec, err := game.Play(context.Background(), testgen.Tables(lex), ps, uint64(300+g), g%2)
		if err != nil {
			t.Fatal(err)
		}
		exchanges += rec.Exchanges[0] + rec.Exchanges[1]
		checkGCG(t, rec, &blanks, &dots)
	}
	// Six scoreless turns: exchanges and each player's rack penalty.
	rec, err := game.Play(context.Background(), testgen.Tables(gametest.TinyLexicon(t)), newPlayers(t, [2]string{"score", "score"}, [2]PlayerOptions{}), 9, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkGCG(t, rec, &blanks, &dots)
	if blanks == 0 || dots == 0 {
		t.Errorf("games cover no blank (%d) or played-through square (%d)", blanks, dots)
	}
}

// seatPlayers returns a fresh player a seat, by name.
func seatPlayers(t testing.TB, names ...string) []game.Player {
	t.Helper()
	ps := make([]game.Player, len(names))
	for i, name := range names {
		opts := PlayerOptions{}
		if name == "equity" {
			opts.Leaves = gametest.ToyLeaves{}
		}
		p, err := NewPlayer(name, opts)
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}

// TestWriteGCGPlayers: games of three and four players (game.Table.
// PlaySeats), checked against the rules by gametest's replayer, written
// with WriteGCG and read back line by line against the record, then parsed
// and replayed by package gcg: every total the file records is the
// engine's, with no problem, and the final totals are the record's. Over
// the games every end occurs: out (the others' tiles on one line, then
// each loses their own) and six scoreless turns.
func TestWriteGCGPlayers(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	games := 100
	if testing.Short() {
		games = 10
	}
	var blanks, dots int
	ends := map[game.EndReason]int{}
	for _, seats := range []int{3, 4} {
		table := game.NewTable(testgen.Tables(lex))
		rp := gametest.NewReplayer(t, testgen.Tables(lex))
		names := []string{"equity", "score", "equity", "score"}[:seats]
		for g := range games {
			rec, err := table.PlaySeats(context.Background(), seatPlayers(t, names...), uint64(7000+100*seats+g), g%seats)
			if err != nil {
				t.Fatal(err)
			}
			rp.Check(fmt.Sprintf("%d players, game %d", seats, g), rec)
			ends[rec.End]++
			checkGCG(t, rec, &blanks, &dots)
		}
		// Six scoreless turns over all players, then each player's rack.
		tiny := game.NewTable(testgen.Tables(gametest.TinyLexicon(t)))
		rec, err := tiny.PlaySeats(context.Background(), seatPlayers(t, []string{"score", "score", "score", "score"}[:seats]...), 11, seats-1)
		if err != nil {
			t.Fatal(err)
		}
		if rec.End != game.EndScoreless {
			t.Fatalf("the tiny lexicon's game ended %v", rec.End)
		}
		ends[rec.End]++
		checkGCG(t, rec, &blanks, &dots)
	}
	if ends[game.EndOut] == 0 || ends[game.EndScoreless] == 0 || blanks == 0 || dots == 0 {
		t.Errorf("the games cover ends %v, %d blanks and %d played-through squares: want every kind", ends, blanks, dots)
	}
}

func checkGCG(t *testing.T, rec *game.Record, blanks, dots *int) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteGCG(&buf, rec); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.HasPrefix(text, "#character-encoding UTF-8\n") {
		t.Errorf("GCG does not start with the encoding pragma:\n%s", text)
	}
	pragmas, events := parseGCG(t, text)
	n := rec.Seats
	nicks := gcgNicks(rec.Players[:n])
	want := map[string]string{"lexicon": rec.Lexicon}
	seatOf := map[string]int{}
	for k := range n {
		// #player1 is the first mover, the others follow in turn order.
		seat := (rec.First + k) % n
		want[fmt.Sprintf("player%d", k+1)] = nicks[seat] + " " + rec.Players[seat]
		seatOf[nicks[seat]] = seat
	}
	for key, w := range want {
		if pragmas[key] != w {
			t.Errorf("#%s %q, want %q", key, pragmas[key], w)
		}
	}
	if _, ok := pragmas[fmt.Sprintf("player%d", n+1)]; ok {
		t.Errorf("a #player%d in a game of %d", n+1, n)
	}
	if len(seatOf) != n {
		t.Fatalf("nicks %v are not distinct", nicks)
	}

	// The end lines: going out, the player out's line with every other
	// rack (twice their value for two players, once for more), then for
	// more than two each other player's own; six scoreless turns, each
	// player's own, from the first mover on.
	type endLine struct {
		seat int
		rack rules.Rack
	}
	var wantEnds []endLine
	switch rec.End {
	case game.EndOut:
		out := rec.Turns[len(rec.Turns)-1].Player
		var others rules.Rack
		for k := 1; k < n; k++ {
			for i, c := range rec.EndRacks[(out+k)%n] {
				others[i] += c
			}
		}
		wantEnds = append(wantEnds, endLine{out, others})
		for k := 1; k < n && n > 2; k++ {
			wantEnds = append(wantEnds, endLine{(out + k) % n, rec.EndRacks[(out+k)%n]})
		}
	case game.EndScoreless:
		for k := range n {
			wantEnds = append(wantEnds, endLine{(rec.First + k) % n, rec.EndRacks[(rec.First+k)%n]})
		}
	}
	if len(events) != len(rec.Turns)+len(wantEnds) {
		t.Fatalf("%d events for %d turns and %d end lines:\n%s", len(events), len(rec.Turns), len(wantEnds), text)
	}
	var board rules.Board
	var totals [rules.MaxPlayers]int
	for i, tr := range rec.Turns {
		e := events[i]
		where := fmt.Sprintf("GCG event %d (%+v)", i+1, e)
		if seatOf[e.nick] != tr.Player || e.rack != tr.Rack.String() {
			t.Fatalf("%s: want seat %d, rack %s", where, tr.Player, tr.Rack)
		}
		if e.total != tr.Totals[tr.Player] || e.score != tr.Score {
			t.Fatalf("%s: score %d total %d, record %d %d", where, e.score, e.total, tr.Score, tr.Totals[tr.Player])
		}
		m, err := move.Parse(e.move, &board)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if m.Kind != tr.Move.Kind || int(m.Score) != e.score || m.Used() != tr.Move.Used() {
			t.Fatalf("%s: replayed as %s scoring %d", where, m.NotationOn(&board), m.Score)
		}
		if m.Kind == move.Play {
			board.Apply(m.Placed())
			*dots += strings.Count(e.move, ".")
			*blanks += len(strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' {
					return r
				}
				return -1
			}, e.move))
		}
		totals[tr.Player] += e.score
		if totals[tr.Player] != e.total {
			t.Fatalf("%s: total %d, sum of scores %d", where, e.total, totals[tr.Player])
		}
	}
	for i, e := range events[len(rec.Turns):] {
		w := wantEnds[i]
		s := seatOf[e.nick]
		totals[s] += e.score
		if s != w.seat || e.endRack != w.rack.String() || e.score != rec.Adjustments[s] || e.total != totals[s] {
			t.Fatalf("end line %+v: want seat %d (%s) %+d %d", e, w.seat, w.rack, rec.Adjustments[s], totals[s])
		}
	}
	if totals != rec.Scores {
		t.Errorf("GCG totals %v, final scores %v", totals, rec.Scores)
	}

	// Package gcg reads the file back, and its replay reproduces every
	// total with no problem.
	g, err := gcg.Parse("selfplay.gcg", buf.Bytes())
	if err != nil {
		t.Fatalf("gcg.Parse: %v\n%s", err, text)
	}
	r := g.Replay()
	for _, p := range r.Problems {
		t.Errorf("replay: %v", &p)
	}
	for i, st := range r.Steps {
		if st.Totals != st.Recorded {
			t.Fatalf("replay, line %d: engine %v, recorded %v\n%s", g.Events[i].Line, st.Totals, st.Recorded, text)
		}
	}
	for k := range n {
		if seat := (rec.First + k) % n; r.Totals[k] != rec.Scores[seat] {
			t.Fatalf("replay: #player%d's total %d, the record's seat %d %d\n%s", k+1, r.Totals[k], seat, rec.Scores[seat], text)
		}
	}
	if len(r.Turns) != len(rec.Turns) {
		t.Errorf("replay: %d turns, record %d", len(r.Turns), len(rec.Turns))
	}
}

func TestGCGNicks(t *testing.T) {
	tests := []struct{ names, want []string }{
		{[]string{"equity", "equity"}, []string{"equity1", "equity2"}},
		{[]string{"sim 2 ply", "score"}, []string{"sim_2_ply", "score"}},
		{[]string{"equity", "score", "equity", "equity"}, []string{"equity1", "score", "equity3", "equity4"}},
		{[]string{"a", "a1", "a"}, []string{"a11", "a12", "a3"}}, // a1 twice after a round: another
		{[]string{"", "x:y", " "}, []string{"player", "x_y", "_"}},
		{[]string{"", ""}, []string{"player1", "player2"}},
	}
	for _, tc := range tests {
		got := gcgNicks(tc.names)
		if !slices.Equal(got, tc.want) {
			t.Errorf("gcgNicks(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

// TestWriteGCGPhonies: games with phonies challenged off, under each rule
// that lets them be played, written and replayed by package gcg: every line
// applies, the withdrawn plays are the record's, the rule is the game's,
// and every total is reproduced.
func TestWriteGCGPhonies(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	table := game.NewTable(testgen.Tables(lex))
	for _, rule := range []rules.ChallengeRule{rules.ChallengeDouble, rules.ChallengeSingle, rules.ChallengeFivePoint, rules.ChallengeTenPoint} {
		table.Rules = game.Rules{Challenge: rule}
		for seats := 2; seats <= 4; seats++ {
			players := seatPlayers(t, []string{"equity", "score", "equity", "score"}[:seats]...)
			players[1] = &gametest.PhonyPlayer{Every: 3}
			rec, err := table.PlaySeats(context.Background(), players, uint64(40+seats), 0)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteGCG(&buf, rec); err != nil {
				t.Fatal(err)
			}
			g, err := gcg.Parse("phonies.gcg", buf.Bytes())
			if err != nil {
				t.Fatalf("%s, %d players: %v\n%s", rule, seats, err, buf.String())
			}
			r := g.Replay()
			if len(r.Problems) > 0 {
				t.Fatalf("%s, %d players: %v\n%s", rule, seats, r.Problems, buf.String())
			}
			if r.Challenge != rule {
				t.Errorf("%s, %d players: replayed under %s", rule, seats, r.Challenge)
			}
			withdrawn := 0
			for _, tr := range r.Turns {
				if tr.Withdrawn {
					withdrawn++
				}
			}
			phonies := 0
			for s := range seats {
				phonies += rec.Phonies[s]
				// #player1 is the first mover (seat 0 here).
				if r.Totals[s] != rec.Scores[s] || r.Recorded[s] != rec.Scores[s] {
					t.Errorf("%s, %d players: seat %d ends on %d (recorded %d), the game on %d", rule, seats, s, r.Totals[s], r.Recorded[s], rec.Scores[s])
				}
			}
			if phonies == 0 || withdrawn != phonies {
				t.Errorf("%s, %d players: %d phonies in the game, %d withdrawn in the replay", rule, seats, phonies, withdrawn)
			}
		}
	}
}
