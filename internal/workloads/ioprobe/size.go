package ioprobe

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/outfile"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/workload"
	"github.com/dbdyno/dbdyno/internal/workloads/ioprobe/sizing"
)

// SizeFlags are `io size`'s options.
type SizeFlags struct {
	Need       string        `flag:"need" help:"what the storage must deliver: a checklist (dbdyno monitor checklist NAME --output-format json > FILE) or iops=N,mbps=N,io-size=8k,gib=N"`
	Catalog    string        `flag:"catalog" help:"the catalogue of disks and VM sizes (YAML; see examples/catalogs/azure-2015.yaml)"`
	Percentile string        `flag:"percentile" default:"p99" help:"the checklist's percentile to size for: p50, p90 or p99"`
	Period     string        `flag:"period" help:"the checklist's period to size for (default: every period, the largest figure of each)"`
	Top        int           `flag:"top" default:"10" min:"0" help:"candidates listed, cheapest first (0: all)"`
	CacheHit   units.Percent `flag:"cache-hit" default:"0%" help:"the share of reads a VM's ReadOnly host cache is expected to serve, 60% or 60 (0.6 is refused as ambiguous); they count against the VM's cache caps, not the disks' (0%: none counted)"`
	Format     string        `flag:"output-format" default:"normal" plan:"-" help:"normal (a table), or json: the plan as one JSON object (each candidate's disks named and counted a size at a time)"`
	HTML       string        `flag:"html" plan:"-" help:"also write the plan as one self-contained HTML page to this file, for a design document: what was asked, the candidates cheapest first with a chart of their monthly cost, what no candidate meets, the catalogue"`
}

// sizeCommand is `io size`: the cheapest VM and striped disks of a catalogue that meet a checklist.
func sizeCommand() *workload.Command {
	return workload.NewCommand(workload.Command{
		Name:  "size",
		Short: "choose the cheapest VM size and striped disks of a catalogue that meet a requirements checklist",
		Long: "For every VM size of the catalogue and every disk it attaches, the fewest identical striped disks whose caps (the\n" +
			"disks' IOPS and MB/s, the VM's uncached IOPS and MB/s and data disk slots) meet every requirement; the candidates\n" +
			"cheapest first with what each delivers, the cap that binds it and its monthly cost; beside them, per VM, the cheapest\n" +
			"mix of any of a tier's priced disk sizes (3 x P30 + 1 x P20 + 2 x P10, each disk a volume of its own: \"placed\")\n" +
			"where it is cheaper than every set of identical disks.",
	}, &SizeFlags{}, func(ctx context.Context, env *workload.Env, o *SizeFlags) error {
		if o.Need == "" || o.Catalog == "" {
			return fmt.Errorf("io size needs --need (a checklist file or iops=N,mbps=N) and --catalog FILE")
		}
		if o.Format != "normal" && o.Format != "json" {
			return fmt.Errorf("--output-format %q is not known: use normal or json", o.Format)
		}
		if err := outfile.Check("--html", o.HTML, "HTML page", "plan.html", outfile.LooksLikeReport, sizeInputs(o)...); err != nil {
			return err
		}
		c, err := sizing.Load(o.Catalog)
		if err != nil {
			return err
		}
		need, err := sizing.ReadNeed(o.Need, o.Percentile, o.Period)
		if err != nil {
			return err
		}
		if need.CacheHit = o.CacheHit.Fraction(); need.CacheHit > 0 && need.ReadPct == 0 {
			return fmt.Errorf("--cache-hit needs the read share: a checklist as --need, or read=PERCENT in it (iops=16000,read=90)")
		}
		p, err := sizing.SizeContext(ctx, c, need)
		if o.HTML != "" && p != nil { // the page of a need no candidate meets says which requirement and by how much
			var b bytes.Buffer
			if werr := p.WriteHTML(&b, o.Top); werr != nil {
				return werr
			}
			if werr := outfile.WriteAtomic(o.HTML, b.Bytes()); werr != nil {
				return werr
			}
			note := env.Out
			if o.Format == "json" && env.Err != nil { // standard output holds the JSON alone
				note = env.Err
			}
			if o.Format != "json" || env.Err != nil {
				defer fmt.Fprintf(note, "plan page: %s\n", o.HTML)
			}
		}
		if err != nil {
			return err
		}
		if o.Format == "json" {
			return p.WriteJSON(env.Out, o.Top)
		}
		p.Write(env.Out, o.Top)
		return nil
	})
}

// sizeInputs are the files io size reads: an output path must be none of them.
func sizeInputs(o *SizeFlags) []string {
	in := []string{o.Catalog}
	if _, err := os.Stat(o.Need); err == nil || !strings.Contains(o.Need, "=") {
		in = append(in, o.Need) // a checklist file (inline figures name none)
	}
	return in
}
