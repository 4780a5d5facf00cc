package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// writeAllowed lists the files whose non-test code may open files for
// writing other than through internal/atomicfile, with the calls each may
// make and why. Every other output (leave tables, win% tables, lexica,
// checkpoints, reports, exported games) goes through atomicfile, so that a
// full disk or a crash leaves the old file and not a fragment of a new one.
var writeAllowed = map[string][]string{
	// The one atomic write path: its temporary file.
	"internal/atomicfile/atomicfile.go": {"os.CreateTemp"},
	// results.jsonl is an append-only log, one line a game: a torn last
	// line is cut (os.Truncate) and the game replayed on resume.
	"selfplay/selfplay.go": {"os.OpenFile", "os.Truncate"},
	// The same log, written by a queue's coordinator as games arrive
	// (synced before a game is acknowledged to the server).
	"cmd/scrabble/queue.go": {"os.OpenFile", "os.Truncate"},
	// Opens a stale temporary read-only (O_NOFOLLOW) to take its lock.
	"internal/atomicfile/stale.go": {"os.OpenFile"},
	// The lock file of a run's directory: a pid for the message, no data.
	"internal/runlock/runlock.go": {"os.OpenFile"},
}

// writeCalls are the calls that create or change a file's contents.
// os.OpenFile counts only when its flags are not plain os.O_RDONLY.
var writeCalls = map[string][]string{
	"os":        {"Create", "CreateTemp", "WriteFile", "OpenFile", "Truncate"},
	"io/ioutil": {"WriteFile", "TempFile"},
}

// TestWritesAreAtomic: non-test code writes files only through
// internal/atomicfile (the places in writeAllowed aside), always with Sync
// on, and never calls its test hook.
func TestWritesAreAtomic(t *testing.T) {
	for _, v := range writeViolations(t, moduleRoot(t)) {
		t.Error(v)
	}
}

// TestWritesCatchesViolations plants writes that break the rule and
// checks that the scan finds each.
func TestWritesCatchesViolations(t *testing.T) {
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
	write("eval/a.go", `package eval
import "os"
func a() {
	os.Create("x")
	os.WriteFile("y", nil, 0o644)
	os.OpenFile("z", os.O_RDONLY, 0)
	os.OpenFile("w", os.O_WRONLY|os.O_TRUNC, 0)
}
`)
	write("eval/a_test.go", "package eval\nimport \"os\"\nfunc b() { os.Create(\"ok in a test\") }\n")
	write("review/b.go", `package review
import (
	sys "os"
	"scrabble/internal/atomicfile"
)
func c(flags int) {
	sys.OpenFile("v", flags, 0)
	atomicfile.Create("u", atomicfile.Options{Perm: 0o644})
	atomicfile.Write("s", atomicfile.Options{Sync: false}, nil)
	atomicfile.Write("t", atomicfile.Options{Sync: true}, nil)
	atomicfile.SimulateFullDisk(0)
}
`)
	write("selfplay/selfplay.go", "package selfplay\nimport \"os\"\nfunc d() { os.OpenFile(\"r\", os.O_APPEND, 0); os.Create(\"q\") }\n")
	want := []string{
		"eval/a.go:4: os.Create writes a file: write it with internal/atomicfile (with Sync), or argue the exception in internal/archtest's writeAllowed",
		"eval/a.go:5: os.WriteFile writes a file: write it with internal/atomicfile (with Sync), or argue the exception in internal/archtest's writeAllowed",
		"eval/a.go:7: os.OpenFile writes a file: write it with internal/atomicfile (with Sync), or argue the exception in internal/archtest's writeAllowed",
		"review/b.go:7: os.OpenFile writes a file: write it with internal/atomicfile (with Sync), or argue the exception in internal/archtest's writeAllowed",
		"review/b.go:8: atomicfile.Options without Sync: true: every output is synced before its rename",
		"review/b.go:9: atomicfile.Options without Sync: true: every output is synced before its rename",
		"review/b.go:11: atomicfile.SimulateFullDisk is a test hook: call it from tests only",
		"selfplay/selfplay.go:3: os.Create writes a file: write it with internal/atomicfile (with Sync), or argue the exception in internal/archtest's writeAllowed",
	}
	if got := writeViolations(t, dir); !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// writeViolations scans the non-test Go files under root for writes that
// break the rule of TestWritesAreAtomic.
func writeViolations(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	eachNonTestFile(t, root, func(fset *token.FileSet, rel string, f *ast.File) {
		out = append(out, fileWriteViolations(fset, rel, f)...)
	})
	return out
}

// eachNonTestFile parses every non-test Go file under root (skipping
// hidden, _-prefixed, testdata and build directories) and hands it to
// visit with its path relative to root, slash-separated.
func eachNonTestFile(t *testing.T, root string, visit func(fset *token.FileSet, rel string, f *ast.File)) {
	t.Helper()
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
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		visit(fset, filepath.ToSlash(rel), f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func fileWriteViolations(fset *token.FileSet, rel string, f *ast.File) []string {
	// The names the file gives the packages that matter.
	pkgOf := map[string]string{} // local name -> import path
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		local := p[strings.LastIndex(p, "/")+1:]
		if is.Name != nil {
			local = is.Name.Name
		}
		pkgOf[local] = p
	}
	// sel returns the import path and name of a pkg.Name expression.
	sel := func(e ast.Expr) (string, string) {
		s, ok := e.(*ast.SelectorExpr)
		if !ok {
			return "", ""
		}
		x, ok := s.X.(*ast.Ident)
		if !ok {
			return "", ""
		}
		return pkgOf[x.Name], s.Sel.Name
	}
	var out []string
	report := func(n ast.Node, format string, args ...any) {
		out = append(out, fmt.Sprintf("%s:%d: %s", rel, fset.Position(n.Pos()).Line, fmt.Sprintf(format, args...)))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			pkg, name := sel(n.Fun)
			if pkg == module+"/internal/atomicfile" && name == "SimulateFullDisk" {
				report(n, "atomicfile.SimulateFullDisk is a test hook: call it from tests only")
			}
			if !slices.Contains(writeCalls[pkg], name) {
				return true
			}
			if pkg == "os" && name == "OpenFile" && len(n.Args) == 3 && readOnly(n.Args[1], sel) {
				return true
			}
			call := pkg[strings.LastIndex(pkg, "/")+1:] + "." + name
			if slices.Contains(writeAllowed[rel], call) {
				return true
			}
			report(n, "%s writes a file: write it with internal/atomicfile (with Sync), or argue the exception in internal/archtest's writeAllowed", call)
		case *ast.CompositeLit:
			if pkg, name := sel(n.Type); pkg != module+"/internal/atomicfile" || name != "Options" {
				return true
			}
			synced := false
			for _, el := range n.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Sync" {
					v, ok := kv.Value.(*ast.Ident)
					synced = ok && v.Name == "true"
				}
			}
			if !synced {
				report(n, "atomicfile.Options without Sync: true: every output is synced before its rename")
			}
		}
		return true
	})
	return out
}

// readOnly reports whether an os.OpenFile flags argument is os.O_RDONLY
// alone: anything else (a write flag, or a variable) may write.
func readOnly(e ast.Expr, sel func(ast.Expr) (string, string)) bool {
	pkg, name := sel(e)
	return pkg == "os" && name == "O_RDONLY"
}
