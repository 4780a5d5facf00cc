package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Flags every command spells the same way: parallelism is --threads (-j),
// -n is --top alone, and --top 0 means no limit.

// addThreadsFlag adds --threads (-j) with its default. With workersAlias,
// --workers (the flag's old name on the commands that play games) is read
// as --threads: same value, not shown in the help.
func addThreadsFlag(f *pflag.FlagSet, def int, usage string, workersAlias bool) {
	f.IntP("threads", "j", def, usage)
	if workersAlias {
		f.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
			if name == "workers" {
				name = "threads"
			}
			return pflag.NormalizedName(name)
		})
	}
}

// threads reads the threads setting of a command with a --threads flag:
// the flag (or --workers), else SCRABBLE_THREADS, else SCRABBLE_WORKERS,
// else threads or workers in the config file, else the flag's default. The
// old name workers is still read, below the new one.
func (a *app) threads(cmd *cobra.Command) (int, error) {
	f := cmd.Flags().Lookup("threads")
	if f == nil {
		return 0, fmt.Errorf("%s has no --threads flag", cmd.CommandPath())
	}
	what, text := "--threads", f.Value.String()
	switch {
	case f.Changed:
	case os.Getenv("SCRABBLE_THREADS") != "":
		what, text = "SCRABBLE_THREADS", os.Getenv("SCRABBLE_THREADS")
	case os.Getenv("SCRABBLE_WORKERS") != "":
		what, text = "SCRABBLE_WORKERS", os.Getenv("SCRABBLE_WORKERS")
	case a.v != nil && a.v.InConfig("threads"):
		what, text = fmt.Sprintf("threads in %s", a.v.ConfigFileUsed()), fmt.Sprint(a.v.Get("threads"))
	case a.v != nil && a.v.InConfig("workers"):
		what, text = fmt.Sprintf("workers in %s", a.v.ConfigFileUsed()), fmt.Sprint(a.v.Get("workers"))
	}
	n, err := strconv.Atoi(text)
	switch {
	case err != nil:
		return 0, usagef("%s must be a whole number, at least 1, not %q", what, text)
	case n < 1:
		return 0, usagef("%s must be at least 1, not %d", what, n)
	}
	return capThreads(a.stderr, what, n), nil
}

// capThreads caps a thread count at maxThreads, saying so on stderr.
func capThreads(stderr io.Writer, what string, n int) int {
	if n > maxThreads() {
		fmt.Fprintf(stderr, "scrabble: %s %d capped at %d threads (4 per CPU, at least 256)\n", what, n, maxThreads())
		n = maxThreads()
	}
	return n
}

// maxThreads is the most threads (or self-play workers) a command runs:
// more would only cost memory, each thread holding its own generator and
// search state.
func maxThreads() int { return max(256, 4*runtime.NumCPU()) }

// topLimit is the number of entries a --top value asks for: 0 is all.
func topLimit(top int) int {
	if top == 0 {
		return math.MaxInt
	}
	return top
}
