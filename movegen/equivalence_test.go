package movegen_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// playCollector keeps what a generator hands out, keyed canonically.
type playCollector struct {
	plays     map[string]int
	dups      []string // plays handed out more than once
	bad       []string // malformed moves
	exchanges []move.Move
	passes    int
}

func newPlayCollector() *playCollector { return &playCollector{plays: map[string]int{}} }

func (c *playCollector) Record(m *move.Move) {
	switch m.Kind {
	case move.Exchange:
		c.exchanges = append(c.exchanges, *m)
		return
	case move.Pass:
		c.passes++
		return
	}
	if p := playProblem(m); p != "" {
		c.bad = append(c.bad, p)
		return
	}
	k := engineKey(m)
	if _, ok := c.plays[k]; ok {
		c.dups = append(c.dups, k)
	}
	c.plays[k] = int(m.Score)
}

// playProblem says what is malformed in m, a move the generator listed as a
// play ("" when nothing): its kind, length, square, direction, tiles, or
// count of new tiles.
func playProblem(m *move.Move) string {
	if m.Kind != move.Play {
		return fmt.Sprintf("move of unknown kind %d", m.Kind)
	}
	if m.Len < 1 || int(m.Len) > rules.Size {
		return fmt.Sprintf("play with Len %d", m.Len)
	}
	if !rules.InBounds(int(m.Row), int(m.Col)) || (m.Dir != rules.Across && m.Dir != rules.Down) {
		return fmt.Sprintf("play at row %d column %d direction %d", m.Row, m.Col, m.Dir)
	}
	n := 0
	for _, t := range m.Tiles[:m.Len] {
		if t != rules.PlayedThrough {
			if !t.IsLetter() {
				return fmt.Sprintf("play with tile %#x", uint8(t))
			}
			n++
		}
	}
	if int(m.NumTiles) != n {
		return fmt.Sprintf("%s: NumTiles %d, but %d new tiles", engineKey(m), m.NumTiles, n)
	}
	return ""
}

// enginePlays runs GeneratePlays.
func enginePlays(g *movegen.Generator, rack rules.Rack) *playCollector {
	c := newPlayCollector()
	g.GeneratePlays(&rack, c)
	return c
}

// diffPlays describes how the engine's plays differ from the reference's
// ("" when equal), listing at most a few of each kind of difference, best
// scores first.
func diffPlays(engine, ref map[string]int) string {
	var missing, extra, wrong []string
	for k, s := range ref {
		if es, ok := engine[k]; !ok {
			missing = append(missing, k)
		} else if es != s {
			wrong = append(wrong, k)
		}
	}
	for k := range engine {
		if _, ok := ref[k]; !ok {
			extra = append(extra, k)
		}
	}
	if len(missing)+len(extra)+len(wrong) == 0 {
		return ""
	}
	byScore := func(m map[string]int) func(a, b string) int {
		return func(a, b string) int {
			if m[a] != m[b] {
				return m[b] - m[a]
			}
			return strings.Compare(a, b)
		}
	}
	slices.SortFunc(missing, byScore(ref))
	slices.SortFunc(extra, byScore(engine))
	slices.SortFunc(wrong, byScore(ref))
	const show = 8
	var sb strings.Builder
	fmt.Fprintf(&sb, "engine %d plays, reference %d: %d missing, %d extra, %d with a different score\n",
		len(engine), len(ref), len(missing), len(extra), len(wrong))
	for i, k := range missing {
		if i == show {
			fmt.Fprintf(&sb, "  ... %d more missing\n", len(missing)-show)
			break
		}
		fmt.Fprintf(&sb, "  missing %-24s (%s) score %d\n", k, describeKey(k), ref[k])
	}
	for i, k := range extra {
		if i == show {
			fmt.Fprintf(&sb, "  ... %d more extra\n", len(extra)-show)
			break
		}
		fmt.Fprintf(&sb, "  extra   %-24s (%s) score %d\n", k, describeKey(k), engine[k])
	}
	for i, k := range wrong {
		if i == show {
			fmt.Fprintf(&sb, "  ... %d more with a wrong score\n", len(wrong)-show)
			break
		}
		fmt.Fprintf(&sb, "  score   %-24s (%s) engine %d, reference %d\n", k, describeKey(k), engine[k], ref[k])
	}
	return sb.String()
}

// checkCollected reports duplicates, malformed moves and differences from the
// reference; it returns false when anything was wrong.
func checkCollected(t *testing.T, what string, pos *refPosition, c *playCollector, ref map[string]int) bool {
	t.Helper()
	ok := true
	if len(c.dups) > 0 {
		t.Errorf("%s: %d plays handed out more than once, e.g. %v\n%v", what, len(c.dups), c.dups[:min(5, len(c.dups))], pos)
		ok = false
	}
	if len(c.bad) > 0 {
		t.Errorf("%s: malformed moves, e.g. %v\n%v", what, c.bad[:min(5, len(c.bad))], pos)
		ok = false
	}
	if d := diffPlays(c.plays, ref); d != "" {
		t.Errorf("%s: %s%v", what, d, pos)
		ok = false
	}
	return ok
}

// subRacks lists every distinct non-empty sub-multiset of r.
func subRacks(r rules.Rack) []rules.Rack {
	var out []rules.Rack
	var cur rules.Rack
	var rec func(slot int)
	rec = func(slot int) {
		if slot == rules.RackSlots {
			if cur.Count() > 0 {
				out = append(out, cur)
			}
			return
		}
		for n := uint8(0); n <= r[slot]; n++ {
			cur[slot] = n
			rec(slot + 1)
		}
		cur[slot] = 0
	}
	rec(0)
	return out
}

// checkGenerate runs Generate with exchanges and the pass and checks them:
// the same plays as GeneratePlays, every distinct non-empty exchange exactly
// once when the bag allows exchanges (none otherwise), exactly one pass.
func checkGenerate(t *testing.T, g *movegen.Generator, rack rules.Rack, bagLen int, plays map[string]int, pos fmt.Stringer) bool {
	t.Helper()
	c := newPlayCollector()
	g.Generate(&rack, bagLen, movegen.Options{Exchanges: true, Pass: true}, c)
	ok := true
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("Generate(rack %s, bag %d): %s\n%v", rack.String(), bagLen, fmt.Sprintf(format, args...), pos)
		ok = false
	}
	if d := diffPlays(c.plays, plays); d != "" {
		fail("plays differ from GeneratePlays: %s", d)
	}
	if len(c.dups) > 0 || len(c.bad) > 0 {
		fail("duplicate plays %v, malformed %v", c.dups, c.bad)
	}
	if c.passes != 1 {
		fail("%d passes, want 1", c.passes)
	}
	got := map[rules.Rack]int{}
	for i := range c.exchanges {
		m := &c.exchanges[i]
		var used rules.Rack
		for _, l := range m.Tiles[:m.Len] {
			if l != rules.Blank && (l.IsBlanked() || !l.IsLetter()) {
				fail("exchange with tile %#x", uint8(l))
			}
			used[l.RackIndex()]++
		}
		if int(m.NumTiles) != int(m.Len) || m.Len == 0 {
			fail("exchange %s with Len %d and NumTiles %d", used.String(), m.Len, m.NumTiles)
		}
		got[used]++
	}
	var want []rules.Rack
	if bagLen >= rules.ExchangeMinBag {
		want = subRacks(rack)
	}
	for _, w := range want {
		if got[w] != 1 {
			fail("exchange %s listed %d times, want once", w.String(), got[w])
		}
		delete(got, w)
	}
	for r, n := range got {
		fail("unexpected exchange %s (listed %d times); %d exchanges expected", r.String(), n, len(want))
	}
	return ok
}

// TestEngineMatchesReference compares the engine with the brute-force
// reference on random positions from seeded games: fresh SetBoard for every
// position, one generator kept up to date with Apply along each game, and
// Generate with exchanges and the pass.
func TestEngineMatchesReference(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	for i, name := range testlex.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			lex := testlex.GADDAG(t, name)
			refLex(t, name)
			setup := time.Since(start)
			positions := randomPositions(t, name, n, uint64(2024+i))
			refTime := time.Since(start) - setup

			stats := map[string]int{}
			for _, p := range positions {
				stats[p.stage]++
				stats[fmt.Sprintf("%d blanks", p.rack[rules.Blank])]++
				if p.rack.Count() < rules.RackSize {
					stats["short racks"]++
				}
			}
			t.Logf("%d positions %v; lexicon setup %v, games and reference %v", len(positions), stats, setup.Round(time.Millisecond), refTime.Round(time.Millisecond))
			if !testing.Short() {
				for what, least := range map[string]int{"opening": 30, "endgame": 20, "1 blanks": 60, "2 blanks": 30, "short racks": 20} {
					if stats[what] < least {
						t.Errorf("only %d positions with %s, want at least %d", stats[what], what, least)
					}
				}
			}

			engStart := time.Now()
			fresh := movegen.New(movegen.TablesFor(lex))
			var inc *movegen.Generator
			game, failures := -1, 0
			for _, pos := range positions {
				ok := true
				fresh.SetBoard(&pos.board)
				fc := enginePlays(fresh, pos.rack)
				ok = checkCollected(t, "SetBoard", pos, fc, pos.ref) && ok
				ok = checkGenerate(t, fresh, pos.rack, pos.bagLen, fc.plays, pos) && ok

				if pos.inGame {
					if pos.game != game {
						inc, game = movegen.New(movegen.TablesFor(lex)), pos.game
					}
					if *inc.Board() != pos.board {
						t.Fatalf("after Apply along game %d the generator's board differs at turn %d:\n%s\nwant:\n%s", pos.game, pos.turn, inc.Board().GridString(), pos.board.GridString())
					}
					ok = checkCollected(t, "incremental Apply", pos, enginePlays(inc, pos.rack), pos.ref) && ok
					m := move.Move{Kind: move.Pass}
					if pos.played != "" {
						m = moveFromKey(t, pos.played, 0)
					}
					inc.Apply(&m)
				}
				if !ok {
					if failures++; failures == 10 {
						t.Fatalf("stopping after %d failing positions", failures)
					}
				}
			}
			t.Logf("engine checks %v", time.Since(engStart).Round(time.Millisecond))
		})
	}
}

// TestGenerateExchangesAndPass checks the non-play moves on their own.
func TestGenerateExchangesAndPass(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	tests := []struct {
		rack   string
		bagLen int
	}{
		{"AEINRST", 86}, {"AEINRST", 7}, {"AEINRST", 6}, {"AEINRST", 0},
		{"EEEE??Q", 50}, {"??", 7}, {"Q", 10}, {"", 20}, {"AAAAAAA", 9},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/bag%d", tc.rack, tc.bagLen), func(t *testing.T) {
			rack, err := rules.ParseRack(tc.rack)
			if err != nil {
				t.Fatal(err)
			}
			g := movegen.New(movegen.TablesFor(lex))
			desc := textStringer(fmt.Sprintf("empty board, rack %q", tc.rack))
			checkGenerate(t, g, rack, tc.bagLen, enginePlays(g, rack).plays, desc)

			c := newPlayCollector()
			g.Generate(&rack, tc.bagLen, movegen.Options{}, c)
			if len(c.exchanges) != 0 || c.passes != 0 {
				t.Errorf("Generate without options: %d exchanges, %d passes; want none", len(c.exchanges), c.passes)
			}
		})
	}
}

type textStringer string

func (s textStringer) String() string { return string(s) }
