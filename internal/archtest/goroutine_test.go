package archtest

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// goHelper is the one package whose non-test code may hold a go
// statement: crash.Group starts every other goroutine, recovering its
// panic for the goroutine that waits.
const goHelper = "internal/crash"

// TestGoroutinesRecover: non-test code starts goroutines only through
// crash.Group (or an errgroup whose functions recover), so that a panic in
// one is an error of the command, exit 70, and never kills the process
// with Go's status 2, which the command line keeps for usage errors.
func TestGoroutinesRecover(t *testing.T) {
	for _, v := range bareGoroutines(t, moduleRoot(t)) {
		t.Error(v)
	}
}

// TestGoroutinesRecoverCatches plants bare goroutines and checks the scan
// finds them, and only them.
func TestGoroutinesRecoverCatches(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("movegen/a.go", "package movegen\nfunc f() {\n\tgo func() {}()\n}\n")
	write("movegen/a_test.go", "package movegen\nfunc g() { go f() }\n") // tests may
	write("internal/crash/c.go", "package crash\nfunc h() { go h() }\n") // the helper may
	write("sim/b.go", `package sim
import "golang.org/x/sync/errgroup"
func f() {
	var g errgroup.Group
	g.Go(func() error { return nil })
	g.Go(func() (err error) {
		defer g.Wait()
		return nil
	})
	g.Go(func() (err error) {
		defer caught(&err)
		return nil
	})
	g.Go(func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = nil
			}
		}()
		return nil
	})
	g.Wait()
}
func caught(err *error) {
	if r := recover(); r != nil {
		*err = nil
	}
}
`)
	write("peg/d.go", "package peg\nimport \"scrabble/internal/crash\"\nfunc f() {\n\tvar g crash.Group\n\tg.Go(func() {})\n\tg.Wait()\n}\n")
	want := []string{
		"movegen/a.go:3: a go statement: start the goroutine with crash.Group, which recovers its panic",
		"sim/b.go:5: an errgroup function without a recover: recover its panic with crash.Error, or use crash.Group",
		"sim/b.go:6: an errgroup function without a recover: recover its panic with crash.Error, or use crash.Group",
	}
	if got := bareGoroutines(t, dir); !slices.Equal(got, want) {
		t.Errorf("found:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// bareGoroutines lists, as "FILE:LINE: what", the go statements of non-test
// files outside goHelper, and the functions given to an errgroup's Go (in
// a file that imports errgroup) with no call of recover.
func bareGoroutines(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	eachNonTestFile(t, root, func(fset *token.FileSet, rel string, f *ast.File) {
		if filepath.ToSlash(filepath.Dir(rel)) == goHelper {
			return
		}
		// The file's functions that call recover, for a deferred call of
		// one by name.
		recoverers := map[string]bool{}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && callsRecover(fd) {
				recoverers[fd.Name.Name] = true
			}
		}
		errgroup := false
		for _, is := range f.Imports {
			if p, _ := strconv.Unquote(is.Path.Value); p == "golang.org/x/sync/errgroup" {
				errgroup = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				out = append(out, fmt.Sprintf("%s:%d: a go statement: start the goroutine with crash.Group, which recovers its panic", rel, fset.Position(n.Pos()).Line))
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !errgroup || !ok || sel.Sel.Name != "Go" || len(n.Args) != 1 {
					break
				}
				if lit, ok := n.Args[0].(*ast.FuncLit); ok && lit.Type.Results != nil && !defersRecover(lit, recoverers) {
					out = append(out, fmt.Sprintf("%s:%d: an errgroup function without a recover: recover its panic with crash.Error, or use crash.Group", rel, fset.Position(n.Pos()).Line))
				}
			}
			return true
		})
	})
	return out
}

// defersRecover reports whether fn's body defers a function literal that
// calls recover, or a function of recoverers.
func defersRecover(fn *ast.FuncLit, recoverers map[string]bool) bool {
	for _, st := range fn.Body.List {
		d, ok := st.(*ast.DeferStmt)
		if !ok {
			continue
		}
		switch f := d.Call.Fun.(type) {
		case *ast.FuncLit:
			if callsRecover(f) {
				return true
			}
		case *ast.Ident:
			if recoverers[f.Name] {
				return true
			}
		}
	}
	return false
}

// callsRecover reports whether recover() is called anywhere in fn.
func callsRecover(fn ast.Node) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "recover" && len(c.Args) == 0 {
				found = true
			}
		}
		return !found
	})
	return found
}
