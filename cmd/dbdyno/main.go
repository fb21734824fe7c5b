// Command dbdyno is a database dynamometer: it puts a database on the dyno and reports numbers a DBA can
// trust, repeat and compare. This package only wires: it builds the commands from the registries (workloads,
// shortcuts) and calls the packages that do the work.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/lib/cmdhelp"
	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/workload"
	_ "github.com/dbdyno/dbdyno/internal/workloads/all" // every workload registers itself
	"github.com/spf13/cobra"
)

// version is the tool version recorded in every result.
var version = "0.1.0-dev"

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
	code, line := method.ExitStatus(root.ExecuteContext(ctx), args)
	if code != 0 {
		fmt.Fprintln(a.stderr, line)
	}
	return code
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "dbdyno",
		Short:         "dbdyno puts a database on the dyno: repeatable OLTP and analytic benchmarks",
		Version:       fmt.Sprintf("%s (%s)", version, runtime.Version()),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	for _, m := range workload.All() {
		root.AddCommand(a.workloadCmd(m))
	}
	for _, s := range workload.Shortcuts() {
		root.AddCommand(a.shortcutCmd(s))
	}
	root.AddCommand(a.resultsCmd(), a.reportCmd(), a.compareCmd(), a.planCmd(), a.sqlCmd(), a.agentCmd(), a.leaderboardCmd(), a.monitorCmd())
	cmdhelp.RedactDefaults(root, engine.Redact)
	return root
}

func (a *app) env() *workload.Env {
	return &workload.Env{Out: a.stdout, Err: a.stderr, Version: version, Args: engine.RedactArgs(a.args)}
}

// workloadCmd is `dbdyno NAME` with a subcommand per command the workload declares; a command without a name
// is the workload's own (dbdyno ping).
func (a *app) workloadCmd(m *workload.Meta) *cobra.Command {
	c := &cobra.Command{Use: m.Name, Short: m.Short, Long: m.Help()}
	for _, wc := range m.Commands {
		if wc.Name == "" {
			a.bind(c, m, wc)
			continue
		}
		sub := &cobra.Command{Use: wc.Name, Short: wc.Short, Long: wc.Long}
		a.bind(sub, m, wc)
		c.AddCommand(sub)
	}
	return c
}

// bind gives a cobra command a workload command's flags and runs it through the method.
func (a *app) bind(c *cobra.Command, m *workload.Meta, wc *workload.Command) {
	read := workload.Define(c.Flags(), method.CommandFlags(m, wc))
	c.Example = wc.Example
	c.SetUsageFunc(cmdhelp.Grouped)
	c.Args = cobra.NoArgs
	if wc.Positional != "" {
		c.Args = cobra.ArbitraryArgs
	}
	c.RunE = func(cmd *cobra.Command, args []string) error {
		v, err := read()
		if err != nil {
			return err
		}
		v = wc.TakeArgs(v, args)
		return method.Execute(cmd.Context(), m, wc, v, a.env())
	}
}

// shortcutCmd runs a shortcut's command lines in turn (dbdyno quickstart).
func (a *app) shortcutCmd(s *workload.Shortcut) *cobra.Command {
	c := &cobra.Command{Use: s.Name, Short: s.Short, Args: cobra.NoArgs}
	read := workload.Define(c.Flags(), s.Flags())
	c.RunE = func(cmd *cobra.Command, _ []string) error {
		v, err := read()
		if err != nil {
			return err
		}
		for _, step := range s.Steps(v) {
			if err := a.invoke(cmd.Context(), step); err != nil {
				return err
			}
		}
		return nil
	}
	return c
}

// invoke runs a workload command line (a plan's step, a shortcut's) as its own command.
func (a *app) invoke(ctx context.Context, args []string) error {
	if len(args) > 0 {
		if _, ok := workload.Lookup(args[0]); !ok {
			// one of dbdyno's own commands (a plan's dbdyno: step: monitor, report ...): the same tree runs it
			root := a.rootCmd()
			root.SetArgs(args)
			root.SetOut(a.stdout)
			root.SetErr(a.stderr)
			return root.ExecuteContext(ctx)
		}
	}
	return method.Invoke(ctx, args, a.stdout, version)
}

// agentCmd is `dbdyno agent`, run on the database host.
func (a *app) agentCmd() *cobra.Command {
	o := agent.Options{Version: version}
	c := &cobra.Command{Use: "agent", Short: "serve this host's CPU, memory, disk and network samples to dbdyno drivers (run it on the database host)", Args: cobra.NoArgs}
	c.Flags().StringVar(&o.Listen, "listen", "127.0.0.1:7878", "address to listen on; anything but loopback needs --token-file")
	c.Flags().StringVar(&o.TokenFile, "token-file", "", "file holding the token drivers must present (at least 16 characters)")
	c.Flags().StringVar(&o.TLSCert, "tls-cert", "", "TLS certificate (with --tls-key) to serve https")
	c.Flags().StringVar(&o.TLSKey, "tls-key", "", "TLS key")
	c.Flags().DurationVar(&o.Interval, "interval", time.Second, "sampling interval")
	c.RunE = func(cmd *cobra.Command, _ []string) error {
		s, err := agent.New(cmd.Context(), o)
		if err != nil {
			return err
		}
		return s.Serve(cmd.Context(), a.stdout, nil)
	}
	return c
}
