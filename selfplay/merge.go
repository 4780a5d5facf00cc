package selfplay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"scrabble/internal/atomicfile"
	"scrabble/internal/readlimit"
	"scrabble/internal/runrecord"
)

// Shard is part K of M of a run's games (K from 1 to M); the zero Shard is
// the whole run. A game's result depends only on the run's settings and its
// number, so M machines each playing one shard, then Merge, give the games
// one machine would have played.
type Shard struct{ K, M int }

// ParseShard reads "K/M".
func ParseShard(s string) (Shard, error) {
	k, m, ok := strings.Cut(s, "/")
	sh := Shard{}
	var err1, err2 error
	sh.K, err1 = strconv.Atoi(k)
	sh.M, err2 = strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want K/M, such as 2/8 (part 2 of 8)", s)
	}
	if err := sh.check(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

func (s Shard) check() error {
	if s == (Shard{}) {
		return nil
	}
	if s.M < 1 || s.K < 1 || s.K > s.M {
		return fmt.Errorf("shard %d/%d: want K/M with 1 <= K <= M", s.K, s.M)
	}
	return nil
}

func (s Shard) String() string {
	if s.M == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.M)
}

// Range returns the games of the shard in a run of games games: from lo to
// hi-1, the K-th of M ranges as equal as can be.
func (s Shard) Range(games int) (lo, hi int) {
	if s.M == 0 {
		return 0, games
	}
	return (s.K - 1) * games / s.M, s.K * games / s.M
}

// Holds says whether game i is in the shard.
func (s Shard) Holds(i, games int) bool {
	lo, hi := s.Range(games)
	return i >= lo && i < hi
}

// Merged is what Merge put together.
type Merged struct {
	Settings runrecord.Settings // the run's, without the shard
	Shards   int
	Results  []GameResult // every game, by number
}

// Merge puts the shards of one run, each in a directory written by a
// sharded run (Config.Shard and Dir), together in out: results.jsonl with
// every game's line in game order, every game's GCG file, and the run's
// settings less the shard, so out is the directory of the whole run, as one
// machine would have written it (its results in game order). The shards
// must be 1 to M of the same run, each once, every one finished: shards of
// other settings, a shard missing or given twice, and a game missing,
// doubled or outside its shard are errors. A directory of an unsharded run
// is shard 1/1. out must not hold results yet.
func Merge(out string, dirs []string) (*Merged, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: no shard directories")
	}
	type shardDir struct {
		dir   string
		shard Shard
	}
	var (
		base  runrecord.Settings
		games int
		seen  = map[int]string{} // shard K -> its directory
		parts []shardDir
	)
	for _, dir := range dirs {
		st, err := runrecord.ReadSettings(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("merge: %s has no %s: not the directory of a self-play run (--out)", dir, runrecord.SettingsFile)
			}
			return nil, fmt.Errorf("merge: %w", err)
		}
		if c, _ := st.Get("command"); c != "selfplay" {
			return nil, fmt.Errorf("merge: %s is the directory of a %q run, not a self-play run", dir, c)
		}
		sh := Shard{K: 1, M: 1}
		if v, ok := st.Get("shard"); ok {
			if sh, err = ParseShard(v); err != nil {
				return nil, fmt.Errorf("merge: %s: %w", dir, err)
			}
		}
		rest := st.Without("shard")
		if base == nil {
			base = rest
			g, _ := rest.Get("games")
			if games, err = strconv.Atoi(g); err != nil || games < 0 {
				return nil, fmt.Errorf("merge: %s: games %q is not a count", dir, g)
			}
		} else if same, diff := base.Equal(rest); !same {
			return nil, fmt.Errorf("merge: %s is a shard of another run than %s: %s", dir, parts[0].dir, diff)
		}
		if len(parts) > 0 && sh.M != parts[0].shard.M {
			return nil, fmt.Errorf("merge: %s is shard %s, %s shard %s: the shards of one run have one M", dir, sh, parts[0].dir, parts[0].shard)
		}
		if other, dup := seen[sh.K]; dup {
			return nil, fmt.Errorf("merge: %s and %s are both shard %s", other, dir, sh)
		}
		seen[sh.K] = dir
		parts = append(parts, shardDir{dir, sh})
	}
	if m := parts[0].shard.M; len(parts) != m {
		var missing []string
		for k := 1; k <= m; k++ {
			if _, ok := seen[k]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", k, m))
			}
		}
		return nil, fmt.Errorf("merge: shard %s missing: a run of %d shards needs all of them", strings.Join(missing, ", "), m)
	}

	lines := make([][]byte, games)
	results := make([]GameResult, games)
	from := make([]string, games)
	for _, p := range parts {
		path := filepath.Join(p.dir, ResultsFile)
		data, err := readlimit.ReadFile(path, readlimit.Results, "a results file")
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		lo, hi := p.shard.Range(games)
		for n, line := range bytes.SplitAfter(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if line[len(line)-1] != '\n' {
				return nil, fmt.Errorf("merge: %s, line %d: cut short (the run was interrupted): resume shard %s first", path, n+1, p.shard)
			}
			var r GameResult
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				return nil, fmt.Errorf("merge: %s, line %d: %w", path, n+1, err)
			}
			switch {
			case r.Game < lo || r.Game >= hi:
				return nil, fmt.Errorf("merge: %s, line %d: game %d is not in shard %s (games %d to %d)", path, n+1, r.Game, p.shard, lo, hi-1)
			case lines[r.Game] != nil:
				return nil, fmt.Errorf("merge: %s, line %d: game %d appears twice", path, n+1, r.Game)
			}
			lines[r.Game], results[r.Game], from[r.Game] = line, r, p.dir
		}
		var missing []int
		for i := lo; i < hi; i++ {
			if lines[i] == nil {
				missing = append(missing, i)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("merge: %s: shard %s lacks %d of its %d games (%s): resume it first", p.dir, p.shard, len(missing), hi-lo, gameList(missing))
		}
	}

	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	resultsPath := filepath.Join(out, ResultsFile)
	if fi, err := os.Stat(resultsPath); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("merge: %s already holds results: merge into another directory", resultsPath)
	}
	for i := range games {
		name := GCGName(i)
		if err := copyFile(filepath.Join(from[i], name), filepath.Join(out, name)); err != nil {
			return nil, fmt.Errorf("merge: game %d: %w", i, err)
		}
	}
	// The results last: a merge cut short leaves no results file, so it
	// is run again, not taken for a whole run.
	if err := base.Write(out); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	f, err := atomicfile.Create(resultsPath, atomicfile.Options{Perm: 0o644, Sync: true})
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	for _, l := range lines {
		if _, err := f.Write(l); err != nil {
			f.Abort()
			return nil, fmt.Errorf("merge: writing %s: %w", resultsPath, err)
		}
	}
	if err := f.Commit(); err != nil {
		return nil, fmt.Errorf("merge: writing %s: %w", resultsPath, err)
	}
	return &Merged{Settings: base, Shards: len(parts), Results: results}, nil
}

// copyFile copies src to dst (atomically: a copy cut short is not left).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := atomicfile.Create(dst, atomicfile.Options{Perm: 0o644})
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Abort()
		return err
	}
	return out.Commit()
}

// gameList names some games: "3, 7, 9 and 12 more".
func gameList(gs []int) string {
	var s []string
	for _, g := range gs[:min(len(gs), 5)] {
		s = append(s, strconv.Itoa(g))
	}
	if len(gs) > 5 {
		return strings.Join(s, ", ") + fmt.Sprintf(" and %d more", len(gs)-5)
	}
	return strings.Join(s, ", ")
}
