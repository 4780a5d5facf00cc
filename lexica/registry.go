package lexica

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"scrabble/gaddag"
	"scrabble/internal/atomicfile"
)

// Layout of the data directory.
const (
	lexicaSubdir = "lexica"          // installed lexica: <NAME>.gaddag
	cacheSubdir  = "cache"           // compiled word lists: <sha256hex>.gaddag
	defaultFile  = "default-lexicon" // name of the default lexicon, one line
	gaddagExt    = ".gaddag"
	tablesExt    = ".tables" // movegen's tables of a lexicon, beside it (movegen.TablesPath)

	maxNameLength = 64
)

// Registry manages the compiled lexica in a data directory:
//
//	<Dir>/lexica/<NAME>.gaddag    installed lexica
//	<Dir>/cache/<sha256>.gaddag   word lists compiled on first use
//	<Dir>/default-lexicon         the default lexicon's name
//
// Names keep the spelling they were added with but match case-insensitively.
type Registry struct {
	// Dir is the data directory; it is created when first written to.
	Dir string
	// SharedDir, when set, holds word lists <NAME>.txt that Resolve compiles
	// on demand (from SCRABBLE_LEXICA_DIR in NewRegistry).
	SharedDir string
	// Progress, when set, is told each stage of a compilation ("reading",
	// "compiling", "writing").
	Progress func(stage string)
	// Warn, when set, is told (once per Registry) that a compiled word
	// list could not be cached: a read-only data directory, a full disk.
	// The lexicon compiled is used all the same.
	Warn func(msg string)
	// Loading, when set, is told the path of each compiled lexicon Resolve
	// is about to load, so the caller can start reading what it keeps
	// beside it (movegen's tables) meanwhile.
	Loading func(path string)

	warnOnce sync.Once
}

// NewRegistry returns the registry over dir, with SharedDir taken from the
// environment variable SCRABBLE_LEXICA_DIR.
func NewRegistry(dir string) *Registry {
	return &Registry{Dir: dir, SharedDir: os.Getenv("SCRABBLE_LEXICA_DIR")}
}

// Info describes an installed lexicon.
type Info struct {
	Name         string    // as spelled when added
	Path         string    // the compiled file
	Words        int       // words in the lexicon
	Nodes        int       // arcs in the GADDAG
	Size         int64     // file size in bytes
	SourceSHA256 [32]byte  // sha256 of the word list it was compiled from
	BuiltAt      time.Time // when it was compiled (UTC)
	Default      bool      // whether it is the default lexicon
	// Err is set by List for a file that could not be loaded; the other
	// fields but Name, Path and Size are then zero.
	Err error
}

// ValidName reports whether name can name an installed lexicon: 1 to 64
// letters, digits, '-' or '_'.
func ValidName(name string) bool {
	if name == "" || len(name) > maxNameLength {
		return false
	}
	for _, c := range name {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

func checkName(name string) error {
	if !ValidName(name) {
		return fmt.Errorf("invalid lexicon name %q: use 1 to %d letters, digits, '-' or '_'", name, maxNameLength)
	}
	return nil
}

func (r *Registry) dir() (string, error) {
	if r.Dir == "" {
		return "", errors.New("no data directory set")
	}
	return r.Dir, nil
}

// installedPath returns the file of the installed lexicon matching name
// case-insensitively, with the name as spelled on disk; ok is false when none
// is installed.
func (r *Registry) installedPath(name string) (path, spelled string, ok bool, err error) {
	dir, err := r.dir()
	if err != nil {
		return "", "", false, err
	}
	names, err := r.installedNames()
	if err != nil {
		return "", "", false, err
	}
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return filepath.Join(dir, lexicaSubdir, n+gaddagExt), n, true, nil
		}
	}
	return "", "", false, nil
}

// installedNames lists the installed lexica, sorted case-insensitively.
func (r *Registry) installedNames() ([]string, error) {
	dir, err := r.dir()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(dir, lexicaSubdir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing lexica: %w", err)
	}
	var names []string
	for _, e := range entries {
		n, ok := strings.CutSuffix(e.Name(), gaddagExt)
		if ok && e.Type().IsRegular() && ValidName(n) {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		return strings.Compare(strings.ToUpper(a), strings.ToUpper(b))
	})
	return names, nil
}

func (r *Registry) stage(s string) {
	if r.Progress != nil {
		r.Progress(s)
	}
}

// compile reads a word list and builds its GADDAG named name.
func (r *Registry) compile(name, wordListPath string) (*gaddag.GADDAG, error) {
	r.stage("reading")
	wl, err := ReadWordList(wordListPath)
	if err != nil {
		return nil, err
	}
	return r.compileList(name, wordListPath, wl)
}

func (r *Registry) compileList(name, wordListPath string, wl *WordList) (*gaddag.GADDAG, error) {
	r.stage("compiling")
	g, err := gaddag.Build(name, wl.Words, wl.SHA256)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", wordListPath, err)
	}
	return g, nil
}

// removeStale removes the temporary files of compiled lexica and of the
// default's record that a process killed mid-write left in dir (a
// compiled lexicon's is megabytes); a live writer's are kept (see
// atomicfile.RemoveStale). It is a courtesy: a failure is not an error.
func removeStale(dir string) {
	atomicfile.RemoveStale(dir, ".tmp-*"+gaddagExt, ".tmp-default-*")
}

// writeAtomic saves g to path through a temporary file in the same
// directory, so readers never see a partial file.
func writeAtomic(path string, g *gaddag.GADDAG) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	removeStale(filepath.Dir(path))
	// Save records the path in g, where movegen's tables are stored beside it.
	return g.Save(path)
}

// Add compiles the word list at wordListPath and installs it as name,
// replacing any lexicon of that name (matched case-insensitively). The first
// lexicon installed while no default is set becomes the default.
func (r *Registry) Add(name, wordListPath string) (Info, error) {
	if err := checkName(name); err != nil {
		return Info{}, err
	}
	dir, err := r.dir()
	if err != nil {
		return Info{}, err
	}
	g, err := r.compile(name, wordListPath)
	if err != nil {
		return Info{}, err
	}
	r.stage("writing")
	removeStale(dir) // the default's record (writeAtomic cleans the lexica's directory)
	oldPath, _, exists, err := r.installedPath(name)
	if err != nil {
		return Info{}, err
	}
	path := filepath.Join(dir, lexicaSubdir, name+gaddagExt)
	if err := writeAtomic(path, g); err != nil {
		return Info{}, fmt.Errorf("installing %s: %w", name, err)
	}
	if exists && oldPath != path {
		// Same name in another spelling: the new spelling wins. On a
		// case-insensitive file system both paths are the same file.
		if same, _ := sameFile(oldPath, path); !same {
			if err := os.Remove(oldPath); err != nil {
				return Info{}, err
			}
		}
	}
	def, err := r.Default()
	if err != nil {
		return Info{}, err
	}
	if def == "" || strings.EqualFold(def, name) {
		if err := r.writeDefault(name); err != nil {
			return Info{}, err
		}
	}
	return r.info(name, path, g)
}

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// info describes the installed lexicon at path.
func (r *Registry) info(name, path string, g *gaddag.GADDAG) (Info, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Info{}, err
	}
	def, err := r.Default()
	if err != nil {
		return Info{}, err
	}
	h := g.Header()
	return Info{
		Name:         name,
		Path:         path,
		Words:        h.WordCount,
		Nodes:        h.Nodes,
		Size:         st.Size(),
		SourceSHA256: h.SourceSHA256,
		BuiltAt:      h.BuiltAt,
		Default:      strings.EqualFold(def, name),
	}, nil
}

// List describes every installed lexicon, sorted by name. A file that cannot
// be loaded is listed with Err set rather than failing the whole list.
func (r *Registry) List() ([]Info, error) {
	names, err := r.installedNames()
	if err != nil {
		return nil, err
	}
	def, err := r.Default()
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(names))
	for _, n := range names {
		path := filepath.Join(r.Dir, lexicaSubdir, n+gaddagExt)
		g, err := gaddag.Load(path)
		if err != nil {
			inf := Info{Name: n, Path: path, Default: strings.EqualFold(def, n), Err: err}
			if st, serr := os.Stat(path); serr == nil {
				inf.Size = st.Size()
			}
			out = append(out, inf)
			continue
		}
		inf, err := r.info(n, path, g)
		if err != nil {
			return nil, err
		}
		out = append(out, inf)
	}
	return out, nil
}

// Info describes the installed lexicon name.
func (r *Registry) Info(name string) (Info, error) {
	path, spelled, err := r.mustFind(name)
	if err != nil {
		return Info{}, err
	}
	g, err := gaddag.Load(path)
	if err != nil {
		return Info{}, fmt.Errorf("lexicon %s: %w", spelled, err)
	}
	return r.info(spelled, path, g)
}

// mustFind locates an installed lexicon or explains that it is not installed.
func (r *Registry) mustFind(name string) (path, spelled string, err error) {
	if err := checkName(name); err != nil {
		return "", "", err
	}
	path, spelled, ok, err := r.installedPath(name)
	if err != nil {
		return "", "", err
	}
	if !ok {
		return "", "", r.notInstalled(name)
	}
	return path, spelled, nil
}

// notInstalled explains that name is not installed and what is.
func (r *Registry) notInstalled(name string) error {
	names, _ := r.installedNames()
	installed := "none"
	if len(names) > 0 {
		installed = strings.Join(names, ", ")
	}
	return fmt.Errorf("lexicon %q is not installed (installed: %s); add one with: scrabble lexicon add NAME FILE", name, installed)
}

// Remove uninstalls name; removing the default leaves no default set.
func (r *Registry) Remove(name string) error {
	path, spelled, err := r.mustFind(name)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	// The move generator's tables stored beside it (movegen.TablesPath).
	if err := os.Remove(strings.TrimSuffix(path, gaddagExt) + tablesExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	def, err := r.Default()
	if err != nil {
		return err
	}
	if strings.EqualFold(def, spelled) {
		if err := os.Remove(filepath.Join(r.Dir, defaultFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// SetDefault makes the installed lexicon name the default.
func (r *Registry) SetDefault(name string) error {
	_, spelled, err := r.mustFind(name)
	if err != nil {
		return err
	}
	return r.writeDefault(spelled)
}

func (r *Registry) writeDefault(name string) error {
	dir, err := r.dir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	removeStale(dir)
	return atomicfile.Write(filepath.Join(dir, defaultFile), atomicfile.Options{Pattern: ".tmp-default-*", Perm: 0o644, Sync: true}, func(w io.Writer) error {
		_, err := io.WriteString(w, name+"\n")
		return err
	})
}

// Default returns the default lexicon's name, or "" when none is set.
func (r *Registry) Default() (string, error) {
	dir, err := r.dir()
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(filepath.Join(dir, defaultFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading default lexicon: %w", err)
	}
	name, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(name), nil
}

// ErrNoDefault is returned by Resolve("") when no default lexicon is set.
var ErrNoDefault = errors.New("no default lexicon: run `make` to install SOWPODS, or install one with `scrabble lexicon add NAME FILE --default`")

// Resolve loads the lexicon that nameOrPath designates:
//
//   - "": the default lexicon;
//   - an existing file, or a value containing a path separator or ending in
//     .txt: a word list, compiled on first use and cached under the sha256 of
//     its contents (re-used while the file is unchanged);
//   - the name of an installed lexicon (case-insensitive);
//   - else, when SharedDir is set and holds <NAME>.txt, that word list,
//     compiled into the cache.
func (r *Registry) Resolve(nameOrPath string) (*gaddag.GADDAG, error) {
	if nameOrPath == "" {
		def, err := r.Default()
		if err != nil {
			return nil, err
		}
		if def == "" {
			return nil, ErrNoDefault
		}
		path, _, ok, err := r.installedPath(def)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("default lexicon %q is not installed: set another with `scrabble lexicon default NAME`, or install it with `scrabble lexicon add %s FILE`", def, def)
		}
		return r.loadInstalled(def, path)
	}
	if looksLikePath(nameOrPath) {
		return r.compileCached(nameOrPath)
	}
	if !ValidName(nameOrPath) {
		return nil, fmt.Errorf("%q is neither a lexicon name (letters, digits, '-', '_') nor an existing word-list file", nameOrPath)
	}
	path, spelled, ok, err := r.installedPath(nameOrPath)
	if err != nil {
		return nil, err
	}
	if ok {
		return r.loadInstalled(spelled, path)
	}
	if r.SharedDir != "" {
		if p, ok := findFold(r.SharedDir, nameOrPath+".txt"); ok {
			return r.compileCached(p)
		}
	}
	err = r.notInstalled(nameOrPath)
	if r.SharedDir != "" {
		err = fmt.Errorf("%w; no %s.txt in SCRABBLE_LEXICA_DIR (%s) either", err, nameOrPath, r.SharedDir)
	}
	return nil, err
}

func (r *Registry) loadInstalled(name, path string) (*gaddag.GADDAG, error) {
	if r.Loading != nil {
		r.Loading(path)
	}
	g, err := gaddag.Load(path)
	if err != nil {
		return nil, fmt.Errorf("lexicon %s: %w (re-install it with `scrabble lexicon add %s FILE`)", name, err, name)
	}
	return g, nil
}

// looksLikePath reports whether s designates a word-list file rather than a
// lexicon name.
func looksLikePath(s string) bool {
	if strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator) {
		return true
	}
	if strings.HasSuffix(strings.ToLower(s), ".txt") {
		return true
	}
	st, err := os.Stat(s)
	return err == nil && st.Mode().IsRegular()
}

// findFold finds the file in dir whose name equals name case-insensitively.
func findFold(dir, name string) (string, bool) {
	p := filepath.Join(dir, name)
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return p, true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) {
			p := filepath.Join(dir, e.Name())
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, true
			}
		}
	}
	return "", false
}

// CachePath returns where the compilation of a word list whose contents have
// the given sha256 is cached.
func (r *Registry) CachePath(sum [32]byte) string {
	return filepath.Join(r.Dir, cacheSubdir, hex.EncodeToString(sum[:])+gaddagExt)
}

// compileCached loads the cached compilation of the word list at path,
// compiling and caching it first when the cache has none for its contents.
func (r *Registry) compileCached(path string) (*gaddag.GADDAG, error) {
	if _, err := r.dir(); err != nil {
		return nil, err
	}
	r.stage("reading")
	sum, err := HashWordList(path)
	if err != nil {
		return nil, err
	}
	cache := r.CachePath(sum)
	if r.Loading != nil {
		r.Loading(cache)
	}
	if g, err := gaddag.Load(cache); err == nil && g.Header().SourceSHA256 == sum {
		return g, nil
	}
	// Missing, stale or unreadable: compile afresh.
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if !ValidName(name) {
		name = "wordlist"
	}
	wl, err := ReadWordList(path)
	if err != nil {
		return nil, err
	}
	// Cached under what was read, should the file have changed since.
	cache = r.CachePath(wl.SHA256)
	g, err := r.compileList(name, path, wl)
	if err != nil {
		return nil, err
	}
	r.stage("writing")
	if err := writeAtomic(cache, g); err != nil {
		// The compilation is good: a cache that cannot be written costs
		// the next run a compilation, not this run its lexicon.
		r.warnOnce.Do(func() {
			if r.Warn != nil {
				r.Warn(fmt.Sprintf("cannot cache the compiled %s, so it is compiled again on every run: %v", path, err))
			}
		})
	}
	return g, nil
}

// familyAliases joins the older names of a lexicon family to its current
// one: TWL (and OTCWL) became NWL, the North American list; SOWPODS became
// CSW, Collins.
var familyAliases = map[string]string{"TWL": "NWL", "OTCWL": "NWL", "SOWPODS": "CSW"}

// Family splits a lexicon name into its family and version: the family is
// the name's leading letters in upper case, an older name mapped to the
// current one (TWL06 and NWL2020 are both NWL); the version is the number
// after the letters as a year (two digits are 19xx from 50, else 20xx), 0
// when there is none. A name that does not start with a letter has no
// family ("").
func Family(name string) (family string, version int) {
	i := 0
	for i < len(name) && (name[i] >= 'A' && name[i] <= 'Z' || name[i] >= 'a' && name[i] <= 'z') {
		i++
	}
	if i == 0 {
		return "", 0
	}
	family = strings.ToUpper(name[:i])
	if a, ok := familyAliases[family]; ok {
		family = a
	}
	j := i
	for j < len(name) && j-i < 4 && name[j] >= '0' && name[j] <= '9' {
		j++
	}
	for _, c := range name[i:j] {
		version = 10*version + int(c-'0')
	}
	if j-i == 2 {
		version += 2000
		if version >= 2050 {
			version -= 100
		}
	}
	return family, version
}

// FamilyFallback returns the installed lexicon to use for name when name
// itself is not installed: the newest installed lexicon of the same family
// (see Family; the highest version, then the last name), or "" when the
// family has none installed or name has no family.
func (r *Registry) FamilyFallback(name string) (string, error) {
	fam, _ := Family(name)
	if fam == "" {
		return "", nil
	}
	names, err := r.installedNames()
	if err != nil {
		return "", err
	}
	best, bestVersion := "", -1
	for _, n := range names {
		f, v := Family(n)
		if f != fam || strings.EqualFold(n, name) {
			continue
		}
		if v >= bestVersion { // names are sorted: the last wins a tie
			best, bestVersion = n, v
		}
	}
	return best, nil
}
