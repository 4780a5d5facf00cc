package protocol

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"scrabble/internal/crash"
)

// Client drives an engine program that speaks the protocol, one command at
// a time. It is not safe for concurrent use.
type Client struct {
	name  string // the program, for errors
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	// readErr is why lines closed (nil at a clean end of output).
	readErr error
	exited  chan struct{}
	once    sync.Once
	group   crash.Group // the output reader and the waiter for the exit
	// ID is the name the engine gave after ucgi.
	ID string
}

// StartTimeout bounds the handshake: ucgi answered by ucgiok and isready by
// readyok.
const StartTimeout = 60 * time.Second

// Start runs the program argv (no shell: argv[0] is looked up in PATH) and
// shakes hands. Its standard error goes to stderr (nil: discarded).
func Start(argv []string, stderr io.Writer) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("engine command is empty")
	}
	c := &Client{name: argv[0], lines: make(chan string, 64), exited: make(chan struct{})}
	c.cmd = exec.Command(argv[0], argv[1:]...)
	c.cmd.Stderr = stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting engine %s: %w", c.name, err)
	}
	c.group.Go(func() {
		defer close(c.lines)
		r := bufio.NewReaderSize(out, MaxLine)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				c.lines <- strings.TrimRight(l, "\r\n")
			}
			if err != nil {
				if err != io.EOF {
					c.readErr = err
				}
				return
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
	defer cancel()
	if err := c.send("ucgi"); err != nil {
		c.kill()
		return nil, err
	}
	for {
		l, err := c.next(ctx)
		if err != nil {
			c.kill()
			return nil, fmt.Errorf("engine %s: waiting for ucgiok: %w", c.name, err)
		}
		if v, ok := strings.CutPrefix(l, "id name "); ok {
			c.ID = v
		}
		if l == "ucgiok" {
			break
		}
	}
	if err := c.Ready(ctx); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

// send writes one command line.
func (c *Client) send(line string) error {
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		return fmt.Errorf("engine %s: sending %q: %w", c.name, strings.Fields(line)[0], err)
	}
	return nil
}

// next returns the engine's next line.
func (c *Client) next(ctx context.Context) (string, error) {
	select {
	case l, ok := <-c.lines:
		if !ok {
			if c.readErr != nil {
				return "", c.readErr
			}
			return "", c.exitError()
		}
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// exitError says how the program ended, when its output ended.
func (c *Client) exitError() error {
	c.once.Do(func() {
		c.group.Go(func() { c.cmd.Wait(); close(c.exited) })
	})
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		return errors.New("its output ended")
	}
	if st := c.cmd.ProcessState; st != nil {
		return fmt.Errorf("it exited (%v)", st)
	}
	return errors.New("its output ended")
}

// Ready sends isready and waits for readyok.
func (c *Client) Ready(ctx context.Context) error {
	if err := c.send("isready"); err != nil {
		return err
	}
	for {
		l, err := c.next(ctx)
		if err != nil {
			return fmt.Errorf("engine %s: waiting for readyok: %w", c.name, err)
		}
		if l == "readyok" {
			return nil
		}
	}
}

// SetOption sends a setoption command and checks that the engine took it
// (an error line before readyok is the engine refusing it).
func (c *Client) SetOption(ctx context.Context, name, value string) error {
	if err := c.send("setoption name " + name + " value " + value); err != nil {
		return err
	}
	return c.checked(ctx, "setoption "+name)
}

// NewGame sends ucginewgame and waits until the engine is ready.
func (c *Client) NewGame(ctx context.Context) error {
	if err := c.send("ucginewgame"); err != nil {
		return err
	}
	return c.checked(ctx, "ucginewgame")
}

// checked waits for readyok after a command, returning the first error
// line the engine sent meanwhile.
func (c *Client) checked(ctx context.Context, what string) error {
	if err := c.send("isready"); err != nil {
		return err
	}
	var first error
	for {
		l, err := c.next(ctx)
		if err != nil {
			return fmt.Errorf("engine %s: after %s: %w", c.name, what, err)
		}
		if msg, ok := strings.CutPrefix(l, "info string error: "); ok && first == nil {
			first = fmt.Errorf("engine %s refused %s: %s", c.name, what, msg)
		}
		if l == "readyok" {
			return first
		}
	}
}

// Best sends the position as CGP and a go command with args ("static",
// "sim iterations 100", ...), and returns the engine's bestmove and the
// info lines it sent. When ctx ends first, the engine is told to stop and
// its answer so far is taken (or, if it gives none within a few seconds,
// ctx's error).
func (c *Client) Best(ctx context.Context, cgp, args string) (best string, info []string, err error) {
	if err := c.send("position cgp " + cgp); err != nil {
		return "", nil, err
	}
	if err := c.send(strings.TrimSpace("go " + args)); err != nil {
		return "", nil, err
	}
	wait := ctx
	stopped := false
	var problem string
	for {
		l, err := c.next(wait)
		if err != nil {
			if !stopped && ctx.Err() != nil {
				// Ask for the answer so far, and give it a little time.
				stopped = true
				c.send("stop")
				var cancel context.CancelFunc
				wait, cancel = context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				continue
			}
			return "", info, fmt.Errorf("engine %s: waiting for bestmove: %w", c.name, err)
		}
		if msg, ok := strings.CutPrefix(l, "info string error: "); ok && problem == "" {
			problem = msg
		}
		if v, ok := strings.CutPrefix(l, "info "); ok {
			info = append(info, v)
			continue
		}
		if v, ok := strings.CutPrefix(l, "bestmove "); ok {
			v = strings.TrimSpace(v)
			if v == NoMove || v == "" {
				if problem == "" {
					problem = "no move"
				}
				return "", info, fmt.Errorf("engine %s gave no move: %s", c.name, problem)
			}
			return v, info, nil
		}
	}
}

// Close asks the engine to quit and waits a few seconds for it to, then
// kills it.
func (c *Client) Close() error {
	c.send("quit")
	c.in.Close()
	c.once.Do(func() {
		c.group.Go(func() { c.cmd.Wait(); close(c.exited) })
	})
	select {
	case <-c.exited:
		return nil
	case <-time.After(5 * time.Second):
		c.kill()
		return fmt.Errorf("engine %s did not quit within 5s: killed", c.name)
	}
}

// kill ends the program at once.
func (c *Client) kill() {
	if c.cmd.Process != nil {
		c.cmd.Process.Kill()
	}
	c.once.Do(func() {
		c.group.Go(func() { c.cmd.Wait(); close(c.exited) })
	})
}
