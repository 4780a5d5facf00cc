package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"scrabble/internal/crash"
)

// thousands formats n with comma separators: 267751 -> "267,751".
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// humanSize formats a byte count in decimal units: "4.2 MB".
func humanSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, u := float64(n)/unit, 0
	for f >= unit && u < 3 {
		f /= unit
		u++
	}
	return fmt.Sprintf("%.1f %cB", f, "kMGT"[u])
}

// elapsed rounds a duration for people: "153ms", "2.3s", "1m4s".
func elapsed(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress shows that a long job is running: on a terminal a spinner with
// the stage and elapsed time, elsewhere one line saying what is starting.
type progress struct {
	bar  *progressbar.ProgressBar
	what string
	done chan struct{}
	tick crash.Group
}

func startProgress(w io.Writer, what string) *progress {
	p := &progress{what: what}
	if !isTerminal(w) {
		fmt.Fprintf(w, "%s ...\n", what)
		return p
	}
	p.bar = progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetSpinnerChangeInterval(0), // ticked below
		progressbar.OptionClearOnFinish(),
	)
	p.done = make(chan struct{})
	p.tick.Go(func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-t.C:
				p.bar.Add(1)
			}
		}
	})
	return p
}

// stage names the current step ("reading", "compiling", "writing").
func (p *progress) stage(s string) {
	if p.bar != nil {
		p.bar.Describe(p.what + ": " + s)
	}
}

// stop clears the spinner.
func (p *progress) stop() {
	if p.bar == nil {
		return
	}
	close(p.done)
	p.tick.Rethrow()
	p.bar.Finish()
}
