// Package runrecord keeps what a long, resumable run (self-play, leave and
// win-table training) needs to stop and go on: the record of the settings
// it began with, checked on resume so that a run never mixes the work of
// two different ones, and its checkpoint files, written every chunk of
// games so that an interrupted run loses at most one chunk.
package runrecord

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/internal/atomicfile"
	"scrabble/internal/readlimit"
	"scrabble/internal/runlock"
)

// WorkDir makes the work directory of a training run writing out
// (out + ".train") and locks it (see runlock) for the life of the run: the
// caller releases the lock when the run ends. A directory another run
// holds is an error, and so is one that holds an earlier run's work
// unless resume. Temporary files a killed run left are removed.
func WorkDir(out string, resume bool) (string, *runlock.Lock, error) {
	work := out + ".train"
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", nil, err
	}
	lock, err := runlock.Acquire(work)
	if err != nil {
		return "", nil, err
	}
	// Checkpoints half written when an earlier run was killed (the
	// lock says no other run is writing here; the files' own locks are
	// checked as well): no work of the run's.
	atomicfile.RemoveStale(work, atomicfile.RunPattern)
	if StartedIn(work) && !resume {
		lock.Release()
		return "", nil, fmt.Errorf("%s holds an earlier run: continue it with --resume, or remove it", work)
	}
	return work, lock, nil
}

// StartedIn reports whether a run's work directory holds any of its work
// (anything besides the record of its settings and the run's lock file).
func StartedIn(work string) bool {
	entries, _ := os.ReadDir(work)
	for _, e := range entries {
		if e.Name() != SettingsFile && e.Name() != runlock.File && !strings.HasPrefix(e.Name(), "."+SettingsFile+".tmp") {
			return true
		}
	}
	return false
}

// LastCheckpoint returns the checkpoint covering the most chunks and their
// number; path is "" when there is none.
func LastCheckpoint(dir, prefix, ext string) (path string, chunks int, err error) {
	files, _ := filepath.Glob(filepath.Join(dir, prefix+"c*"+ext))
	if len(files) == 0 {
		return "", 0, nil
	}
	sort.Strings(files) // chunk numbers are zero-padded
	last := files[len(files)-1]
	if _, err := fmt.Sscanf(filepath.Base(last)[len(prefix):], "c%06d"+ext, &chunks); err != nil {
		return "", 0, fmt.Errorf("%s: cannot tell which games it covers", last)
	}
	return last, chunks, nil
}

// SaveCheckpoint writes the checkpoint after chunks chunks with save, then
// removes the older ones (the new one is complete before the old go).
func SaveCheckpoint(dir, prefix, ext string, chunks int, save func(path string) error) error {
	path := filepath.Join(dir, fmt.Sprintf("%sc%06d%s", prefix, chunks, ext))
	if err := save(path); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, prefix+"c*"+ext))
	for _, o := range old {
		if o != path {
			os.Remove(o)
		}
	}
	return nil
}

// SettingsFile is the file in a resumable run's directory recording the
// settings the run began with: a resumed run must have the same ones, or it
// would mix games or counts of two different runs.
const SettingsFile = "settings.json"

// setting is one setting that changes what a resumable run computes
// (the thread count does not, so it is not one).
type setting struct {
	name, value string
	// canGrow marks a count the run may be resumed with more of (never
	// fewer), because its results stay those of one uninterrupted run.
	canGrow bool
	// dflt, when hasDflt, is the value of a setting added after runs were
	// recorded without it: a record without it has this value, and a
	// run with this value does not record it (so its record is the one
	// an older version wrote).
	dflt    string
	hasDflt bool
}

// Settings are a run's settings, in the order they are checked.
type Settings []setting

// NewSettings starts the settings with the command: two commands may
// share a directory (FILE.train).
func NewSettings(command string) Settings {
	return Settings{{name: "command", value: command}}
}

func (s *Settings) Add(name string, value any) {
	*s = append(*s, setting{name: name, value: fmt.Sprint(value)})
}

// AddDefault adds a setting that a record may lack, meaning dflt: one
// added after runs were recorded without it. It is recorded only when its
// value is not dflt.
func (s *Settings) AddDefault(name string, value, dflt any) {
	*s = append(*s, setting{name: name, value: fmt.Sprint(value), dflt: fmt.Sprint(dflt), hasDflt: true})
}

func (s *Settings) AddCount(name string, n int) {
	*s = append(*s, setting{name: name, value: strconv.Itoa(n), canGrow: true})
}

// AddLexicon records the lexicon by its name and its word list: a list
// reinstalled under the same name plays other games.
func (s *Settings) AddLexicon(lex *gaddag.GADDAG) {
	h := lex.Header()
	s.Add("lexicon", h.Name)
	s.Add("lexicon words", h.WordCount)
	s.Add("lexicon sha256", hex.EncodeToString(h.SourceSHA256[:]))
}

// LeavesIdentity names a leave table by its values, whatever file they
// came from: "none" (every leave worth 0) or a digest of the binary form.
func LeavesIdentity(t *eval.LeaveTable) string {
	if t == nil {
		return "none"
	}
	h := sha256.New()
	t.WriteTo(h) // writing to a hash cannot fail
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// MarshalJSON writes the settings as one object, in their order.
func (s Settings) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	s = slices.DeleteFunc(slices.Clone(s), func(st setting) bool { return st.hasDflt && st.value == st.dflt })
	for i, st := range s {
		k, _ := json.Marshal(st.name)
		v, _ := json.Marshal(st.value)
		fmt.Fprintf(&b, "  %s: %s", k, v)
		if i < len(s)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// Keep records the settings of a run in dir, or checks those of a
// resumed one against the record: any that differs is an error naming it,
// its recorded value and the new one. started says whether dir already
// holds the run's work: one without a record (from before the record was
// kept) cannot be checked, so it is refused, and one with no work yet
// starts afresh, its record rewritten. A count grown on resume is recorded
// anew.
func Keep(dir string, resume, started bool, now Settings) error {
	if started && !resume {
		return fmt.Errorf("%s holds an earlier run: continue it with --resume, or remove it", dir)
	}
	path := filepath.Join(dir, SettingsFile)
	data, err := readlimit.ReadFile(path, readlimit.Config, "a run's settings file")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if started {
			return fmt.Errorf("%s: cannot resume: it has no %s (a run from an older version of scrabble), so its settings cannot be checked; remove it to start afresh", dir, SettingsFile)
		}
		return writeSettings(path, now)
	case err != nil:
		return fmt.Errorf("%s: cannot resume: %w", dir, err)
	case !started:
		// Nothing done yet, so nothing to mix: the run starts afresh.
		return writeSettings(path, now)
	}
	var was map[string]string
	if err := json.Unmarshal(data, &was); err != nil {
		return fmt.Errorf("%s: cannot resume: %s is damaged: %w", dir, path, err)
	}
	grown := false
	for _, st := range now {
		old, ok := was[st.name]
		where := "recorded in " + path
		if !ok && st.hasDflt {
			old, ok = st.dflt, true
			where = "the default: " + path + " does not record it"
		}
		switch {
		case !ok:
			return fmt.Errorf("%s: cannot resume: %s does not record %s (now %s)", dir, path, st.name, st.value)
		case old == st.value:
			continue
		case st.canGrow:
			o, err1 := strconv.Atoi(old)
			n, err2 := strconv.Atoi(st.value)
			if err1 == nil && err2 == nil && n > o {
				grown = true
				continue
			}
			if err1 == nil && err2 == nil {
				return fmt.Errorf("%s: cannot resume: %s was %s (recorded in %s), now %s: a resumed run can go on to more, not fewer", dir, st.name, old, path, st.value)
			}
		}
		return fmt.Errorf("%s: cannot resume: %s was %s (%s), now %s", dir, st.name, old, where, st.value)
	}
	for name := range was {
		if !slices.ContainsFunc(now, func(st setting) bool { return st.name == name }) {
			return fmt.Errorf("%s: cannot resume: %s records %s, a setting this run does not have", dir, path, name)
		}
	}
	if grown {
		return writeSettings(path, now)
	}
	return nil
}

// writeSettings writes the record atomically: a crash leaves the old one or
// the new one, never part of one.
func writeSettings(path string, s Settings) error {
	data, _ := s.MarshalJSON()
	// The temporary file's name, ".settings.json.tmp*", is one startedIn
	// knows is no work of the run's.
	tmp, err := atomicfile.Create(path, atomicfile.Options{Perm: 0o644, Sync: true})
	if err != nil {
		return fmt.Errorf("recording the run's settings: %w", err)
	}
	if _, err = tmp.Write(data); err != nil {
		tmp.Abort()
	} else {
		err = tmp.Commit()
	}
	if err != nil {
		return fmt.Errorf("recording the run's settings in %s: %w", path, err)
	}
	return nil
}

// ReadSettings reads the settings recorded in dir, in their order.
func ReadSettings(dir string) (Settings, error) {
	path := filepath.Join(dir, SettingsFile)
	data, err := readlimit.ReadFile(path, readlimit.Config, "a run's settings file")
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	bad := func(err error) (Settings, error) {
		return nil, fmt.Errorf("%s: not a run's settings: %w", path, err)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return bad(fmt.Errorf("want a JSON object"))
	}
	var s Settings
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return bad(fmt.Errorf("setting %v: %w", k, err))
		}
		name := k.(string)
		if slices.ContainsFunc(s, func(st setting) bool { return st.name == name }) {
			return bad(fmt.Errorf("setting %q twice", name))
		}
		s = append(s, setting{name: name, value: v})
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return bad(fmt.Errorf("want the end of the object"))
	}
	return s, nil
}

// Get returns the value of the setting named name, and whether there is one.
func (s Settings) Get(name string) (string, bool) {
	for _, st := range s {
		if st.name == name {
			return st.value, true
		}
	}
	return "", false
}

// Without returns the settings less the one named name.
func (s Settings) Without(name string) Settings {
	return slices.DeleteFunc(slices.Clone(s), func(st setting) bool { return st.name == name })
}

// Equal says whether s and t hold the same settings with the same values,
// in the same order, and if not names the first difference.
func (s Settings) Equal(t Settings) (bool, string) {
	for i := range max(len(s), len(t)) {
		switch {
		case i >= len(s):
			return false, fmt.Sprintf("%s is not in the first", t[i].name)
		case i >= len(t):
			return false, fmt.Sprintf("%s is not in the second", s[i].name)
		case s[i].name != t[i].name:
			return false, fmt.Sprintf("%s where the first has %s", t[i].name, s[i].name)
		case s[i].value != t[i].value:
			return false, fmt.Sprintf("%s %s against %s", s[i].name, s[i].value, t[i].value)
		}
	}
	return true, ""
}

// Write records s in dir, atomically.
func (s Settings) Write(dir string) error {
	return writeSettings(filepath.Join(dir, SettingsFile), s)
}
