package review

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"scrabble/eval"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
)

// checkSelfContained fails when the page refers to anything outside it.
func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	for _, bad := range []string{"http:", "https:", "<link", "<img", "<iframe", "<object", "@import", "url(", " src="} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("the page holds %q: it must not load anything", bad)
		}
	}
	for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(m[1], "#") {
			t.Errorf("link %q leaves the page", m[1])
		}
	}
}

// turnSection matches a turn's section, capturing its number.
var turnSection = regexp.MustCompile(`<section class="turn" id="turn-(\d+)"`)

func checkTurns(t *testing.T, page string, rep *Report) {
	t.Helper()
	got := turnSection.FindAllStringSubmatch(page, -1)
	if len(got) != len(rep.Turns) {
		t.Fatalf("%d turn sections, want %d", len(got), len(rep.Turns))
	}
	for i, m := range got {
		if want := fmt.Sprint(rep.Turns[i].Turn); m[1] != want {
			t.Errorf("section %d is turn %s, want %s", i, m[1], want)
		}
	}
}

func TestWriteHTML(t *testing.T) {
	rep := mustReview(t, replay(t, filepath.Join("testdata", "tiny.gcg")), Options{Tables: testgen.Tables(tinyLexicon(t))})
	var buf bytes.Buffer
	if err := WriteHTML(&buf, rep); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	checkSelfContained(t, page)
	checkTurns(t, page, rep)
	// Turn 1: CAT played from G8 and CAVEATS from B8 overlap on G8 (C for
	// CAT, T for CAVEATS) and H8 (A and S), each marked both ways.
	for _, want := range []string{
		`<td class="new played best" title="played: 8G CAT; engine: 8B CAVEATS">C/T</td>`,
		`<td class="new best" title="engine: 8B CAVEATS">V</td>`,
		`<td class="new played" title="played: 8G CAT">T</td>`,
		`<svg id="chart-lost"`, `<svg id="chart-score"`,
		`<span class="flag missed_bingo">missed_bingo</span>`,
		`<span class="flag phony">phony</span>`,
		"CAVEATS was there.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	// One bar per reviewed turn in the chart of equity lost.
	lost := page[strings.Index(page, `<svg id="chart-lost"`):]
	lost = lost[:strings.Index(lost, "</svg>")]
	if n := strings.Count(lost, "<rect "); n != 3 {
		t.Errorf("%d bars, want 3", n)
	}
	// Names are escaped.
	rep.Players[0].Name = `<b>Ann & "Co"</b>`
	buf.Reset()
	if err := WriteHTML(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<b>Ann") || !strings.Contains(buf.String(), "&lt;b&gt;Ann &amp; &#34;Co&#34;&lt;/b&gt;") {
		t.Error("the player's name is not escaped")
	}
}

// chromium returns the path of a headless Chromium, skipping the test when
// there is none, except in CI (SCRABBLE_LEXICA_DIR set), where .ci/run
// installs it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(testlex.EnvVar) != "" {
		t.Fatal("chromium is not installed (.ci/run installs it with apt-get install chromium)")
	}
	t.Skip("chromium is not installed; skipping the browser test")
	return ""
}

// TestHTMLInChromium renders a real game's report in headless Chromium and
// checks the page's own script ran without an error, nothing was logged to
// the console, and every turn is in the rendered page.
func TestHTMLInChromium(t *testing.T) {
	browser := chromium(t)
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	rep := mustReview(t, replay(t, testlex.Game(t, "noah_vs_mishu.gcg")), Options{Tables: testgen.Tables(lex), Leaves: leaves})
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	if err := WriteHTML(&buf, rep); err != nil {
		t.Fatal(err)
	}
	checkSelfContained(t, buf.String())
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-extensions", "--enable-logging=stderr", "--v=0", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--dump-dom", "file://"+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	dom := stdout.String()
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			t.Errorf("console message: %s", line)
		}
	}
	if regexp.MustCompile(`<html[^>]*data-js-error`).MatchString(dom) {
		t.Error("the page's script raised an error")
	}
	want := fmt.Sprintf(`<body data-turns="%d" data-ready="1">`, len(rep.Turns))
	if !strings.Contains(dom, want) {
		t.Errorf("the rendered page lacks %s (the script did not run to the end):\n%.400s", want, dom)
	}
	checkTurns(t, dom, rep)
	for _, tr := range rep.Turns {
		if !strings.Contains(dom, fmt.Sprintf(`aria-label="board before turn %d"`, tr.Turn)) {
			t.Errorf("turn %d has no board", tr.Turn)
		}
	}
}
