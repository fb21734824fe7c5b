// Command dbdyno is a database dynamometer: it puts a database on the dyno and reports numbers a DBA can
// trust, repeat and compare. This package only wires flags to the packages that do the work.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/runner"
	"github.com/spf13/cobra"
)

// version is the tool version recorded in every result.
var version = "0.1.0-dev"

// exitAborted is the exit status of a run stopped by Ctrl-C (128 + SIGINT).
const exitAborted = 130

type app struct {
	stdout, stderr io.Writer
	args           []string // for the result's record of the command, passwords redacted
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := &app{stdout: os.Stdout, stderr: os.Stderr, args: os.Args}
	os.Exit(a.run(ctx, os.Args[1:]))
}

// run executes one command line and returns the exit status.
func (a *app) run(ctx context.Context, args []string) int {
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	msg := err.Error()
	for _, a := range args { // never echo a password, whatever produced the message
		if t, perr := engine.Parse(strings.TrimPrefix(a, "--target=")); perr == nil {
			msg = t.Scrub(msg)
		}
	}
	if p := os.Getenv(engine.PasswordEnv); len(p) >= 3 {
		msg = strings.ReplaceAll(msg, p, "xxxxx")
	}
	msg = strings.ReplaceAll(msg, "\n", " ")
	fmt.Fprintf(a.stderr, "dbdyno: %s\n", msg)
	if errors.Is(err, runner.ErrAborted) {
		return exitAborted
	}
	return 1
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "dbdyno",
		Short:         "dbdyno puts a database on the dyno: repeatable OLTP and analytic benchmarks",
		Version:       fmt.Sprintf("%s (%s)", version, runtime.Version()),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(a.tpccCmd(), a.tpchCmd(), a.quickstartCmd(), a.resultsCmd(), a.reportCmd(), a.compareCmd(), a.planCmd())
	return root
}
