package atomicfile

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperDirEnv makes the test binary a writer that stays in the middle of
// writing (TestHelperWriter) until it is killed.
const helperDirEnv = "ATOMICFILE_HELPER_DIR"

// TestHelperWriter is not a test: run by TestRemoveStaleKilledWriter as a
// child process, it starts writing DIR/out.bin, prints its temporary
// file's name and waits, mid-write, to be killed.
func TestHelperWriter(t *testing.T) {
	dir := os.Getenv(helperDirEnv)
	if dir == "" {
		t.Skip("a helper process of TestRemoveStaleKilledWriter")
	}
	f, err := Create(filepath.Join(dir, "out.bin"), Options{Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	f.Write(make([]byte, 1<<20))
	os.Stdout.WriteString(f.Name() + "\n")
	time.Sleep(time.Minute)
	t.Fatal("not killed")
}

// startWriter starts a helper writer in dir and returns it with its
// temporary file's name.
func startWriter(t *testing.T, dir string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
	cmd.Env = append(os.Environ(), helperDirEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	name, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper writer: %v", err)
	}
	go io.Copy(io.Discard, out)
	return cmd, strings.TrimSpace(name)
}

func exists(name string) bool { _, err := os.Lstat(name); return err == nil }

// TestRemoveStaleKilledWriter: the temporary file of a writer SIGKILLed
// mid-write is removed, and so is one nobody holds; a live writer's (in
// another process, or in this one) is kept, as are files and directories
// that do not match.
func TestRemoveStaleKilledWriter(t *testing.T) {
	dir := t.TempDir()
	killed, killedTmp := startWriter(t, dir)
	live, liveTmp := startWriter(t, dir)
	if err := killed.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.Wait()
	if !exists(killedTmp) || !exists(liveTmp) {
		t.Fatalf("the writers' temporary files %s, %s are not there", killedTmp, liveTmp)
	}
	orphan := filepath.Join(dir, ".old.csv.tmp1234")
	keep := filepath.Join(dir, "keep.txt")
	subdir := filepath.Join(dir, ".sub.tmp99")
	for _, name := range []string{orphan, keep} {
		if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(subdir, 0o755); err != nil {
		t.Fatal(err)
	}
	mine, err := Create(filepath.Join(dir, "mine.txt"), Options{})
	if err != nil {
		t.Fatal(err)
	}

	removed, err := RemoveStale(dir, RunPattern)
	slices.Sort(removed)
	want := []string{killedTmp, orphan}
	slices.Sort(want)
	if err != nil || !slices.Equal(removed, want) {
		t.Errorf("removed %v, %v; want %v", removed, err, want)
	}
	for _, name := range []string{liveTmp, mine.Name(), keep, subdir} {
		if !exists(name) {
			t.Errorf("%s was removed", name)
		}
	}
	if err := mine.Commit(); err != nil {
		t.Fatalf("committing beside a cleaning: %v", err)
	}

	// Once the live writer dies, its file is stale too.
	live.Process.Signal(syscall.SIGKILL)
	live.Wait()
	if removed, err := RemoveStale(dir, RunPattern); err != nil || !slices.Equal(removed, []string{liveTmp}) {
		t.Errorf("after the second kill: removed %v, %v", removed, err)
	}
	if removed, err := RemoveStale(filepath.Join(dir, "none"), RunPattern); err != nil || removed != nil {
		t.Errorf("a missing directory: %v, %v", removed, err)
	}
}

// TestCreateHoldsLock: from Create to Commit or Abort the temporary file
// is locked, so RemoveStale never takes it; after either nothing is left
// locked or behind.
func TestCreateHoldsLock(t *testing.T) {
	dir := t.TempDir()
	for _, commit := range []bool{true, false} {
		f, err := Create(filepath.Join(dir, "out.txt"), Options{Perm: 0o644})
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("data")
		if removed, _ := RemoveStale(dir, RunPattern); len(removed) != 0 || !exists(f.Name()) {
			t.Fatalf("a live writer's temporary file was removed: %v", removed)
		}
		if commit {
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}
		} else {
			f.Abort()
		}
		if f.lock != -1 {
			t.Errorf("commit %v: the lock is still held", commit)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 || entries[0].Name() != "out.txt" {
			t.Errorf("commit %v: left %v", commit, entries)
		}
	}
}
