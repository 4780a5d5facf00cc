// Package server is the engine as an HTTP service: a JSON API (moves, best,
// sim with progress as server-sent events, endgame, peg, review of a posted
// GCG) and the web analysis board, served from the same handler. The
// caller supplies the lexica (Config.Lexicon), so the package does not know
// where they are stored. See docs/api.md.
//
// It is safe by default: bodies and CGP lines are limited in size, every
// analysis in time and in number at once, a request that goes away cancels
// its analysis, no file path is ever taken from a request, and requests
// from other origins (and, on a loopback address, for other host names) are
// refused unless allowed.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"scrabble/movegen"
)

// Lexicon is what an analysis needs of a lexicon.
type Lexicon struct {
	Name   string
	Tables *movegen.Tables
	// Leaves values the tiles kept (nil: every leave is worth 0).
	Leaves movegen.LeaveValuer
}

// Defaults of Config's limits.
const (
	DefaultMaxBody   = 1 << 20 // bytes
	DefaultTimeLimit = 30 * time.Second
	DefaultQueueWait = 5 * time.Second
	// MaxCGP is the longest CGP line accepted: a full board with every
	// opcode is a few hundred bytes.
	MaxCGP = 4096
)

// Config says where the lexica come from and how much a client may ask.
type Config struct {
	// Lexicon returns the installed lexicon of that name, or the default
	// one for "". The server passes only valid lexicon names (letters,
	// digits, '-' and '_'), never a path.
	Lexicon func(name string) (*Lexicon, error)
	// MaxAnalyses is how many analyses run at once (default: the number
	// of CPUs); others wait up to QueueWait, then get 503.
	MaxAnalyses int
	QueueWait   time.Duration
	// TimeLimit bounds every analysis (default DefaultTimeLimit); a
	// request may ask for less.
	TimeLimit time.Duration
	// MaxBody is the largest request body in bytes (default DefaultMaxBody).
	MaxBody int64
	// Threads is how many threads a sim, endgame or peg uses (default 1).
	Threads int
	// AllowOrigin, if set, is an origin ("https://example.org", or "*")
	// whose pages may call the API; other cross-origin requests are
	// refused.
	AllowOrigin string
	// LoopbackHosts refuses requests whose Host is not a loopback name
	// (localhost, 127.0.0.1, [::1]): a server listening on a loopback
	// address is then out of reach of DNS rebinding.
	LoopbackHosts bool
	// Log receives a line for each internal error (default: log.Default).
	Log *log.Logger
}

// Server is the HTTP handler of the API and the page.
type Server struct {
	cfg  Config
	sem  chan struct{}
	mux  *http.ServeMux
	logf func(format string, args ...any)
}

// New returns a server with cfg's limits, defaults filled in.
func New(cfg Config) (*Server, error) {
	if cfg.Lexicon == nil {
		return nil, errors.New("server: no lexicon source")
	}
	if cfg.MaxAnalyses <= 0 {
		cfg.MaxAnalyses = runtime.NumCPU()
	}
	if cfg.QueueWait <= 0 {
		cfg.QueueWait = DefaultQueueWait
	}
	if cfg.TimeLimit <= 0 {
		cfg.TimeLimit = DefaultTimeLimit
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Threads <= 0 {
		cfg.Threads = 1
	}
	if cfg.Log == nil {
		cfg.Log = log.Default()
	}
	if o := cfg.AllowOrigin; o != "" && o != "*" {
		u, err := url.Parse(o)
		if err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return nil, fmt.Errorf("server: allowed origin %q is not scheme://host[:port] or *", o)
		}
		cfg.AllowOrigin = strings.TrimSuffix(o, "/")
	}
	s := &Server{cfg: cfg, sem: make(chan struct{}, cfg.MaxAnalyses), mux: http.NewServeMux()}
	s.logf = cfg.Log.Printf
	s.mux.HandleFunc("POST /api/moves", s.analysis(s.moves))
	s.mux.HandleFunc("POST /api/best", s.analysis(s.best))
	s.mux.HandleFunc("POST /api/sim", s.analysis(s.sim))
	s.mux.HandleFunc("POST /api/endgame", s.analysis(s.endgame))
	s.mux.HandleFunc("POST /api/peg", s.analysis(s.peg))
	s.mux.HandleFunc("POST /api/infer", s.analysis(s.inference))
	s.mux.HandleFunc("POST /api/review", s.analysis(s.review))
	s.mux.HandleFunc("GET /api/info", s.info)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		switch strings.TrimPrefix(r.URL.Path, "/api/") {
		case "moves", "best", "sim", "endgame", "peg", "infer", "review":
			w.Header().Set("Allow", "POST")
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: the analyses take POST (see docs/api.md)", r.Method, r.URL.Path))
			return
		}
		writeError(w, http.StatusNotFound, fmt.Errorf("no such endpoint: %s %s (see docs/api.md)", r.Method, r.URL.Path))
	})
	static, err := fs.Sub(webFiles, "web")
	if err != nil {
		return nil, err
	}
	files := noSniff(http.FileServerFS(static))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: the page takes GET (the API is under /api/)", r.Method, r.URL.Path))
			return
		}
		files.ServeHTTP(w, r)
	})
	return s, nil
}

// ServeHTTP checks the request's origin and host, then routes it, turning
// a panic into a 500 answer and a log line.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.logf("scrabble serve: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
			writeError(w, http.StatusInternalServerError, errors.New("internal error (logged by the server)"))
		}
	}()
	if s.cfg.LoopbackHosts && !loopbackHost(r.Host) {
		writeError(w, http.StatusForbidden, fmt.Errorf("host %q refused: this server answers only to localhost", r.Host))
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r) {
		if !s.originAllowed(origin) {
			writeError(w, http.StatusForbidden, fmt.Errorf("cross-origin request from %s refused (see scrabble serve --allow-origin)", origin))
			return
		}
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Add("Vary", "Origin")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Accept")
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) originAllowed(origin string) bool {
	return s.cfg.AllowOrigin == "*" || strings.EqualFold(origin, s.cfg.AllowOrigin)
}

// sameOrigin says origin is the server's own (browsers send Origin on
// same-origin POSTs too).
func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, r.Host)
}

// loopbackHost says host (a Host header, maybe with a port) names this
// machine's loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func noSniff(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'")
		h.ServeHTTP(w, r)
	})
}

// HTTPServer returns an http.Server for the handler on addr, with time
// limits that keep slow clients from holding connections: the write limit
// leaves room for the longest analysis (a sim's event stream sets its own).
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      s.cfg.TimeLimit + s.cfg.QueueWait + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          s.cfg.Log,
	}
}

// apiError is an error with the HTTP status to answer it with.
type apiError struct {
	status int
	err    error
}

func (e *apiError) Error() string { return e.err.Error() }
func (e *apiError) Unwrap() error { return e.err }

// badRequest is a mistake in the request (400).
func badRequest(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, fmt.Errorf(format, args...)}
}

// writeError answers {"error": "..."} with status.
func writeError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// writeJSON answers v with 200.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	json.NewEncoder(w).Encode(v)
}

// handler is an analysis: it answers, or returns an error that analysis
// answers for it.
type handler func(ctx context.Context, w http.ResponseWriter, r *http.Request) error

// analysis wraps an analysis handler: a bounded body, a place among the
// MaxAnalyses running (or 503 after QueueWait), the time limit, and the
// error answered as JSON.
func (s *Server) analysis(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		wait := time.NewTimer(s.cfg.QueueWait)
		select {
		case s.sem <- struct{}{}:
			wait.Stop()
		case <-wait.C:
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, fmt.Errorf("busy: %d analyses are running, the most at once; try again in a moment", cap(s.sem)))
			return
		case <-r.Context().Done():
			wait.Stop()
			return // the client went away while waiting
		}
		defer func() { <-s.sem }()
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.TimeLimit)
		defer cancel()
		err := h(ctx, w, r)
		if err == nil {
			return
		}
		var ae *apiError
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &ae):
			writeError(w, ae.status, err)
		case errors.As(err, &mbe):
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("request body larger than %d bytes", mbe.Limit))
		case r.Context().Err() != nil:
			// Nobody is listening any more.
		default:
			s.logf("scrabble serve: %s %s: %v", r.Method, r.URL.Path, err)
			writeError(w, http.StatusInternalServerError, err)
		}
	}
}

// timeLimit is the analysis time a request asks for (its "time", a Go
// duration such as "5s"), at most the server's limit; def when it asks for
// none.
func (s *Server) timeLimit(asked string, def time.Duration) (time.Duration, error) {
	d := min(def, s.cfg.TimeLimit)
	if asked == "" {
		return d, nil
	}
	t, err := time.ParseDuration(asked)
	if err != nil || t <= 0 {
		return 0, badRequest("time %q is not a positive duration such as 5s or 500ms", asked)
	}
	return min(t, s.cfg.TimeLimit), nil
}

// info answers what the server offers: the default lexicon and the limits.
func (s *Server) info(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{
		"max_analyses":       cap(s.sem),
		"time_limit_seconds": s.cfg.TimeLimit.Seconds(),
		"max_body":           s.cfg.MaxBody,
	}
	if lex, err := s.cfg.Lexicon(""); err == nil {
		out["lexicon"] = lex.Name
	} else {
		out["lexicon_error"] = err.Error()
	}
	writeJSON(w, out)
}
