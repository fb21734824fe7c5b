package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/compare"
	"github.com/dbdyno/dbdyno/internal/report"
	"github.com/dbdyno/dbdyno/internal/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/spf13/cobra"
)

func (a *app) openStore(cmd *cobra.Command, path string) (*store.Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no results store at %s: run a benchmark first, or point --store at one", path)
	}
	return store.Open(cmd.Context(), path)
}

func (a *app) resultsCmd() *cobra.Command {
	var storePath string
	c := &cobra.Command{Use: "results", Short: "list, show and export the runs in the results store"}
	c.PersistentFlags().StringVar(&storePath, "store", store.DefaultPath, "results store (SQLite file)")
	var f store.Filter
	list := &cobra.Command{
		Use:   "list",
		Short: "one line per stored run",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := a.openStore(cmd, storePath)
			if err != nil {
				return err
			}
			defer st.Close()
			entries, err := st.List(cmd.Context(), f)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "#\trun\tworkload\tengine\tstatus\tstarted\tgroup\tlabels\theadline")
			for _, e := range entries {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Seq, e.RunID, e.Workload, e.Engine, e.Status, e.StartedAt, e.GroupID, e.Labels, e.Headline)
			}
			return tw.Flush()
		},
	}
	list.Flags().StringVar(&f.Workload, "workload", "", "only this workload (tpcc, tpch)")
	list.Flags().StringVar(&f.Group, "group", "", "only the runs of this group")
	list.Flags().StringVar(&f.Label, "label", "", "only runs with this label, key=value")
	show := &cobra.Command{
		Use:   "show RUN",
		Short: "print a stored run's result JSON (RUN: run ID or prefix, store number, or group ID)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := a.openStore(cmd, storePath)
			if err != nil {
				return err
			}
			defer st.Close()
			rs, err := st.Get(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			for _, r := range rs {
				b, err := r.Marshal()
				if err != nil {
					return err
				}
				a.stdout.Write(b)
			}
			return nil
		},
	}
	var format, out string
	export := &cobra.Command{
		Use:   "export [RUN...]",
		Short: "export runs (all, or those named) as CSV (one row per run and metric) or JSON (an array of results)",
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "csv" && format != "json" {
				return fmt.Errorf("--format %q is not known: use csv or json", format)
			}
			st, err := a.openStore(cmd, storePath)
			if err != nil {
				return err
			}
			defer st.Close()
			runs, err := a.loadRuns(cmd, st, args, f)
			if err != nil {
				return err
			}
			w := a.stdout
			var file *os.File
			if out != "" {
				if file, err = os.CreateTemp(dirOf(out), ".dbdyno-export*"); err != nil {
					return fmt.Errorf("cannot write %s: %w", out, err)
				}
				w = file
			}
			if format == "json" {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				err = enc.Encode(runs)
			} else {
				cw := csv.NewWriter(w)
				cw.Write([]string{"run_id", "workload", "engine", "server_version", "status", "started_at", "group", "repeat", "median", "labels", "metric", "unit", "value"})
				for _, r := range runs {
					group, repeat, median := "", "", ""
					if g := r.Group; g != nil {
						group, repeat, median = g.ID, fmt.Sprint(g.Repeat), fmt.Sprint(g.Median)
					}
					labels, _ := json.Marshal(r.Labels)
					for _, m := range compare.Metrics(r) {
						cw.Write([]string{r.RunID, r.Workload, r.Target.Engine, r.Target.ServerVersion, r.Status, r.StartedAt.Format("2006-01-02T15:04:05Z"),
							group, repeat, median, string(labels), m.Name, m.Unit, fmt.Sprint(m.Value)})
					}
				}
				cw.Flush()
				err = cw.Error()
			}
			if file != nil {
				file.Close()
				if err == nil {
					err = os.Rename(file.Name(), out)
				}
				if err != nil {
					os.Remove(file.Name())
					return err
				}
				fmt.Fprintf(a.stderr, "exported %d run(s) to %s\n", len(runs), out)
			}
			return err
		},
	}
	export.Flags().StringVar(&format, "format", "csv", "csv or json")
	export.Flags().StringVarP(&out, "output", "o", "", "write to this file (default: standard output)")
	export.Flags().StringVar(&f.Workload, "workload", "", "only this workload")
	export.Flags().StringVar(&f.Label, "label", "", "only runs with this label, key=value")
	c.AddCommand(list, show, export)
	return c
}

// loadRuns resolves run references (IDs, prefixes, store numbers, group IDs, or result files); none means every
// stored run matching the filter.
func (a *app) loadRuns(cmd *cobra.Command, st *store.Store, refs []string, f store.Filter) ([]*result.Result, error) {
	var runs []*result.Result
	if len(refs) == 0 {
		if st == nil {
			return nil, fmt.Errorf("name the runs (run IDs, group IDs or result files)")
		}
		entries, err := st.List(cmd.Context(), f)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			refs = append(refs, e.RunID)
		}
		if len(refs) == 0 {
			return nil, fmt.Errorf("the results store has no matching runs")
		}
	}
	for _, ref := range refs {
		if strings.HasSuffix(ref, ".json") {
			r, err := result.Read(ref)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r)
			continue
		}
		if st == nil {
			return nil, fmt.Errorf("%q is not a result file and there is no results store to look it up in", ref)
		}
		rs, err := st.Get(cmd.Context(), ref)
		if err != nil {
			return nil, err
		}
		runs = append(runs, rs...)
	}
	return runs, nil
}

func (a *app) reportCmd() *cobra.Command {
	var storePath, out, title string
	var f store.Filter
	c := &cobra.Command{
		Use:   "report [RUN|GROUP|FILE.json ...] -o report.html",
		Short: "write a self-contained HTML report (tables and inline SVG charts) of runs",
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("-o FILE.html is required")
			}
			var st *store.Store
			if _, err := os.Stat(storePath); err == nil {
				if st, err = store.Open(cmd.Context(), storePath); err != nil {
					return err
				}
				defer st.Close()
			}
			runs, err := a.loadRuns(cmd, st, args, f)
			if err != nil {
				return err
			}
			var b strings.Builder
			if err := report.Write(&b, title, runs); err != nil {
				return err
			}
			if err := result.WriteAtomic(out, []byte(b.String())); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "report of %d run(s) written to %s\n", len(runs), out)
			return nil
		},
	}
	c.Flags().StringVar(&storePath, "store", store.DefaultPath, "results store (SQLite file)")
	c.Flags().StringVarP(&out, "output", "o", "", "HTML file to write")
	c.Flags().StringVar(&title, "title", "dbdyno report", "report title")
	c.Flags().StringVar(&f.Label, "label", "", "report the stored runs with this label, key=value")
	c.Flags().StringVar(&f.Workload, "workload", "", "report the stored runs of this workload")
	return c
}

func (a *app) compareCmd() *cobra.Command {
	var storePath string
	c := &cobra.Command{
		Use:   "compare A B [C...]",
		Short: "compare runs metric by metric: \"B is 32.14% faster than A\" (medians of repeats; per core and per price when known)",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var st *store.Store
			if _, err := os.Stat(storePath); err == nil {
				if st, err = store.Open(cmd.Context(), storePath); err != nil {
					return err
				}
				defer st.Close()
			}
			var sums []compare.Summary
			for _, ref := range args {
				runs, err := a.loadRuns(cmd, st, []string{ref}, store.Filter{})
				if err != nil {
					return err
				}
				name := ref
				if len(runs) > 0 {
					name = report.Name(runs[0])
					for _, s := range sums {
						if s.Name == name {
							name = ref
						}
					}
				}
				sums = append(sums, compare.Summarise(name, runs))
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprint(tw, "metric")
			for _, s := range sums {
				fmt.Fprintf(tw, "\t%s (%d run%s)", s.Name, s.Runs, map[bool]string{true: "s", false: ""}[s.Runs != 1])
			}
			fmt.Fprintln(tw, "\tdifference")
			for _, r := range compare.Table(sums) {
				name := r.Metric
				if r.Unit != "" {
					name += " (" + r.Unit + ")"
				}
				fmt.Fprint(tw, name)
				for _, v := range r.Values {
					fmt.Fprintf(tw, "\t%s", compare.Format(v))
				}
				var words []string
				for _, w := range r.Words {
					if w != "" {
						words = append(words, w)
					}
				}
				fmt.Fprintf(tw, "\t%s\n", strings.Join(words, "; "))
			}
			return tw.Flush()
		},
	}
	c.Flags().StringVar(&storePath, "store", store.DefaultPath, "results store (SQLite file)")
	return c
}
