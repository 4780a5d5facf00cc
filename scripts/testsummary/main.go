// Command testsummary runs go test with -json, prints what a plain go test
// prints (a line per package, the output of every failed test, build
// errors), then one line counting the skipped tests by their reason, so that
// a run that skipped tests is not taken for a full one. It exits with go
// test's status.
//
//	go run ./scripts/testsummary [-go GO] [go test flags and packages]
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

func main() {
	goCmd := "go"
	args := os.Args[1:]
	if len(args) >= 2 && args[0] == "-go" {
		goCmd, args = args[1], args[2:]
	}
	cmd := exec.Command(goCmd, append([]string{"test", "-json", "-timeout", "30m"}, args...)...) // the command-line package takes minutes on 2 cores
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(os.Stderr, "testsummary: %v\n", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "testsummary: %s test: %v\n", goCmd, err)
		os.Exit(2)
	}
	s, readErr := summarize(out, os.Stdout)
	waitErr := cmd.Wait()
	fmt.Println(s.line())
	if readErr != nil {
		fmt.Fprintf(os.Stderr, "testsummary: reading go test -json: %v\n", readErr)
		os.Exit(2)
	}
	var exit *exec.ExitError
	switch {
	case errors.As(waitErr, &exit):
		os.Exit(exit.ExitCode())
	case waitErr != nil:
		fmt.Fprintf(os.Stderr, "testsummary: %s test: %v\n", goCmd, waitErr)
		os.Exit(2)
	case s.failed > 0:
		os.Exit(1) // go test exits non-zero then; never report success for a failure
	}
}

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail events
	Test       string
	Output     string
}

// summary counts the tests of a run.
type summary struct {
	passed, failed, skipped int
	reasons                 map[string]int // skip reason -> tests
}

// line is the run's last line: the counts, and the skips by reason.
func (s summary) line() string {
	head := fmt.Sprintf("%d passed, %d failed, %d skipped", s.passed, s.failed, s.skipped)
	if s.skipped == 0 {
		return head + ": a full run, nothing skipped"
	}
	type reason struct {
		text string
		n    int
	}
	var rs []reason
	for t, n := range s.reasons {
		rs = append(rs, reason{t, n})
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].n != rs[j].n {
			return rs[i].n > rs[j].n
		}
		return rs[i].text < rs[j].text
	})
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%d: %s", r.n, r.text)
	}
	return head + " (" + strings.Join(parts, "; ") + ")"
}

// logLine is a t.Log/t.Skip line as go test prints it: "    file_test.go:12: message".
var logLine = regexp.MustCompile(`^\s+[\w.-]+\.go:\d+: (.*)$`)

// skipReason is the last message a skipped test logged (t.Skip's).
func skipReason(output []string) string {
	for i := len(output) - 1; i >= 0; i-- {
		if m := logLine.FindStringSubmatch(strings.TrimRight(output[i], "\n")); m != nil {
			return m[1]
		}
	}
	return "no reason given"
}

// summarize reads go test -json events from r and writes to w what go test
// without -json would: package result lines, build errors and the whole
// output of each failed test (and of tests still running when their
// package failed: a panic or a timeout).
func summarize(r io.Reader, w io.Writer) (summary, error) {
	s := summary{reasons: map[string]int{}}
	running := map[string][]string{} // package + " " + test -> its output so far
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// Not an event (go test wrote it itself): pass it on.
			fmt.Fprintln(w, sc.Text())
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Test == "" && e.Action == "output":
			if e.Output != "PASS\n" && !strings.HasPrefix(e.Output, "=== ") {
				fmt.Fprint(w, e.Output)
			}
		case e.Test == "" && e.Action == "fail":
			// The package failed: print the tests that never ended.
			prefix := e.Package + " "
			var left []string
			for k := range running {
				if strings.HasPrefix(k, prefix) {
					left = append(left, k)
				}
			}
			sort.Strings(left)
			for _, k := range left {
				printOutput(w, running[k])
				delete(running, k)
			}
		case e.Test == "":
		case e.Action == "output":
			running[key] = append(running[key], e.Output)
		case e.Action == "pass":
			s.passed++
			delete(running, key)
		case e.Action == "skip":
			s.skipped++
			s.reasons[skipReason(running[key])]++
			delete(running, key)
		case e.Action == "fail":
			s.failed++
			printOutput(w, running[key])
			delete(running, key)
		}
	}
	return s, sc.Err()
}

// printOutput writes a test's output without the === RUN/PAUSE/CONT lines
// that go test prints only with -v.
func printOutput(w io.Writer, lines []string) {
	for _, l := range lines {
		if !strings.HasPrefix(l, "=== ") {
			fmt.Fprint(w, l)
		}
	}
}
