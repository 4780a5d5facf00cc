package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"scrabble/game"
	"scrabble/internal/atomicfile"
	"scrabble/internal/crash"
	"scrabble/internal/readlimit"
	"scrabble/internal/splitmix"
	"scrabble/movegen"
	"scrabble/rules"
)

// ResultsFile is the name of the results file in a tournament's directory:
// one JSON GameResult a line, in the order games finish.
const ResultsFile = "results.jsonl"

// Config describes a self-play tournament between 2 to 4 players.
type Config struct {
	// Tables are the lexicon's, built once by the caller and shared by
	// every game.
	Tables *movegen.Tables
	// Players are the registry names of players 1 to N (see NewPlayer),
	// 2 to rules.MaxPlayers of them; Options[k] are player k+1's options
	// (those beyond len(Players) are not read).
	Players []string
	Options [rules.MaxPlayers]PlayerOptions
	// Rules are the games' settings: a target score, the tiebreak.
	Rules game.Rules
	Games int
	// Seed is the base seed: game i's bag seed depends on it and i's deal
	// alone (see Seating and GameSeed), never on the number of workers.
	Seed    uint64
	Workers int // goroutines playing games, each with its own players; < 1 means 1
	// Pairs plays every deal once per rotation of the seats: with N
	// players, games Ni to Ni+N-1 share a deal, each player moving first
	// in one of them (for two players, each gets the other's tiles the
	// second time round). See Seating.
	Pairs bool
	// Dir, if set, receives results.jsonl and one GCG file a game
	// (game-000123.gcg).
	Dir string
	// Resume continues the tournament recorded in Dir: finished games are
	// read from results.jsonl and not played again. Without Resume an
	// existing non-empty results file is an error.
	Resume bool
	// Progress, if set, is called with the number of games finished
	// (resumed ones included) and the total: once at the start and after
	// each game. Calls are serialized.
	Progress func(done, total int)
	// OnGame, if set, receives each game played (not the resumed ones) as
	// it finishes. Calls are serialized.
	OnGame func(game int, rec *game.Record)
	// Shard, if set, plays only its range of the Games (Shard.Range): one
	// of several machines' parts of a run, whose results Merge puts
	// together into the run's, game for game.
	Shard Shard
}

// Seating returns game i's deal and the seat that moves first in it, in a
// tournament of players players (with pairs or not). Player k always sits
// in seat k, and play passes from seat k to seat k+1 (mod N); what rotates
// is who starts. Game i is rotation r = i mod N, whose first mover is seat
// (N-r) mod N, so that player k is the ((k+r) mod N)-th to move: over any N
// consecutive games from a multiple of N, every player moves first,
// second, ... once each. With pairs those N games share a deal (deal i/N);
// without, every game has its own (deal i). For two players this is the
// seating of earlier versions: player 1 moves first in even games.
func Seating(i, players int, pairs bool) (deal, first int) {
	r := i % players
	deal = i
	if pairs {
		deal = i / players
	}
	return deal, (players - r) % players
}

// DealSeed returns the bag seed of a deal of a tournament with base seed
// base: a function of the two alone.
func DealSeed(base uint64, deal int) uint64 {
	return splitmix.Mix(base ^ splitmix.Mix(uint64(deal)))
}

// GameSeed returns the bag seed of game i of a tournament of players
// players with base seed base: DealSeed of its deal (see Seating).
func GameSeed(base uint64, i, players int, pairs bool) uint64 {
	deal, _ := Seating(i, players, pairs)
	return DealSeed(base, deal)
}

// FirstPlayer returns the seat moving first in game i of a tournament of
// players players (see Seating).
func FirstPlayer(i, players int) int {
	_, first := Seating(i, players, false)
	return first
}

// GCGName is the file name of game i's record in a tournament directory.
func GCGName(i int) string { return fmt.Sprintf("game-%06d.gcg", i) }

// Run plays the tournament and returns its summary, computed from
// every finished game (resumed ones included) in game order. Workers take
// games in index order; each game's result line and GCG file are written as
// it finishes.
//
// When ctx is cancelled, games in progress are abandoned, every finished
// game is kept, and Run returns the summary so far with ctx's error.
// On any other error it stops the workers and returns the error (and the
// summary so far when there is one).
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if cfg.Tables == nil {
		return nil, errors.New("selfplay: no lexicon")
	}
	if err := cfg.Shard.check(); err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	if cfg.Games < 0 {
		return nil, fmt.Errorf("selfplay: %d games", cfg.Games)
	}
	np := len(cfg.Players)
	if err := rules.CheckPlayers(np); err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	for i, name := range cfg.Players { // fail early on a bad name
		if _, err := NewPlayer(name, cfg.Options[i]); err != nil {
			return nil, err
		}
		if err := CheckSeats(name, cfg.Options[i], np); err != nil {
			return nil, fmt.Errorf("selfplay: player %d: %w", i+1, err)
		}
	}
	if cfg.Rules.TargetScore < 0 {
		return nil, fmt.Errorf("selfplay: target score %d: want 0 (none) or more", cfg.Rules.TargetScore)
	}
	if cfg.Rules.Tiebreak != rules.TiebreakNASPA && cfg.Rules.Tiebreak != rules.TiebreakHasbro {
		return nil, fmt.Errorf("selfplay: unknown %v", cfg.Rules.Tiebreak)
	}
	if c, err := rules.ParseChallengeRule(cfg.Rules.Challenge.String()); err != nil || c != cfg.Rules.Challenge {
		return nil, fmt.Errorf("selfplay: unknown challenge rule %d", cfg.Rules.Challenge)
	}
	cfg.Players = slices.Clone(cfg.Players) // the caller's may change
	t := &tournament{cfg: cfg, done: map[int]bool{}}
	if err := t.open(); err != nil {
		t.close()
		return nil, err
	}

	// Games are handed out by index, skipping the resumed ones, without a
	// list of the pending games: --games may be far more than will be played.
	resumed := maps.Clone(t.done) // read by the workers while finish writes t.done
	lo, hi := cfg.Shard.Range(cfg.Games)
	if cfg.Progress != nil {
		cfg.Progress(len(t.results), hi-lo)
	}
	workers := min(max(1, cfg.Workers), max(1, hi-lo-len(resumed)))
	start := time.Now()
	eg, gctx := errgroup.WithContext(ctx)
	var next atomic.Int64
	next.Store(int64(lo))
	for range workers {
		eg.Go(func() (err error) {
			defer func() { // a bug outside a game too: an error, not a goroutine dump
				if r := recover(); r != nil {
					err = crash.Error(r)
				}
			}()
			players := make([]game.Player, np)
			// Players running programs (external ones) end them.
			defer func() {
				for _, p := range players {
					if c, ok := p.(io.Closer); ok {
						if cerr := c.Close(); cerr != nil && err == nil {
							err = cerr
						}
					}
				}
			}()
			for i := range players {
				p, err := NewPlayer(cfg.Players[i], cfg.Options[i])
				if err != nil {
					return err
				}
				players[i] = p
			}
			table := game.NewTable(cfg.Tables)
			table.Rules = cfg.Rules
			for {
				i := int(next.Add(1) - 1)
				for i < hi && resumed[i] {
					i = int(next.Add(1) - 1)
				}
				if i >= hi || gctx.Err() != nil {
					return nil
				}
				deal, first := Seating(i, np, cfg.Pairs)
				rec, err := playCaught(gctx, table, players, DealSeed(cfg.Seed, deal), first)
				if err != nil {
					if gctx.Err() != nil {
						return nil // abandoned: cancelled, or another worker failed
					}
					return fmt.Errorf("game %d: %w", i, err)
				}
				if err := t.finish(i, rec); err != nil {
					return err
				}
			}
		})
	}
	err := eg.Wait()
	took := time.Since(start)
	t.close()

	s := Summarize(t.results, cfg.Rules.Tiebreak)
	if s.Games == 0 {
		s.Players = make([]PlayerStats, np)
		for i, name := range cfg.Players {
			s.Players[i].Name = name
		}
	}
	s.Planned = hi - lo
	s.Played = t.played
	s.Seconds = took.Seconds()
	if s.Seconds > 0 {
		s.GamesPerSecond = float64(t.played) / s.Seconds
	}
	if err == nil {
		err = t.writeErr
	}
	if err == nil {
		err = ctx.Err()
	}
	return &s, err
}

// playCaught is table.Play with a panic (a bug) turned into an error, so
// the tournament stops as on any other failure, its finished games kept,
// instead of the process dying with a goroutine dump.
func playCaught(ctx context.Context, table *game.Table, players []game.Player, seed uint64, first int) (rec *game.Record, err error) {
	defer func() { // rec stays nil
		if r := recover(); r != nil {
			err = crash.Error(r)
		}
	}()
	return table.PlaySeats(ctx, players, seed, first)
}

// tournament is the state shared by the workers.
type tournament struct {
	cfg      Config
	mu       sync.Mutex
	results  []GameResult
	done     map[int]bool
	played   int
	out      *os.File // results.jsonl, appending; nil without Dir
	writeErr error
}

// open reads the results of a resumed tournament and opens the results
// file for appending.
func (t *tournament) open() error {
	dir := t.cfg.Dir
	if dir == "" {
		if t.cfg.Resume {
			return errors.New("selfplay: resuming needs the tournament's directory")
		}
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, ResultsFile)
	data, err := readlimit.ReadFile(path, readlimit.Results, "a results file")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return err
	case len(data) > 0 && !t.cfg.Resume:
		return fmt.Errorf("%s already holds results: resume that tournament, or write to another directory", path)
	}
	if len(data) > 0 {
		good, err := t.readResults(path, data)
		if err != nil {
			return err
		}
		if good < len(data) { // a line cut short by an interruption
			if err := os.Truncate(path, int64(good)); err != nil {
				return err
			}
		}
	}
	t.out, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	return err
}

// readResults parses the results file's complete lines, checking they
// belong to this tournament, and returns the length of those lines: a last
// line without its newline is incomplete and ignored.
func (t *tournament) readResults(path string, data []byte) (good int, err error) {
	cfg := t.cfg
	for line := 1; good < len(data); line++ {
		nl := bytes.IndexByte(data[good:], '\n')
		if nl < 0 {
			break
		}
		if nl > readlimit.ResultsLine {
			return 0, fmt.Errorf("%s, line %d: longer than %s, the most a result line may hold: not a results file", path, line, readlimit.Size(readlimit.ResultsLine))
		}
		text := bytes.TrimSpace(data[good : good+nl])
		good += nl + 1
		if len(text) == 0 {
			continue
		}
		var r GameResult
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return 0, fmt.Errorf("%s, line %d: %w", path, line, err)
		}
		if rest := text[dec.InputOffset():]; len(rest) > 0 {
			// A second object, or anything else, after the result: the
			// line is not one a run wrote (they are one object each).
			return 0, fmt.Errorf("%s, line %d: %q after the result's JSON object: not a line a run writes", path, line, clip(rest, 32))
		}
		if !slices.Equal(r.Players, cfg.Players) {
			return 0, fmt.Errorf("%s, line %d: game %d was played by %s, not %s", path, line, r.Game, andList(r.Players), andList(cfg.Players))
		}
		if err := checkResult(&r, len(cfg.Players), cfg.Rules); err != nil {
			return 0, fmt.Errorf("%s, line %d: game %d: %w", path, line, r.Game, err)
		}
		switch {
		case cfg.Shard.M > 0 && !cfg.Shard.Holds(r.Game, cfg.Games):
			lo, hi := cfg.Shard.Range(cfg.Games)
			return 0, fmt.Errorf("%s, line %d: game %d is not in shard %s (games %d to %d of %d)", path, line, r.Game, cfg.Shard, lo, hi-1, cfg.Games)
		case r.Game < 0 || r.Game >= cfg.Games:
			return 0, fmt.Errorf("%s, line %d: game %d is beyond the %d games asked for (numbered from 0): ask for at least %d to resume this run", path, line, r.Game, cfg.Games, r.Game+1)
		case t.done[r.Game]:
			return 0, fmt.Errorf("%s, line %d: game %d appears twice", path, line, r.Game)
		case r.Seed != GameSeed(cfg.Seed, r.Game, len(cfg.Players), cfg.Pairs) || r.First != FirstPlayer(r.Game, len(cfg.Players))+1:
			return 0, fmt.Errorf("%s, line %d: game %d was played with another seed or seating: the file is from a tournament with another seed or pairing", path, line, r.Game)
		}
		r.Players = cfg.Players // equal: one copy for every result kept
		t.done[r.Game] = true
		t.results = append(t.results, r)
	}
	return good, nil
}

// andList is "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// clip is b, cut to at most n bytes with "..." when longer.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}

// Bounds on a game's figures, for checking a results file: a line no game
// could have written is refused on resume, not summed into the summary.
var (
	// maxRackValue is the most a rack can be worth: the RackSize highest
	// tiles of the set (what a player loses after six scoreless turns, or
	// half what the one going out gains).
	maxRackValue = func() int {
		d := rules.Distribution()
		tiles := d.Tiles()
		slices.SortFunc(tiles, func(a, b rules.Letter) int { return b.Value() - a.Value() })
		v := 0
		for _, l := range tiles[:rules.RackSize] {
			v += l.Value()
		}
		return v
	}()
	// maxTurns is the longest a game can be: each turn placing tiles
	// places at least one of the set's, and at most
	// MaxScorelessTurns-1 scoreless turns come between two of them (the
	// sixth ends the game).
	maxTurns = (rules.TileCount() + 1) * rules.MaxScorelessTurns
)

// maxTurnScore bounds a player's score per turn, out of reach of any game:
// the highest plays found possible on the standard board score under 1,800,
// and a game's average is far below its best play.
const maxTurnScore = 2000

// checkResult says what is impossible in a result line of a tournament of
// players players under rs, or nil: per-player figures not one a player, a
// winner that does not match the scores, a score no game reaches, counts
// that do not fit in the game's turns, an unknown ending or first mover,
// adjustments where the tiebreak needs none or none where it does.
func checkResult(r *GameResult, players int, rs game.Rules) error {
	n := players
	for _, f := range []struct {
		name string
		len  int
	}{{"players", len(r.Players)}, {"scores", len(r.Scores)}, {"bingos", len(r.Bingos)}, {"exchanges", len(r.Exchanges)}, {"passes", len(r.Passes)}} {
		if f.len != n {
			return fmt.Errorf("%d %s for a game of %d players", f.len, f.name, n)
		}
	}
	if r.First < 1 || r.First > n {
		return fmt.Errorf("first mover %d: want 1 to %d", r.First, n)
	}
	if r.Turns < 1 || r.Turns > maxTurns {
		return fmt.Errorf("%d turns: a game has 1 to %d", r.Turns, maxTurns)
	}
	switch hasbro := rs.Tiebreak == rules.TiebreakHasbro; {
	case hasbro && len(r.Adjustments) != n:
		return fmt.Errorf("%d adjustments for a game of %d players under the hasbro tiebreak: the file is from a run with another tiebreak", len(r.Adjustments), n)
	case !hasbro && r.Adjustments != nil:
		return errors.New("adjustments, recorded only under the hasbro tiebreak: the file is from a run with another tiebreak")
	}
	// Plays score 0 or more; at the end a player loses at most a rack,
	// and the one going out gains at most the others' (twice one rack for
	// two players).
	low, gain := 0, 2*maxRackValue
	if n > 2 {
		gain = (n - 1) * maxRackValue
	}
	switch r.End {
	case game.EndOut.String():
		if n > 2 {
			low = -maxRackValue
		}
	case game.EndScoreless.String():
		low = -maxRackValue // each player loses their rack's value
	case game.EndTarget.String():
		if rs.TargetScore <= 0 {
			return fmt.Errorf("end %q in a run without a target score", r.End)
		}
		if slices.Max(r.Scores) < rs.TargetScore {
			return fmt.Errorf("end %q with no score reaching the target, %d", r.End, rs.TargetScore)
		}
		gain = 0
	default:
		return fmt.Errorf("end %q: want %q, %q or %q", r.End, game.EndOut, game.EndScoreless, game.EndTarget)
	}
	for i := range n {
		// Player i moves ((i - first) mod n)-th: the first mover has
		// turns 1, n+1, ...
		pos := (i - (r.First - 1) + n) % n
		turns := (r.Turns - pos + n - 1) / n
		if high := turns*maxTurnScore + gain; r.Scores[i] < low || r.Scores[i] > high {
			return fmt.Errorf("player %d scored %d: no game ending %q in %d turns gives a score outside %d to %d",
				i+1, r.Scores[i], r.End, r.Turns, low, high)
		}
		if c := [3]int{r.Bingos[i], r.Exchanges[i], r.Passes[i]}; min(c[0], c[1], c[2]) < 0 || c[0]+c[1]+c[2] > turns {
			return fmt.Errorf("player %d has %d bingos, %d exchanges and %d passes in %d turns of theirs", i+1, c[0], c[1], c[2], turns)
		}
		if len(r.Adjustments) > 0 {
			if a := r.Adjustments[i]; a < -maxRackValue || a > gain {
				return fmt.Errorf("player %d's adjustment %d: no game ending %q gives one outside %d to %d", i+1, a, r.End, -maxRackValue, gain)
			}
		}
	}
	if err := checkAdjustments(r.Adjustments, r.End); err != nil {
		return err
	}
	want := 0 // a draw
	for i, p := range r.Places(rs.Tiebreak) {
		if p == 1 {
			if want != 0 {
				want = 0
				break
			}
			want = i + 1
		}
	}
	if r.Winner != want {
		scores := make([]string, n)
		for i, v := range r.Scores {
			scores[i] = strconv.Itoa(v)
		}
		return fmt.Errorf("winner %d with scores %s (the winner is 1 to %d, 0 for a draw)", r.Winner, strings.Join(scores, "-"), n)
	}
	return nil
}

// checkAdjustments says what is impossible in a game's end-of-game
// adjustments (none: nothing): any at a target score; a gain after six
// scoreless turns; after a player went out, with two players anything but
// the one going out gaining (the other 0), with more, anything but the
// others' losses going to one player.
func checkAdjustments(adj []int, end string) error {
	if len(adj) == 0 {
		return nil
	}
	sum, gains, zeros := 0, 0, 0
	for _, a := range adj {
		sum += a
		switch {
		case a > 0:
			gains++
		case a == 0:
			zeros++
		}
	}
	ok := true
	switch end {
	case game.EndTarget.String():
		ok = zeros == len(adj)
	case game.EndScoreless.String():
		ok = gains == 0
	case game.EndOut.String():
		if len(adj) == 2 {
			ok = min(adj[0], adj[1]) == 0 && max(adj[0], adj[1]) >= 0
		} else {
			ok = sum == 0 && gains <= 1
		}
	}
	if !ok {
		return fmt.Errorf("adjustments %v: no game ending %q has them", adj, end)
	}
	return nil
}

// finish records a finished game: its GCG file, then its result line (so
// a game in the results file always has its record), then the callbacks.
func (t *tournament) finish(i int, rec *game.Record) error {
	var r GameResult
	if slices.Equal(rec.Players[:rec.Seats], t.cfg.Players) {
		r = result(i, rec, t.cfg.Players) // one copy of the names for every result kept
	} else {
		r = Result(i, rec)
	}
	if t.cfg.Dir != "" {
		if err := writeGCGFile(filepath.Join(t.cfg.Dir, GCGName(i)), rec); err != nil {
			return t.fail(err)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.writeErr != nil {
		return t.writeErr
	}
	if t.out != nil {
		line, err := json.Marshal(&r)
		if err != nil {
			return err
		}
		if _, err := t.out.Write(append(line, '\n')); err != nil {
			t.writeErr = err
			return err
		}
	}
	t.results = append(t.results, r)
	t.done[i] = true
	t.played++
	if t.cfg.OnGame != nil {
		t.cfg.OnGame(i, rec)
	}
	if t.cfg.Progress != nil {
		lo, hi := t.cfg.Shard.Range(t.cfg.Games)
		t.cfg.Progress(len(t.results), hi-lo)
	}
	return nil
}

func (t *tournament) fail(err error) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.writeErr == nil {
		t.writeErr = err
	}
	return err
}

func (t *tournament) close() {
	if t.out != nil {
		if err := t.out.Close(); err != nil && t.writeErr == nil {
			t.writeErr = err
		}
	}
}

// writeGCGFile writes the record to path through a temporary file, so a
// GCG file is either complete or absent.
func writeGCGFile(path string, rec *game.Record) error {
	return atomicfile.Write(path, atomicfile.Options{Perm: 0o644, Sync: true}, func(w io.Writer) error { return WriteGCG(w, rec) })
}
