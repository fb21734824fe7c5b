package method

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/workload"
	"github.com/spf13/pflag"
)

// Invoke runs one workload command line, WORKLOAD [COMMAND] [--flag value ...], with the flags the command
// declares (the CLI defines the same ones): plan steps, shortcuts and tests run commands through it.
func Invoke(ctx context.Context, args []string, out io.Writer, version string) error {
	if len(args) == 0 {
		return errors.New("no command")
	}
	m, ok := workload.Lookup(args[0])
	if !ok {
		return fmt.Errorf("unknown workload %q: use %s", args[0], strings.Join(workload.Names(), ", "))
	}
	rest := args[1:]
	name := ""
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		name, rest = rest[0], rest[1:]
	}
	c, ok := m.Command(name)
	if !ok {
		return fmt.Errorf("%s has no command %q", m.Name, name)
	}
	fs := pflag.NewFlagSet(m.Name+" "+name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	read := workload.Define(fs, CommandFlags(m, c))
	if err := fs.Parse(rest); err != nil {
		return err
	}
	if fs.NArg() > 0 && c.Positional == "" {
		return fmt.Errorf("%s %s takes no arguments (got %q)", m.Name, name, fs.Arg(0))
	}
	v, err := read()
	if err != nil {
		return err
	}
	v = c.TakeArgs(v, fs.Args())
	env := &workload.Env{Out: out, Version: version, Args: engine.RedactArgs(append([]string{"dbdyno"}, args...))}
	return Execute(ctx, m, c, v, env)
}

// ExitAborted is the exit status of a command stopped by Ctrl-C (128 + SIGINT).
const ExitAborted = 130

// ExitStatus turns a command's error into its exit status and the one line to print: "dbdyno: ...", with no
// password in it, whatever produced the message. args are the command line (URLs in it are scrubbed).
func ExitStatus(err error, args []string) (int, string) {
	if err == nil {
		return 0, ""
	}
	msg := err.Error()
	for _, a := range args {
		if t, perr := engine.Parse(strings.TrimPrefix(a, "--target=")); perr == nil {
			msg = t.Scrub(msg)
		}
	}
	msg = engine.RedactText(msg, os.Getenv(engine.PasswordEnv)) // where it stands, not inside other words
	line := "dbdyno: " + strings.ReplaceAll(msg, "\n", " ")
	if errors.Is(err, workload.ErrAborted) {
		return ExitAborted, line
	}
	return 1, line
}
