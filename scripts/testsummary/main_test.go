package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goTestJSON runs go test -json in the fixture module, a package whose
// tests pass, skip (for two reasons) and fail.
func goTestJSON(t *testing.T, env ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", "test", "-json", "-count=1", ".")
	cmd.Dir = filepath.Join("testdata", "fixture")
	cmd.Env = append(os.Environ(), env...)
	out, _ := cmd.Output() // exits 1: TestFails fails
	if len(out) == 0 {
		t.Fatal("go test -json wrote nothing")
	}
	return out
}

func TestSummarize(t *testing.T) {
	var w bytes.Buffer
	s, err := summarize(bytes.NewReader(goTestJSON(t)), &w)
	if err != nil {
		t.Fatal(err)
	}
	// The fixture: 3 tests pass (TestPasses, TestSubtests and its "passes"),
	// 4 skip, 1 fails.
	if s.passed != 3 || s.failed != 1 || s.skipped != 4 {
		t.Errorf("counted %d passed, %d failed, %d skipped; the fixture has 3, 1, 4", s.passed, s.failed, s.skipped)
	}
	want := "3 passed, 1 failed, 4 skipped (2: chromium is not installed; 2: set SCRABBLE_LEXICA_DIR to the NWL23/CSW24 lists)"
	if got := s.line(); got != want {
		t.Errorf("summary line\n got %q\nwant %q", got, want)
	}
	out := w.String()
	// What a plain go test prints of a failure, and the package's result.
	for _, keep := range []string{"--- FAIL: TestFails", "fixture_test.go:", "a line logged before the failure", "the answer was 41, want 42", "FAIL\tfixture\t"} {
		if !strings.Contains(out, keep) {
			t.Errorf("output lacks %q:\n%s", keep, out)
		}
	}
	// Not what only go test -v prints.
	for _, drop := range []string{"=== RUN", "--- PASS", "--- SKIP", "TestPasses"} {
		if strings.Contains(out, drop) {
			t.Errorf("output has %q:\n%s", drop, out)
		}
	}
}

func TestSummarizeFullRun(t *testing.T) {
	s := summary{passed: 12, reasons: map[string]int{}}
	if got, want := s.line(), "12 passed, 0 failed, 0 skipped: a full run, nothing skipped"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The tool keeps go test's exit status and ends with the summary line.
func TestExitStatusAndLastLine(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "testsummary")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		env  string
		code int
		last string
	}{
		{"FIXTURE_PASS=", 1, "3 passed, 1 failed, 4 skipped ("},
		{"FIXTURE_PASS=1", 0, "4 passed, 0 failed, 4 skipped ("},
	} {
		cmd := exec.Command(bin, "-count=1", ".")
		cmd.Dir = filepath.Join("testdata", "fixture")
		cmd.Env = append(os.Environ(), c.env)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if code != c.code || !strings.HasPrefix(lines[len(lines)-1], c.last) {
			t.Errorf("%s: exit %d (want %d), last line %q (want %q...)", c.env, code, c.code, lines[len(lines)-1], c.last)
		}
	}
}
