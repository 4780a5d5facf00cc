// Package protocol is the engine protocol: a line protocol on standard input
// and output through which other programs use the engine, in the spirit of
// chess's UCI and the crossword-game UCGI draft. docs/engine-protocol.md
// defines it. Serve runs the engine's side over any Engine; Client drives a
// program that speaks it (the selfplay player "external:CMD").
package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Mode is what a go command asks for.
type Mode string

// The modes of go. ModeAuto is the engine's choice: the exact solvers when
// the bag is (nearly) empty, static equity otherwise, as `scrabble best`
// chooses.
const (
	ModeAuto    Mode = ""
	ModeStatic  Mode = "static"
	ModeSim     Mode = "sim"
	ModeEndgame Mode = "endgame"
	ModePEG     Mode = "peg"
)

// Position is a position command: a CGP line, or a turn of a recorded game.
type Position struct {
	CGP  string // the CGP, when set
	GCG  string // the game's file, when set
	Turn int    // with GCG: the position before this turn (1-based)
}

// Go is a go command's settings; a zero field is the engine's default.
type Go struct {
	Mode       Mode
	Time       time.Duration // time, or movetime in milliseconds
	Iterations int           // sim: iterations
	Threads    int
	Plies      int // sim: plies after each candidate; endgame: depth limit
	Seed       uint64
	HasSeed    bool
}

// Option is a setoption command: the name as sent (compared without
// regard to case) and its value ("" when none is given).
type Option struct {
	Name, Value string
}

// Command is one line from the program driving the engine. Exactly one of
// the pointer fields is set for commands that carry settings.
type Command struct {
	Name     string // ucgi, isready, setoption, ucginewgame, position, go, stop, quit, debug
	Option   *Option
	Position *Position
	Go       *Go
}

// MaxLine is the longest line read; a CGP is about 200 bytes.
const MaxLine = 64 << 10

// ParseCommand reads one line. An empty line is a Command with no Name. As in
// UCI, unknown words before a command are skipped ("joho isready" is
// isready), but a line naming no known command, or a command with words it
// does not understand, is an error that says what was wrong.
func ParseCommand(line string) (Command, error) {
	f, offs := fields(line)
	if len(f) == 0 {
		return Command{}, nil
	}
	start := -1
	for i, w := range f {
		if known(w) {
			start = i
			break
		}
	}
	if start < 0 {
		return Command{}, fmt.Errorf("unknown command %q (want ucgi, isready, setoption, ucginewgame, position, go, stop or quit)", clip(f[0]))
	}
	name, args := f[start], f[start+1:]
	c := Command{Name: name}
	switch name {
	case "ucgi", "isready", "ucginewgame", "stop", "quit":
		if len(args) > 0 {
			return Command{}, fmt.Errorf("%s takes no arguments, got %q", name, clip(strings.Join(args, " ")))
		}
	case "debug":
		if len(args) > 1 || (len(args) == 1 && args[0] != "on" && args[0] != "off") {
			return Command{}, fmt.Errorf("debug takes on or off, got %q", clip(strings.Join(args, " ")))
		}
	case "setoption":
		o, err := parseOption(args)
		if err != nil {
			return Command{}, err
		}
		c.Option = o
	case "position":
		rest := ""
		if len(args) > 1 {
			rest = line[offs[start+2]:]
		}
		p, err := parsePosition(args, rest)
		if err != nil {
			return Command{}, err
		}
		c.Position = p
	case "go":
		g, err := parseGo(args)
		if err != nil {
			return Command{}, err
		}
		c.Go = g
	}
	return c, nil
}

func known(w string) bool {
	switch w {
	case "ucgi", "isready", "setoption", "ucginewgame", "position", "go", "stop", "quit", "debug":
		return true
	}
	return false
}

// parseOption reads "name <id...> [value <x...>]".
func parseOption(args []string) (*Option, error) {
	if len(args) == 0 || args[0] != "name" {
		return nil, errors.New(`setoption: want "setoption name ID [value X]"`)
	}
	var name, value []string
	i := 1
	for ; i < len(args) && args[i] != "value"; i++ {
		name = append(name, args[i])
	}
	if len(name) == 0 {
		return nil, errors.New("setoption: the option's name is missing")
	}
	if i < len(args) {
		value = args[i+1:]
		if len(value) == 0 {
			return nil, fmt.Errorf("setoption %s: value is missing after \"value\"", strings.Join(name, " "))
		}
	}
	return &Option{Name: strings.Join(name, " "), Value: strings.Join(value, " ")}, nil
}

// fields splits s at white space as strings.Fields does, with the byte
// offset of each field.
func fields(s string) ([]string, []int) {
	var f []string
	var offs []int
	for i := 0; i < len(s); {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if j > i {
			f = append(f, s[i:j])
			offs = append(offs, i)
		}
		i = j
	}
	return f, offs
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// parsePosition reads "cgp <CGP>" (rest: the line from the CGP on, as
// written) or "gcg <file> turn <N>".
func parsePosition(args []string, rest string) (*Position, error) {
	if len(args) == 0 {
		return nil, errors.New(`position: want "position cgp CGP" or "position gcg FILE turn N"`)
	}
	switch args[0] {
	case "cgp":
		if len(args) < 2 {
			return nil, errors.New("position cgp: the CGP is missing")
		}
		return &Position{CGP: strings.TrimSpace(rest)}, nil
	case "gcg":
		if len(args) != 4 || args[2] != "turn" {
			return nil, errors.New(`position gcg: want "position gcg FILE turn N" (a file name without spaces)`)
		}
		n, err := strconv.Atoi(args[3])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("position gcg: turn %q is not a turn number (1 or more)", clip(args[3]))
		}
		return &Position{GCG: args[1], Turn: n}, nil
	}
	return nil, fmt.Errorf("position: %q is not cgp or gcg", clip(args[0]))
}

// parseGo reads go's words: a mode and settings in any order.
func parseGo(args []string) (*Go, error) {
	g := &Go{}
	modeSet := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch Mode(w) {
		case ModeStatic, ModeSim, ModeEndgame, ModePEG:
			if modeSet {
				return nil, fmt.Errorf("go: two modes, %s and %s", g.Mode, w)
			}
			g.Mode, modeSet = Mode(w), true
			continue
		}
		if i+1 >= len(args) {
			return nil, fmt.Errorf("go: %q wants a value after it, or is not a word go knows (static, sim, endgame, peg, time, movetime, iterations, threads, depth, plies, seed)", clip(w))
		}
		v := args[i+1]
		i++
		var err error
		switch w {
		case "time":
			g.Time, err = time.ParseDuration(v)
			if err == nil && g.Time <= 0 {
				err = errors.New("not positive")
			}
		case "movetime":
			var ms int
			ms, err = strconv.Atoi(v)
			if err == nil && ms <= 0 {
				err = errors.New("not positive")
			}
			g.Time = time.Duration(ms) * time.Millisecond
		case "iterations":
			g.Iterations, err = positive(v)
		case "threads":
			g.Threads, err = positive(v)
		case "depth", "plies":
			g.Plies, err = positive(v)
		case "seed":
			g.Seed, err = strconv.ParseUint(v, 10, 64)
			g.HasSeed = true
		default:
			return nil, fmt.Errorf("go: unknown word %q (want static, sim, endgame, peg, time, movetime, iterations, threads, depth, plies, seed)", clip(w))
		}
		if err != nil {
			return nil, fmt.Errorf("go %s: bad value %q: %v", w, clip(v), unwrapNum(err))
		}
	}
	return g, nil
}

func positive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, err
	}
	if n < 1 {
		return 0, errors.New("must be 1 or more")
	}
	return n, nil
}

// unwrapNum drops strconv's repetition of the input.
func unwrapNum(err error) error {
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		return ne.Err
	}
	return err
}

// clip shortens what is quoted back in an error.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
