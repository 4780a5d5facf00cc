package gcg

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"scrabble/rules"
)

// TestReplayPlayersEnd replays the three- and four-player games of
// testdata, built on the rule sheet's end of game, and checks each
// player's adjustment, worked out by hand in the files' notes: the player
// who went out gains the sum of the others' tiles, and each other player
// loses their own.
func TestReplayPlayersEnd(t *testing.T) {
	tests := []struct {
		file    string
		players int
		// adjust is each end line's points by line; final the totals.
		adjust map[int]int
		final  [rules.MaxPlayers]int
		bag    int // before the first move: 100 less the racks
	}{
		// ann out: +(11 + 12); ben -11 (QE); cal -12 (XY?).
		{"three_players.gcg", 3, map[int]int{19: 23, 20: -11, 21: -12}, [rules.MaxPlayers]int{82 + 23, 13 - 11, 9 - 12}, 100 - 3*7},
		// cal out: +(4 + 10 + 13); dan -13 (KJ), ann -4 (AB), ben -10 (Z).
		{"four_players.gcg", 4, map[int]int{19: 27, 20: -13, 21: -4, 22: -10}, [rules.MaxPlayers]int{66 - 4, 13 - 10, 25 + 27, 0 - 13}, 100 - 4*7},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			g := mustParse(t, tc.file, readTestdata(t, tc.file))
			if len(g.Players) != tc.players {
				t.Fatalf("%d players, want %d", len(g.Players), tc.players)
			}
			r := g.Replay()
			for _, p := range r.Problems {
				t.Errorf("problem: %v", &p)
			}
			seen := 0
			for i, e := range g.Events {
				if want, ok := tc.adjust[e.Line]; ok {
					seen++
					if r.Steps[i].Score != want || e.Score != want {
						t.Errorf("line %d (%s): engine %+d, file %+d; want %+d", e.Line, g.Players[e.Player].Nick, r.Steps[i].Score, e.Score, want)
					}
				}
			}
			if seen != len(tc.adjust) {
				t.Errorf("%d end lines, want %d", seen, len(tc.adjust))
			}
			if r.Totals != tc.final || r.Recorded != tc.final {
				t.Errorf("totals %v, recorded %v; want %v", r.Totals, r.Recorded, tc.final)
			}
			sum := 0
			for _, v := range tc.adjust {
				sum += v
			}
			if sum != 0 {
				t.Errorf("the adjustments sum to %d: the rule sheet's add up to 0", sum)
			}
			if r.Turns[0].BagLen != tc.bag {
				t.Errorf("bag before the first move %d, want %d", r.Turns[0].BagLen, tc.bag)
			}
			// Written and read back, the same game and replay.
			back, _ := roundTrip(t, g)
			diffGames(t, withoutPlaces(back), withoutPlaces(g))
			if r2 := back.Replay(); r2.Totals != r.Totals || len(r2.Problems) != 0 {
				t.Errorf("written and read back: totals %v, problems %v", r2.Totals, r2.Problems)
			}
		})
	}
}

// TestReplayPlayersEndWrong: the end of a three-player game scored the
// two-player way, or with a player's tiles miscounted, is a problem on the
// line; so is a second player going out, or a penalty for the player out.
func TestReplayPlayersEndWrong(t *testing.T) {
	good := string(readTestdata(t, "three_players.gcg"))
	tests := []struct {
		name, from, to string
		line           int
		msg            string
	}{
		{"twice the tiles, as for two", ">ann: (EQXY?) +23 105", ">ann: (EQXY?) +46 128", 19, "recorded score +46, but the engine scores (EQXY?) +23"},
		{"a tile miscounted", ">ben: EQ (EQ) -11 2", ">ben: EQ (EQ) -10 3", 20, "recorded score -10, but the engine scores (EQ) -11"},
		{"a total that disagrees", ">cal: XY? (XY?) -12 -3", ">cal: XY? (XY?) -12 -2", 21, "cumulative score -2, but 9 -12 = -3"},
		{"the player out penalized", ">cal: XY? (XY?) -12 -3", ">ann: (XY?) -12 93", 21, "ann went out: they hold no tiles to lose"},
		{"two players out", ">cal: XY? (XY?) -12 -3", ">cal: (EQ) +11 20", 21, "ann already got the points for going out"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(good, tc.from, tc.to, 1)
			if text == good {
				t.Fatalf("%q is not in the file", tc.from)
			}
			r := mustParse(t, "three_players.gcg", []byte(text)).Replay()
			if len(r.Problems) != 1 || r.Problems[0].Line != tc.line || !strings.Contains(r.Problems[0].Msg, tc.msg) {
				t.Errorf("problems %v, want one on line %d saying %q", r.Problems, tc.line, tc.msg)
			}
		})
	}
}

// TestReplayPlaces: the places of a three-player game where ben and cal
// end level, 2 each: under naspa they share second place; under hasbro
// ben, 13 before the end against cal's 9, is second.
func TestReplayPlaces(t *testing.T) {
	good := string(readTestdata(t, "three_players.gcg"))
	// cal holds BF (3 + 4 = 7) instead of XY?: ann gains 11 + 7 = 18,
	// ben ends on 13 - 11 = 2 and cal on 9 - 7 = 2.
	text := strings.NewReplacer(">ann: (EQXY?) +23 105", ">ann: (BEFQ) +18 100", ">cal: XY? (XY?) -12 -3", ">cal: BF (BF) -7 2").Replace(good)
	r := mustParse(t, "tie.gcg", []byte(text)).Replay()
	if len(r.Problems) != 0 || r.Totals != [rules.MaxPlayers]int{100, 2, 2} {
		t.Fatalf("problems %v, totals %v", r.Problems, r.Totals)
	}
	for _, tc := range []struct {
		tb   rules.Tiebreak
		want []int
	}{
		{rules.TiebreakNASPA, []int{1, 2, 2}},
		{rules.TiebreakHasbro, []int{1, 2, 3}},
	} {
		if got := r.Places(tc.tb); !slices.Equal(got, tc.want) {
			t.Errorf("%v: places %v, want %v", tc.tb, got, tc.want)
		}
	}
}

// TestReplayTurnOrder: play passes to the left in a game of three; a
// player moving out of turn, or again after their phony was withdrawn (the
// withdrawal costs them the turn), is a problem.
func TestReplayTurnOrder(t *testing.T) {
	head := "#player1 ann\n#player2 ben\n#player3 cal\n" // lines 1 to 3
	retains := ">ann: AEINRST 8D RETAINS +66 66\n"       // line 4
	zoea := ">ben: ADIOQUZ E6 ZO(E)A +13 13\n"
	tests := []struct {
		name, lines string
		line        int // of the one problem; 0 for none
		msg         string
	}{
		{"in turn, round again", retains + zoea + ">cal: EEOSTV? D8 .OVE +9 9\n>ann: DQU J5 QUD(S) +16 82\n>ben: - +0 13\n", 0, ""},
		{"cal before ben", retains + ">cal: ADIOQUZ E6 ZO(E)A +13 13\n", 5,
			"out of turn: after ann (turn 1) it is ben's turn (#player2), not cal's (#player3)"},
		{"ann again after cal, skipping nobody but moving early", retains + zoea + ">ann: - +0 66\n", 6, "after ben (turn 2) it is cal's turn"},
		{"a phony withdrawn costs the turn", retains + zoea + ">ben: ADIOQUZ -- -13 0\n>ben: ADIOQUZ - +0 0\n", 7, "ben moves twice in a row"},
		{"the withdrawn phony's turn is over", retains + zoea + ">ben: ADIOQUZ -- -13 0\n>cal: EEOSTV? - +0 0\n", 0, ""},
		{"a lost turn is the challenger's own turn", retains + zoea + ">cal: EEOSTV? - +0 0\n#note #unsuccessful-challenge\n>ann: - +0 66\n", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustParse(t, "order.gcg", []byte(head+tc.lines)).Replay()
			switch {
			case tc.line == 0 && len(r.Problems) != 0:
				t.Errorf("problems %v, want none", r.Problems)
			case tc.line != 0 && (len(r.Problems) != 1 || r.Problems[0].Line != tc.line || !strings.Contains(r.Problems[0].Msg, tc.msg)):
				t.Errorf("problems %v, want one on line %d saying %q", r.Problems, tc.line, tc.msg)
			}
		})
	}
}

// TestReplayChallengeRules replays the challenges of a three-player game
// under each rule, given by #challenge-rule and by ReplayOptions: a line
// the rule does not allow is a problem naming the line and the rule.
func TestReplayChallengeRules(t *testing.T) {
	head := "#player1 ann\n#player2 ben\n#player3 cal\n>ann: AEINRST 8D RETAINS +66 66\n>ben: ADIOQUZ E6 ZO(E)A +13 13\n" // lines 1 to 5
	all := []string{"single", "double", "void", "5pt", "10pt"}
	tests := []struct {
		name  string
		lines string   // from line 6
		ok    []string // the rules under which the lines are consistent
		msg   map[string]string
		only  []string // the rules to try, if not all
		line  int      // of the problems, if not 6
	}{
		{"phony withdrawn", ">ben: ADIOQUZ -- -13 0\n>cal: EEOSTV? - +0 0\n",
			[]string{"single", "double", "5pt", "10pt"}, map[string]string{"void": "a phony cannot be played"}, nil, 0},
		{"5-point bonus", ">ben: ADIOQUZ (challenge) +5 18\n>cal: EEOSTV? - +0 0\n",
			[]string{"5pt"}, map[string]string{"10pt": "challenge bonus +5, but the 10pt challenge rule", "double": "costs the challenger a turn, not points",
				"single": "a wrong challenge costs nothing", "void": "nothing is challenged"}, nil, 0},
		{"10-point bonus", ">ben: (challenge) +10 23\n>cal: - +0 0\n",
			[]string{"10pt"}, map[string]string{"5pt": "challenge bonus +10, but the 5pt challenge rule (%s) gives +5"}, nil, 0},
		{"turn lost, noted as Macondo writes it", ">cal: EEOSTV? - +0 0\n#note #unsuccessful-challenge\n",
			[]string{"double"}, map[string]string{"single": "a turn lost to a challenge (noted #unsuccessful-challenge), but under the single challenge rule"}, nil, 0},
		{"turn lost to a challenge of a play going out", ">cal: EEOSTV? - +0 0\n>ben: (EEOSTV?) +9 22\n",
			[]string{"double"}, map[string]string{"5pt": "ben's points for going out follow on line 7"}, nil, 0},
		{"bonus to the challenger", ">cal: (challenge) +5 5\n",
			nil, map[string]string{"5pt": "the challenge bonus goes to the player whose play was challenged, but the last move is ben's", "10pt": "gives +10"}, nil, 0},
		{"bonus for a play taken back", ">ben: -- -13 0\n>ben: (challenge) +5 5\n",
			nil, map[string]string{"5pt": "a challenge bonus for a play taken back"}, []string{"5pt"}, 7},
	}
	for _, tc := range tests {
		names := all
		if tc.only != nil {
			names = tc.only
		}
		line := tc.line
		if line == 0 {
			line = 6
		}
		for _, name := range names {
			rule, err := rules.ParseChallengeRule(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, how := range []string{"pragma", "option"} {
				t.Run(tc.name+"/"+name+"/"+how, func(t *testing.T) {
					var r *Replay
					if how == "pragma" {
						// At the end, so that the event lines keep their numbers.
						r = mustParse(t, "c.gcg", []byte(head+tc.lines+"#challenge-rule "+name+"\n")).Replay()
						if r.ChallengeFrom != ChallengeFromFile {
							t.Errorf("rule from %v", r.ChallengeFrom)
						}
					} else {
						// The option wins over a pragma that says otherwise.
						r = mustParse(t, "c.gcg", []byte(head+tc.lines+"#challenge-rule void\n")).ReplayWith(ReplayOptions{Challenge: &rule})
					}
					if r.Challenge != rule {
						t.Errorf("replayed under %v, want %v", r.Challenge, rule)
					}
					if slices.Contains(tc.ok, name) {
						if len(r.Problems) != 0 {
							t.Errorf("problems %v, want none", r.Problems)
						}
						return
					}
					want := tc.msg[name]
					if want == "" {
						want = "under the " + name + " challenge rule"
					}
					want = strings.ReplaceAll(want, "%s", r.ChallengeFrom.String())
					// Every problem on the line, one of them saying why.
					said := false
					for _, p := range r.Problems {
						said = said || strings.Contains(p.Msg, want)
						if p.Line != line || !strings.HasPrefix(p.Error(), fmt.Sprintf("c.gcg:%d: ", line)) {
							said = false
							break
						}
					}
					if !said {
						t.Errorf("problems %v, want them on line %d, one saying %q", r.Problems, line, want)
					}
				})
			}
		}
	}
}

// TestReplayChallengeInferred: with no rule given, the first challenge
// bonus tells 5pt or 10pt; with none, double.
func TestReplayChallengeInferred(t *testing.T) {
	head := "#player1 ann\n#player2 ben\n>ann: AEINRST 8D RETAINS +66 66\n"
	for _, tc := range []struct {
		lines string
		want  rules.ChallengeRule
	}{
		{"", rules.ChallengeDouble},
		{">ann: (challenge) +5 71\n", rules.ChallengeFivePoint},
		{">ann: (challenge) +10 76\n", rules.ChallengeTenPoint},
		{">ann: (challenge) +7 73\n", rules.ChallengeDouble}, // and a problem
	} {
		r := mustParse(t, "i.gcg", []byte(head+tc.lines)).Replay()
		if r.Challenge != tc.want || r.ChallengeFrom != ChallengeInferred {
			t.Errorf("%q: %v from %v, want %v inferred", tc.lines, r.Challenge, r.ChallengeFrom, tc.want)
		}
	}
}

// TestParsePlayersErrors: bad player lines and racks are errors naming the
// file, the line and the problem.
func TestParsePlayersErrors(t *testing.T) {
	four := "#player1 a\n#player2 b\n#player3 c\n#player4 d\n"
	tests := []struct {
		name, text string
		line       int
		msg        string
	}{
		{"five players", four + "#player5 e\n", 5, "#player5: a game has 2 to 4 players (#player1 to #player4)"},
		{"player 0", "#player0 z\n" + four, 1, "#player0: a game has 2 to 4 players"},
		{"a huge player number", four + "#player99999999999999999999 e\n", 5, "a game has 2 to 4 players"},
		{"rack of a player who does not exist", "#player1 a\n#player2 b\n#rack3 ABC\n", 3, "#rack3 for a player who does not exist: the game has 2 players"},
		{"rack 5", four + "#rack5 ABC\n", 5, "#rack5: a game has 2 to 4 players"},
		{"a gap", "#player1 a\n#player3 c\n", 0, "no #player2 line, but a #player3 (line 2): the players are numbered from 1 without a gap"},
		{"a player after the events", "#player1 a\n#player2 b\n>a: - +0 0\n#player3 c\n", 4, "#player3 after the first event"},
		{"unknown nick of four", four + ">e: - +0 0\n", 5, `unknown player "e": the players are "a" (#player1), "b" (#player2), "c" (#player3) and "d" (#player4)`},
		{"same nick", "#player1 a\n#player2 b\n#player3 a\n", 3, `both players have the nickname "a" (#player1 and #player3)`},
		{"second #player3", four + "#player3 e\n", 5, "second #player3 (the first is on line 3)"},
		{"challenge rule", "#player1 a\n#player2 b\n#challenge-rule triple\n", 3, `unknown challenge rule "triple"`},
		{"end tiles of more than three racks", "#player1 a\n#player2 b\n>a: (AAAAAAAAABBCCDDDDEEEEE) +30 30\n", 3, "22 tiles; 3 racks of the other players hold at most 21"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.gcg", []byte(tc.text))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *gcg.Error", err)
			}
			if pe.File != "bad.gcg" || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("error %q (line %d), want line %d and %q", pe, pe.Line, tc.line, tc.msg)
			}
		})
	}
	// Four players and every rack read.
	g := mustParse(t, "ok.gcg", []byte(four+"#rack4 ABC\n#challenge-rule 5PT\n"))
	if len(g.Players) != 4 || g.Players[3].Nick != "d" || g.Racks[3].String() != "ABC" || g.ChallengeRule != "5pt" {
		t.Errorf("players %v, racks %v, rule %q", g.Players, g.Racks, g.ChallengeRule)
	}
}

// TestWritePlayersRefuses: Write refuses what Parse would not read back.
func TestWritePlayersRefuses(t *testing.T) {
	base := func() *Game {
		return &Game{Players: []Player{{"a", ""}, {"b", ""}, {"c", ""}}, Events: []Event{{Kind: Pass, Player: 2}}}
	}
	for _, tc := range []struct {
		name   string
		change func(g *Game)
		msg    string
	}{
		{"five players", func(g *Game) { g.Players = append(g.Players, Player{"d", ""}, Player{"e", ""}) }, "5 players: a game has 2 to 4"},
		{"one player", func(g *Game) { g.Players = g.Players[:1]; g.Events[0].Player = 0 }, "1 players: a game has 2 to 4"},
		{"event of player 4", func(g *Game) { g.Events[0].Player = 3 }, "player 3: want 0 to 2"},
		{"rack of player 4", func(g *Game) { g.Racks[3] = rules.Rack{1} }, "rack 4 (?) for a player who does not exist"},
		{"same nicks", func(g *Game) { g.Players[2].Nick = "a" }, `players 1 and 3 both have the nickname "a"`},
		{"challenge rule", func(g *Game) { g.ChallengeRule = "triple" }, `unknown challenge rule "triple"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := base()
			tc.change(g)
			var b strings.Builder
			if err := Write(&b, g); err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %q", err, tc.msg)
			}
		})
	}
	var b strings.Builder
	if err := Write(&b, base()); err != nil {
		t.Fatalf("three players: %v", err)
	}
}
