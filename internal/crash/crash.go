// Package crash turns a panic, which would otherwise kill the process with
// a goroutine dump, into an error that says what went wrong and where, so
// a worker goroutine's bug ends a command like any other failure: with a
// one-line message, a non-zero exit, and the results written so far kept.
package crash

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Error describes a value recovered from a panic as "internal error: VALUE
// (at FILE:LINE)", the site being where the panic was raised. Call it from
// the deferred function that recovered r, so the stack still holds the
// panicking frames.
//
// The error is a *Panic, so that a command can tell a bug from a failure
// (the command-line tool exits with its own status for one).
func Error(r any) error {
	if site := panicSite(debug.Stack()); site != "" {
		return &Panic{fmt.Sprintf("internal error: %v (at %s)", r, site)}
	}
	return &Panic{fmt.Sprintf("internal error: %v", r)}
}

// Panic is a recovered panic, as Error describes it.
type Panic struct{ msg string }

func (p *Panic) Error() string { return p.msg }

// panicSite finds, in a stack trace taken while panicking, the first frame
// below the panic outside the runtime: the code that raised it (an index
// out of range is raised by a runtime helper called from that code). It
// returns the file's last two path elements and the line, or "".
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "panic(") {
		i++
	}
	for i += 2; i+1 < len(lines); i += 2 { // function line, then its file line
		if strings.HasPrefix(lines[i], "runtime.") {
			continue
		}
		file := strings.TrimSpace(lines[i+1])
		if sp := strings.LastIndexByte(file, ' '); sp >= 0 {
			file = file[:sp] // the " +0x1f" offset
		}
		if parts := strings.Split(file, "/"); len(parts) > 2 {
			file = strings.Join(parts[len(parts)-2:], "/")
		}
		return file
	}
	return ""
}
