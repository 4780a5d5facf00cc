package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"scrabble/internal/crash"
	"scrabble/lexica"
)

// app is what the commands of one run share.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	v              *viper.Viper     // flags > SCRABBLE_* environment > config file
	reg            *lexica.Registry // set up before any command runs
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

// run executes the command line args and returns the exit status: 0 on
// success, 1 on failure, 2 on a usage error. Errors are printed to stderr as
// "scrabble: message".
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "scrabble: %v\n", crash.Error(r))
			status = 1
		}
	}()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRootCmd(a)
	root.SetArgs(argv)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	var es exitStatus
	if errors.As(err, &es) {
		return int(es)
	}
	fmt.Fprintf(stderr, "scrabble: %s\n", strings.TrimRight(err.Error(), "\n"))
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
		Use:   "scrabble",
		Short: "A crossword-game engine: lexica, word checks, positions and move generation",
		Long: `scrabble is a crossword-game (Scrabble) engine.

It compiles word lists into lexica (GADDAGs) kept in a data directory, checks
words against them, shows board positions, lists the legal plays of a
position and measures the move generator's throughput.

Settings come from, highest first: command-line flags, SCRABBLE_* environment
variables (SCRABBLE_LEXICON, SCRABBLE_DATA_DIR, ...), then the config file
($XDG_CONFIG_HOME/scrabble/config.yaml, or ~/.config/scrabble/config.yaml).`,
		Example: `  scrabble lexicon add CSW24 CSW24.txt --default
  scrabble check QUIXOTIC ZZZ
  scrabble --lexicon NWL23 check QI
  scrabble show --board position.txt
  scrabble best --board examples/pos.txt --rack AEINRST
  scrabble moves --board examples/pos.cgp --top 10 --json`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return a.setup(cmd)
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	pf := root.PersistentFlags()
	pf.String("data-dir", "", "data directory holding compiled lexica\n(default $XDG_DATA_HOME/scrabble, or ~/.local/share/scrabble)")
	pf.String("lexicon", "", "lexicon to use: an installed NAME or the PATH of a word list\n(default: the default lexicon)")
	pf.String("config", "", "config file (default $XDG_CONFIG_HOME/scrabble/config.yaml)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newLexiconCmd(a), newCheckCmd(a), newShowCmd(a),
		newMovesCmd(a), newBestCmd(a), newBenchCmd(a), newSelfplayCmd(a), newLeavesCmd(a), newWinpctCmd(a), newSimCmd(a),
		newPositionCmd(a), newReviewCmd(a))
	return root
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
	if err := readConfig(v); err != nil {
		return err
	}
	dir, err := dataDir(v)
	if err != nil {
		return err
	}
	a.v = v
	a.reg = lexica.NewRegistry(dir)
	return nil
}

// readConfig reads the config file named by the config setting, or the
// default one. A missing default file is fine; a missing named one or a
// malformed one is an error naming the file.
func readConfig(v *viper.Viper) error {
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
	if _, err := os.Stat(path); err != nil {
		if !explicit && errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("config file %s: %w", path, unwrapPath(err))
	}
	v.SetConfigFile(path)
	v.SetConfigType("yaml")
	if err := v.ReadInConfig(); err != nil {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	return nil
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
