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

// Config describes a self-play tournament between player 1 and player 2.
type Config struct {
	// Tables are the lexicon's, built once by the caller and shared by
	// every game.
	Tables *movegen.Tables
	// Players are the registry names of player 1 and player 2 (see
	// NewPlayer), with their options.
	Players [2]string
	Options [2]PlayerOptions
	Games   int
	// Seed is the base seed: game i's bag seed depends on it and i alone
	// (see GameSeed), never on the number of workers.
	Seed    uint64
	Workers int // goroutines playing games, each with its own players; < 1 means 1
	// Pairs plays every deal twice with the seats swapped: games 2i and
	// 2i+1 share a seed, player 1 moving first in 2i and player 2 in 2i+1,
	// so each player gets the other's tiles the second time round.
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
}

// GameSeed returns the bag seed of game i of a tournament with base seed
// base: a function of the deal number alone (i, or i/2 with pairs).
func GameSeed(base uint64, i int, pairs bool) uint64 {
	deal := uint64(i)
	if pairs {
		deal /= 2
	}
	return splitmix.Mix(base ^ splitmix.Mix(deal))
}

// FirstPlayer returns the seat moving first in game i: player 1 (seat 0)
// in even games, player 2 in odd ones.
func FirstPlayer(i int) int { return i % 2 }

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
	if cfg.Games < 0 {
		return nil, fmt.Errorf("selfplay: %d games", cfg.Games)
	}
	for i := range 2 { // fail early on a bad name
		if _, err := NewPlayer(cfg.Players[i], cfg.Options[i]); err != nil {
			return nil, err
		}
	}
	t := &tournament{cfg: cfg, done: map[int]bool{}}
	if err := t.open(); err != nil {
		t.close()
		return nil, err
	}

	// Games are handed out by index, skipping the resumed ones, without a
	// list of the pending games: --games may be far more than will be played.
	resumed := maps.Clone(t.done) // read by the workers while finish writes t.done
	if cfg.Progress != nil {
		cfg.Progress(len(t.results), cfg.Games)
	}
	workers := min(max(1, cfg.Workers), max(1, cfg.Games-len(resumed)))
	start := time.Now()
	eg, gctx := errgroup.WithContext(ctx)
	var next atomic.Int64
	for range workers {
		eg.Go(func() (err error) {
			defer func() { // a bug outside a game too: an error, not a goroutine dump
				if r := recover(); r != nil {
					err = crash.Error(r)
				}
			}()
			var players [2]game.Player
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
			for i := range 2 {
				p, err := NewPlayer(cfg.Players[i], cfg.Options[i])
				if err != nil {
					return err
				}
				players[i] = p
			}
			table := game.NewTable(cfg.Tables)
			for {
				i := int(next.Add(1) - 1)
				for i < cfg.Games && resumed[i] {
					i = int(next.Add(1) - 1)
				}
				if i >= cfg.Games || gctx.Err() != nil {
					return nil
				}
				rec, err := playCaught(gctx, table, players, GameSeed(cfg.Seed, i, cfg.Pairs), FirstPlayer(i))
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

	s := Summarize(t.results)
	if s.Games == 0 {
		s.Players[0].Name, s.Players[1].Name = cfg.Players[0], cfg.Players[1]
	}
	s.Planned = cfg.Games
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
func playCaught(ctx context.Context, table *game.Table, players [2]game.Player, seed uint64, first int) (rec *game.Record, err error) {
	defer func() { // rec stays nil
		if r := recover(); r != nil {
			err = crash.Error(r)
		}
	}()
	return table.Play(ctx, players, seed, first)
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
		if err := checkResult(&r); err != nil {
			return 0, fmt.Errorf("%s, line %d: game %d: %w", path, line, r.Game, err)
		}
		switch {
		case r.Game < 0 || r.Game >= cfg.Games:
			return 0, fmt.Errorf("%s, line %d: game %d is beyond the %d games asked for (numbered from 0): ask for at least %d to resume this run", path, line, r.Game, cfg.Games, r.Game+1)
		case t.done[r.Game]:
			return 0, fmt.Errorf("%s, line %d: game %d appears twice", path, line, r.Game)
		case r.Seed != GameSeed(cfg.Seed, r.Game, cfg.Pairs) || r.First != FirstPlayer(r.Game)+1:
			return 0, fmt.Errorf("%s, line %d: game %d was played with another seed or seating: the file is from a tournament with another seed or pairing", path, line, r.Game)
		case r.Players != cfg.Players:
			return 0, fmt.Errorf("%s, line %d: game %d was played by %s and %s, not %s and %s", path, line, r.Game, r.Players[0], r.Players[1], cfg.Players[0], cfg.Players[1])
		}
		t.done[r.Game] = true
		t.results = append(t.results, r)
	}
	return good, nil
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

// checkResult says what is impossible in a result line, or nil: a winner
// that does not match the scores, a score no game reaches, counts that do
// not fit in the game's turns, an unknown ending or first mover.
func checkResult(r *GameResult) error {
	if r.First != 1 && r.First != 2 {
		return fmt.Errorf("first mover %d: want 1 or 2", r.First)
	}
	if r.Turns < 1 || r.Turns > maxTurns {
		return fmt.Errorf("%d turns: a game has 1 to %d", r.Turns, maxTurns)
	}
	var low int // plays score 0 or more; going out only adds
	switch r.End {
	case game.EndOut.String():
	case game.EndScoreless.String():
		low = -maxRackValue // each player loses their rack's value
	default:
		return fmt.Errorf("end %q: want %q or %q", r.End, game.EndOut, game.EndScoreless)
	}
	for i := range 2 {
		turns := (r.Turns + 1 - (r.First-1+i)%2) / 2 // the first mover has the odd turns
		if high := turns*maxTurnScore + 2*maxRackValue; r.Scores[i] < low || r.Scores[i] > high {
			return fmt.Errorf("player %d scored %d: no game ending %q in %d turns gives a score outside %d to %d",
				i+1, r.Scores[i], r.End, r.Turns, low, high)
		}
		if c := [3]int{r.Bingos[i], r.Exchanges[i], r.Passes[i]}; min(c[0], c[1], c[2]) < 0 || c[0]+c[1]+c[2] > turns {
			return fmt.Errorf("player %d has %d bingos, %d exchanges and %d passes in %d turns of theirs", i+1, c[0], c[1], c[2], turns)
		}
	}
	want := 0 // a draw
	switch {
	case r.Scores[0] > r.Scores[1]:
		want = 1
	case r.Scores[1] > r.Scores[0]:
		want = 2
	}
	if r.Winner != want {
		return fmt.Errorf("winner %d with scores %d-%d (the winner is 1 or 2, 0 for a draw)", r.Winner, r.Scores[0], r.Scores[1])
	}
	return nil
}

// finish records a finished game: its GCG file, then its result line (so
// a game in the results file always has its record), then the callbacks.
func (t *tournament) finish(i int, rec *game.Record) error {
	r := Result(i, rec)
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
		t.cfg.Progress(len(t.results), t.cfg.Games)
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
