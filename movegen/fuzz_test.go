package movegen_test

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"scrabble/gaddag"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// fuzzWords is the word list FuzzGenerate uses, alone when no real one is
// available (neither the shared lists nor SOWPODS from make): every
// two-letter word of NWL23 and a few hundred common words.
const fuzzWords = `
AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DA DE DO ED
EF EH EL EM EN ER ES ET EW EX FA FE GI GO HA HE HI HM HO ID IF IN IS IT JO
KA KI LA LI LO MA ME MI MM MO MU MY NA NE NO NU OD OE OF OH OI OK OM ON OP
OR OS OW OX OY PA PE PI PO QI RE SH SI SO TA TE TI TO UH UM UN UP US UT WE
WO XI XU YA YE YO ZA ABLE ACE ACT ADD AGE AGO AID AIM AIR ALE ALL AND ANT
ANY APE ARC ARE ARM ART ASH ASK ATE AWE AXE BAD BAG BAN BAR BAT BED BEE BET
BID BIG BIN BIT BOA BOG BOX BOY BUD BUG BUS BUT BUY CAB CAN CAP CAR CAT COD
COG CON COT COW CRY CUB CUE CUP CUT DAB DAD DAY DEN DEW DID DIG DIM DIN DIP
DOE DOG DOT DRY DUE DUG DYE EAR EAT EEL EGG ELF ELK ELM END ERA EVE EWE EYE
FAN FAR FAT FED FEE FEW FIG FIN FIR FIT FIX FLY FOE FOG FOR FOX FRY FUN FUR
GAP GAS GEL GEM GET GIN GNU GOD GOT GUM GUN GUT GUY HAD HAM HAS HAT HAY HEN
HER HEX HID HIM HIP HIS HIT HOE HOG HOP HOT HOW HUB HUE HUG HUM HUT ICE ICY
ILL INK INN ION IRE IRK ITS IVY JAB JAM JAR JAW JAY JET JIG JOB JOG JOT JOY
JUG KEG KEY KID KIN KIT LAB LAD LAG LAP LAW LAY LED LEG LET LID LIE LIP LIT
LOG LOT LOW MAD MAN MAP MAT MAX MAY MEN MET MID MIX MOB MOP MUD MUG NAB NAG
NAP NET NEW NIB NIL NIT NOD NOR NOT NOW NUT OAK OAR OAT ODD ODE OFF OFT OIL
OLD ONE OPT ORB ORE OUR OUT OWE OWL OWN PAD PAL PAN PAT PAW PAY PEA PEG PEN
PET PIE PIG PIN PIT POD POT PRY PUB PUN PUT QUA RAG RAM RAN RAT RAW RAY RED
RIB RID RIG RIM RIP ROB ROD ROE ROT ROW RUB RUG RUN RUT RYE SAD SAG SAT SAW
SAY SEA SEE SET SEW SHE SHY SIN SIP SIR SIT SIX SKI SKY SLY SOB SOD SON SOW
SOY SPA SPY SUB SUM SUN TAB TAG TAN TAP TAR TAX TEA TEN THE TIE TIN TIP TOE
TON TOO TOP TOW TOY TRY TUB TUG TWO URN USE VAN VAT VET VIA VIE VOW WAX WAY
WEB WED WET WHO WHY WIG WIN WIT WOE WON YAK YAM YAP YES YET YEW ZAP ZEN ZIP
ZOO AXES BEAR BEARD BOAT CAKE CATS COAT DARE DEAR DOTE EARN EASE EAST EATS
FARE GATE HATE HEAR HEAT HOME JOKE JOKES LATE MATE NEAR NEAT NOTE OATS QUIZ
QUEEN RATE READ REST ROSE SALE SANE SEAT SLOTH SNOT SOAR STAR TAME TEAR TONE
TREE ZERO OMEGA KYLIX STONE TONES NOTES ONSET STERN RATES STARE TEARS ASTER
TRAIN RETAIN RETAINS STRAIN STRAINED ANTSIER NASTIER RETINAS STAINER STEARIN
PLANTERS HOWL CRATE TRACE REACT CARET CATER QUITE QUIET EQUATE SQUARE JAZZ
FIZZ OXEN EXTRA TAXES RELAX WAXES
`

// fuzzLexWords is how many words of the real list the fuzz lexicon keeps
// (every k-th, with every two-letter word and fuzzWords): enough for every
// length of word and most letter pairs, few enough that the brute-force
// reference (whose cost grows with the prefixes it can extend, up to 26
// ways a blank) takes a fraction of a millisecond a position, not tens.
const fuzzLexWords = 4000

var (
	fuzzLexOnce sync.Once
	fuzzLexG    *gaddag.GADDAG
	fuzzLexRef  *refLexicon
	fuzzLexErr  error
)

// fuzzLexicon returns the fuzz target's lexicon, compiled and as maps,
// built once per process: fuzzWords, and when there is a real list
// (testlex's: NWL23 when SCRABBLE_LEXICA_DIR is set, else SOWPODS) its
// two-letter words and every k-th of its words, fuzzLexWords in all.
func fuzzLexicon(tb testing.TB) (*gaddag.GADDAG, *refLexicon) {
	tb.Helper()
	var real []string
	if name := testlex.Name(); os.Getenv(testlex.EnvVar) != "" || testlex.Available(name) {
		real = testlex.WordList(tb, name).Words
	}
	fuzzLexOnce.Do(func() {
		words := strings.Fields(fuzzWords)
		if len(real) > 0 {
			step := max(1, len(real)/fuzzLexWords)
			for i, w := range real {
				if len(w) == 2 || i%step == 0 {
					words = append(words, w)
				}
			}
		}
		slices.Sort(words)
		words = slices.Compact(words)
		fuzzLexG, fuzzLexErr = gaddag.Build("fuzzwords", words, sha256.Sum256([]byte(strings.Join(words, "\n"))))
		fuzzLexRef = newRefLexicon("fuzzwords", words).withReach()
	})
	if fuzzLexErr != nil {
		tb.Fatalf("compiling the fuzz word list: %v", fuzzLexErr)
	}
	return fuzzLexG, fuzzLexRef
}

// fuzzBytes hands out the fuzz input a byte at a time, then zeros.
type fuzzBytes struct {
	data []byte
	i    int
}

func (f *fuzzBytes) next() int {
	if f.i >= len(f.data) {
		return 0
	}
	f.i++
	return int(f.data[f.i-1])
}

// fuzzPosition builds a board of up to seven words of the list placed
// across or down anywhere (clipped at the edges, overwriting each other, so
// the board need not be legal), some letters blanks, and a rack of 0-7
// tiles with at most two blanks.
func fuzzPosition(words []string, data []byte) (rules.Board, rules.Rack) {
	in := &fuzzBytes{data: data}
	var b rules.Board
	for range in.next() % 8 {
		w := words[(in.next()<<8|in.next())%len(words)]
		row, col := in.next()%rules.Size, in.next()%rules.Size
		dir := rules.Direction(in.next() & 1)
		blankAt := in.next() % 16 // a blank on that letter, if the word is long enough
		dr, dc := refStep(dir)
		for i := 0; i < len(w); i++ {
			r, c := row+i*dr, col+i*dc
			if !rules.InBounds(r, c) {
				break
			}
			l := rules.Letter(w[i] - 'A' + 1)
			if i == blankAt {
				l = l.Blanked()
			}
			b.Set(r, c, l)
		}
	}
	var rack rules.Rack
	for range in.next() % (rules.RackSize + 1) {
		if x := in.next(); x%27 == 0 && rack[rules.Blank] < 2 {
			rack[rules.Blank]++
		} else {
			rack[1+x%rules.NumLetters]++
		}
	}
	return b, rack
}

// fuzzSeeds are the fuzz targets' seed inputs (fuzzPosition's bytes).
var fuzzSeeds = [][]byte{
	{},
	{0, 0, 0, 7, 'A', 'E', 'I', 'N', 'R', 'S', 'T'},
	{1, 0, 40, 7, 5, 0, 15, 7, 0, 9, 18, 27, 3, 4, 5, 6},
	{3, 1, 2, 7, 7, 0, 3, 0, 200, 1, 3, 1, 9, 2, 100, 2, 4, 0, 9, 7, 0, 9, 1, 2, 3},
	{5, 0, 10, 0, 0, 0, 2, 0, 99, 14, 14, 0, 0, 1, 50, 14, 0, 1, 0, 1, 77, 7, 3, 1, 5, 0, 7, 9, 11, 13, 20, 1, 2},
	{7, 1, 1, 7, 0, 0, 9, 1, 2, 7, 1, 1, 9, 1, 3, 7, 2, 1, 9, 1, 4, 7, 3, 1, 9, 1, 5, 7, 4, 1, 9, 1, 6, 7, 5, 1, 9, 5, 9, 0, 2, 4, 6},
}

// fuzzState is what a fuzz target makes once per process, outside the
// fuzz function: the tables and the anagram index (a second the first
// time), two generators (each execution sets them afresh), the reference's
// search and the lists, whose storage the executions reuse. The fuzz
// function runs one input at a time in a process (each fuzz worker is a
// process of its own, and the seed corpus runs in sequence), so one state
// serves them all; it is not safe for concurrent use.
type fuzzState struct {
	lx         *refLexicon
	g, fresh   *movegen.Generator
	ref        refGen
	eng, eng2  keyCollector
	tiles      []rules.Letter
	all, terms movegen.AllMoves
	opened     openedCounter
	match      playMatcher
}

// newFuzzState adds the seeds to f and makes its state.
func newFuzzState(f *testing.F) *fuzzState {
	for _, seed := range fuzzSeeds {
		f.Add(seed)
	}
	return newFuzzStateFor(f)
}

func newFuzzStateFor(tb testing.TB) *fuzzState {
	lex, lx := fuzzLexicon(tb)
	tables := movegen.TablesFor(lex)
	tables.Prepare()
	return &fuzzState{lx: lx, g: movegen.New(tables), fresh: movegen.New(tables), tiles: make([]rules.Letter, 0, rules.Size)}
}

// keyCollector keeps the plays a generator hands out, packed, and notes
// malformed moves (exchanges and passes are let by).
type keyCollector struct {
	plays []scoredKey
	bad   []string
}

func (c *keyCollector) reset() { c.plays, c.bad = c.plays[:0], c.bad[:0] }

// Record implements movegen.Recorder.
func (c *keyCollector) Record(m *move.Move) {
	switch m.Kind {
	case move.Exchange, move.Pass:
		return
	}
	if p := playProblem(m); p != "" {
		c.bad = append(c.bad, p)
		return
	}
	k := packPlay(int(m.Row), int(m.Col), m.Dir, m.Tiles[:m.Len])
	c.plays = append(c.plays, scoredKey{key: k, score: m.Score})
}

// collect lists g's plays of rack into c, in the order g hands them out.
func (c *keyCollector) collect(g *movegen.Generator, rack *rules.Rack) []scoredKey {
	c.reset()
	g.GeneratePlays(rack, c)
	return c.plays
}

// dups lists the plays of a sorted list that occur more than once.
func dups(list []scoredKey) []string {
	var out []string
	for i := 1; i < len(list); i++ {
		if list[i].key == list[i-1].key && (i == 1 || list[i-2].key != list[i].key) {
			out = append(out, list[i].key.String())
		}
	}
	return out
}

// playMatcher tells whether two lists of plays hold the same plays with the
// same scores, each once, in a hash table of the second list's indices
// (sorting both costs more, and the lists are equal but for a bug).
type playMatcher struct {
	slots []int32 // 1 + an index into the second list, 0 for none
	used  []bool
}

func (pm *playMatcher) hash(k packedPlay) uint64 {
	h := k.hi*0x9E3779B97F4A7C15 ^ k.lo
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// same reports whether a and b hold the same plays and scores, each once.
func (pm *playMatcher) same(a, b []scoredKey) bool {
	if len(a) != len(b) {
		return false
	}
	size := 16
	for size < 2*len(b) {
		size *= 2
	}
	pm.slots = slices.Grow(pm.slots[:0], size)[:size]
	clear(pm.slots)
	pm.used = slices.Grow(pm.used[:0], len(b))[:len(b)]
	clear(pm.used)
	mask := uint64(size - 1)
	for j, sk := range b {
		h := pm.hash(sk.key) & mask
		for pm.slots[h] != 0 {
			if b[pm.slots[h]-1].key == sk.key {
				return false // twice in b
			}
			h = (h + 1) & mask
		}
		pm.slots[h] = int32(j + 1)
	}
	for _, sk := range a {
		h := pm.hash(sk.key) & mask
		for {
			j := pm.slots[h] - 1
			if j < 0 {
				return false // not in b
			}
			if b[j].key == sk.key {
				if b[j].score != sk.score || pm.used[j] {
					return false
				}
				pm.used[j] = true
				break
			}
			h = (h + 1) & mask
		}
	}
	return true
}

// diffKeys describes how two lists differ, as diffPlays does ("" when they
// hold the same plays and scores, each once: a play twice in both is a
// difference too); it sorts them when they do not.
func (pm *playMatcher) diffKeys(a, b []scoredKey) string {
	if pm.same(a, b) {
		return ""
	}
	slices.SortFunc(a, cmpScoredKey)
	slices.SortFunc(b, cmpScoredKey)
	if d := diffPlays(scoredMap(a), scoredMap(b)); d != "" {
		return d
	}
	return fmt.Sprintf("the same plays, but duplicates %v in the first list, %v in the second\n", dups(a), dups(b))
}

// FuzzGenerate runs the engine on arbitrary boards (invalid words and
// disconnected tiles included) and racks: it must not panic, hand out no
// play twice and no malformed move, every play must pass the reference's
// checks of that single play (refScore from scratch: legal and scored
// right; made of rack tiles; listed by the listing rules), and the plays
// must be those of the reference generator with its scores. FuzzBest
// checks Best and the open term on the same inputs, FuzzGenerateApply
// Apply.
func FuzzGenerate(f *testing.F) {
	s := newFuzzState(f)
	f.Fuzz(func(t *testing.T, data []byte) { s.checkGenerate(t, data) })
}

// checkGenerate is FuzzGenerate's check of one input.
func (s *fuzzState) checkGenerate(t testing.TB, data []byte) {
	lx, g := s.lx, s.g
	board, rack := fuzzPosition(lx.list, data)
	pos := &refPosition{stage: "fuzz", board: board, rack: rack}
	g.SetLeaves(nil)
	g.SetBoard(&board)
	plays := s.eng.collect(g, &rack)
	if len(s.eng.bad) > 0 {
		t.Errorf("malformed moves %v\n%v", s.eng.bad, pos)
	}
	for _, sk := range plays {
		p := sk.key.play(s.tiles)
		var used rules.Rack
		for _, tl := range p.tiles {
			if tl != rules.PlayedThrough {
				used.Add(tl)
			}
		}
		switch score, err := refScore(lx, &board, p); {
		case err != nil:
			t.Errorf("illegal play %s (%s): %v\n%v", sk.key, describeKey(sk.key.String()), err, pos)
		case score != int(sk.score):
			t.Errorf("play %s (%s) scored %d, want %d\n%v", sk.key, describeKey(sk.key.String()), sk.score, score, pos)
		case !rack.Contains(used):
			t.Errorf("play %s (%s) uses tiles %s not on the rack\n%v", sk.key, describeKey(sk.key.String()), used.String(), pos)
		}
		if err := refListed(&board, p); err != nil {
			t.Errorf("play %s (%s): %v\n%v", sk.key, describeKey(sk.key.String()), err, pos)
		}
	}
	// The same plays, each once: the reference lists each once.
	if d := s.match.diffKeys(plays, s.ref.run(lx, &board, rack)); d != "" {
		t.Errorf("engine vs reference: %s%v", d, pos)
		if d := dups(plays); len(d) > 0 {
			t.Errorf("duplicate plays %v\n%v", d, pos)
		}
	}
}

// FuzzBest checks the searches with leave values on FuzzGenerate's inputs:
// the pruned search, Best, finds the top of Generate's full list, and with
// the open term each play of the full list loses the cost of the
// triple-word squares it opens, counted from the boards, in the full list
// and in Best alike.
func FuzzBest(f *testing.F) {
	s := newFuzzState(f)
	f.Fuzz(func(t *testing.T, data []byte) { s.checkBest(t, data) })
}

// checkBest is FuzzBest's check of one input.
func (s *fuzzState) checkBest(t testing.TB, data []byte) {
	g := s.g
	board, rack := fuzzPosition(s.lx.list, data)
	pos := &refPosition{stage: "fuzz", board: board, rack: rack}
	g.SetLeaves(hashLeaves{})
	defer g.SetLeaves(nil)
	g.SetBoard(&board)
	opts := movegen.Options{Exchanges: true, Pass: true}
	all := &s.all
	all.Reset()
	g.Generate(&rack, 50, opts, all)
	got, ok := g.Best(&rack, 50, opts)
	want := all.Moves[0] // the pass at least
	for j := range all.Moves {
		if move.ByEquity(&all.Moves[j], &want) < 0 {
			want = all.Moves[j]
		}
	}
	if !ok || got != want {
		t.Errorf("Best = %v (eq %d), full list's best = %v (eq %d)\n%v", got.NotationOn(&board), got.Equity, want.NotationOn(&board), want.Equity, pos)
	}
	// With the open term.
	cost := rules.Equity(1000 + 500*(len(data)%8))
	opts.OpenCost = cost
	termed := &s.terms
	termed.Reset()
	g.Generate(&rack, 50, opts, termed)
	if len(termed.Moves) != len(all.Moves) {
		t.Fatalf("the open term changed the number of moves: %d, not %d", len(termed.Moves), len(all.Moves))
	}
	s.opened.reset(&board)
	for j := range all.Moves {
		m := all.Moves[j]
		if m.Kind == move.Play {
			m.Equity -= rules.Equity(s.opened.count(&m)) * cost
		}
		if termed.Moves[j] != m {
			t.Fatalf("Generate with the open term: %v (eq %d), want eq %d\n%v", m.NotationOn(&board), termed.Moves[j].Equity, m.Equity, pos)
		}
		if j == 0 || move.ByEquity(&m, &want) < 0 {
			want = m
		}
	}
	// The count for two of the plays (the best and one more) from the
	// boards themselves.
	for _, m := range []*move.Move{&want, &all.Moves[len(data)*31%len(all.Moves)]} {
		if m.Kind == move.Play && s.opened.count(m) != openedRef(&board, m) {
			t.Fatalf("openedCounter counts %d squares opened by %v, openedRef %d\n%v", s.opened.count(m), m.NotationOn(&board), openedRef(&board, m), pos)
		}
	}
	if got, ok := g.Best(&rack, 50, opts); !ok || got != want {
		t.Errorf("Best with the open term = %v (eq %d), full list's best = %v (eq %d)\n%v", got.NotationOn(&board), got.Equity, want.NotationOn(&board), want.Equity, pos)
	}
}

// FuzzGenerateApply checks the generator's incremental update on
// FuzzGenerate's inputs: applying one of the plays must give the board
// with its tiles and the same plays as a generator set to that board
// afresh.
func FuzzGenerateApply(f *testing.F) {
	s := newFuzzState(f)
	f.Fuzz(func(t *testing.T, data []byte) { s.checkApply(t, data) })
}

// checkApply is FuzzGenerateApply's check of one input.
func (s *fuzzState) checkApply(t testing.TB, data []byte) {
	g := s.g
	board, rack := fuzzPosition(s.lx.list, data)
	g.SetLeaves(nil)
	g.SetBoard(&board)
	plays := s.eng.collect(g, &rack)
	if len(plays) == 0 {
		return
	}
	sk := plays[len(data)*31%len(plays)]
	k := sk.key.String()
	m := moveFromKey(t, k, int(sk.score))
	g.Apply(&m)
	after := board
	refApply(&after, sk.key.play(s.tiles))
	if *g.Board() != after {
		t.Fatalf("after Apply(%s) the generator's board is\n%s\nwant\n%s", k, g.Board().GridString(), after.GridString())
	}
	s.fresh.SetBoard(&after)
	if d := s.match.diffKeys(s.eng.collect(g, &rack), s.eng2.collect(s.fresh, &rack)); d != "" {
		t.Errorf("after Apply(%s), incremental vs SetBoard (as engine vs reference): %s%v", k, d, &refPosition{stage: "fuzz after Apply", board: after, rack: rack})
	}
}

// TestFuzzReference: on random inputs of the fuzz targets, the reference's
// search as they run it (pruned with the lexicon's reach, scored from its
// tables) lists what refPlays lists without the pruning, each play checked
// and scored again from scratch by refScore.
func TestFuzzReference(t *testing.T) {
	_, lx := fuzzLexicon(t)
	plain := *lx
	plain.reach = nil
	var g refGen
	rng := rand.New(rand.NewPCG(7, 11))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := range n {
		data := make([]byte, 8+rng.IntN(56))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		if i < len(fuzzSeeds) {
			data = fuzzSeeds[i]
		}
		board, rack := fuzzPosition(lx.list, data)
		if d := diffPlays(scoredMap(g.run(lx, &board, rack)), refPlays(&plain, &board, rack)); d != "" {
			t.Fatalf("input %v: pruned vs plain reference (as engine vs reference): %s%v", data, d, &refPosition{stage: "fuzz", board: board, rack: rack})
		}
	}
}

// TestOpenedCounter: FuzzBest's count of the squares a play opens is
// openedRef's, for every play on random inputs of the fuzz targets.
func TestOpenedCounter(t *testing.T) {
	s := newFuzzStateFor(t)
	rng := rand.New(rand.NewPCG(5, 3))
	var all movegen.AllMoves
	var o openedCounter
	checked := 0
	for range 200 {
		data := make([]byte, 8+rng.IntN(56))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		board, rack := fuzzPosition(s.lx.list, data)
		s.g.SetBoard(&board)
		all.Reset()
		s.g.GeneratePlays(&rack, &all)
		o.reset(&board)
		for j := range all.Moves {
			m := &all.Moves[j]
			if got, want := o.count(m), openedRef(&board, m); got != want {
				t.Fatalf("%v opens %d squares, openedRef says %d\n%v", m.NotationOn(&board), got, want, board.GridString())
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no plays")
	}
}

// TestPlayMatcher: the fuzz targets' comparison of two lists of plays.
func TestPlayMatcher(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	a := make([]scoredKey, 100)
	for i := range a {
		a[i] = scoredKey{key: packedPlay{hi: rng.Uint64() % 4, lo: uint64(i)}, score: int32(i % 7)}
	}
	var pm playMatcher
	b := slices.Clone(a)
	rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	if !pm.same(a, b) || !pm.same(b, a) || !pm.same(nil, nil) {
		t.Fatal("a list and its shuffle differ")
	}
	for _, tc := range []struct {
		name string
		edit func(l []scoredKey) []scoredKey
	}{
		{"a score", func(l []scoredKey) []scoredKey { l[5].score++; return l }},
		{"a play", func(l []scoredKey) []scoredKey { l[5].key.lo = 1000; return l }},
		{"a play twice", func(l []scoredKey) []scoredKey { l[5] = l[6]; return l }},
		{"one play less", func(l []scoredKey) []scoredKey { return l[1:] }},
		{"one play more", func(l []scoredKey) []scoredKey { return append(l, scoredKey{key: packedPlay{lo: 1000}}) }},
	} {
		c := tc.edit(slices.Clone(b))
		if pm.same(a, c) || pm.same(c, a) || pm.diffKeys(slices.Clone(a), c) == "" {
			t.Errorf("%s changed: the lists are still the same", tc.name)
		}
	}
	twice := append(slices.Clone(a), a[5])
	if pm.same(twice, slices.Clone(twice)) || pm.diffKeys(twice, slices.Clone(twice)) == "" {
		t.Error("a play twice in both lists: the lists are the same")
	}
}
