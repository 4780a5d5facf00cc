package movegen_test

import (
	"crypto/sha256"
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
		fuzzLexRef = newRefLexicon("fuzzwords", words)
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

// FuzzGenerate runs the engine on arbitrary boards (invalid words and
// disconnected tiles included) and racks: it must not panic, every play must
// pass the reference's checks of that single play (legal, listed by the
// listing rules, made of rack tiles, scored right), the plays must be those
// of the reference generator, Best must find the top of the full list, and
// applying one play incrementally must give the same plays as setting the
// resulting board afresh.
func FuzzGenerate(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{0, 0, 0, 7, 'A', 'E', 'I', 'N', 'R', 'S', 'T'},
		{1, 0, 40, 7, 5, 0, 15, 7, 0, 9, 18, 27, 3, 4, 5, 6},
		{3, 1, 2, 7, 7, 0, 3, 0, 200, 1, 3, 1, 9, 2, 100, 2, 4, 0, 9, 7, 0, 9, 1, 2, 3},
		{5, 0, 10, 0, 0, 0, 2, 0, 99, 14, 14, 0, 0, 1, 50, 14, 0, 1, 0, 1, 77, 7, 3, 1, 5, 0, 7, 9, 11, 13, 20, 1, 2},
		{7, 1, 1, 7, 0, 0, 9, 1, 2, 7, 1, 1, 9, 1, 3, 7, 2, 1, 9, 1, 4, 7, 3, 1, 9, 1, 5, 7, 4, 1, 9, 1, 6, 7, 5, 1, 9, 5, 9, 0, 2, 4, 6},
	} {
		f.Add(seed)
	}
	lex, lx := fuzzLexicon(f)
	// Everything that does not depend on the input is made once per
	// process, outside the fuzz function: the tables and the anagram
	// index (a second the first time), and the two generators (each
	// execution sets them afresh), so an execution costs the searches and
	// the reference only.
	tables := movegen.TablesFor(lex)
	tables.Prepare()
	g, fresh := movegen.New(tables), movegen.New(tables)
	f.Fuzz(func(t *testing.T, data []byte) { checkFuzzGenerate(t, lx, g, fresh, data) })
}

// checkFuzzGenerate is FuzzGenerate's check of one input, on generators g and
// fresh of the tables of lx.
func checkFuzzGenerate(t *testing.T, lx *refLexicon, g, fresh *movegen.Generator, data []byte) {
	board, rack := fuzzPosition(lx.list, data)
	pos := &refPosition{stage: "fuzz", board: board, rack: rack}
	g.SetLeaves(nil)
	g.SetBoard(&board)
	c := enginePlays(g, rack)
	if len(c.dups) > 0 || len(c.bad) > 0 {
		t.Errorf("duplicate plays %v, malformed moves %v\n%v", c.dups, c.bad, pos)
	}
	keys := make([]string, 0, len(c.plays))
	for k := range c.plays {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p, err := parseRefKey(k)
		if err != nil {
			t.Fatal(err)
		}
		var used rules.Rack
		for _, tl := range p.tiles {
			if tl != rules.PlayedThrough {
				used.Add(tl)
			}
		}
		switch s, err := refScore(lx, &board, p); {
		case err != nil:
			t.Errorf("illegal play %s (%s): %v\n%v", k, describeKey(k), err, pos)
		case s != c.plays[k]:
			t.Errorf("play %s (%s) scored %d, want %d\n%v", k, describeKey(k), c.plays[k], s, pos)
		case !rack.Contains(used):
			t.Errorf("play %s (%s) uses tiles %s not on the rack\n%v", k, describeKey(k), used.String(), pos)
		}
		if err := refListed(&board, p); err != nil {
			t.Errorf("play %s (%s): %v\n%v", k, describeKey(k), err, pos)
		}
	}
	if d := diffPlays(c.plays, refPlays(lx, &board, rack)); d != "" {
		t.Errorf("engine vs reference: %s%v", d, pos)
	}
	// The pruned search, with leave values, finds the top of the list.
	g.SetLeaves(hashLeaves{})
	opts := movegen.Options{Exchanges: true, Pass: true}
	var all movegen.AllMoves
	g.Generate(&rack, 50, opts, &all)
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
	// With the open term: each play loses the cost of the triple-word
	// squares it opens, counted from the boards (openedRef), in the
	// full list and in Best alike.
	cost := rules.Equity(1000 + 500*(len(data)%8))
	opts.OpenCost = cost
	var termed movegen.AllMoves
	g.Generate(&rack, 50, opts, &termed)
	if len(termed.Moves) != len(all.Moves) {
		t.Fatalf("the open term changed the number of moves: %d, not %d", len(termed.Moves), len(all.Moves))
	}
	for j := range all.Moves {
		m := all.Moves[j]
		if m.Kind == move.Play {
			m.Equity -= rules.Equity(openedRef(&board, &m)) * cost
		}
		if termed.Moves[j] != m {
			t.Fatalf("Generate with the open term: %v (eq %d), want eq %d\n%v", m.NotationOn(&board), termed.Moves[j].Equity, m.Equity, pos)
		}
		if j == 0 || move.ByEquity(&m, &want) < 0 {
			want = m
		}
	}
	if got, ok := g.Best(&rack, 50, opts); !ok || got != want {
		t.Errorf("Best with the open term = %v (eq %d), full list's best = %v (eq %d)\n%v", got.NotationOn(&board), got.Equity, want.NotationOn(&board), want.Equity, pos)
	}
	g.SetLeaves(nil)
	if len(keys) == 0 {
		return
	}

	// Apply one play, then compare with a generator set to the new board.
	k := keys[len(data)*31%len(keys)]
	m := moveFromKey(t, k, c.plays[k])
	g.Apply(&m)
	after := board
	p, _ := parseRefKey(k)
	refApply(&after, p)
	if *g.Board() != after {
		t.Fatalf("after Apply(%s) the generator's board is\n%s\nwant\n%s", k, g.Board().GridString(), after.GridString())
	}
	fresh.SetBoard(&after)
	if d := diffPlays(enginePlays(g, rack).plays, enginePlays(fresh, rack).plays); d != "" {
		t.Errorf("after Apply(%s), incremental vs SetBoard (as engine vs reference): %s%v", k, d, &refPosition{stage: "fuzz after Apply", board: after, rack: rack})
	}
}
