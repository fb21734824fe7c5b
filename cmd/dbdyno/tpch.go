package main

import (
	"fmt"
	"os"
	"runtime"

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
	c.AddCommand(a.tpchGenCmd())
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
