package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/internal/crash"
	"scrabble/lexica"
	"scrabble/movegen"
	"scrabble/server"
)

func newServeCmd(a *app) *cobra.Command {
	var (
		addr, allowOrigin string
		open              bool
		maxAnalyses       int
		timeLimit         time.Duration
		threads           int
	)
	cmd := &cobra.Command{
		Use:         "serve [--addr 127.0.0.1:8080] [--open]",
		Annotations: interruptible(),
		Short:       "Serve the JSON API and the web analysis board over HTTP",
		Long: `Serve the engine over HTTP: a JSON API (moves, best, sim with progress as
server-sent events, endgame, peg, review of a posted GCG; docs/api.md) and, at
/, a web analysis board and game review page, all from this binary (nothing
is loaded from other hosts). The lexica and their tables load once.

Safe by default: it listens on 127.0.0.1 (and then answers only to
localhost names); request bodies are limited to 1 MB; each analysis to
--time-limit and cancelled when its client goes away; at most --max-analyses
run at once (others wait up to 5s, then get 503); no file path is ever taken
from a request; requests from pages of other origins are refused unless
--allow-origin names theirs. Ctrl-C stops it, letting answers under way finish
for a few seconds.

A request's lexicon is its "lexicon" field, else the CGP's lex opcode if that
lexicon is installed, else --lexicon, else the default lexicon.`,
		Example: `  scrabble serve
  scrabble serve --open
  scrabble serve --addr 127.0.0.1:9000 --max-analyses 2 --time-limit 10s
  curl -s localhost:8080/api/best -d '{"cgp": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"}'`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if maxAnalyses < 0 {
				return usagef("--max-analyses must be 0 (the number of CPUs) or more, not %d", maxAnalyses)
			}
			if timeLimit <= 0 {
				return usagef("--time-limit must be positive, not %v", timeLimit)
			}
			if threads < 1 || threads > maxThreads() {
				return usagef("--threads must be from 1 to %d, not %d", maxThreads(), threads)
			}
			lx := &serveLexica{a: a, of: map[string]*server.Lexicon{}}
			// The default lexicon loads now: the first answer is as quick
			// as any, and a missing one is said at once.
			def, err := lx.get("")
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("listening on %s: %w", addr, err)
			}
			host, _, _ := net.SplitHostPort(ln.Addr().String())
			ip := net.ParseIP(host)
			srv, err := server.New(server.Config{
				Lexicon: lx.get, MaxAnalyses: maxAnalyses, TimeLimit: timeLimit, Threads: threads,
				AllowOrigin: allowOrigin, LoopbackHosts: ip != nil && ip.IsLoopback(),
				Log: log.New(a.stderr, "", log.LstdFlags),
			})
			if err != nil {
				ln.Close()
				return usageError{err}
			}
			hs := srv.HTTPServer(addr)
			url := "http://" + browserAddr(ln.Addr().String()) + "/"
			fmt.Fprintf(a.stderr, "Serving %s (lexicon %s) at %s; Ctrl-C stops\n", "the analysis board and the API", def.Name, url)
			if open {
				openBrowser(a, url)
			}
			served := make(chan error, 1)
			var g crash.Group // a panic in Serve is an error of the command
			g.Go(func() { served <- hs.Serve(ln) })
			select {
			case err := <-served:
				if perr := g.Wait(); perr != nil {
					return perr
				}
				return fmt.Errorf("serving: %w", err)
			case <-cmd.Context().Done():
			}
			fmt.Fprintln(a.stderr, "scrabble: stopping: answers under way get 5s to finish")
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := hs.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			hs.Close()
			if err := <-served; !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return g.Wait()
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; a host other than 127.0.0.1 or localhost opens it to the network)")
	f.BoolVar(&open, "open", false, "open the page in the web browser")
	f.IntVar(&maxAnalyses, "max-analyses", 0, "analyses run at once; others wait, then get 503 (0: the number of CPUs)")
	f.StringVar(&allowOrigin, "allow-origin", "", "an origin (https://example.org, or *) whose pages may call the API")
	f.DurationVar(&timeLimit, "time-limit", server.DefaultTimeLimit, "the longest an analysis may run")
	f.IntVarP(&threads, "threads", "j", 1, "threads of each sim, endgame or pre-endgame")
	return cmd
}

// browserAddr is a listening address as a browser reaches it: an
// unspecified host (":8080", "0.0.0.0") is this machine.
func browserAddr(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// openBrowser opens url in the desktop's browser, or says it cannot.
func openBrowser(a *app, url string) {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name = "explorer"
	}
	if err := exec.Command(name, url).Start(); err != nil {
		fmt.Fprintf(a.stderr, "scrabble: warning: cannot open a browser (%v): open %s yourself\n", err, url)
	}
}

// serveLexica loads each lexicon a request names once: its GADDAG, the
// move generator's tables and the leave values.
type serveLexica struct {
	a  *app
	mu sync.Mutex
	of map[string]*server.Lexicon // by lower-case name; "" the default
}

// get returns the installed lexicon name ("" the default: --lexicon, else
// the registry's). A name is looked up among the installed lexica only,
// never as a file.
func (l *serveLexica) get(name string) (*server.Lexicon, error) {
	key := strings.ToLower(name)
	l.mu.Lock()
	defer l.mu.Unlock()
	if lex, ok := l.of[key]; ok {
		return lex, nil
	}
	var (
		g   *gaddag.GADDAG
		err error
	)
	if name == "" {
		g, err = l.a.reg.Resolve(l.a.v.GetString("lexicon"))
	} else {
		if !lexica.ValidName(name) {
			return nil, fmt.Errorf("%q is not a lexicon name", name)
		}
		var inf lexica.Info
		if inf, err = l.a.reg.Info(name); err == nil {
			g, err = gaddag.Load(inf.Path)
		}
	}
	if err != nil {
		return nil, err
	}
	lexName := g.Header().Name
	if lex, ok := l.of[strings.ToLower(lexName)]; ok && name != "" {
		l.of[key] = lex
		return lex, nil
	}
	lex := &server.Lexicon{Name: lexName, Tables: l.a.tablesFor(g, movegen.HugePages)}
	table, err := eval.DefaultLeaves(lexName)
	if err != nil {
		return nil, err
	}
	if table != nil {
		lex.Leaves = table
	}
	l.of[key] = lex
	return lex, nil
}
