package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "scrabble"

// utilities import nothing of the module and may be imported by any
// package.
var utilities = []string{
	"internal/atomicfile",
	"internal/crash",
	"internal/filemap",
	"internal/hugemem",
	"internal/readlimit",
	"internal/runlock",
	"internal/splitmix",
	"internal/texttable",
}

// testOnly are helpers for tests: only _test.go files may import them.
var testOnly = []string{"internal/testlex", "internal/testgen", "internal/gametest"}

// allowed lists, for each package of the module, the packages of the
// module its non-test files may import, utilities aside. A package
// missing from the table fails the test: add it where it belongs.
var allowed = map[string][]string{
	// The game and its formats: rules -> move -> position -> gcg.
	"rules":    {},
	"move":     {"rules"},
	"position": {"rules", "move"},
	"gcg":      {"rules", "move", "position"}, // words are judged through an interface
	"protocol": {"rules", "move"},             // the engine protocol's lines; engines plug in through an interface

	// The engine: gaddag -> lexica -> movegen -> referee -> eval -> infer ->
	// endgame -> peg -> game.
	"gaddag":  {"rules"},
	"lexica":  {"gaddag", "rules"},
	"movegen": {"gaddag", "lexica", "rules", "move"},
	"referee": {"gaddag", "lexica", "movegen", "rules", "move"},
	"eval":    {"gaddag", "lexica", "movegen", "referee", "rules", "move", "position"},
	"infer":   {"gaddag", "lexica", "movegen", "referee", "eval", "rules", "move", "position"},
	"endgame": {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "rules", "move", "position"},
	"peg":     {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "rules", "move", "position"},
	"game":    {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "peg", "rules", "move", "position"},

	// Many games, or one looked at ahead: sim, then selfplay (whose
	// players include the sim player), then train (which learns from
	// self-play), then review.
	"sim": {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "peg", "game", "rules", "move", "position"},
	"selfplay": {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "peg", "game", "sim", "rules", "move", "position", "gcg", "protocol",
		"internal/runrecord"}, // merge reads the shards' settings
	"train": {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "peg", "game", "sim", "selfplay", "rules", "move", "position",
		"internal/runrecord"},
	// The work queue of runs spread over machines (NATS JetStream).
	"queue":  {"internal/crash"},
	"review": {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "peg", "game", "sim", "rules", "move", "position", "gcg"},
	// The engine over HTTP: the API and the page, given its lexica by the
	// command line.
	"server": {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "peg", "game", "sim", "review", "rules", "move", "position", "gcg"},

	// The command line wires everything together.
	"cmd/scrabble": {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "peg", "game", "sim", "train", "selfplay", "review", "server",
		"rules", "move", "position", "gcg", "protocol", "internal/benchset", "internal/runrecord", "queue"},

	// Internal helpers with module imports of their own.
	"internal/benchset":  {"gaddag", "movegen", "rules", "position"},
	"internal/runrecord": {"gaddag", "eval"}, // a run's settings name its lexicon and leaves
	"internal/testlex":   {"gaddag", "lexica", "rules"},
	"internal/testgen":   {"gaddag", "movegen"},
	"internal/gametest":  {"gaddag", "lexica", "movegen", "referee", "eval", "infer", "endgame", "peg", "game", "rules", "move", "position"},
	"internal/archtest":  {},
	"internal/natstest":  {}, // a real NATS server for the queue's tests

	// Tools and benchmarks sit on top: they may import anything (but
	// benchmarks itself), and nothing imports them.
	"benchmarks":              nil,
	"benchmarks/tools/memlat": nil,
	"scripts/testsummary":     nil,
}

// tools are the packages nothing may import.
var tools = []string{"benchmarks", "benchmarks/tools/memlat", "scripts/testsummary", "cmd/scrabble"}

func TestImports(t *testing.T) {
	pkgs := scan(t, moduleRoot(t))
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages", len(pkgs))
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
	for p := range allowed {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("internal/archtest lists %s, which has no Go files: remove it", p)
		}
	}
}

// violations lists the imports of pkgs that break the table.
func violations(pkgs map[string]*pkgImports) []string {
	var out []string
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		may, known := allowed[p]
		if slices.Contains(utilities, p) {
			may, known = []string{}, true
		}
		if !known {
			out = append(out, fmt.Sprintf("package %s is not in internal/archtest's table: add it with the packages it may import", p))
			continue
		}
		for _, imp := range pkgs[p].imports {
			where := pkgs[p].where[imp]
			switch {
			case slices.Contains(tools, imp):
				out = append(out, fmt.Sprintf("%s imports %s: nothing may import a tool, a benchmark or a command", where, imp))
			case slices.Contains(testOnly, imp) && !pkgs[p].fromTests[imp]:
				out = append(out, fmt.Sprintf("%s imports %s, a test helper, from a non-test file", where, imp))
			case pkgs[p].fromTests[imp]: // tests (external packages) may import what they check against
			case slices.Contains(utilities, imp):
			case may == nil: // a tool: anything else goes
			case !slices.Contains(may, imp):
				out = append(out, fmt.Sprintf("%s imports %s: %s may import only %v (see internal/archtest)", where, imp, p, may))
			}
		}
	}
	return out
}

// TestTableCatchesViolations plants imports that break the table and
// checks that the scan reads them.
func TestTableCatchesViolations(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("rules/a.go", "package rules\nimport _ \"scrabble/movegen\"\n")
	write("rules/a_test.go", "package rules\nimport _ \"scrabble/internal/testlex\"\n")
	write("movegen/b.go", "package movegen\nimport (\n\t\"fmt\"\n\t_ \"scrabble/rules\"\n)\nvar _ = fmt.Sprint\n")
	pkgs := scan(t, dir)
	if got := pkgs["rules"].imports; !slices.Equal(got, []string{"internal/testlex", "movegen"}) {
		t.Errorf("rules imports %v", got)
	}
	if !pkgs["rules"].fromTests["internal/testlex"] || pkgs["rules"].fromTests["movegen"] {
		t.Errorf("test-file imports misread: %v", pkgs["rules"].fromTests)
	}
	if got := pkgs["movegen"].imports; !slices.Equal(got, []string{"rules"}) {
		t.Errorf("movegen imports %v", got)
	}
	write("gcg/c.go", "package gcg\nimport _ \"scrabble/internal/gametest\"\n")
	write("newpkg/d.go", "package newpkg\n")
	write("eval/e.go", "package eval\nimport _ \"scrabble/benchmarks\"\n")
	want := []string{
		"eval/e.go imports benchmarks: nothing may import a tool, a benchmark or a command",
		"gcg/c.go imports internal/gametest, a test helper, from a non-test file",
		"package newpkg is not in internal/archtest's table: add it with the packages it may import",
		"rules/a.go imports movegen: rules may import only [] (see internal/archtest)",
	}
	if got := violations(scan(t, dir)); !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

type pkgImports struct {
	imports   []string          // module packages imported, sorted
	where     map[string]string // a file that imports each
	fromTests map[string]bool   // imported from _test.go files only
}

// scan reads the imports of every Go file under root, by package
// directory relative to root. Test files count only for fromTests.
func scan(t *testing.T, root string) map[string]*pkgImports {
	t.Helper()
	pkgs := map[string]*pkgImports{}
	nonTest := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "build") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		p := pkgs[rel]
		if p == nil {
			p = &pkgImports{where: map[string]string{}, fromTests: map[string]bool{}}
			pkgs[rel], nonTest[rel] = p, map[string]bool{}
		}
		isTest := strings.HasSuffix(name, "_test.go")
		for _, is := range f.Imports {
			imp, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				return err
			}
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			imp = strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
			if isTest && imp == rel {
				continue // an external test package importing its own
			}
			if _, seen := p.where[imp]; !seen {
				p.imports = append(p.imports, imp)
				p.where[imp] = filepath.ToSlash(filepath.Join(rel, name))
			}
			if !isTest {
				nonTest[rel][imp] = true
				p.where[imp] = filepath.ToSlash(filepath.Join(rel, name))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel, p := range pkgs {
		sort.Strings(p.imports)
		for _, imp := range p.imports {
			p.fromTests[imp] = !nonTest[rel][imp]
		}
	}
	return pkgs
}

// moduleRoot is the directory of go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}
