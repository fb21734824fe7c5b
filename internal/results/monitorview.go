package results

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/outfile"
	"github.com/dbdyno/dbdyno/internal/lib/shell"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
	"github.com/dbdyno/dbdyno/internal/store"
)

// MonitorView is how `monitor checklist` and `monitor report` read a recording: the periods (empty: found from
// the load), the devices summed (none: every recorded one), the growth factor and the periods' time zone.
type MonitorView struct {
	Periods string
	Devices []string
	Growth  float64
	TZ      string
}

// parse checks the view's flags before any work.
func (v MonitorView) parse() ([]monitor.PeriodSpec, *time.Location, error) {
	var ps []monitor.PeriodSpec
	if v.Periods != "" {
		var err error
		if ps, err = monitor.ParsePeriods(v.Periods); err != nil {
			return nil, nil, err
		}
	}
	if v.Growth <= 0 {
		return nil, nil, fmt.Errorf("--growth %g: a factor above 0 (1.5 is 50%% more load)", v.Growth)
	}
	loc, err := time.LoadLocation(v.TZ)
	if err != nil {
		return nil, nil, fmt.Errorf("--tz %s: %v", v.TZ, err)
	}
	return ps, loc, nil
}

// MonitorChecklist prints the requirements checklist of the recording name as a table or as JSON (what
// `io size --need` reads).
func MonitorChecklist(ctx context.Context, w io.Writer, storePath, name string, v MonitorView, format string) error {
	return MonitorChecklistTo(ctx, w, storePath, name, v, format, "")
}

// MonitorChecklistTo is MonitorChecklist written to the file out ("" for w), atomically, as JSON unless the
// format says table; out is checked before any work (never the store, never a file of another kind).
func MonitorChecklistTo(ctx context.Context, w io.Writer, storePath, name string, v MonitorView, format, out string) error {
	ps, loc, err := v.parse()
	if err != nil {
		return err
	}
	if format != "table" && format != "json" {
		return fmt.Errorf("--output-format %s: table or json", format)
	}
	if out != "" {
		kind := ChecklistJSON
		if format == "table" {
			kind = ChecklistText
		}
		if err := CheckOutput("-o", out, kind, storePath); err != nil {
			return err
		}
		var b bytes.Buffer
		if err := MonitorChecklistTo(ctx, &b, storePath, name, v, format, ""); err != nil {
			return err
		}
		if err := outfile.WriteAtomic(out, b.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(w, "checklist of %s written to %s (dbdyno io size --need %s)\n", name, out, shell.Quote(out))
		return nil
	}
	st, err := store.Open(ctx, storePath)
	if err != nil {
		return err
	}
	defer st.Close()
	cl, err := monitor.ChecklistOf(ctx, st, name, ps, v.Devices, v.Growth, loc)
	if err != nil {
		return err
	}
	if format == "json" {
		return cl.WriteJSON(w)
	}
	cl.WriteTable(w)
	return nil
}

// MonitorReport writes the HTML report of the recording name to out: the path checked before the work (never
// the store), the file written atomically.
func MonitorReport(ctx context.Context, storePath, name string, v MonitorView, out string) error {
	if out == "" {
		return fmt.Errorf("dbdyno monitor report needs -o FILE.html")
	}
	ps, loc, err := v.parse()
	if err != nil {
		return err
	}
	if err := CheckOutput("-o", out, ReportHTML, storePath); err != nil {
		return err
	}
	st, err := store.Open(ctx, storePath)
	if err != nil {
		return err
	}
	defer st.Close()
	var b bytes.Buffer
	if err := monitor.WriteReport(ctx, st, &b, name, ps, v.Devices, v.Growth, loc); err != nil {
		return err
	}
	return outfile.WriteAtomic(out, b.Bytes())
}
