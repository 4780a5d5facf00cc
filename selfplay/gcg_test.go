package selfplay

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"scrabble/game"
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
	nicks := gcgNicks(two(rec.Players))
	first, second := rec.First, 1-rec.First
	for key, want := range map[string]string{
		"player1": nicks[first] + " " + rec.Players[first],
		"player2": nicks[second] + " " + rec.Players[second],
		"lexicon": rec.Lexicon,
	} {
		if pragmas[key] != want {
			t.Errorf("#%s %q, want %q", key, pragmas[key], want)
		}
	}
	seatOf := map[string]int{nicks[0]: 0, nicks[1]: 1}
	if len(seatOf) != 2 {
		t.Fatalf("nicks %v are not distinct", nicks)
	}

	ends := 1
	if rec.End == game.EndScoreless {
		ends = 2
	}
	if len(events) != len(rec.Turns)+ends {
		t.Fatalf("%d events for %d turns and %d end lines:\n%s", len(events), len(rec.Turns), ends, text)
	}
	var board rules.Board
	totals := [2]int{}
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
	for _, e := range events[len(rec.Turns):] {
		s := seatOf[e.nick]
		rack := rec.EndRacks[s]
		if rec.End == game.EndOut {
			rack = rec.EndRacks[1-s]
		}
		totals[s] += e.score
		if e.endRack != rack.String() || e.score != rec.Adjustments[s] || e.total != totals[s] {
			t.Fatalf("end line %+v: want (%s) %+d %d", e, rack, rec.Adjustments[s], totals[s])
		}
	}
	if totals != two(rec.Scores) {
		t.Errorf("GCG totals %v, final scores %v", totals, rec.Scores)
	}
}

func TestGCGNicks(t *testing.T) {
	if got := gcgNicks([2]string{"equity", "equity"}); got != [2]string{"equity1", "equity2"} {
		t.Errorf("equal names: %v", got)
	}
	if got := gcgNicks([2]string{"sim 2 ply", "score"}); got != [2]string{"sim_2_ply", "score"} {
		t.Errorf("spaces: %v", got)
	}
}
