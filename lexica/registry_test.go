package lexica

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func newTestRegistry(t *testing.T) (*Registry, string) {
	t.Helper()
	root := t.TempDir()
	return &Registry{Dir: filepath.Join(root, "data")}, root
}

func TestRegistryAddListInfo(t *testing.T) {
	r, root := newTestRegistry(t)
	tiny := writeFile(t, filepath.Join(root, "tiny.txt"), "aa\nAB\ncat\nDOG\n# comment\n\nCAT\n")
	other := writeFile(t, filepath.Join(root, "other.txt"), "ZA\nQI\nXU")

	if d, err := r.Default(); err != nil || d != "" {
		t.Fatalf("Default on empty registry = %q, %v", d, err)
	}
	if l, err := r.List(); err != nil || len(l) != 0 {
		t.Fatalf("List on empty registry = %v, %v", l, err)
	}

	var stages []string
	r.Progress = func(s string) { stages = append(stages, s) }
	inf, err := r.Add("Tiny", tiny)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(stages, []string{"reading", "compiling", "writing"}) {
		t.Errorf("stages = %v", stages)
	}
	if inf.Name != "Tiny" || inf.Words != 4 || !inf.Default || inf.Size <= 0 || inf.BuiltAt.IsZero() {
		t.Errorf("Add info = %+v", inf)
	}
	if want := filepath.Join(r.Dir, "lexica", "Tiny.gaddag"); inf.Path != want {
		t.Errorf("path = %s, want %s", inf.Path, want)
	}
	if _, err := r.Add("other", other); err != nil {
		t.Fatal(err)
	}
	if d, _ := r.Default(); d != "Tiny" {
		t.Errorf("default = %q, want the first installed, Tiny", d)
	}

	list, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "other" || list[1].Name != "Tiny" {
		t.Fatalf("List = %+v", list)
	}
	if list[0].Default || !list[1].Default || list[0].Words != 3 {
		t.Errorf("List = %+v", list)
	}

	inf, err = r.Info("TINY")
	if err != nil {
		t.Fatal(err)
	}
	if inf.Name != "Tiny" || inf.Words != 4 || inf.Nodes <= 0 || inf.SourceSHA256 == [32]byte{} {
		t.Errorf("Info = %+v", inf)
	}
	if _, err := r.Info("missing"); err == nil || !strings.Contains(err.Error(), "scrabble lexicon add") {
		t.Errorf("Info(missing) error = %v", err)
	}

	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Join(r.Dir, "lexica"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp") {
			t.Errorf("leftover %s", e.Name())
		}
	}
}

func TestRegistryDefaultRemove(t *testing.T) {
	r, root := newTestRegistry(t)
	a := writeFile(t, filepath.Join(root, "a.txt"), "CAT\nDOG\n")
	b := writeFile(t, filepath.Join(root, "b.txt"), "ZA\nQI\n")
	if _, err := r.Add("A", a); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Add("B", b); err != nil {
		t.Fatal(err)
	}
	if err := r.SetDefault("b"); err != nil {
		t.Fatal(err)
	}
	if d, _ := r.Default(); d != "B" {
		t.Errorf("default = %q, want B (the installed spelling)", d)
	}
	data, _ := os.ReadFile(filepath.Join(r.Dir, "default-lexicon"))
	if string(data) != "B\n" {
		t.Errorf("default-lexicon holds %q", data)
	}
	g, err := r.Resolve("")
	if err != nil {
		t.Fatal(err)
	}
	if !g.Contains("QI") || g.Contains("CAT") {
		t.Error("Resolve(\"\") is not B")
	}
	if err := r.SetDefault("C"); err == nil {
		t.Error("SetDefault of a missing lexicon succeeded")
	}
	if err := r.Remove("b"); err != nil {
		t.Fatal(err)
	}
	if d, _ := r.Default(); d != "" {
		t.Errorf("default after removing it = %q", d)
	}
	if _, err := r.Resolve(""); !errors.Is(err, ErrNoDefault) {
		t.Errorf("Resolve(\"\") without default: %v", err)
	}
	if err := r.Remove("b"); err == nil {
		t.Error("removing twice succeeded")
	}
	if l, _ := r.List(); len(l) != 1 || l[0].Name != "A" || l[0].Default {
		t.Errorf("List = %+v", l)
	}
	if _, err := r.Resolve(""); err == nil || !strings.Contains(err.Error(), "make") {
		t.Errorf("no-default error should mention make: %v", err)
	}
}

func TestRegistryReplaceKeepsNewSpelling(t *testing.T) {
	r, root := newTestRegistry(t)
	a := writeFile(t, filepath.Join(root, "a.txt"), "CAT\n")
	b := writeFile(t, filepath.Join(root, "b.txt"), "DOG\n")
	if _, err := r.Add("lex", a); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Add("LEX", b); err != nil {
		t.Fatal(err)
	}
	l, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 1 || l[0].Name != "LEX" || !l[0].Default {
		t.Fatalf("List = %+v", l)
	}
	g, err := r.Resolve("Lex")
	if err != nil {
		t.Fatal(err)
	}
	if !g.Contains("DOG") || g.Contains("CAT") {
		t.Error("replacement did not take")
	}
}

func TestRegistryBadInput(t *testing.T) {
	r, root := newTestRegistry(t)
	good := writeFile(t, filepath.Join(root, "good.txt"), "CAT\n")
	bad := writeFile(t, filepath.Join(root, "bad.txt"), "CAT\nC4T\n")
	for _, name := range []string{"", "has space", "a/b", "dots.bad", strings.Repeat("x", 65)} {
		if _, err := r.Add(name, good); err == nil {
			t.Errorf("Add(%q) succeeded", name)
		}
	}
	_, err := r.Add("bad", bad)
	if err == nil || !strings.Contains(err.Error(), "bad.txt:2:") {
		t.Errorf("Add of a bad list: %v (want file:line)", err)
	}
	if _, err := r.Add("missing", filepath.Join(root, "nope.txt")); err == nil {
		t.Error("Add of a missing file succeeded")
	}
	if l, _ := r.List(); len(l) != 0 {
		t.Errorf("failed adds installed %+v", l)
	}
	if _, err := (&Registry{}).Resolve("X"); err == nil {
		t.Error("Resolve without a data directory succeeded")
	}
}

func TestResolveWordListCached(t *testing.T) {
	r, root := newTestRegistry(t)
	list := writeFile(t, filepath.Join(root, "words.txt"), "CAT\nDOG\n")
	compiles := 0
	r.Progress = func(s string) {
		if s == "compiling" {
			compiles++
		}
	}
	g, err := r.Resolve(list)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Contains("CAT") || g.Contains("COW") {
		t.Error("wrong lexicon")
	}
	cached, _ := filepath.Glob(filepath.Join(r.Dir, "cache", "*.gaddag"))
	if len(cached) != 1 || len(filepath.Base(cached[0])) != 64+len(".gaddag") {
		t.Fatalf("cache = %v", cached)
	}
	if _, err := r.Resolve(list); err != nil {
		t.Fatal(err)
	}
	if compiles != 1 {
		t.Errorf("compiled %d times, want 1 (cached)", compiles)
	}
	// A changed file is compiled again under its new sha256.
	writeFile(t, list, "CAT\nDOG\nCOW\n")
	g, err = r.Resolve(list)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Contains("COW") || compiles != 2 {
		t.Errorf("changed list: contains COW %v, compiles %d", g.Contains("COW"), compiles)
	}
	// A relative path without a separator that names an existing file.
	t.Chdir(root)
	if _, err := r.Resolve("words.txt"); err != nil {
		t.Fatal(err)
	}
	if compiles != 2 {
		t.Errorf("compiles = %d after resolving an unchanged file", compiles)
	}
	// A corrupt cache entry is rebuilt.
	writeFile(t, r.CachePath(g.Header().SourceSHA256), "garbage")
	if g, err := r.Resolve(list); err != nil || !g.Contains("COW") {
		t.Errorf("Resolve over a corrupt cache: %v", err)
	}
	// A path that does not exist is an error, not a lexicon name.
	if _, err := r.Resolve(filepath.Join(root, "nope.txt")); err == nil {
		t.Error("missing word list resolved")
	}
}

func TestResolveNames(t *testing.T) {
	r, root := newTestRegistry(t)
	shared := filepath.Join(root, "shared")
	writeFile(t, filepath.Join(shared, "SHARED1.txt"), "QI\nZA\n")
	if _, err := r.Add("Mine", writeFile(t, filepath.Join(root, "mine.txt"), "CAT\n")); err != nil {
		t.Fatal(err)
	}

	g, err := r.Resolve("mine")
	if err != nil || !g.Contains("CAT") {
		t.Fatalf("Resolve(mine) = %v", err)
	}
	_, err = r.Resolve("shared1")
	if err == nil || !strings.Contains(err.Error(), "Mine") || !strings.Contains(err.Error(), "scrabble lexicon add NAME FILE") {
		t.Errorf("unknown name error = %v", err)
	}

	r.SharedDir = shared
	g, err = r.Resolve("shared1")
	if err != nil {
		t.Fatal(err)
	}
	if !g.Contains("ZA") || g.Header().Name != "SHARED1" {
		t.Errorf("shared list: contains ZA %v, name %q", g.Contains("ZA"), g.Header().Name)
	}
	if c, _ := filepath.Glob(filepath.Join(r.Dir, "cache", "*.gaddag")); len(c) != 1 {
		t.Errorf("cache = %v", c)
	}
	_, err = r.Resolve("NWL99")
	if err == nil || !strings.Contains(err.Error(), "SCRABBLE_LEXICA_DIR") {
		t.Errorf("unknown name with shared dir: %v", err)
	}
	if _, err := r.Resolve("not a name"); err == nil {
		t.Error("invalid name resolved")
	}
}

func TestRegistryListReportsBrokenFile(t *testing.T) {
	r, root := newTestRegistry(t)
	if _, err := r.Add("good", writeFile(t, filepath.Join(root, "g.txt"), "CAT\n")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(r.Dir, "lexica", "broken.gaddag"), "not a gaddag")
	l, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 2 || l[0].Name != "broken" || l[0].Err == nil || l[1].Err != nil {
		t.Errorf("List = %+v", l)
	}
	if _, err := r.Resolve("broken"); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("Resolve(broken) = %v", err)
	}
}

func TestFamily(t *testing.T) {
	for _, tc := range []struct {
		name, family string
		version      int
	}{
		{"NWL23", "NWL", 2023},
		{"NWL2018", "NWL", 2018},
		{"nwl20", "NWL", 2020},
		{"TWL06", "NWL", 2006},
		{"TWL98", "NWL", 1998},
		{"CSW19", "CSW", 2019},
		{"CSW2021", "CSW", 2021},
		{"SOWPODS", "CSW", 0},
		{"OSPD7", "OSPD", 7},
		{"FISE2", "FISE", 2},
		{"23NWL", "", 0},
		{"", "", 0},
	} {
		if f, v := Family(tc.name); f != tc.family || v != tc.version {
			t.Errorf("Family(%q) = %q, %d; want %q, %d", tc.name, f, v, tc.family, tc.version)
		}
	}
}

func TestFamilyFallback(t *testing.T) {
	r, root := newTestRegistry(t)
	words := writeFile(t, filepath.Join(root, "w.txt"), "AA\nAB\n")
	for _, n := range []string{"SOWPODS", "NWL20", "NWL23", "TWL06", "CSW21", "CSW24", "OSPD7"} {
		if _, err := r.Add(n, words); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, want string }{
		{"NWL2018", "NWL23"},
		{"NWL2020", "NWL23"},
		{"nwl18", "NWL23"},
		{"TWL98", "NWL23"},
		{"NWL23", "NWL20"}, // never the name itself
		{"CSW19", "CSW24"},
		{"CSW21", "CSW24"},
		{"Collins", ""},
		{"OSPD6", "OSPD7"},
		{"ODS8", ""},
		{"123", ""},
	} {
		got, err := r.FamilyFallback(tc.name)
		if err != nil || got != tc.want {
			t.Errorf("FamilyFallback(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	if err := r.Remove("TWL06"); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.FamilyFallback("TWL06"); got != "NWL23" {
		t.Errorf("TWL06 missing: fallback %q, want NWL23", got)
	}
}
