package main

import (
	"fmt"
	"strings"

	"github.com/dbdyno/dbdyno/internal/method/plan"
	"github.com/dbdyno/dbdyno/internal/output/leaderboard"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/spf13/cobra"
)

func (a *app) resultsCmd() *cobra.Command {
	var storePath string
	c := &cobra.Command{Use: "results", Short: "list, show and export the runs in the results store"}
	c.PersistentFlags().StringVar(&storePath, "store", store.DefaultPath, store.FlagHelp)
	var f store.Filter
	list := &cobra.Command{
		Use:   "list",
		Short: "one line per stored run",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return results.List(cmd.Context(), a.stdout, storePath, f)
		},
	}
	list.Flags().StringVar(&f.Workload, "workload", "", "only this workload")
	list.Flags().StringVar(&f.Group, "group", "", "only the runs of this group")
	list.Flags().StringArrayVar(&f.Labels, "label", nil, "only runs with this label, key=value (repeatable: runs with every one)")
	show := &cobra.Command{
		Use:   "show RUN",
		Short: "print a stored run's result JSON (RUN: run ID or prefix, store number, or group ID)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return results.Show(cmd.Context(), a.stdout, storePath, args[0])
		},
	}
	var format, out string
	export := &cobra.Command{
		Use:   "export [RUN...]",
		Short: "export runs (all, or those named) as CSV (one row per run and metric), a Markdown table (one row per run) or JSON (an array of results)",
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := results.Export(cmd.Context(), a.stdout, a.stderr, storePath, args, f, format, out)
			if err == nil && out != "" {
				fmt.Fprintf(a.stderr, "exported %d run(s) to %s\n", n, out)
			}
			return err
		},
	}
	export.Flags().StringVar(&format, "format", "csv", "csv (one row per run and metric), md (a Markdown table: one row per run, a column per metric) or json; csv and md have a column per swept setting and per label")
	export.Flags().StringVarP(&out, "output", "o", "", "write to this file (default: standard output)")
	export.Flags().StringVar(&f.Workload, "workload", "", "only this workload")
	export.Flags().StringArrayVar(&f.Labels, "label", nil, "only runs with this label, key=value (repeatable: runs with every one)")
	imp := &cobra.Command{
		Use:   "import FILE.csv",
		Short: "add published figures (score, system, processor, cores, sockets, threads_per_core, source, workload, metric) marked published, to rank beside measured runs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return results.ImportPublished(cmd.Context(), a.stdout, storePath, args[0], version)
		},
	}
	var mergeLabels []string
	merge := &cobra.Command{
		Use:   "merge SHARD SHARD...",
		Short: "merge the results of the shards of one run (run IDs in the store, or FILE.json) into one stored result: counts and rates added up, latency percentiles of the union of their histograms, their common measured window",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := results.Merge(cmd.Context(), a.stdout, storePath, args, mergeLabels, version)
			return err
		},
	}
	merge.Flags().StringArrayVar(&mergeLabels, "label", nil, "label the merged result, key=value (repeatable)")
	var to, from string
	var pushAll, pullAll, pushAllRecs, pullAllRecs bool
	var pushRecs, pullRecs []string
	push := &cobra.Command{
		Use:   "push --to STORE [RUN...|--all] [--recording NAME...|--recordings]",
		Short: "copy runs (run IDs or their starts, store numbers, group IDs; --all: every run) from --store to another store, e.g. a team's postgres:// store, keeping their run IDs; runs already there are left as they are",
		RunE: func(cmd *cobra.Command, args []string) error {
			return copyStores(cmd, a, storePath, to, args, pushAll, pushRecs, pushAllRecs)
		},
	}
	push.Flags().StringVar(&to, "to", "", "the store to copy to: a SQLite file or a postgres:// URL")
	push.Flags().BoolVar(&pushAll, "all", false, "copy every run")
	push.Flags().StringArrayVar(&pushRecs, "recording", nil, "copy this monitor recording too (dbdyno monitor --name; repeatable)")
	push.Flags().BoolVar(&pushAllRecs, "recordings", false, "copy every monitor recording too")
	push.MarkFlagRequired("to")
	pull := &cobra.Command{
		Use:   "pull --from STORE [RUN...|--all] [--recording NAME...|--recordings]",
		Short: "copy runs (run IDs or their starts, store numbers, group IDs; --all: every run) from another store into --store, keeping their run IDs; runs already there are left as they are",
		RunE: func(cmd *cobra.Command, args []string) error {
			return copyStores(cmd, a, from, storePath, args, pullAll, pullRecs, pullAllRecs)
		},
	}
	pull.Flags().StringVar(&from, "from", "", "the store to copy from: a SQLite file or a postgres:// URL")
	pull.Flags().BoolVar(&pullAll, "all", false, "copy every run")
	pull.Flags().StringArrayVar(&pullRecs, "recording", nil, "copy this monitor recording too (dbdyno monitor --name; repeatable)")
	pull.Flags().BoolVar(&pullAllRecs, "recordings", false, "copy every monitor recording too")
	pull.MarkFlagRequired("from")
	c.AddCommand(list, show, export, imp, merge, push, pull)
	return c
}

// copyStores is results push and pull: the runs named (or --all), then the monitor recordings named (or
// --recordings); runs alone, recordings alone, or both.
func copyStores(cmd *cobra.Command, a *app, from, to string, runs []string, allRuns bool, recs []string, allRecs bool) error {
	if len(runs) > 0 || allRuns || len(recs) == 0 && !allRecs {
		if err := results.CopyRuns(cmd.Context(), a.stdout, from, to, runs, allRuns); err != nil {
			return err
		}
	}
	if len(recs) > 0 || allRecs {
		return results.CopyRecordings(cmd.Context(), a.stdout, from, to, recs, allRecs)
	}
	return nil
}

func (a *app) leaderboardCmd() *cobra.Command {
	var storePath, format string
	var o leaderboard.Options
	c := &cobra.Command{
		Use:   "leaderboard",
		Short: "rank the stored runs of one workload, measured and published, by headline per physical core of the database host, with license cost",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return results.Leaderboard(cmd.Context(), a.stdout, a.stderr, storePath, o, format)
		},
	}
	c.Flags().StringVar(&storePath, "store", store.DefaultPath, store.FlagHelp)
	c.Flags().StringVar(&o.Workload, "workload", "", "the workload whose runs to rank (needed when the store holds several)")
	c.Flags().Float64Var(&o.LicensePerCore, "license-per-core", 0, "database license price per physical core (e.g. 6872): adds license per core and for the whole box; a run's license_per_core label wins")
	c.Flags().StringVar(&format, "output-format", "normal", "normal (a table) or json (one JSON document)")
	return c
}

func (a *app) reportCmd() *cobra.Command {
	var storePath string
	var o results.ReportOptions
	var f store.Filter
	c := &cobra.Command{
		Use:   "report [RUN|GROUP|FILE.json ...] -o report.html",
		Short: "write a self-contained HTML report (tables and inline SVG charts) of runs; a study's (two or more configurations) opens with its table",
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := results.ReportWith(cmd.Context(), a.stderr, storePath, args, f, o)
			if err == nil {
				fmt.Fprintf(a.stdout, "report of %d run(s) written to %s\n", n, o.Out)
			}
			return err
		},
	}
	c.Flags().StringVar(&storePath, "store", store.DefaultPath, store.FlagHelp)
	c.Flags().StringVarP(&o.Out, "output", "o", "", "HTML file to write")
	c.Flags().StringVar(&o.Title, "title", "dbdyno report", "report title")
	c.Flags().StringArrayVar(&f.Labels, "label", nil, "report the stored runs with this label, key=value (repeatable: runs with every one)")
	c.Flags().StringVar(&f.Workload, "workload", "", "report the stored runs of this workload")
	c.Flags().StringVar(&o.Baseline, "baseline", "", "a study's baseline configuration: its name, letter or number (default the first)")
	c.Flags().StringArrayVar(&o.Metrics, "metric", nil, "a study's table of this metric (repeatable; default the headline)")
	c.Flags().StringArrayVar(&o.Beside, "beside", nil, "show this metric beside each cell of a study's tables, unjudged (repeatable)")
	c.Flags().StringVar(&o.By, "by", "", "the label whose values are a study's configurations (default configuration, which a plan's configurations set)")
	c.Flags().Float64Var(&o.LicensePerCore, "license-per-core", 0, "database license price per physical core (e.g. 6872): a leaderboard's license per core and for the whole box; a run's license_per_core label wins")
	return c
}

func (a *app) compareCmd() *cobra.Command {
	var storePath string
	var o results.CompareOptions
	c := &cobra.Command{
		Use:   "compare A B [C...] | compare --label plan=NAME",
		Short: "compare configurations like for like: metric by metric, or a study's table point by point (\"B vs A: 9.78% higher (better)\", judged against both one's noise)",
		Long: "compare configurations. A, B ...: a run ID (or its start), a store number, a group ID (the median of its\n" +
			"repeats; a multi-target group by its aggregate; a sweep's group gives a study: one row per point), one point of\n" +
			"a sweep's group (GROUP@vus=4), or a result file. Without them, --label picks a study's stored runs and --by\n" +
			"splits them into configurations (a plan's configurations label their runs configuration=NAME).\n" +
			"A change is better or worse only where both figures' 95% noise intervals do not overlap; without an\n" +
			"estimate it says so (\"noise unknown: one run of 4 intervals; --repeat 3\").",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				return fmt.Errorf("name two or more configurations to compare (got %s alone)", args[0])
			}
			return results.CompareWith(cmd.Context(), a.stdout, storePath, args, o)
		},
	}
	c.Flags().StringVar(&storePath, "store", store.DefaultPath, store.FlagHelp)
	c.Flags().BoolVar(&o.IncludeFailed, "include-failed", false, "also compare runs that failed or were aborted (refused otherwise)")
	c.Flags().BoolVar(&o.AllowChanged, "allow-changed", false, "compare runs whose database had changed since its build (their database_changes)")
	c.Flags().BoolVar(&o.AllowDifferentWork, "allow-different-work", false,
		"compare runs that did different work (scale, tests, queries, warehouses, mode ...) or measured different metrics: what they share")
	c.Flags().StringVar(&o.Baseline, "baseline", "", "the configuration the others are compared with: its name, letter or number (default the first)")
	c.Flags().StringArrayVar(&o.Metrics, "metric", nil, "a study's table of this metric (repeatable: one table each; default the headline)")
	c.Flags().StringArrayVar(&o.Beside, "beside", nil, "show this metric beside each cell, unjudged (repeatable), e.g. \"database host CPU busy\"")
	c.Flags().StringVar(&o.Format, "format", "text", "text, md (a Markdown table for a ticket or a design document) or csv (one row per cell, the swept parameter and each label as columns)")
	c.Flags().StringArrayVar(&o.Labels, "label", nil, "compare the stored runs with this label, key=value (repeatable: runs with every one), e.g. plan=NAME")
	c.Flags().StringVar(&o.By, "by", "", "with --label: the label whose values are the configurations (default configuration, which a plan's configurations set)")
	return c
}

func (a *app) planCmd() *cobra.Command {
	c := &cobra.Command{Use: "plan", Short: "run a whole study from a YAML plan: targets, builds, warm-ups, sweeps, repeats, labels"}
	var vars []string
	check := &cobra.Command{
		Use:   "check FILE.yaml",
		Short: "check a plan without running it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := loadPlan(args[0], vars)
			if err == nil {
				p.Check(a.stdout)
			}
			return err
		},
	}
	check.Flags().StringArrayVar(&vars, "var", nil, varHelp)
	c.AddCommand(check, a.planRunCmd())
	return c
}

const varHelp = "set one of the plan's variables (its variables: section), NAME=VALUE (repeatable), e.g. --var scale=30"

// loadPlan reads a plan with its variables set from --var NAME=VALUE.
func loadPlan(path string, given []string) (*plan.Plan, error) {
	vars := map[string]string{}
	for _, v := range given {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--var %q: give NAME=VALUE, e.g. --var scale=30", v)
		}
		vars[k] = val
	}
	return plan.LoadWith(path, vars)
}

func (a *app) planRunCmd() *cobra.Command {
	var resume bool
	var vars []string
	var storeFlag, metricsAddr, metricsToken string
	c := &cobra.Command{
		Use:   "run FILE.yaml",
		Short: "check a plan, then run its steps in order",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := loadPlan(args[0], vars)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("store") {
				p.Store = storeFlag
			}
			p.MetricsAddr, p.MetricsTokenFile = metricsAddr, metricsToken
			return p.RunResuming(cmd.Context(), a.stdout, func(step []string) error { return a.invoke(cmd.Context(), step) }, resume)
		},
	}
	c.Flags().BoolVar(&resume, "resume", false, "rerun an interrupted plan: skip the steps it finished (their results stored complete), run the rest; refused when the plan file or its variables changed")
	c.Flags().StringArrayVar(&vars, "var", nil, varHelp)
	c.Flags().StringVar(&storeFlag, "store", "", "the results store every step's runs go to, in place of the plan's store: (a SQLite file or a postgres:// URL)")
	c.Flags().StringVar(&metricsAddr, "metrics-addr", "", "every step that runs virtual users serves its live figures at http://HOST:PORT/metrics in Prometheus's format while it runs (one scrape target for the plan)")
	c.Flags().StringVar(&metricsToken, "metrics-token-file", "", "the bearer token file of --metrics-addr (needed for an address that is not loopback)")
	return c
}
