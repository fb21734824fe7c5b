package main

import (
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/spf13/cobra"
)

func (a *app) sqlCmd() *cobra.Command {
	var w, e string
	c := &cobra.Command{
		Use:   "sql --workload W --engine E",
		Short: "print every statement a workload runs on an engine, as it runs them, with the file each comes from",
		Long: "SQL lives in files: sql/generic/FILE, with sql/ENGINE/FILE overriding statements by name. This prints the\n" +
			"effective statements (the engine's placeholders filled in), then the engine's own catalog, settings and\n" +
			"counter statements. Without --workload, only the engine's.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return results.PrintSQL(a.stdout, w, e)
		},
	}
	c.Flags().StringVar(&w, "workload", "", "workload")
	c.Flags().StringVar(&e, "engine", "", "engine (or a URL scheme: sqlite, duckdb, postgres, mysql)")
	return c
}
