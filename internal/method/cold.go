package method

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// coldStart is a command's --cold-cmd, checked.
type coldStart struct {
	cmd     string
	timeout time.Duration
	targets []*engine.Target // the command's targets: their passwords are masked in what the command shows
}

// mask keeps credentials out of the command's text and output: URLs' passwords, credential parameters, and
// the targets' and DBDYNO_PASSWORD's passwords, where they stand.
func (c *coldStart) mask(s string) string {
	for _, t := range c.targets {
		s = t.Scrub(s)
	}
	return engine.RedactText(s, os.Getenv(engine.PasswordEnv))
}

// readCold reads --cold-cmd and --cold-timeout: nil when no command was given.
func readCold(v *workload.Values, w workload.Measured) (*coldStart, error) {
	o, ok, err := workload.Group[workload.Cold](v)
	if err != nil || !ok {
		return nil, err
	}
	if !v.Holds(&Targeting{}) && v.Given(o, &o.ColdTimeout) {
		return nil, fmt.Errorf("--cold-timeout bounds the wait for a target to answer after --cold-cmd, and this command has no target: leave it out")
	}
	if o.ColdCmd == "" {
		if v.Given(o, &o.ColdTimeout) {
			return nil, fmt.Errorf("--cold-timeout bounds the wait after --cold-cmd: give the command too, or leave it out")
		}
		return nil, nil
	}
	if o.ColdTimeout <= 0 {
		return nil, fmt.Errorf("--cold-timeout must be positive (got %s)", o.ColdTimeout)
	}
	c := &coldStart{cmd: o.ColdCmd, timeout: o.ColdTimeout}
	to, _, _ := workload.Group[Targeting](v)
	for _, raw := range to.Target {
		if t, err := engine.Parse(raw); err == nil {
			c.targets = append(c.targets, t)
		}
	}
	return c, nil
}

// coldRound is one repeat's cold start: the command runs once, then each target is waited for.
type coldRound struct {
	c    *coldStart
	out  io.Writer
	once sync.Once
	rec  result.ColdStart
	err  error
	mu   sync.Mutex
	done map[*engine.Target]*result.ColdStart // each target's record, once it answered
}

func (c *coldStart) round(out io.Writer) *coldRound {
	return &coldRound{c: c, out: out, done: map[*engine.Target]*result.ColdStart{}}
}

// command runs the user's command once for the round; the command line and its output are shown with the
// credentials masked.
func (r *coldRound) command(ctx context.Context) error {
	r.once.Do(func() {
		shown := r.c.mask(r.c.cmd)
		fmt.Fprintf(r.out, "cold start: %s\n", shown)
		cmd := exec.CommandContext(ctx, "sh", "-c", r.c.cmd)
		relay := &maskedLines{out: r.out, mask: r.c.mask}
		cmd.Stdout, cmd.Stderr = relay, relay // one writer: exec writes it from one goroutine at a time
		t0 := time.Now()
		err := cmd.Run()
		relay.flush()
		r.rec = result.ColdStart{Command: shown, CommandS: roundS(time.Since(t0))}
		var exit *exec.ExitError
		switch {
		case err == nil:
		case ctx.Err() != nil:
			r.err = fmt.Errorf("%w during --cold-cmd", workload.ErrAborted)
		case errors.As(err, &exit):
			r.rec.ExitStatus = exit.ExitCode()
			r.err = fmt.Errorf("--cold-cmd %q exited with status %d: fix the command, or leave it out to run warm", shown, exit.ExitCode())
		default:
			r.rec.ExitStatus = -1
			r.err = fmt.Errorf("--cold-cmd %q could not run: %s", shown, r.c.mask(err.Error()))
		}
	})
	return r.err
}

// maskedLines relays a command's output line by line (a line ends at \n or \r), each masked whole, so that a
// password split across two writes is still found; a line longer than maxMaskedLine goes out in pieces.
type maskedLines struct {
	out  io.Writer
	mask func(string) string
	buf  []byte
}

const maxMaskedLine = 64 << 10

func (w *maskedLines) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexAny(w.buf, "\n\r")
		if i < 0 && len(w.buf) < maxMaskedLine {
			return len(p), nil
		}
		if i < 0 {
			i = len(w.buf) - 1
		}
		_, err := io.WriteString(w.out, w.mask(string(w.buf[:i+1])))
		w.buf = append(w.buf[:0], w.buf[i+1:]...)
		if err != nil {
			return len(p), err
		}
	}
}

// flush relays what is left, a last line without its newline, ended with one.
func (w *maskedLines) flush() {
	if len(w.buf) > 0 {
		io.WriteString(w.out, w.mask(string(w.buf))+"\n")
		w.buf = nil
	}
}

// target runs the round's command (once for all targets) and waits for t to answer; the record is the
// target's (t nil: a command without a database has nothing to wait for).
func (r *coldRound) target(ctx context.Context, t *engine.Target) error {
	if err := r.command(ctx); err != nil {
		return scrubbed(t, err)
	}
	rec := r.rec
	if t != nil {
		ready, attempts, err := waitReady(ctx, t, r.c.timeout)
		rec.ReadyS, rec.Attempts = roundS(ready), attempts
		if err != nil {
			return err
		}
		fmt.Fprintf(r.out, "cold start: the target answered %.2fs after the command (attempt %d)\n", ready.Seconds(), attempts)
	}
	r.mu.Lock()
	r.done[t] = &rec
	r.mu.Unlock()
	return nil
}

// record is t's record, nil when its cold start did not happen.
func (r *coldRound) record(t *engine.Target) *result.ColdStart {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done[t]
}

func scrubbed(t *engine.Target, err error) error {
	if t == nil || errors.Is(err, workload.ErrAborted) {
		return err
	}
	return errors.New(t.Scrub(err.Error()))
}

func roundS(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }

// waitReady connects to t until it answers, for at most timeout: how long that took and the
// attempts made.
func waitReady(ctx context.Context, t *engine.Target, timeout time.Duration) (time.Duration, int, error) {
	t0 := time.Now()
	deadline := t0.Add(timeout)
	pause := 50 * time.Millisecond
	var last error
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithDeadline(ctx, deadline)
		db, err := t.Open(actx) // it pings: the server accepts a session again
		if err == nil {
			db.Close()
		}
		cancel()
		if err == nil {
			return time.Since(t0), attempt, nil
		}
		last = err
		if ctx.Err() != nil {
			return time.Since(t0), attempt, fmt.Errorf("%w while waiting for the target after --cold-cmd", workload.ErrAborted)
		}
		if time.Now().Add(pause).After(deadline) {
			return time.Since(t0), attempt, fmt.Errorf("--cold-cmd: %s did not answer within --cold-timeout %s after the command (%d attempts; last: %s): check that the command brings the server back, or raise --cold-timeout",
				t, timeout, attempt, t.Scrub(last.Error()))
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Second)
	}
}
