package main

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/dbdyno/dbdyno/internal/runner"
	"github.com/dbdyno/dbdyno/internal/target"
	"github.com/dbdyno/dbdyno/internal/tpch"
	"github.com/dbdyno/dbdyno/internal/tpch/dbgen"
	"github.com/spf13/cobra"
)

func (a *app) tpchCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "tpch",
		Short: "TPC-H-derived analytic workload: gen, build, run, validate, drop",
		Long: "A TPC-H-derived analytic workload (not an audited TPC-H result): dbgen-identical data at any scale\n" +
			"factor, the 22 queries, power and throughput tests.",
	}
	c.AddCommand(a.tpchGenCmd(), a.tpchBuildCmd(), a.tpchValidateCmd(), a.tpchDropCmd())
	return c
}

func addTPCHTarget(c *cobra.Command, dst *string) {
	c.Flags().StringVar(dst, "target", target.DefaultDuckDB,
		"database URL: duckdb://FILE, sqlite://FILE, postgres://USER[:PASS]@HOST:PORT/DB, mysql://USER[:PASS]@HOST:PORT/DB")
}

func openTPCH(ctx context.Context, raw string) (*tpch.DB, error) {
	t, err := target.Parse(raw)
	if err != nil {
		return nil, err
	}
	return tpch.Open(ctx, t)
}

func (a *app) tpchBuildCmd() *cobra.Command {
	var tgt string
	var opts tpch.BuildOptions
	c := &cobra.Command{
		Use:   "build",
		Short: "create the schema and load dbgen's population straight from the generator",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := tpch.ValidateScale(opts.Scale); err != nil {
				return err
			}
			if opts.Threads < 1 {
				return fmt.Errorf("--threads must be at least 1 (got %d)", opts.Threads)
			}
			ctx := cmd.Context()
			db, err := openTPCH(ctx, tgt)
			if err != nil {
				return err
			}
			defer db.Close()
			fmt.Fprintf(a.stdout, "building TPC-H schema at scale factor %g in %s (%s), %d thread(s)\n", opts.Scale, db.T, db.ServerVersion(ctx), opts.Threads)
			opts.Version, opts.Progress = version, a.stdout
			rep, err := db.Build(ctx, opts)
			if err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("%w: build interrupted; the partial schema is marked unfinished: rebuild with --drop", runner.ErrAborted)
				}
				return err
			}
			fmt.Fprintf(a.stdout, "built %d rows in %.1fs (load %.1fs, keys/indexes %.1fs, statistics %.1fs)\n",
				rep.Rows, rep.Total.Seconds(), rep.Load.Seconds(), rep.Index.Seconds(), rep.Analyze.Seconds())
			return nil
		},
	}
	addTPCHTarget(c, &tgt)
	c.Flags().Float64Var(&opts.Scale, "scale", 1, "scale factor")
	c.Flags().IntVar(&opts.Threads, "threads", runtime.NumCPU(), "parallel load connections")
	c.Flags().BoolVar(&opts.Drop, "drop", false, "replace dbdyno's existing TPC-H tables (never touches tables dbdyno did not create)")
	return c
}

func (a *app) tpchValidateCmd() *cobra.Command {
	var tgt, answers, against string
	c := &cobra.Command{
		Use:   "validate",
		Short: "run the 22 queries with the validation parameters and compare with expected answers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			db, err := openTPCH(ctx, tgt)
			if err != nil {
				return err
			}
			defer db.Close()
			var other *tpch.DB
			if against != "" {
				if other, err = openTPCH(ctx, against); err != nil {
					return fmt.Errorf("--against: %w", err)
				}
				defer other.Close()
			}
			res, err := db.Validate(ctx, answers, other, a.stdout)
			if err != nil {
				return err
			}
			failed := 0
			for _, v := range res {
				if !v.Passed {
					failed++
				}
			}
			fmt.Fprintf(a.stdout, "%d passed, %d failed\n", len(res)-failed, failed)
			if failed > 0 {
				return fmt.Errorf("%d of 22 queries did not match the expected answers", failed)
			}
			return nil
		},
	}
	addTPCHTarget(c, &tgt)
	c.Flags().StringVar(&answers, "answers", "", "directory of expected answers for the scale built (qNN.csv or qN.out)")
	c.Flags().StringVar(&against, "against", "", "compare with the answers of a second target built at the same scale")
	return c
}

func (a *app) tpchDropCmd() *cobra.Command {
	var tgt string
	c := &cobra.Command{
		Use:   "drop",
		Short: "remove dbdyno's TPC-H tables (and nothing else)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := openTPCH(cmd.Context(), tgt)
			if err != nil {
				return err
			}
			defer db.Close()
			dropped, err := db.Drop(cmd.Context())
			if err != nil {
				return err
			}
			if dropped {
				fmt.Fprintf(a.stdout, "dropped dbdyno's TPC-H tables from %s\n", db.T)
			} else {
				fmt.Fprintf(a.stdout, "%s has no dbdyno TPC-H tables: nothing to drop\n", db.T)
			}
			return nil
		},
	}
	addTPCHTarget(c, &tgt)
	return c
}

func (a *app) tpchGenCmd() *cobra.Command {
	var opts tpch.GenOptions
	var format string
	c := &cobra.Command{
		Use:   "gen",
		Short: "write the eight tables as files, byte-identical to dbgen's .tbl output",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch format {
			case "tbl":
				opts.Format = dbgen.FormatTBL
			case "csv":
				opts.Format = dbgen.FormatCSV
			default:
				return fmt.Errorf("--format %q is not known: use tbl or csv", format)
			}
			if err := tpch.ValidateScale(opts.Scale); err != nil {
				return err
			}
			if opts.Dir == "" {
				return fmt.Errorf("--out DIR is required")
			}
			if opts.Threads < 1 || opts.Parts < 1 {
				return fmt.Errorf("--threads and --parts must be at least 1")
			}
			if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
				return fmt.Errorf("cannot create --out directory: %w", err)
			}
			opts.Progress = a.stdout
			rows, err := tpch.GenerateFiles(cmd.Context(), opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %d rows at scale factor %g to %s\n", rows, opts.Scale, opts.Dir)
			return nil
		},
	}
	c.Flags().Float64Var(&opts.Scale, "scale", 1, "scale factor (1 is about 1 GB; fractions such as 0.01 work)")
	c.Flags().StringVar(&opts.Dir, "out", "", "output directory")
	c.Flags().StringVar(&format, "format", "tbl", "tbl (dbgen's format) or csv (with a header line)")
	c.Flags().IntVar(&opts.Threads, "threads", runtime.NumCPU(), "generator threads")
	c.Flags().IntVar(&opts.Parts, "parts", 1, "split each table into this many files (TABLE.tbl.1 .. TABLE.tbl.N), as dbgen -C does")
	return c
}
