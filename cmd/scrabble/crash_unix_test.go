//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFatalErrorExitStatus: a fatal runtime error (here a real stack
// overflow, which no recover catches) kills the built binary by SIGABRT
// after Go's report, never with exit status 2 (a usage error), and leaves
// no core file even where core files are allowed.
func TestFatalErrorExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	// Allow core files, as a user's shell may, for the child only: the
	// binary must lower the limit itself.
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
		t.Fatal(err)
	}
	raised := lim
	raised.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &raised); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "version")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), testPanicEnv+"=fatal", "GOTRACEBACK=")
	out, err := cmd.CombinedOutput()
	if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Fatalf("exit 0, output %q", out)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGABRT {
		t.Errorf("exit status %d (signaled %v), want death by SIGABRT, never 2", ws.ExitStatus(), ws.Signaled())
	}
	if !strings.Contains(string(out), "fatal error: stack overflow") {
		t.Errorf("output does not say it crashed: %.300q", out)
	}
	if cores, _ := filepath.Glob(filepath.Join(dir, "core*")); len(cores) > 0 {
		t.Errorf("core file left: %v", cores)
	}
}
