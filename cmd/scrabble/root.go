package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"scrabble/gaddag"
	"scrabble/internal/crash"
	"scrabble/internal/readlimit"
	"scrabble/lexica"
	"scrabble/movegen"
)

// app is what the commands of one run share.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	v              *viper.Viper     // flags > SCRABBLE_* environment > config file
	reg            *lexica.Registry // set up before any command runs
	// stopInterrupts gives Ctrl-C back its default (see interruptible).
	stopInterrupts context.CancelFunc
	// tables are the move generator's tables of each lexicon used, read
	// or worked out once (see tablesFor); shared by copies of the app.
	tables *tablesCache
}

type tablesCache struct {
	mu sync.Mutex
	of map[*gaddag.GADDAG]*movegen.Tables
	// preloading is set by the one-shot commands (loadTurn): each compiled
	// lexicon the registry loads then has its tables file read on another
	// goroutine meanwhile (preloads, by tables path).
	preloading bool
	preloads   map[string]*movegen.PreloadedTables
}

// preload starts reading the tables file of the compiled lexicon at
// gaddagPath, when preloading (see Registry.Loading).
func (c *tablesCache) preload(gaddagPath string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	path := movegen.TablesPathFor(gaddagPath)
	if !c.preloading || c.preloads[path] != nil {
		return
	}
	if c.preloads == nil {
		c.preloads = map[string]*movegen.PreloadedTables{}
	}
	c.preloads[path] = movegen.PreloadTablesFile(path, movegen.Mapped)
}

// tablesFor returns the move generator's tables of lex, the same for every
// caller of the run: read from the tables file beside the compiled lexicon
// into mem (movegen.Mapped for a short command, movegen.HugePages for a run
// of seconds or more), or worked out and stored there for the next run,
// with a warning when they cannot be stored.
func (a *app) tablesFor(lex *gaddag.GADDAG, mem movegen.Memory) *movegen.Tables {
	c := a.tables
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.of[lex]; ok {
		return t
	}
	// A preloaded file (nil when none) is taken if it is lex's.
	t, err := c.preloads[movegen.TablesPath(lex)].Open(lex, mem)
	if err != nil {
		fmt.Fprintf(a.stderr, "scrabble: warning: cannot store the move generator's tables of %s, so they are worked out again on every run: %v\n", lex.Header().Name, err)
	}
	c.of[lex] = t
	return t
}

// interruptible annotates a command that stops cleanly on Ctrl-C: its
// context is cancelled then (set up once, before it runs), and it reports
// or keeps the work done so far. Other commands are short, or nothing of
// theirs is lost: Ctrl-C ends them the default way.
func interruptible() map[string]string { return map[string]string{"interruptible": "yes"} }

// watchInterrupts makes Ctrl-C cancel cmd's context, if cmd is
// interruptible.
func (a *app) watchInterrupts(cmd *cobra.Command) {
	if cmd.Annotations["interruptible"] == "" {
		return
	}
	// SIGTERM (kill, a service manager) and SIGHUP (a closed terminal)
	// stop a run as Ctrl-C does: the work done so far is kept.
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	cmd.SetContext(ctx)
	a.stopInterrupts = stop
}

// usageError is a mistake in the command line (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitStatus ends the run with a status and no message: the command has
// already said what it had to.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// args wraps a cobra argument check so that its failure is a usage error.
func args(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, a []string) error {
		if err := check(cmd, a); err != nil {
			return usageError{err}
		}
		return nil
	}
}

// exitInternal is the exit status of a bug (a panic, recovered on the main
// goroutine or by a worker's crash handler): distinct from a failure (1)
// and a usage error (2). 70 is EX_SOFTWARE of sysexits.h.
const exitInternal = 70

// testPanicEnv exists only for tests (TestPanicExitStatus,
// TestFatalErrorExitStatus): set to "main", run panics on the main
// goroutine; to "worker", a goroutine started by a crash.Group panics, as
// an engine worker would (endgame, peg, movegen), and the group hands the
// panic to the waiting command as an error; to "fatal", the process dies
// of a fatal runtime error (a stack overflow, which no recover catches).
// Never set it otherwise.
const testPanicEnv = "SCRABBLE_TEST_PANIC"

// run executes the command line args and returns the exit status: 0 on
// success, 1 on failure, 2 on a usage error, 70 (exitInternal) on a bug.
// Errors are printed to stderr as "scrabble: message".
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "scrabble: %v\n", crash.Error(r))
			status = exitInternal
		}
	}()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, tables: &tablesCache{of: map[*gaddag.GADDAG]*movegen.Tables{}}}
	root := newRootCmd(a)
	root.SetArgs(argv)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	var (
		cmd *cobra.Command
		err error
	)
	switch os.Getenv(testPanicEnv) {
	case "main":
		panic("forced by " + testPanicEnv)
	case "worker":
		var g crash.Group
		g.Go(func() { panic("forced by " + testPanicEnv) })
		err = g.Wait()
	case "fatal":
		debug.SetMaxStack(1 << 20) // overflow in a moment, not at 1 GB
		fmt.Fprintln(stdout, overflow(1))
	default:
		cmd, err = root.ExecuteC()
	}
	if a.stopInterrupts != nil {
		a.stopInterrupts()
	}
	if err == nil {
		return 0
	}
	var es exitStatus
	if errors.As(err, &es) {
		return int(es)
	}
	fmt.Fprintf(stderr, "scrabble: %s\n", strings.TrimRight(err.Error(), "\n"))
	var pe *crash.Panic
	if errors.As(err, &pe) {
		return exitInternal
	}
	var ue usageError
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command") {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return 2
	}
	return 1
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:     "scrabble",
		Short:   "A crossword-game engine: lexica, plays, simulation, self-play, training and game review",
		Version: strings.TrimPrefix(strings.SplitN(buildVersion(), "\n", 2)[0], "scrabble "),
		Long: `scrabble is a crossword-game (Scrabble) engine. Its commands, by group:

Lexica and words
  lexicon     compile word lists into lexica (GADDAGs) in the data directory:
              add, list, info, default, remove
  check       check words against the lexicon

Positions and plays
  show        show a board position (grid or CGP), or print it as CGP
  moves       list every legal play of a position, best score first
  best        the best play by equity and the runners-up (--sim: by simulation;
              with the bag empty, the endgame solved; with 1-4 tiles, the
              pre-endgame)

Search (simulation, endgames, inference)
  sim         rank candidate moves by Monte Carlo simulation, with win chances
  endgame     solve an endgame (bag empty) exactly: best move, value, best line
  peg         solve a pre-endgame (1-4 tiles in the bag): every move over every draw
  infer       the tiles the opponent kept, inferred from their last move

Self-play and training
  selfplay    play engine players against each other and summarize the games
  leaves      learn leave values by self-play (train), print or convert tables
  winpct      learn, show and check the win-probability table
  worker      play the self-play and training runs coordinated over a NATS JetStream queue

Game review
  review      review recorded games (GCG) turn by turn against the engine
  position    the position before a turn of a recorded game, ready for best

Benchmarks
  bench       measure the move generator's throughput (bench movegen)

For programs
  engine      speak the engine protocol (UCI-like lines) on standard input and
              output: position cgp ..., go static|sim|endgame|peg, bestmove
  serve       serve the JSON API over HTTP, and the web analysis board and
              game review for people in a browser (docs/api.md)

This program
  version     the version, commit and Go version of this build (also --version)
  completion  a shell completion script: bash, zsh, fish or powershell
  help        help about any command

Settings come from, highest first: command-line flags, SCRABBLE_* environment
variables (SCRABBLE_LEXICON, SCRABBLE_DATA_DIR, ...), then the config file
($XDG_CONFIG_HOME/scrabble/config.yaml, or ~/.config/scrabble/config.yaml),
whose keys are ` + strings.Join(configKeys, ", ") + `.`,
		Example: `  scrabble lexicon add CSW24 CSW24.txt --default
  scrabble check QUIXOTIC ZZZ
  scrabble --lexicon NWL23 check QI
  scrabble show --board examples/pos.txt
  scrabble best --board examples/pos.txt --rack AEINRST
  scrabble moves --board examples/pos.cgp --top 10 --json
  scrabble sim --board examples/pos.cgp --time 10s
  scrabble selfplay --games 100 --seed 7
  scrabble review examples/game.gcg --top 3
  source <(scrabble completion bash)`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			a.watchInterrupts(cmd)
			if needsNoSetup(cmd) {
				return nil
			}
			return a.setup(cmd)
		},
	}
	root.SetVersionTemplate("{{.Version}}\n")
	pf := root.PersistentFlags()
	pf.String("data-dir", "", "data directory holding compiled lexica\n(default $XDG_DATA_HOME/scrabble, or ~/.local/share/scrabble)")
	pf.String("lexicon", "", "lexicon to use: an installed NAME or the PATH of a word list\n(default: the default lexicon)")
	pf.String("config", "", "config file (default $XDG_CONFIG_HOME/scrabble/config.yaml)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newLexiconCmd(a), newCheckCmd(a), newShowCmd(a),
		newMovesCmd(a), newBestCmd(a), newEngineCmd(a), newEndgameCmd(a), newPEGCmd(a), newBenchCmd(a), newSelfplayCmd(a), newLeavesCmd(a), newWinpctCmd(a), newSimCmd(a),
		newPositionCmd(a), newReviewCmd(a), newInferCmd(a), newVersionCmd(a))
	root.AddCommand(newServeCmd(a))
	root.AddCommand(newWorkerCmd(a))
	// cobra's completion command (bash, zsh, fish, powershell), made
	// here rather than at Execute so that its help has examples too. It
	// takes its output writer now, so that is set first.
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Example = `  source <(scrabble completion bash)                    # this shell only
  scrabble completion bash > ~/.local/share/bash-completion/completions/scrabble
  scrabble completion zsh > "${fpath[1]}/_scrabble"
  scrabble completion fish > ~/.config/fish/completions/scrabble.fish
  scrabble completion powershell | Out-String | Invoke-Expression`
		for _, sub := range c.Commands() {
			sub.Example = completionExamples[sub.Name()]
		}
	}
	return root
}

// completionExamples is how each shell loads the script for the current
// session (cobra's help of each says how to install it for good).
var completionExamples = map[string]string{
	"bash":       "  source <(scrabble completion bash)",
	"zsh":        "  source <(scrabble completion zsh)",
	"fish":       "  scrabble completion fish | source",
	"powershell": "  scrabble completion powershell | Out-String | Invoke-Expression",
}

// needsNoSetup tells the commands that read no settings and open no data
// directory (version, completion): they work even with a broken config file.
func needsNoSetup(cmd *cobra.Command) bool {
	for c := cmd; c != nil && c.HasParent(); c = c.Parent() {
		if n := c.Name(); n == "version" || n == "completion" {
			return true
		}
	}
	return false
}

// setup reads the configuration and opens the data directory.
func (a *app) setup(cmd *cobra.Command) error {
	v := viper.New()
	v.SetEnvPrefix("SCRABBLE")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	var bindErr error
	// Every persistent flag is a setting: --foo-bar, SCRABBLE_FOO_BAR and the
	// config key foo-bar, in that order of precedence.
	cmd.Root().PersistentFlags().VisitAll(func(f *pflag.Flag) {
		if err := v.BindPFlag(f.Name, f); err != nil {
			bindErr = errors.Join(bindErr, err)
		}
	})
	if bindErr != nil {
		return bindErr
	}
	if err := readConfig(v, a.stderr); err != nil {
		return err
	}
	dir, err := dataDir(v)
	if err != nil {
		return err
	}
	a.v = v
	a.reg = lexica.NewRegistry(dir)
	a.reg.Warn = func(msg string) { fmt.Fprintf(a.stderr, "scrabble: warning: %s\n", msg) }
	a.reg.Loading = a.tables.preload
	return nil
}

// configKeys are the keys a config file may set, as listed in the help:
// the global settings and those the commands read through the app's viper.
// workers, the old name of threads, is accepted too (configAliases).
var configKeys = []string{"data-dir", "lexicon", "seed", "threads"}

// configAliases maps a key kept for old config files to its current name.
var configAliases = map[string]string{"workers": "threads"}

// configChecks says what each key's value must be; the message completes
// "key: value V ...".
var configChecks = map[string]func(string) error{
	"data-dir": func(string) error { return nil },
	"lexicon":  func(string) error { return nil },
	"seed": func(s string) error {
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return errors.New("is not a whole number from 0 to 2^64-1")
		}
		return nil
	},
	"threads": func(s string) error {
		if n, err := strconv.Atoi(s); err != nil || n < 1 {
			return errors.New("is not a whole number, at least 1")
		}
		return nil
	},
}

// readConfig reads the config file named by the config setting, or the
// default one. A missing default file is fine; a missing named one or a
// malformed one is an error naming the file. An unknown key is a warning
// on stderr naming the file, line and key; a bad value of a known key is an
// error naming the file, line, key and value.
func readConfig(v *viper.Viper, stderr io.Writer) error {
	path := v.GetString("config")
	explicit := path != ""
	if !explicit {
		base := os.Getenv("XDG_CONFIG_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return nil // nowhere to look
			}
			base = filepath.Join(home, ".config")
		}
		path = filepath.Join(base, "scrabble", "config.yaml")
	} else {
		path = expandHome(path)
	}
	data, err := readlimit.ReadFile(path, readlimit.Config, "a config file")
	if err != nil {
		if !explicit && errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("config file %s: %w", path, unwrapPath(err))
	}
	settings, err := parseConfig(path, data, stderr)
	if err != nil {
		return err
	}
	if err := v.MergeConfigMap(settings); err != nil {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	return nil
}

// parseConfig checks a config file's keys and values and returns its
// settings, under both a key's current name and its old one, so that a
// command reading either sees the file's value.
func parseConfig(path string, data []byte, stderr io.Writer) (map[string]any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	settings := map[string]any{}
	if len(doc.Content) == 0 {
		return settings, nil // empty, or only comments
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("config file %s:%d: want lines of key: value (%s), not a %s",
			path, top.Line, strings.Join(configKeys, ", "), nodeKind(top))
	}
	line := map[string]int{} // the line each key was set on
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, val := top.Content[i], top.Content[i+1]
		name := strings.ToLower(k.Value) // viper's keys are case-insensitive
		key := name
		if to, ok := configAliases[name]; ok {
			key = to
		}
		check, known := configChecks[key]
		if !known {
			fmt.Fprintf(stderr, "scrabble: warning: config file %s:%d: unknown key %q ignored (the keys are %s)\n",
				path, k.Line, k.Value, strings.Join(configKeys, ", "))
			continue
		}
		if first, dup := line[name]; dup {
			return nil, fmt.Errorf("config file %s:%d: %s is set again (first on line %d)", path, k.Line, name, first)
		}
		line[name] = k.Line
		if val.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("config file %s:%d: %s: want a single value, not a %s", path, val.Line, name, nodeKind(val))
		}
		if val.Tag == "!!null" {
			continue // "key:" with no value leaves the setting unset
		}
		if err := check(val.Value); err != nil {
			return nil, fmt.Errorf("config file %s:%d: %s: value %q %w", path, val.Line, name, val.Value, err)
		}
		if _, cur := line[key]; cur && key != name {
			// Both the old and the current name: the current one wins.
			fmt.Fprintf(stderr, "scrabble: warning: config file %s:%d: %s (the old name of %s) ignored: %s is set on line %d\n",
				path, k.Line, name, key, key, line[key])
			continue
		}
		settings[key] = val.Value // the current name, read after the old, overrides it
	}
	for old, cur := range configAliases {
		if s, ok := settings[cur]; ok {
			settings[old] = s
		}
	}
	return settings, nil
}

// nodeKind names a YAML node's kind for an error message.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "map"
	case yaml.ScalarNode:
		return "single value"
	}
	return "YAML " + n.Tag
}

// unwrapPath drops the path from an *os.PathError already named by the caller.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// dataDir is the data-dir setting, else $XDG_DATA_HOME/scrabble, else
// ~/.local/share/scrabble.
func dataDir(v *viper.Viper) (string, error) {
	if d := v.GetString("data-dir"); d != "" {
		return expandHome(d), nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "scrabble"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("cannot find the data directory: set --data-dir or SCRABBLE_DATA_DIR")
	}
	return filepath.Join(home, ".local", "share", "scrabble"), nil
}

// expandHome replaces a leading "~/" with the home directory.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// overflow recurses until the stack overflows (testPanicEnv "fatal").
func overflow(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	//lint:ignore SA5007 the endless recursion is the crash the hook forces
	return overflow(n+1) + int(pad[n%64])
}
