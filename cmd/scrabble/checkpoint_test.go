package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"scrabble/internal/runlock"
	"scrabble/internal/runrecord"
	"strings"
	"testing"
)

// TestResumeRefusesOtherSettings: every resumable run refuses to resume with
// any setting other than the one it began with, naming the setting, its
// recorded value and the new one, and leaves the run as it was.
// otherWords has as many words as moveWords, one of them another.
var otherWords = strings.Replace(moveWords, "TAES\n", "SATE\n", 1)

func TestResumeRefusesOtherSettings(t *testing.T) {
	e := movesEnv(t)
	e.ok("lexicon", "add", "SAME", e.file("same.txt", moveWords))
	e.ok("lexicon", "add", "OTHER", e.file("other.txt", moveWords+"SATE\n"))
	leaves := e.file("leaves.csv", "leave,value\nS,8\n?,25.5\n")
	selfplayDir := filepath.Join(e.root, "selfplay")
	leavesOut := filepath.Join(e.root, "leaves.leaves")
	winpctOut := filepath.Join(e.root, "winpct.csv")
	type change struct {
		args []string
		msg  string // after "cannot resume: "
	}
	runs := []struct {
		name    string
		base    []string
		work    string
		changes []change
	}{
		{"selfplay", []string{"selfplay", "--lexicon", "SAME", "--games", "4", "--p1", "equity", "--p2", "sim",
			"--p2-iterations", "4", "--p2-candidates", "3", "--out", selfplayDir}, selfplayDir, []change{
			{[]string{"--lexicon", "OTHER"}, "lexicon was SAME (recorded in %s), now OTHER"},
			{[]string{"--p1", "score"}, "p1 was equity (recorded in %s), now score"},
			{[]string{"--p1", "sim"}, "p1 was equity (recorded in %s), now sim"},
			{[]string{"--p1-leaves", leaves, "--allow-partial-leaves"}, "p1-leaves was none (recorded in %s), now sha256:"},
			{[]string{"--p1-terms", "open=2"}, "p1-terms was none (recorded in %s), now open=2"},
			{[]string{"--p2-iterations", "5"}, "p2-iterations was 4 (recorded in %s), now 5"},
			{[]string{"--p2-candidates", "2"}, "p2-candidates was 3 (recorded in %s), now 2"},
			{[]string{"--p2-plies", "3"}, "p2-plies was 2 (recorded in %s), now 3"},
			{[]string{"--p2-stop", "none"}, "p2-stop was 95 (recorded in %s), now none"},
			{[]string{"--seed", "2"}, "seed was 1 (recorded in %s), now 2"},
			{[]string{"--pairs"}, "pairs was false (recorded in %s), now true"},
			{[]string{"--games", "3"}, "games was 4 (recorded in %s), now 3: a resumed run can go on to more, not fewer"},
		}},
		{"leaves train", []string{"leaves", "train", "--lexicon", "SAME", "--games", "6", "--generations", "2", "--out", leavesOut},
			leavesOut + ".train", []change{
				{[]string{"--lexicon", "OTHER"}, "lexicon was SAME (recorded in %s), now OTHER"},
				{[]string{"--seed", "2"}, "seed was 1 (recorded in %s), now 2"},
				{[]string{"--games", "7"}, "games was 6 (recorded in %s), now 7"},
				{[]string{"--games", "5"}, "games was 6 (recorded in %s), now 5"},
				{[]string{"--prior", "5"}, "prior was 100 (recorded in %s), now 5"},
				{[]string{"--observe", "next"}, "observe was rack (recorded in %s), now next"},
				{[]string{"--from", leaves, "--allow-partial"}, "from was none (recorded in %s), now sha256:"},
				{[]string{"--generations", "1"}, "generations was 2 (recorded in %s), now 1: a resumed run can go on to more, not fewer"},
			}},
		{"winpct train", []string{"winpct", "train", "--lexicon", "SAME", "--games", "6", "--out", winpctOut},
			winpctOut + ".train", []change{
				{[]string{"--lexicon", "OTHER"}, "lexicon was SAME (recorded in %s), now OTHER"},
				{[]string{"--seed", "2"}, "seed was 1 (recorded in %s), now 2"},
				{[]string{"--games", "7"}, "games was 6 (recorded in %s), now 7"},
			}},
		// Two commands writing to the same FILE share FILE.train.
		{"leaves train then winpct train", []string{"winpct", "train", "--lexicon", "SAME", "--games", "6", "--out", leavesOut},
			leavesOut + ".train", []change{
				{nil, "command was leaves train (recorded in %s), now winpct train"},
			}},
	}
	// snapshot is what a refused resume must leave as it was.
	snapshot := func(work string) string {
		var b strings.Builder
		files, _ := filepath.Glob(filepath.Join(work, "*"))
		for _, f := range files {
			if filepath.Base(f) == runlock.File {
				continue // its content is the last run's pid
			}
			data, _ := os.ReadFile(f)
			fmt.Fprintf(&b, "%s %x\n", filepath.Base(f), sha256.Sum256(data))
		}
		return b.String()
	}
	for _, run := range runs {
		if _, err := os.Stat(run.work); err != nil {
			e.ok(run.base...)
		}
		before := snapshot(run.work)
		if !strings.Contains(before, runrecord.SettingsFile) {
			t.Fatalf("%s: no %s in %s:\n%s", run.name, runrecord.SettingsFile, run.work, before)
		}
		settings := filepath.Join(run.work, runrecord.SettingsFile)
		for _, c := range run.changes {
			args := append(append(append([]string{}, run.base...), c.args...), "--resume")
			want := run.work + ": cannot resume: " + fmt.Sprintf(c.msg, settings)
			if r := e.run(args...); r.code != 1 || !strings.HasPrefix(r.stderr, "scrabble: "+want) {
				t.Errorf("%s %v: exit %d, stderr %q\nwant exit 1 and %q", run.name, c.args, r.code, r.stderr, want)
			}
			if after := snapshot(run.work); after != before {
				t.Errorf("%s %v: the refused resume changed the run:\n%s\nwas\n%s", run.name, c.args, after, before)
			}
		}
		// The same settings resume, on another number of threads.
		if run.name != "leaves train then winpct train" {
			e.ok(append(append([]string{}, run.base...), "--resume", "--threads", "1")...)
		}
	}

	// The same lexicon name on another word list: its word count, or (the
	// same count) its contents, differ.
	e.ok("lexicon", "add", "SAME", e.file("same2.txt", moveWords+"SATE\n"))
	for _, run := range runs[:3] {
		want := fmt.Sprintf("%s: cannot resume: lexicon words was %d (recorded in %s), now %d",
			run.work, strings.Count(moveWords, "\n"), filepath.Join(run.work, runrecord.SettingsFile), strings.Count(moveWords, "\n")+1)
		if r := e.run(append(run.base, "--resume")...); r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s on a reinstalled lexicon: %+v\nwant %q", run.name, r, want)
		}
	}
	e.ok("lexicon", "add", "SAME", e.file("same3.txt", otherWords))
	was, now := sha256.Sum256([]byte(moveWords)), sha256.Sum256([]byte(otherWords))
	for _, run := range runs[:3] {
		want := fmt.Sprintf("%s: cannot resume: lexicon sha256 was %x (recorded in %s), now %x",
			run.work, was, filepath.Join(run.work, runrecord.SettingsFile), now)
		if r := e.run(append(run.base, "--resume")...); r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s on a lexicon with other words: %+v\nwant %q", run.name, r, want)
		}
	}

	// A run from before the record was kept cannot be checked.
	e.ok("lexicon", "add", "SAME", e.file("same.txt", moveWords))
	for _, run := range runs[:3] {
		if err := os.Remove(filepath.Join(run.work, runrecord.SettingsFile)); err != nil {
			t.Fatal(err)
		}
		want := run.work + ": cannot resume: it has no settings.json (a run from an older version of scrabble)"
		if r := e.run(append(run.base, "--resume")...); r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s without %s: %+v\nwant %q", run.name, runrecord.SettingsFile, r, want)
		}
	}
}

// TestResumeSameAsWhole: a run interrupted and resumed with the same
// settings (on other threads), or resumed to go on to more games
// (selfplay) or generations (leaves train), gives what one uninterrupted
// run gives.
func TestResumeSameAsWhole(t *testing.T) {
	e := movesEnv(t)
	leaves := e.file("leaves.csv", "leave,value\nS,8\n?,25.5\nQ,-7\n")
	path := func(name string) string { return filepath.Join(e.root, name) }
	read := func(name string) []byte {
		t.Helper()
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}

	// selfplay: cut the results file after 3 games and part of a 4th.
	play := []string{"selfplay", "--games", "8", "--pairs", "--p1-leaves", leaves, "--allow-partial-leaves", "--p2", "equity", "--json"}
	_, whole := parseSelfplayJSON(t, e.ok(play...))
	e.ok(append(play, "--out", path("cut"))...)
	lines := strings.SplitAfter(string(read(path("cut/results.jsonl"))), "\n")
	if len(lines) != 9 {
		t.Fatalf("results.jsonl holds %d lines", len(lines))
	}
	if err := os.WriteFile(path("cut/results.jsonl"), []byte(strings.Join(lines[:3], "")+lines[3][:10]), 0o644); err != nil {
		t.Fatal(err)
	}
	s, cut := parseSelfplayJSON(t, e.ok(append(play, "--out", path("cut"), "--resume", "-j", "1")...))
	if s.Played != 5 || !jsonEqual(comparable(cut), comparable(whole)) {
		t.Errorf("selfplay resumed after 3 games: played %d\n%v\nwhole run\n%v", s.Played, cut, whole)
	}
	e.ok(append(play, "--out", path("grow"), "--games", "3")...)
	s, grown := parseSelfplayJSON(t, e.ok(append(play, "--out", path("grow"), "--resume")...))
	if s.Played != 5 || !jsonEqual(comparable(grown), comparable(whole)) {
		t.Errorf("selfplay resumed from 3 games to 8: played %d\n%v\nwhole run\n%v", s.Played, grown, whole)
	}

	// Training runs, with checkpoints every 4 games: 10 games are chunks of
	// 4, 4 and 2, and a run of 8 games leaves the checkpoint a run of 10
	// has after its second chunk.
	defer func(l, w int) { trainChunk, winpctChunk = l, w }(trainChunk, winpctChunk)
	trainChunk, winpctChunk = 4, 4
	interrupted := func(whole, part, resumed string) {
		t.Helper()
		if err := os.MkdirAll(resumed+".train", 0o755); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(part + ".train/*c000002*")
		if len(files) != 1 {
			t.Fatalf("checkpoints of %s: %v", part, files)
		}
		for _, f := range append(files, whole+".train/"+runrecord.SettingsFile) {
			if err := os.WriteFile(filepath.Join(resumed+".train", filepath.Base(f)), read(f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	train := func(out string, extra ...string) result {
		return e.run(append([]string{"leaves", "train", "--games", "10", "--generations", "2", "--seed", "3", "--out", out}, extra...)...)
	}
	for _, r := range []result{
		train(path("whole.leaves"), "-j", "2"),
		train(path("grow.leaves"), "--generations", "1"),
		train(path("grow.leaves"), "--resume", "-j", "1"),
		train(path("part.leaves"), "--games", "8", "--generations", "1"),
	} {
		if r.code != 0 {
			t.Fatalf("leaves train: %+v", r)
		}
	}
	interrupted(path("whole.leaves"), path("part.leaves"), path("cut.leaves"))
	r := train(path("cut.leaves"), "--resume", "-j", "1")
	if r.code != 0 || !strings.Contains(r.stdout, "Generation 1: resuming after 8 games") {
		t.Fatalf("leaves train resumed after 8 games: %+v", r)
	}
	for _, name := range []string{"grow.leaves", "cut.leaves"} {
		if !bytes.Equal(read(path(name)), read(path("whole.leaves"))) {
			t.Errorf("leaves train: %s differs from the uninterrupted run's values", name)
		}
	}
	if r := train(path("grow.leaves"), "--resume"); r.code != 0 || !strings.Contains(r.stdout, "Generation 2: done earlier") {
		t.Errorf("a run grown to 2 generations resumed again: %+v", r)
	}

	win := func(out string, games string, extra ...string) {
		t.Helper()
		e.ok(append([]string{"winpct", "train", "--games", games, "--seed", "3", "--out", out}, extra...)...)
	}
	win(path("whole.csv"), "10")
	win(path("part.csv"), "8")
	interrupted(path("whole.csv"), path("part.csv"), path("cut.csv"))
	if out := e.ok("winpct", "train", "--games", "10", "--seed", "3", "--out", path("cut.csv"), "--resume", "-j", "1"); !strings.Contains(out, "Resuming after 8 games") {
		t.Errorf("winpct train resumed after 8 games printed:\n%s", out)
	}
	if !bytes.Equal(read(path("cut.csv")), read(path("whole.csv"))) {
		t.Errorf("winpct train resumed after 8 games differs from the uninterrupted run:\n%s\nwhole:\n%s", read(path("cut.csv")), read(path("whole.csv")))
	}
}
