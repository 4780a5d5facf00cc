// Package gametest holds what the tests of game, selfplay, sim and train
// share: a replayer that checks a game record against the rules, a toy
// leave valuer and a lexicon with no playable word.
package gametest

import (
	"context"
	"crypto/sha256"
	"errors"
	"scrabble/eval"
	"testing"

	"scrabble/gaddag"
	"scrabble/game"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/referee"
	"scrabble/rules"
)

// ToyLeaves is a crude leave valuer that makes exchanges worth considering:
// blanks and S are good, Q, V, W and duplicates bad.
type ToyLeaves struct{}

// LeaveKey names ToyLeaves' values for movegen.KeyedLeaveValuer (eval's
// leave tables number theirs from 1, far below).
func (ToyLeaves) LeaveKey() uint64 { return 1<<61 + 1 }

// LeaveValue values the rack by its blanks, S, Q, V, W and duplicates.
func (ToyLeaves) LeaveValue(r *rules.Rack) rules.Equity {
	v := int32(0)
	for i, c := range r {
		n := int32(c)
		switch i {
		case 0:
			v += 25000 * n
		case 'S' - 'A' + 1:
			v += 8000 * n
		case 'Q' - 'A' + 1, 'V' - 'A' + 1, 'W' - 'A' + 1:
			v -= 9000 * n
		}
		if n > 1 {
			v -= 6000 * (n - 1)
		}
	}
	return rules.Equity(v)
}

// Replayer checks game records move by move against the rules.
type Replayer struct {
	t   *testing.T
	lex *gaddag.GADDAG
	gen *movegen.Generator // for the score player's check
}

// NewReplayer returns a replayer for games on the tables' lexicon.
func NewReplayer(t *testing.T, tables *movegen.Tables) *Replayer {
	return &Replayer{t: t, lex: tables.Lexicon(), gen: movegen.New(tables)}
}

// Check replays rec from its opening racks: the seats take turns in order
// (play passes to the left), each rack
// is the previous one less the tiles used plus those drawn, every move is
// legal (ValidateMove on the board before it) and scores what the rules
// say, draws refill the rack as far as the bag allows, no tile is used
// twice, the game ends exactly when the rules say (a rack emptied with the
// bag empty, six scoreless turns over all players, 0-point plays included,
// or the target score reached), and the final scores are the turn scores
// plus the end-of-game adjustments, worked out here from the rules' text. The score
// player's plays are checked to be the highest-scoring ones.
func (r *Replayer) Check(name string, rec *game.Record) {
	t := r.t
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s (seed %d): "+format, append([]any{name, rec.Seed}, args...)...)
	}
	var board rules.Board
	racks := rec.Racks
	n := rec.Seats
	if n < rules.MinPlayers || n > rules.MaxPlayers {
		fail("%d seats", n)
	}
	for s := range rules.MaxPlayers {
		if s < n && racks[s].Count() != rules.RackSize || s >= n && racks[s].Count() != 0 {
			fail("opening rack %d is %s", s, racks[s])
		}
	}
	bag := rules.TileCount() - n*rules.RackSize
	var (
		scores, bingos, exch, passes, phonies [rules.MaxPlayers]int
		scoreless                             int
		turnSum                               [rules.MaxPlayers]int
	)
	seat := rec.First
	for i, tr := range rec.Turns {
		if tr.Player != seat {
			fail("turn %d is seat %d's, want %d", i+1, tr.Player, seat)
		}
		if tr.Rack != racks[seat] {
			fail("turn %d: rack %s, replay has %s", i+1, tr.Rack, racks[seat])
		}
		m := tr.Move
		err := referee.ValidateMove(&m, &board, racks[seat], bag, r.lex)
		var phony *referee.PhonyError
		switch {
		case tr.Withdrawn:
			// A phony challenged off: nothing but its words is wrong,
			// it claimed what it would score, and it changes nothing
			// but the scoreless count and the turn.
			if !errors.As(err, &phony) || m.Kind != move.Play || int(m.Score) != phony.Score {
				fail("turn %d: %s withdrawn, but the referee says %v (claimed %d)", i+1, m.NotationOn(&board), err, m.Score)
			}
			if !rec.Rules.Challenge.PhoniesPlayable() {
				fail("turn %d: a phony withdrawn under the %s rule", i+1, rec.Rules.Challenge)
			}
			if tr.Score != 0 || tr.Drawn.Count() != 0 {
				fail("turn %d: withdrawn phony scored %d and drew %s", i+1, tr.Score, tr.Drawn)
			}
			phonies[seat]++
			m = move.Move{Kind: move.Pass}
		case err != nil:
			fail("turn %d: %s: %v", i+1, m.NotationOn(&board), err)
		}
		if rec.Players[seat] == "score" {
			r.checkTopScore(name, rec, i, &board, bag)
		}
		used := m.Used()
		switch m.Kind {
		case move.Play:
			if want := board.ScorePlay(m.Placed()); tr.Score != want || int(m.Score) != want {
				fail("turn %d: %s scored %d (move says %d), rules say %d", i+1, m.Notation(), tr.Score, m.Score, want)
			}
			board.Apply(m.Placed())
			if m.NumTiles == rules.RackSize {
				bingos[seat]++
			}
			if want := min(bag, used.Count()); tr.Drawn.Count() != want {
				fail("turn %d: drew %d tiles, want %d", i+1, tr.Drawn.Count(), want)
			}
			bag -= tr.Drawn.Count()
		case move.Exchange:
			exch[seat]++
			if tr.Score != 0 || tr.Drawn.Count() != used.Count() {
				fail("turn %d: exchange of %s scored %d and drew %s", i+1, used, tr.Score, tr.Drawn)
			}
		case move.Pass:
			if !tr.Withdrawn {
				passes[seat]++
			}
			if tr.Score != 0 || tr.Drawn.Count() != 0 {
				fail("turn %d: pass scored %d and drew %s", i+1, tr.Score, tr.Drawn)
			}
		}
		racks[seat].Sub(used)
		racks[seat] = addRacks(racks[seat], tr.Drawn)
		// No tile twice: board and racks fit in the set.
		all := board.TileCounts()
		for s := range n {
			all = addRacks(all, racks[s])
		}
		if full := rules.Distribution(); !full.Contains(all) || all.Count()+bag != rules.TileCount() {
			fail("turn %d: board and racks hold %s with %d in the bag", i+1, all, bag)
		}
		scores[seat] += tr.Score
		turnSum[seat] += tr.Score
		if tr.Totals != scores {
			fail("turn %d: totals %v, want %v", i+1, tr.Totals, scores)
		}
		if tr.Score == 0 {
			scoreless++
		} else {
			scoreless = 0
		}
		out := bag == 0 && racks[seat].Count() == 0
		target := false
		for s := range n {
			target = target || rec.Rules.TargetScore > 0 && scores[s] >= rec.Rules.TargetScore
		}
		over := out || scoreless >= rules.MaxScorelessTurns || target
		if last := i == len(rec.Turns)-1; over != last {
			fail("turn %d: game over %v, but it is the last turn: %v", i+1, over, last)
		}
		scorelessEnd := !out && scoreless >= rules.MaxScorelessTurns
		if out && rec.End != game.EndOut || scorelessEnd && rec.End != game.EndScoreless ||
			over && !out && !scorelessEnd && rec.End != game.EndTarget {
			fail("ended %v after turn %d (out %v, %d scoreless, target %v)", rec.End, i+1, out, scoreless, target)
		}
		seat = (seat + 1) % n
	}
	if len(rec.Turns) == 0 {
		fail("no turns")
	}
	if rec.EndRacks != racks {
		fail("end racks %v, replay %v", rec.EndRacks, racks)
	}
	// The end of the game: with two players (NASPA) the player who went
	// out gains twice the other's tiles; with more (the rule sheet) each
	// other player loses their tiles' value and the one who went out gains
	// the sum; after six scoreless turns each loses their own; at a target
	// score nothing changes.
	var adj [rules.MaxPlayers]int
	switch rec.End {
	case game.EndOut:
		o := rec.Turns[len(rec.Turns)-1].Player
		for s := range n {
			if s == o {
				continue
			}
			if n == 2 {
				adj[o] = 2 * racks[s].Value()
			} else {
				adj[s] -= racks[s].Value()
				adj[o] += racks[s].Value()
			}
		}
	case game.EndScoreless:
		for s := range n {
			adj[s] = -racks[s].Value()
		}
	case game.EndTarget:
	default:
		fail("end %v", rec.End)
	}
	if rec.Adjustments != adj {
		fail("adjustments %v, want %v", rec.Adjustments, adj)
	}
	for s := range n {
		if rec.Scores[s] != turnSum[s]+adj[s] {
			fail("seat %d final %d, turns %d + adjustment %d", s, rec.Scores[s], turnSum[s], adj[s])
		}
	}
	if rec.Bingos != bingos || rec.Exchanges != exch || rec.Passes != passes || rec.Phonies != phonies {
		fail("counts: bingos %v exchanges %v passes %v phonies %v, replay %v %v %v %v", rec.Bingos, rec.Exchanges, rec.Passes, rec.Phonies, bingos, exch, passes, phonies)
	}
}

// checkTopScore checks that turn i of the score player is the
// highest-scoring play, or with no play the exchange of the whole rack (the
// pass when the bag is too low).
func (r *Replayer) checkTopScore(name string, rec *game.Record, i int, board *rules.Board, bag int) {
	r.t.Helper()
	tr := &rec.Turns[i]
	r.gen.SetBoard(board)
	var best movegen.BestScore
	r.gen.GeneratePlays(&tr.Rack, &best)
	m := &tr.Move
	switch {
	case best.Found:
		if m.Kind != move.Play || m.Score != best.Best.Score {
			r.t.Fatalf("%s (seed %d) turn %d: score player made %s (%d), best play %s scores %d",
				name, rec.Seed, i+1, m.NotationOn(board), m.Score, best.Best.NotationOn(board), best.Best.Score)
		}
	case rules.CanExchange(bag):
		if m.Kind != move.Exchange || m.Used() != tr.Rack {
			r.t.Fatalf("%s turn %d: no play; score player made %s, not the exchange of %s", name, i+1, m.Notation(), tr.Rack)
		}
	default:
		if m.Kind != move.Pass {
			r.t.Fatalf("%s turn %d: no play, no exchange; score player made %s", name, i+1, m.Notation())
		}
	}
}

// TinyLexicon has no word a rack can make: every turn is scoreless.
func TinyLexicon(t *testing.T) *gaddag.GADDAG {
	t.Helper()
	g, err := gaddag.Build("TINY", []string{"QQQQ"}, sha256.Sum256([]byte("QQQQ\n")))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func addRacks(a, b rules.Rack) rules.Rack {
	for i := range a {
		a[i] += b[i]
	}
	return a
}

// PhonyPlayer is a player of phonies, for tests of the challenge rules: on
// every Every-th turn of its own (counting from 1) it plays a phony if it
// can make one, a legal play with two of its placed tiles swapped that the
// lexicon lacks, claiming what it would score; on its other turns it plays
// as the equity player with ToyLeaves.
type PhonyPlayer struct {
	Every int
	turns int
	eq    game.Player
	lex   *gaddag.GADDAG
	all   movegen.AllMoves
}

func (p *PhonyPlayer) Name() string { return "phony" }

func (p *PhonyPlayer) StartGame(s game.Start) {
	p.turns = 0
	p.lex = s.Tables.Lexicon()
	p.eq = game.NewEquityPlayer(ToyLeaves{}, eval.Terms{})
	p.eq.StartGame(s)
}

func (p *PhonyPlayer) Observe(seat int, m *move.Move) { p.eq.Observe(seat, m) }

func (p *PhonyPlayer) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	p.turns++
	if p.Every > 0 && p.turns%p.Every == 0 {
		if m, ok := p.phony(v); ok {
			return m, nil
		}
	}
	return p.eq.Choose(ctx, v)
}

// phony makes a phony from the first play it finds that gives one.
func (p *PhonyPlayer) phony(v *game.View) (move.Move, bool) {
	p.all.Moves = p.all.Moves[:0]
	v.Gen.Generate(&v.Rack, v.BagLen, movegen.Options{}, &p.all)
	lex := p.lex
	for _, m := range p.all.Moves {
		var at []int // the tiles placed
		for i, t := range m.Tiles[:m.Len] {
			if t != rules.PlayedThrough {
				at = append(at, i)
			}
		}
		for a := 0; a < len(at); a++ {
			for b := a + 1; b < len(at); b++ {
				x, y := m.Tiles[at[a]], m.Tiles[at[b]]
				if x == y {
					continue
				}
				ph := m
				ph.Tiles[at[a]], ph.Tiles[at[b]] = y, x
				_, err := referee.CheckMove(&ph, v.Board, v.Rack, v.BagLen, lex)
				var pe *referee.PhonyError
				if errors.As(err, &pe) {
					ph.Score = int32(pe.Score)
					return ph, true
				}
			}
		}
	}
	return move.Move{}, false
}
