package review

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scrabble/gaddag"
	"scrabble/gcg"
	"scrabble/internal/testgen"
	"scrabble/move"
	"scrabble/rules"
)

// tinyWords is the lexicon of testdata/tiny.gcg.
var tinyWords = []string{"AT", "TA", "CAT", "ACT", "CAVEATS"}

func tinyLexicon(t testing.TB) *gaddag.GADDAG {
	t.Helper()
	g, err := gaddag.Build("TINY", tinyWords, sha256.Sum256([]byte(strings.Join(tinyWords, "\n"))))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func replay(t testing.TB, path string) *gcg.Replay {
	t.Helper()
	g, err := gcg.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return g.Replay()
}

func mustReview(t testing.TB, r *gcg.Replay, opts Options) *Report {
	t.Helper()
	rep, err := Review(context.Background(), r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// sValues values each S kept at one point: a leave table small enough to
// work out by hand.
type sValues struct{}

func (sValues) LeaveValue(l *rules.Rack) rules.Equity { return rules.Equity(1000 * int32(l[19])) }

// TestReviewTiny checks a game whose every move can be listed by hand. On
// the empty board, with AACESTV and the words AT TA CAT ACT CAVEATS, the
// plays all run across through the star (a double word):
//
//   - CAVEATS from B8 puts the V on the double letter D8: (3+1+8+1+1+1+1) x 2
//   - 50 = 82; from D8 the C is on it: (6+1+4+1+1+1+1) x 2 + 50 = 80; the
//     five other starts (C to H) score 76, 74, 76, 76, 76;
//   - CAT and ACT score (3+1+1) x 2 = 10 from F8, G8 or H8; AT and TA
//     (1+1) x 2 = 4 from G8 or H8;
//
// that is 17 plays, plus 95 exchanges (the subsets of two As and five
// single tiles, 3 x 2^5 - 1) and the pass: 113 moves. CAT for 10 is
// beaten by the seven bingos: rank 8, 72 points lost, a missed bingo.
func TestReviewTiny(t *testing.T) {
	r := replay(t, filepath.Join("testdata", "tiny.gcg"))
	if len(r.Problems) > 0 {
		t.Fatalf("replay problems: %v", r.Problems)
	}
	rep := mustReview(t, r, Options{Tables: testgen.Tables(tinyLexicon(t)), Top: 3})
	if len(rep.Turns) != 3 || rep.Lexicon != "TINY" || rep.Evaluation != "static" {
		t.Fatalf("%d turns, lexicon %s, evaluation %s", len(rep.Turns), rep.Lexicon, rep.Evaluation)
	}
	t1 := rep.Turns[0]
	if !t1.Reviewed || t1.Rank != 8 || t1.Moves != 113 || t1.EquityLost != 72 || t1.Equity != 10 || t1.Score != 10 {
		t.Errorf("turn 1: reviewed %v, rank %d of %d, lost %v, equity %v, score %d; want rank 8 of 113, lost 72, equity 10",
			t1.Reviewed, t1.Rank, t1.Moves, t1.EquityLost, t1.Equity, t1.Score)
	}
	if len(t1.Best) != 3 || t1.Best[0].Move != "8B CAVEATS" || t1.Best[0].Score != 82 || t1.Best[1].Move != "8D CAVEATS" || t1.Best[1].Score != 80 || t1.Best[2].Score != 76 {
		t.Errorf("turn 1 best: %+v", t1.Best)
	}
	if !slices.Equal(t1.Flags, []string{FlagMissedBingo}) || t1.BestBingo == nil || t1.BestBingo.Move != "8B CAVEATS" || !t1.BestBingo.Bingo {
		t.Errorf("turn 1 flags %v, best bingo %+v", t1.Flags, t1.BestBingo)
	}
	if t1.Played.Move != "8G CAT" || t1.Played.Leave != "AESV" || t1.Note != "CAVEATS was there." || t1.Line != 4 {
		t.Errorf("turn 1 played %+v, note %q, line %d", t1.Played, t1.Note, t1.Line)
	}
	// CAE through the A of CAT is no word of the lexicon.
	t2 := rep.Turns[1]
	if !t2.Reviewed || t2.Rank != 0 || !slices.Equal(t2.Flags, []string{FlagPhony}) || !slices.Equal(t2.Phonies, []string{"CAE"}) || t2.Equity != 5 {
		t.Errorf("turn 2: rank %d, flags %v, phonies %v, equity %v", t2.Rank, t2.Flags, t2.Phonies, t2.Equity)
	}
	// The exchange is worth nothing with every leave at 0.
	t3 := rep.Turns[2]
	if !t3.Reviewed || t3.Played.Kind != "exchange" || t3.Equity != 0 || t3.EquityLost != t3.Best[0].Equity {
		t.Errorf("turn 3: %+v", t3)
	}
	ann := rep.Summary.Players[0]
	if ann.Player != "ann" || ann.Turns != 2 || ann.MissedBingos != 1 || ann.EquityLost != rules.RoundMilli(72+t3.EquityLost) {
		t.Errorf("ann's summary %+v", ann)
	}
	if c := rep.Summary.Costliest; len(c) == 0 || c[0].Turn != 1 || c[0].Best != "8B CAVEATS" || c[0].EquityLost != 72 {
		t.Errorf("costliest %+v", c)
	}

	// With an S worth a point kept, CAT (leaving AESV) is worth 11 and
	// the bingos, which keep nothing, the same as before.
	rep = mustReview(t, r, Options{Tables: testgen.Tables(tinyLexicon(t)), Leaves: sValues{}, Players: [rules.MaxPlayers]bool{true, false}})
	if t1 := rep.Turns[0]; t1.Equity != 11 || t1.EquityLost != 71 || t1.Played.Equity != 11 {
		t.Errorf("with leave values: equity %v, lost %v", t1.Equity, t1.EquityLost)
	}
	if len(rep.Turns) != 2 || len(rep.Summary.Players) != 1 || rep.Summary.Players[0].Player != "ann" {
		t.Errorf("only ann's turns: %d turns, summary %+v", len(rep.Turns), rep.Summary.Players)
	}
	if len(rep.Timeline) != 3 || !slices.Equal(rep.Timeline[2].Recorded, []int{10, 5}) {
		t.Errorf("timeline %+v", rep.Timeline)
	}
}

// fakeRanker values each move at minus its score, or not at all.
type fakeRanker struct{ nan bool }

func (f fakeRanker) Name() string { return "fake" }

func (f fakeRanker) Rank(_ context.Context, pos *Position, ms []move.Move) ([]float64, error) {
	vals := make([]float64, len(ms))
	for i := range ms {
		vals[i] = -float64(ms[i].Score)
		if f.nan {
			vals[i] = math.NaN()
		}
	}
	if pos.Rack.Count() == 0 || pos.Board == nil {
		return nil, nil
	}
	return vals, nil
}

func TestReviewRanker(t *testing.T) {
	r := replay(t, filepath.Join("testdata", "tiny.gcg"))
	rep := mustReview(t, r, Options{Tables: testgen.Tables(tinyLexicon(t)), Ranker: fakeRanker{}, Candidates: 10, Players: [rules.MaxPlayers]bool{true, false}})
	t1 := rep.Turns[0]
	// The move played (CAT, 10) is among the valued moves, and nothing
	// valued scores less: the fake ranker ranks it first.
	if rep.Evaluation != "fake" || t1.EquityLost != 0 || t1.Played.Value == nil || *t1.Played.Value != -10 || t1.Best[0].Value == nil || *t1.Best[0].Value != -10 {
		t.Errorf("ranked: evaluation %q, lost %v, played %+v, best %+v", rep.Evaluation, t1.EquityLost, t1.Played, t1.Best[0])
	}
	rep = mustReview(t, r, Options{Tables: testgen.Tables(tinyLexicon(t)), Ranker: fakeRanker{nan: true}})
	if t1 := rep.Turns[0]; !slices.Contains(t1.Flags, FlagNotRanked) || t1.EquityLost != 72 {
		t.Errorf("not ranked: flags %v, lost %v (want the static 72)", t1.Flags, t1.EquityLost)
	}
}

// TestReviewSkips: turns whose rack is unknown or partial, or whose move
// cannot be read, are listed but not reviewed.
func TestReviewSkips(t *testing.T) {
	text := `#player1 ann
#player2 ben
>ann: 8G CAT +10 10
>ben: CE H7 C(A)E +5 5
>ann: -3 +0 10
>ben: AEIIOTU 9K AT +5 10
`
	g, err := gcg.Parse("skips.gcg", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	rep := mustReview(t, g.Replay(), Options{Tables: testgen.Tables(tinyLexicon(t))})
	want := []string{"rack not recorded", "rack partly recorded (2 of 7 tiles)", "rack not recorded", "the play breaks the placement rules"}
	for i, w := range want {
		if tr := rep.Turns[i]; tr.Reviewed || !strings.HasPrefix(tr.Skipped, w) {
			t.Errorf("turn %d: reviewed %v, skipped %q; want %q", i+1, tr.Reviewed, tr.Skipped, w)
		}
	}
	if len(rep.Problems) != 1 || rep.Problems[0].Line != 6 {
		t.Errorf("problems %+v, want one on line 6", rep.Problems)
	}
	if s := rep.Summary.Players; s[0].Turns != 0 || s[0].Skipped != 2 || s[1].Skipped != 2 {
		t.Errorf("summary %+v", s)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not reviewed: rack not recorded", "skips.gcg:6: ", "Lines that could not be applied as recorded (1)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}

// jsonReport mirrors the documented JSON fields (README, "Review");
// decoding with DisallowUnknownFields catches a renamed field.
type jsonReport struct {
	File       string       `json:"file"`
	Title      string       `json:"title"`
	Lexicon    string       `json:"lexicon"`
	Evaluation string       `json:"evaluation"`
	Players    []jsonPlayer `json:"players"`
	Turns      []struct {
		Turn          int        `json:"turn"`
		Line          int        `json:"line"`
		Player        string     `json:"player"`
		Rack          string     `json:"rack"`
		Played        jsonMove   `json:"played"`
		Score         int        `json:"score"`
		Equity        float64    `json:"equity"`
		RecordedTotal int        `json:"recorded_total"`
		ComputedTotal int        `json:"computed_total"`
		Reviewed      bool       `json:"reviewed"`
		Skipped       string     `json:"skipped"`
		Best          []jsonMove `json:"best"`
		EquityLost    float64    `json:"equity_lost"`
		Rank          int        `json:"rank"`
		Moves         int        `json:"moves"`
		Flags         []string   `json:"flags"`
		Phonies       []string   `json:"phonies"`
		BestBingo     *jsonMove  `json:"best_bingo"`
		Note          string     `json:"note"`
	} `json:"turns"`
	Summary struct {
		Players []struct {
			Player         string  `json:"player"`
			Turns          int     `json:"turns"`
			Skipped        int     `json:"skipped"`
			EquityLost     float64 `json:"equity_lost"`
			MeanEquityLost float64 `json:"mean_equity_lost"`
			BestMoves      int     `json:"best_moves"`
			MissedBingos   int     `json:"missed_bingos"`
			Phonies        int     `json:"phonies"`
		} `json:"players"`
		Costliest []struct {
			Turn       int     `json:"turn"`
			Player     string  `json:"player"`
			Played     string  `json:"played"`
			Best       string  `json:"best"`
			EquityLost float64 `json:"equity_lost"`
		} `json:"costliest"`
	} `json:"summary"`
	Timeline []struct {
		Turn     int    `json:"turn"`
		Player   string `json:"player"`
		Recorded [2]int `json:"recorded"`
		Computed [2]int `json:"computed"`
	} `json:"timeline"`
	RecordedFinal [2]int `json:"recorded_final"`
	ComputedFinal [2]int `json:"computed_final"`
	Problems      []struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"problems"`
}

type jsonPlayer struct {
	Nick string `json:"nick"`
	Name string `json:"name"`
}

type jsonMove struct {
	Kind   string   `json:"kind"`
	Move   string   `json:"move"`
	Row    int      `json:"row"`
	Col    int      `json:"col"`
	Dir    string   `json:"dir"`
	Word   string   `json:"word"`
	Tiles  string   `json:"tiles"`
	Words  []string `json:"words"`
	Score  int      `json:"score"`
	Leave  string   `json:"leave"`
	Equity float64  `json:"equity"`
	Bingo  bool     `json:"bingo"`
	Value  *float64 `json:"value"`
}

func decodeReport(t *testing.T, data []byte) *jsonReport {
	t.Helper()
	var jr jsonReport
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jr); err != nil {
		t.Fatalf("the JSON does not match the documented fields: %v\n%s", err, data)
	}
	return &jr
}

func TestWriteJSON(t *testing.T) {
	r := replay(t, filepath.Join("testdata", "tiny.gcg"))
	rep := mustReview(t, r, Options{Tables: testgen.Tables(tinyLexicon(t))})
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	jr := decodeReport(t, buf.Bytes())
	if len(jr.Turns) != 3 || jr.Turns[0].Best[0].Move != "8B CAVEATS" || jr.Turns[0].Best[0].Row != 8 || jr.Turns[0].Best[0].Col != 2 ||
		jr.Turns[0].Best[0].Dir != "across" || !jr.Turns[0].Best[0].Bingo || jr.Turns[0].EquityLost != 72 ||
		!slices.Equal(jr.Turns[0].Flags, []string{"missed_bingo"}) || jr.Turns[1].Flags[0] != "phony" ||
		jr.RecordedFinal != [2]int{10, 5} || jr.Players[1] != (jsonPlayer{"ben", "Ben"}) {
		t.Errorf("JSON: %+v", jr)
	}
	// Arrays are never null.
	for _, key := range []string{`"problems": []`, `"flags": [`} {
		if !strings.Contains(buf.String(), key) {
			t.Errorf("JSON lacks %s:\n%s", key, buf.String())
		}
	}
}

// TestReviewChallengeBonusPass: a pass right after a play that drew a
// challenge bonus (challenged and stood) is a lost turn; a pass after a
// play nobody challenged is a decision.
func TestReviewChallengeBonusPass(t *testing.T) {
	head := "#player1 ann\n#player2 ben\n>ann: AACESTV 8G CAT +10 10\n"
	for _, tc := range []struct {
		name, text string
		lost       bool
	}{
		{"challenged", head + ">ann: AAESTVW (challenge) +5 15\n>ben: CEEIIOU - +0 0\n", true},
		{"not challenged", head + ">ben: CEEIIOU - +0 0\n", false},
		{"a play after the bonus", head + ">ann: AAESTVW (challenge) +5 15\n>ben: CEEIIOU -EEIIOU +0 0\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := gcg.Parse("bonus.gcg", []byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			rep := mustReview(t, g.Replay(), Options{Tables: testgen.Tables(tinyLexicon(t)), Players: [rules.MaxPlayers]bool{false, true}})
			tr := rep.Turns[0]
			lost := slices.Contains(tr.Flags, FlagLostChallenge)
			if lost != tc.lost || tr.Reviewed == tc.lost {
				t.Fatalf("lost challenge %v, reviewed %v (%q); want lost %v", lost, tr.Reviewed, tr.Skipped, tc.lost)
			}
			if tc.lost {
				if want := "a lost challenge, not a decision: ann's 8G CAT was challenged and stood (challenge bonus on line 4)"; tr.Skipped != want {
					t.Errorf("skipped %q, want %q", tr.Skipped, want)
				}
				if s := rep.Summary.Players[0]; s.Turns != 0 || s.Skipped != 1 || s.EquityLost != 0 || len(rep.Summary.Costliest) != 0 {
					t.Errorf("summary %+v, costliest %+v", s, rep.Summary.Costliest)
				}
			}
		})
	}
}
