package train

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/runrecord"
	"scrabble/movegen"
	"scrabble/rules"
	"scrabble/selfplay"
)

// DefaultChunk is how many games a training run plays between
// checkpoints: an interrupted run loses at most the chunk in progress.
const DefaultChunk = 500

// EventKind says what a training run reports in an Event.
type EventKind int

const (
	// GenerationKept: generation Generation was finished by an earlier
	// run; its values are read back from Path.
	GenerationKept EventKind = iota
	// Resumed: the run goes on after Games games of its generation (or of
	// the whole run, for the win table) done by an earlier run.
	Resumed
	// Started: the games of a generation (or of the run) begin; Games is
	// how many there are in all, those done earlier included.
	Started
	// Finished: the generation's (or the run's) games are played; Games,
	// Observations and Elapsed say what they held and took.
	Finished
)

// Event is what a training run reports as it goes (see EventKind).
type Event struct {
	Kind         EventKind
	Generation   int // leave training only: from 1
	Path         string
	Games        int
	Observations int64
	Elapsed      time.Duration
}

// Interrupted is the error of a run whose context was cancelled: its work
// so far is in its directory, and a run with Resume goes on from it.
type Interrupted struct {
	Generation int // leave training: the generation stopped in
	Games      int // win table: the games finished before the stop
	Err        error
}

func (e *Interrupted) Error() string {
	if e.Generation > 0 {
		return fmt.Sprintf("interrupted in generation %d", e.Generation)
	}
	return fmt.Sprintf("interrupted after %d games", e.Games)
}

func (e *Interrupted) Unwrap() error { return e.Err }

// interrupted wraps err as Interrupted when ctx was cancelled.
func interrupted(ctx context.Context, err error, generation, games int) error {
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return &Interrupted{Generation: generation, Games: games, Err: err}
	}
	return err
}

// LeavesConfig configures a leave-training run (Leaves).
type LeavesConfig struct {
	// Tables are the lexicon's move-generator tables (movegen.NewTables).
	Tables *movegen.Tables
	// Dir is the run's work directory (see runrecord.WorkDir): its
	// settings, each generation's values and checkpoints go there.
	Dir string
	// Games per generation, and the number of generations.
	Games, Generations int
	// Prior is the weight of the tile-and-pair model against a leave's
	// observations (eval.LeaveStats.Table).
	Prior int
	Seed  uint64
	// Workers play games in parallel; the values do not depend on it.
	Workers int
	// Observe is "rack" (every leave the rack held gets the move's
	// equity: ObserveRackLeaves) or "next" (ObserveLeaves).
	Observe string
	// From is a leave table file generation 1 plays with; "" for zero
	// leaves, or the values kept in Dir by the run resumed.
	From string
	// AllowPartial takes a From CSV that leaves leaves out (they are worth
	// 0); without it such a file is refused (eval.ReadCSV).
	AllowPartial bool
	// Chunk is the games between checkpoints (0: DefaultChunk).
	Chunk int
	// Shard, if set, makes the run one machine's part of one generation
	// of a run spread over many: generation Generation (From holding the
	// values of the generation before, "" for zero leaves before the
	// first), only the shard's range of its chunks. Its counts stay in
	// Dir, and MergeLeaveShards adds the shards' into the generation's
	// values; Leaves returns nil.
	Shard      selfplay.Shard
	Generation int
	// Remote, if set, plays each generation not finished yet elsewhere
	// (over a work queue) instead of here: it is given the generation,
	// the values its players use (nil: zero leaves) and the settings a
	// shard of it records (ShardSettings less the shard), and returns the
	// generation's counts, those of all its chunks. Leaves keeps them as a
	// run on one machine keeps its own: the same checkpoint and values
	// files.
	Remote func(ctx context.Context, generation int, prev *eval.LeaveTable, shard runrecord.Settings) (*eval.LeaveStats, error)
	// OnEvent, if set, hears of the run's progress; Progress, if set, of
	// each game finished in a generation (done of total).
	OnEvent  func(Event)
	Progress func(generation, done, total int)
}

// ShardSettings are the settings a shard K/M of generation g of the run
// records (see LeavesConfig.Shard), where from are the values the
// generation plays with (nil: zero leaves).
func (cfg *LeavesConfig) ShardSettings(g int, from *eval.LeaveTable, shard selfplay.Shard) runrecord.Settings {
	chunk := cfg.Chunk
	if chunk <= 0 {
		chunk = DefaultChunk
	}
	s := cfg.baseSettings(from)
	s.AddDefault("chunk", chunk, DefaultChunk)
	s.Add("generation", g)
	s.Add("shard", shard)
	return s
}

// baseSettings are the settings every run records, from being the values
// begun with.
func (cfg *LeavesConfig) baseSettings(from *eval.LeaveTable) runrecord.Settings {
	s := runrecord.NewSettings("leaves train")
	s.AddLexicon(cfg.Tables.Lexicon())
	s.Add("seed", cfg.Seed)
	s.Add("games", cfg.Games)
	s.Add("prior", cfg.Prior)
	s.Add("observe", cfg.Observe)
	s.Add("from", runrecord.LeavesIdentity(from))
	return s
}

// Leaves learns leave values by self-play, generation after generation,
// writing as it goes into cfg.Dir so that a run stopped at any moment
// resumes with the same result as one uninterrupted run; a resumed run
// must have the settings it began with. It returns the last generation's
// values.
func Leaves(ctx context.Context, cfg LeavesConfig) (*eval.LeaveTable, error) {
	if cfg.Observe != "rack" && cfg.Observe != "next" {
		return nil, fmt.Errorf("train: observe %q: want rack or next", cfg.Observe)
	}
	if cfg.Chunk <= 0 {
		cfg.Chunk = DefaultChunk
	}
	if cfg.Shard.M > 0 && cfg.Generation < 1 {
		return nil, fmt.Errorf("train: a shard plays one generation: generation %d", cfg.Generation)
	}
	r := &leavesRun{cfg: cfg, games: selfplay.Config{Tables: cfg.Tables, Players: []string{"equity", "equity"}, Workers: cfg.Workers}}
	leaves, err := r.startingValues()
	if err != nil {
		return nil, err
	}
	if cfg.Shard.M > 0 {
		if _, err := r.generation(ctx, cfg.Generation, leaves); err != nil {
			return nil, interrupted(ctx, err, cfg.Generation, 0)
		}
		return nil, nil
	}
	for g := 1; g <= cfg.Generations; g++ {
		if leaves, err = r.generation(ctx, g, leaves); err != nil {
			return nil, interrupted(ctx, err, g, 0)
		}
	}
	return leaves, nil
}

type leavesRun struct {
	cfg   LeavesConfig
	games selfplay.Config
}

func (r *leavesRun) event(e Event) {
	if r.cfg.OnEvent != nil {
		r.cfg.OnEvent(e)
	}
}

// startingValues returns the values generation 1 plays with: nil (zero
// leaves), or those of From, kept in the run's directory as gen-0.leaves so
// that a resumed run goes on with them (it needs no From). Before anything
// else is written it records the run's settings, or checks them against
// those of the run resumed: the values begun with are one of them.
func (r *leavesRun) startingValues() (*eval.LeaveTable, error) {
	kept := filepath.Join(r.cfg.Dir, "gen-0.leaves")
	var start *eval.LeaveTable
	_, err := os.Stat(kept)
	hasKept := err == nil
	switch {
	case r.cfg.From != "":
		load := eval.LoadAny
		if r.cfg.AllowPartial {
			load = eval.LoadAnyPartial
		}
		if start, err = load(r.cfg.From); err != nil {
			return nil, err
		}
	case hasKept:
		if start, err = eval.LoadLeaves(kept); err != nil {
			return nil, err
		}
	}
	var s runrecord.Settings
	if r.cfg.Shard.M > 0 {
		// One generation's part: "from" is the generation before's.
		s = r.cfg.ShardSettings(r.cfg.Generation, start, r.cfg.Shard)
	} else {
		// Generation g depends only on the settings and generation g-1,
		// so a run may be resumed to go on for more generations.
		s = r.cfg.baseSettings(start)
		s.AddCount("generations", r.cfg.Generations)
	}
	// runrecord.WorkDir has refused an earlier run without resume.
	if err := runrecord.Keep(r.cfg.Dir, true, runrecord.StartedIn(r.cfg.Dir), s); err != nil {
		return nil, err
	}
	if start != nil && !hasKept {
		if err := start.Save(kept); err != nil {
			return nil, err
		}
	}
	return start, nil
}

// generation plays (or resumes, or reads back) generation g, whose players
// use prev (nil: zero leaves), and returns its leave values.
func (r *leavesRun) generation(ctx context.Context, g int, prev *eval.LeaveTable) (*eval.LeaveTable, error) {
	done := filepath.Join(r.cfg.Dir, fmt.Sprintf("gen-%d.leaves", g))
	if table, err := eval.LoadLeaves(done); err == nil {
		r.event(Event{Kind: GenerationKept, Generation: g, Path: done})
		return table, nil
	}
	prefix := fmt.Sprintf("gen-%d.", g)
	if r.cfg.Remote != nil && r.cfg.Shard.M == 0 {
		return r.remoteGeneration(ctx, g, prev, prefix, done)
	}
	stats, chunks, err := r.checkpoint(g, prefix)
	if err != nil {
		return nil, err
	}
	cfg := r.games
	for i := range cfg.Options {
		if prev != nil {
			cfg.Options[i].Leaves = prev
		}
	}
	games, chunk := r.cfg.Games, r.cfg.Chunk
	total := (games + chunk - 1) / chunk
	lo, hi := r.cfg.Shard.Range(total)
	r.event(Event{Kind: Started, Generation: g, Games: min(hi*chunk, games) - lo*chunk})
	start := time.Now()
	for c := max(chunks, lo); c < hi; c++ {
		cfg.Games = min(chunk, games-c*chunk)
		// A chunk's games depend on the seed, the generation and the chunk.
		cfg.Seed = selfplay.DealSeed(r.cfg.Seed, g<<20|c)
		base := c * chunk
		if r.cfg.Progress != nil {
			cfg.Progress = func(d, _ int) { r.cfg.Progress(g, base+d, games) }
		}
		var boot movegen.LeaveValuer
		if prev != nil {
			boot = prev
		}
		observe := ObserveRackLeaves
		if r.cfg.Observe == "next" {
			observe = ObserveLeaves
		}
		cfg.OnGame = func(_ int, rec *game.Record) { observe(stats, rec, boot) }
		if _, err := selfplay.Run(ctx, cfg); err != nil {
			return nil, err
		}
		if err := runrecord.SaveCheckpoint(r.cfg.Dir, prefix, ".stats", c+1, stats.Save); err != nil {
			return nil, err
		}
	}
	if r.cfg.Shard.M > 0 {
		// The shard's counts are its last checkpoint, for MergeLeaveShards.
		r.event(Event{Kind: Finished, Generation: g, Games: min(hi*chunk, games) - lo*chunk, Observations: stats.Observations(), Elapsed: time.Since(start)})
		return nil, nil
	}
	table := stats.Table(r.cfg.Prior)
	if err := table.Save(done); err != nil {
		return nil, err
	}
	r.event(Event{Kind: Finished, Generation: g, Games: games, Observations: stats.Observations(), Elapsed: time.Since(start)})
	return table, nil
}

// remoteGeneration has generation g played by cfg.Remote, unless its
// counts are all kept already, and keeps its counts and values as
// generation does.
func (r *leavesRun) remoteGeneration(ctx context.Context, g int, prev *eval.LeaveTable, prefix, done string) (*eval.LeaveTable, error) {
	total := (r.cfg.Games + r.cfg.Chunk - 1) / r.cfg.Chunk
	last, c, err := runrecord.LastCheckpoint(r.cfg.Dir, prefix, ".stats")
	if err != nil {
		return nil, err
	}
	r.event(Event{Kind: Started, Generation: g, Games: r.cfg.Games})
	start := time.Now()
	var stats *eval.LeaveStats
	if last != "" && c == total {
		// The counts were kept, the values not yet written.
		if stats, err = eval.LoadLeaveStats(last); err != nil {
			return nil, err
		}
	} else {
		if stats, err = r.cfg.Remote(ctx, g, prev, r.cfg.ShardSettings(g, prev, selfplay.Shard{}).Without("shard")); err != nil {
			return nil, err
		}
		if err := runrecord.SaveCheckpoint(r.cfg.Dir, prefix, ".stats", total, stats.Save); err != nil {
			return nil, err
		}
	}
	table := stats.Table(r.cfg.Prior)
	if err := table.Save(done); err != nil {
		return nil, err
	}
	r.event(Event{Kind: Finished, Generation: g, Games: r.cfg.Games, Observations: stats.Observations(), Elapsed: time.Since(start)})
	return table, nil
}

// MergeLeaveShards adds up the counts of the shards of one generation of a
// leave-training run spread over machines (LeavesConfig.Shard), each in
// its work directory, and returns the generation's values: those one
// machine playing the generation computes, exactly (the counts are
// integers). The shards must be 1 to M of the same generation of the same
// run (every other setting equal, the values played with included), each
// once and finished.
func MergeLeaveShards(dirs []string) (*eval.LeaveTable, runrecord.Settings, error) {
	stats, st, err := MergeLeaveStats(dirs)
	if err != nil {
		return nil, nil, err
	}
	prior, err := strconv.Atoi(valueOf(st, "prior"))
	if err != nil {
		return nil, nil, fmt.Errorf("merge: the settings' prior %q is not a count", valueOf(st, "prior"))
	}
	return stats.Table(prior), st, nil
}

// MergeLeaveStats is MergeLeaveShards' sum of the shards' counts, and
// their settings (less the shard).
func MergeLeaveStats(dirs []string) (*eval.LeaveStats, runrecord.Settings, error) {
	shards, err := readShards(dirs, "leaves train")
	if err != nil {
		return nil, nil, err
	}
	st := shards[0].Settings
	games, err1 := strconv.Atoi(valueOf(st, "games"))
	_, err2 := strconv.Atoi(valueOf(st, "prior"))
	g, err3 := strconv.Atoi(valueOf(st, "generation"))
	chunk, err4 := strconv.Atoi(valueOf(st, "chunk"))
	if err4 != nil {
		chunk, err4 = DefaultChunk, nil
	}
	if err := errors.Join(err1, err2, err3, err4); err != nil || games < 1 || chunk < 1 {
		return nil, nil, fmt.Errorf("merge: %s: the settings' games, prior, generation or chunk is not a count", shards[0].Dir)
	}
	total := eval.NewLeaveStats()
	nChunks := (games + chunk - 1) / chunk
	prefix := fmt.Sprintf("gen-%d.", g)
	for _, s := range shards {
		lo, hi := s.Shard.Range(nChunks)
		if lo == hi {
			continue
		}
		last, c, err := runrecord.LastCheckpoint(s.Dir, prefix, ".stats")
		if err != nil {
			return nil, nil, fmt.Errorf("merge: %w", err)
		}
		if last == "" || c != hi {
			return nil, nil, fmt.Errorf("merge: %s: shard %s has played %d of its %d chunks: resume it first", s.Dir, s.Shard, max(0, c-lo), hi-lo)
		}
		stats, err := eval.LoadLeaveStats(last)
		if err != nil {
			return nil, nil, fmt.Errorf("merge: %w", err)
		}
		total.Merge(stats)
	}
	return total, st, nil
}

// checkpoint returns generation g's statistics so far and the chunks they
// cover: the last checkpoint, or empty statistics.
func (r *leavesRun) checkpoint(g int, prefix string) (*eval.LeaveStats, int, error) {
	last, c, err := runrecord.LastCheckpoint(r.cfg.Dir, prefix, ".stats")
	if err != nil {
		return nil, 0, err
	}
	if last == "" {
		return eval.NewLeaveStats(), 0, nil
	}
	stats, err := eval.LoadLeaveStats(last)
	if err != nil {
		return nil, 0, err
	}
	r.event(Event{Kind: Resumed, Generation: g, Games: min(c*r.cfg.Chunk, r.cfg.Games)})
	return stats, c, nil
}

// Columns of the win table WinPct learns: every WinPctStep points up to
// WinPctMaxSpread. Past 300 points the player ahead has won all but a
// handful of the self-play games.
const (
	WinPctStep      = 5
	WinPctMaxSpread = 300
)

// WinPctConfig configures a win-table training run (WinPct).
type WinPctConfig struct {
	Tables  *movegen.Tables // the lexicon's (movegen.NewTables)
	Dir     string          // the run's work directory (see runrecord.WorkDir)
	Games   int
	Seed    uint64
	Workers int
	Chunk   int // games between checkpoints (0: DefaultChunk)
	// Shard, if set, plays only its range of the run's chunks
	// (selfplay.Shard.Range over the chunk count): one machine's part of
	// a run, whose counts MergeWinShards adds to the run's. WinPct then
	// returns no table (nil), only the observations.
	Shard selfplay.Shard
	// Remote, if set, plays the run's games elsewhere (over a work queue)
	// instead of here: given the settings a shard of the run records, less
	// the shard (the run's own), it returns the counts of all the run's
	// chunks. WinPct keeps them as a run on one machine keeps its own.
	Remote func(ctx context.Context, shard runrecord.Settings) (*eval.WinStats, error)
	// OnEvent and Progress, if set, hear of the run as it goes.
	OnEvent  func(Event)
	Progress func(done, total int)
}

// WinPct learns the win-probability table from self-play between two
// equity players (EquityGames), writing its counts into cfg.Dir every
// chunk so that a stopped run resumes; a resumed run must have the
// settings it began with. It returns the table and the turns observed.
func WinPct(ctx context.Context, cfg WinPctConfig) (*eval.WinPct, int64, error) {
	if cfg.Chunk <= 0 {
		cfg.Chunk = DefaultChunk
	}
	event := func(e Event) {
		if cfg.OnEvent != nil {
			cfg.OnEvent(e)
		}
	}
	games, err := EquityGames(cfg.Tables, cfg.Workers)
	if err != nil {
		return nil, 0, err
	}
	settings := runrecord.NewSettings("winpct train")
	settings.AddLexicon(cfg.Tables.Lexicon())
	settings.Add("seed", cfg.Seed)
	settings.Add("games", cfg.Games)
	leaves, _ := games.Options[0].Leaves.(*eval.LeaveTable)
	settings.Add("leaves", runrecord.LeavesIdentity(leaves))
	// The chunk size cuts the shards: a shard's counts add up to the
	// run's only with its chunks.
	settings.AddDefault("chunk", cfg.Chunk, DefaultChunk)
	settings.AddDefault("shard", cfg.Shard, "")
	// runrecord.WorkDir has refused an earlier run without resume.
	if err := runrecord.Keep(cfg.Dir, true, runrecord.StartedIn(cfg.Dir), settings); err != nil {
		return nil, 0, err
	}
	total := (cfg.Games + cfg.Chunk - 1) / cfg.Chunk
	lo, hi := cfg.Shard.Range(total)
	stats, chunks, err := winCheckpoint(cfg.Dir, cfg.Games, cfg.Chunk, lo)
	if err != nil {
		return nil, 0, err
	}
	if cfg.Remote != nil && cfg.Shard.M == 0 && chunks < total {
		event(Event{Kind: Started, Games: cfg.Games})
		start := time.Now()
		if stats, err = cfg.Remote(ctx, settings.Without("shard")); err != nil {
			return nil, 0, interrupted(ctx, err, 0, 0)
		}
		if stats.Games() != int64(cfg.Games) {
			return nil, 0, fmt.Errorf("train: the counts played elsewhere hold %d games, not the run's %d", stats.Games(), cfg.Games)
		}
		if err := runrecord.SaveCheckpoint(cfg.Dir, "", ".winstats", total, stats.Save); err != nil {
			return nil, 0, err
		}
		event(Event{Kind: Finished, Games: cfg.Games, Observations: stats.Observations(), Elapsed: time.Since(start)})
		table, err := stats.Table(WinPctStep, WinPctMaxSpread)
		if err != nil {
			return nil, 0, err
		}
		return table, stats.Observations(), nil
	}
	shardGames := min(hi*cfg.Chunk, cfg.Games) - lo*cfg.Chunk
	if chunks > lo {
		event(Event{Kind: Resumed, Games: min(chunks*cfg.Chunk, cfg.Games) - lo*cfg.Chunk})
	}
	event(Event{Kind: Started, Games: shardGames})
	start := time.Now()
	for c := max(chunks, lo); c < hi; c++ {
		games.Games = min(cfg.Chunk, cfg.Games-c*cfg.Chunk)
		// A chunk's games depend on the seed and the chunk alone.
		games.Seed = selfplay.DealSeed(cfg.Seed, c)
		base := c * cfg.Chunk
		if cfg.Progress != nil {
			games.Progress = func(d, _ int) { cfg.Progress(base-lo*cfg.Chunk+d, shardGames) }
		}
		chunk := eval.NewWinStats()
		games.OnGame = func(_ int, rec *game.Record) { ObserveWins(chunk, rec) }
		if _, err := selfplay.Run(ctx, games); err != nil {
			return nil, 0, interrupted(ctx, err, 0, base)
		}
		stats.Merge(chunk)
		if err := runrecord.SaveCheckpoint(cfg.Dir, "", ".winstats", c+1, stats.Save); err != nil {
			return nil, 0, err
		}
	}
	event(Event{Kind: Finished, Games: shardGames, Observations: stats.Observations(), Elapsed: time.Since(start)})
	if cfg.Shard.M > 0 {
		return nil, stats.Observations(), nil // the counts are in cfg.Dir, for MergeWinShards
	}
	table, err := stats.Table(WinPctStep, WinPctMaxSpread)
	if err != nil {
		return nil, 0, err
	}
	return table, stats.Observations(), nil
}

// winCheckpoint returns the counts so far and the chunks they cover: the
// last checkpoint, or empty counts.
// The counts of a shard starting at chunk lo cover chunks lo to c-1.
func winCheckpoint(work string, games, chunk, lo int) (*eval.WinStats, int, error) {
	last, c, err := runrecord.LastCheckpoint(work, "", ".winstats")
	if err != nil {
		return nil, 0, err
	}
	if last == "" {
		return eval.NewWinStats(), 0, nil
	}
	stats, err := eval.LoadWinStats(last)
	if err != nil {
		return nil, 0, err
	}
	if want := min(c*chunk, games) - lo*chunk; c <= lo || stats.Games() != int64(want) {
		return nil, 0, fmt.Errorf("%s holds %d games, not the %d of its chunks %d to %d: is it from a run with another --games?", last, stats.Games(), want, lo, c-1)
	}
	return stats, c, nil
}

// Shard is a shard of a training run, as the merges read it from its
// work directory.
type Shard struct {
	Dir      string
	Shard    selfplay.Shard
	Settings runrecord.Settings // less the shard
}

// MergeWinShards adds up the counts of the shards of one winpct training
// run (WinPctConfig.Shard), each in its work directory, and returns the
// run's table and turns observed: those one machine playing the whole run
// computes, exactly (the counts are integers). The shards must be 1 to M of
// the same run (every other setting equal), each once and finished.
func MergeWinShards(dirs []string) (*eval.WinPct, int64, runrecord.Settings, error) {
	total, st, err := MergeWinStats(dirs)
	if err != nil {
		return nil, 0, nil, err
	}
	table, err := total.Table(WinPctStep, WinPctMaxSpread)
	if err != nil {
		return nil, 0, nil, err
	}
	return table, total.Observations(), st, nil
}

// MergeWinStats is MergeWinShards' sum of the shards' counts, and their
// settings (less the shard).
func MergeWinStats(dirs []string) (*eval.WinStats, runrecord.Settings, error) {
	shards, err := readShards(dirs, "winpct train")
	if err != nil {
		return nil, nil, err
	}
	total := eval.NewWinStats()
	games, err1 := strconv.Atoi(valueOf(shards[0].Settings, "games"))
	chunk, err2 := strconv.Atoi(valueOf(shards[0].Settings, "chunk"))
	if err2 != nil {
		chunk, err2 = DefaultChunk, nil
	}
	if err1 != nil || games < 1 || chunk < 1 {
		return nil, nil, fmt.Errorf("merge: %s: games %q and chunk are not counts", shards[0].Dir, valueOf(shards[0].Settings, "games"))
	}
	nChunks := (games + chunk - 1) / chunk
	for _, s := range shards {
		lo, hi := s.Shard.Range(nChunks)
		if lo == hi {
			continue // a shard with no chunk of its own
		}
		stats, c, err := winCheckpoint(s.Dir, games, chunk, lo)
		if err != nil {
			return nil, nil, fmt.Errorf("merge: %w", err)
		}
		if c != hi {
			return nil, nil, fmt.Errorf("merge: %s: shard %s has played %d of its %d chunks: resume it first", s.Dir, s.Shard, max(0, c-lo), hi-lo)
		}
		total.Merge(stats)
	}
	return total, shards[0].Settings, nil
}

// valueOf is a setting's value, "" when there is none.
func valueOf(s runrecord.Settings, name string) string {
	v, _ := s.Get(name)
	return v
}

// EquityGames is the self-play the win table learns from and is checked
// against: two equity players with the lexicon's built-in leave values
// (zero leaves if it has none).
func EquityGames(tables *movegen.Tables, workers int) (selfplay.Config, error) {
	lex := tables.Lexicon()
	cfg := selfplay.Config{Tables: tables, Players: []string{"equity", "equity"}, Workers: workers}
	leaves, err := eval.DefaultLeaves(lex.Header().Name)
	if err != nil {
		return cfg, err
	}
	if leaves != nil {
		cfg.Options = [rules.MaxPlayers]selfplay.PlayerOptions{{Leaves: leaves}, {Leaves: leaves}}
	}
	return cfg, nil
}

// readShards reads the settings of the work directories of the shards of
// one run of command, and checks they are shards 1 to M of it, each once.
func readShards(dirs []string, command string) ([]Shard, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: no shard directories")
	}
	var shards []Shard
	seen := map[int]string{}
	for _, dir := range dirs {
		st, err := runrecord.ReadSettings(dir)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		if c, _ := st.Get("command"); c != command {
			return nil, fmt.Errorf("merge: %s is the work directory of a %q run, not %s", dir, c, command)
		}
		v, ok := st.Get("shard")
		if !ok {
			return nil, fmt.Errorf("merge: %s is not a shard (%s --shard K/M)", dir, command)
		}
		sh, err := selfplay.ParseShard(v)
		if err != nil {
			return nil, fmt.Errorf("merge: %s: %w", dir, err)
		}
		rest := st.Without("shard")
		if len(shards) > 0 {
			if same, diff := shards[0].Settings.Equal(rest); !same {
				return nil, fmt.Errorf("merge: %s is a shard of another run than %s: %s", dir, shards[0].Dir, diff)
			}
			if sh.M != shards[0].Shard.M {
				return nil, fmt.Errorf("merge: %s is shard %s, %s shard %s", dir, sh, shards[0].Dir, shards[0].Shard)
			}
		}
		if other, dup := seen[sh.K]; dup {
			return nil, fmt.Errorf("merge: %s and %s are both shard %s", other, dir, sh)
		}
		seen[sh.K] = dir
		shards = append(shards, Shard{dir, sh, rest})
	}
	if m := shards[0].Shard.M; len(shards) != m {
		return nil, fmt.Errorf("merge: %d of the %d shards given: a run of %d shards needs all of them", len(shards), m, m)
	}
	return shards, nil
}
