package main

import (
	"fmt"
	"os"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/host/monitor"
	"github.com/dbdyno/dbdyno/internal/lib/shell"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/spf13/cobra"
)

// monitorCmd is `dbdyno monitor`: a long recording of this host (and a database's transactions), and the
// storage-planning checklist from it.
func (a *app) monitorCmd() *cobra.Command {
	var storePath, target, agentURL, tokenFile, agentCA string
	o := monitor.Options{}
	c := &cobra.Command{
		Use:   "monitor",
		Short: "record this host's block devices, CPU and memory (and a database's transactions) for hours or weeks, for the storage-planning checklist",
		Long: "dbdyno monitor --name N records every --interval into the results store as it goes (a crash loses at most one\n" +
			"interval; the same --name appends). dbdyno monitor checklist N prints the requirements checklist per period,\n" +
			"which dbdyno io size --need reads.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if agentURL != "" {
				tlsConf, err := agent.ClientTLS(agentCA)
				if err != nil {
					return err
				}
				token := os.Getenv(agent.TokenEnv)
				if tokenFile != "" {
					if token, err = agent.ReadToken(tokenFile); err != nil {
						return fmt.Errorf("--agent-token-file: %v", err)
					}
				}
				if o.Agent, err = agent.NewClient(agentURL, token, tlsConf); err != nil {
					return err
				}
			} else if tokenFile != "" || agentCA != "" {
				return fmt.Errorf("--agent-token-file and --agent-ca are for --agent URL: give the agent's address too, or drop them")
			}
			if target != "" {
				t, err := engine.Parse(target)
				if err != nil {
					return err
				}
				o.Target = t
			}
			st, err := store.Open(cmd.Context(), storePath)
			if err != nil {
				return err
			}
			defer st.Close()
			o.Status = a.stderr
			fmt.Fprintf(a.stderr, "monitor %s: every %v into %s (Ctrl-C stops; the same --name appends)\n", o.Name, o.Interval, storePath)
			n, err := monitor.Record(cmd.Context(), st, o)
			if err == nil || n > 0 {
				fmt.Fprintf(a.stdout, "monitor %s: %d intervals recorded; its checklist:\n  dbdyno monitor checklist %s --store %s\n", o.Name, n, shell.Quote(o.Name), shell.Quote(store.Display(storePath)))
			}
			return err
		},
	}
	c.PersistentFlags().StringVar(&storePath, "store", store.DefaultPath, store.FlagHelp)
	c.Flags().StringVar(&o.Name, "name", "", "the recording's name (rerunning with the same name appends)")
	c.Flags().DurationVar(&o.Interval, "interval", 10*time.Second, "sampling interval")
	c.Flags().DurationVar(&o.Duration, "duration", 0, "stop after this long (0: until Ctrl-C)")
	c.Flags().StringSliceVar(&o.Devices, "device", nil, "block devices to record, e.g. sda,nvme0n1 (default: every whole disk)")
	c.Flags().StringVar(&target, "target", "", "a database whose transactions a second are recorded too (its server's counters)")
	c.Flags().StringVar(&o.Trace, "block-trace", "auto", "trace issued block requests for the random/sequential shares (tracefs, root): auto (where the kernel lets us, else the reason is recorded), on (refused where it cannot), off")
	c.Flags().StringVar(&agentURL, "agent", "", "record a remote host through its dbdyno agent (http://HOST:PORT): its raw block device, CPU and memory counters every --interval")
	c.Flags().StringVar(&tokenFile, "agent-token-file", "", "the agent's token (else from "+agent.TokenEnv+")")
	c.Flags().StringVar(&agentCA, "agent-ca", "", "CA certificates (PEM) that an https agent's certificate is checked against (default: the system's)")

	var view results.MonitorView
	var format, checkOut string
	check := &cobra.Command{
		Use:   "checklist NAME",
		Short: "the storage-planning requirements checklist of a recording: per period, p50/p90/p99 of IOPS, read share, request size, throughput, latency, queue depth, CPU, memory",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return results.MonitorChecklistTo(cmd.Context(), a.stdout, storePath, args[0], view, format, checkOut)
		},
	}
	check.Flags().StringVar(&view.Periods, "periods", "", "named weekly periods, e.g. \"normal=Mon-Fri 09:00-17:00,peak=Mon-Fri 12:00-13:00,off=Sat-Sun 00:00-24:00\" (default: found from the load: peak the hours of the week above the 90th percentile of the hourly mean IOPS, off at or below the 25th, normal the rest)")
	check.Flags().Float64Var(&view.Growth, "growth", 1, "multiply the load rows (TPS, IOPS, throughput, queue depth, CPU, memory) by this for expected growth")
	check.Flags().StringSliceVar(&view.Devices, "device", nil, "devices summed into the checklist, e.g. sdb (data and log disks apart: one checklist each); default every recorded device")
	check.Flags().StringVar(&format, "output-format", "table", "table, or json (what dbdyno io size --need reads)")
	check.Flags().StringVarP(&checkOut, "output", "o", "", "write it to this file (atomically; never over a file of another kind) instead of standard output")
	check.Flags().StringVar(&view.TZ, "tz", "Local", "the periods' time zone (an IANA name such as Europe/Paris)")
	list := &cobra.Command{
		Use:   "list",
		Short: "the recordings in the results store",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := store.Open(cmd.Context(), storePath)
			if err != nil {
				return err
			}
			defer st.Close()
			recs, err := st.Recordings(cmd.Context())
			for _, r := range recs {
				fmt.Fprintf(a.stdout, "%-20s %8d intervals  %s to %s\n", r.Name, r.Intervals, r.From.Format(time.RFC3339), r.To.Format(time.RFC3339))
			}
			return err
		},
	}
	var out string
	rep := &cobra.Command{
		Use:   "report NAME -o FILE.html",
		Short: "an HTML report of a recording: IOPS, MB/s, latency, queue depth, CPU and TPS over time with the periods shaded, and the checklist",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := results.MonitorReport(cmd.Context(), storePath, args[0], view, out); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "report of %s: %s\n", args[0], out)
			return nil
		},
	}
	rep.Flags().StringVarP(&out, "output", "o", "", "the HTML file to write")
	for _, n := range []string{"periods", "growth", "device", "tz"} {
		rep.Flags().AddFlag(check.Flags().Lookup(n))
	}
	c.AddCommand(check, list, rep)
	return c
}
