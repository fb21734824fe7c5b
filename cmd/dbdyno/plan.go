package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/plan"
	"github.com/dbdyno/dbdyno/internal/runner"
	"github.com/spf13/cobra"
)

func (a *app) planCmd() *cobra.Command {
	c := &cobra.Command{Use: "plan", Short: "run a whole study from a YAML plan: targets, builds, warm-ups, sweeps, repeats, labels"}
	c.AddCommand(&cobra.Command{
		Use:   "check FILE.yaml",
		Short: "check a plan without running it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := plan.Load(args[0])
			if err != nil {
				return err
			}
			for i, st := range p.Steps {
				fmt.Fprintf(a.stdout, "step %d (line %d): %s\n", i+1, st.Line, strings.Join(a.stepCommands(p, st)[0], " "))
			}
			fmt.Fprintf(a.stdout, "plan %s is valid: %d step(s), %d target(s)\n", p.Name, len(p.Steps), len(p.Targets))
			return nil
		},
	}, &cobra.Command{
		Use:   "run FILE.yaml",
		Short: "check a plan, then run its steps in order",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := plan.Load(args[0])
			if err != nil {
				return err
			}
			return a.runPlan(cmd.Context(), p)
		},
	})
	return c
}

// stepCommands turns a step into dbdyno command lines: builds and drops once per target, runs once with every
// target (run at the same time) and the plan's labels.
func (a *app) stepCommands(p *plan.Plan, st plan.Step) [][]string {
	if st.Action != "run" {
		var out [][]string
		for _, t := range p.Targets {
			out = append(out, append(append([]string{}, st.Args...), "--target", t))
		}
		return out
	}
	args := append([]string{}, st.Args...)
	for _, t := range p.Targets {
		args = append(args, "--target", t)
	}
	keys := make([]string, 0, len(p.Labels))
	for k := range p.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	args = append(args, "--label", "plan="+p.Name)
	for _, k := range keys {
		args = append(args, "--label", k+"="+p.Labels[k])
	}
	if p.Store != "" {
		args = append(args, "--store", p.Store)
	}
	return [][]string{args}
}

func (a *app) runPlan(ctx context.Context, p *plan.Plan) error {
	for _, raw := range p.Targets {
		if _, err := engine.Parse(raw); err != nil {
			return fmt.Errorf("plan %s: %w", p.Name, err)
		}
	}
	fmt.Fprintf(a.stdout, "plan %s: %d step(s) on %d target(s)\n", p.Name, len(p.Steps), len(p.Targets))
	for i, st := range p.Steps {
		for _, args := range a.stepCommands(p, st) {
			fmt.Fprintf(a.stdout, "\n== step %d (line %d): dbdyno %s\n", i+1, st.Line, strings.Join(engine.RedactArgs(args), " "))
			sub := &app{stdout: a.stdout, stderr: a.stderr, args: append([]string{"dbdyno"}, args...)}
			root := sub.rootCmd()
			root.SetArgs(args)
			root.SetOut(a.stdout)
			root.SetErr(a.stderr)
			if err := root.ExecuteContext(ctx); err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("%w: plan %s stopped at step %d", runner.ErrAborted, p.Name, i+1)
				}
				return fmt.Errorf("plan %s: step %d (line %d) failed: %w", p.Name, i+1, st.Line, err)
			}
		}
	}
	fmt.Fprintf(a.stdout, "\nplan %s done: 'dbdyno report --label plan=%s -o %s.html' writes its report\n", p.Name, p.Name, p.Name)
	return nil
}
