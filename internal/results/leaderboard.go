package results

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/leaderboard"
	"github.com/dbdyno/dbdyno/internal/store"
)

// Leaderboard ranks the stored runs of one workload (measured and published) by headline per physical core and
// prints the ranking as a table or, with format "json", as one JSON document.
func Leaderboard(ctx context.Context, w, warn io.Writer, storePath string, o leaderboard.Options, format string) error {
	if format != "normal" && format != "json" {
		return fmt.Errorf("--output-format %q is not known: use normal or json", format)
	}
	if o.LicensePerCore < 0 {
		return fmt.Errorf("--license-per-core %g: give the license's price per physical core, 0 or more", o.LicensePerCore)
	}
	st, err := OpenStore(ctx, storePath)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := Resolve(ctx, st, nil, store.Filter{Workload: o.Workload}, warn)
	if err != nil {
		return err
	}
	b, err := leaderboard.Build(runs, o)
	if err != nil {
		return err
	}
	if format == "json" {
		return b.JSON(w)
	}
	return b.Print(w)
}

// ImportPublished adds the figures of a CSV of published results to the store, marked published; figures
// already there (the same workload, metric, score, system, processor, cores, sockets and source) are skipped.
// A bad file adds nothing.
func ImportPublished(ctx context.Context, w io.Writer, storePath, file, version string) error {
	if storePath == "" {
		return fmt.Errorf("results import: --store \"\" keeps nothing: name the results store to add the figures to")
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("results import: %v", err)
	}
	defer f.Close()
	runs, err := leaderboard.Parse(file, f, time.Now(), version)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, storePath)
	if err != nil {
		return err
	}
	defer st.Close()
	added, there := 0, 0
	for _, r := range runs {
		if _, err := st.Get(ctx, r.RunID); err == nil {
			there++
			continue
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		h, _ := r.Headline()
		if err := st.Add(ctx, r, h.Name+" "+WithUnit(h, h.Value)); err != nil {
			return err
		}
		added++
	}
	fmt.Fprintf(w, "imported %d published figure(s) from %s into %s", added, file, store.Display(storePath))
	if there > 0 {
		fmt.Fprintf(w, " (%d already there)", there)
	}
	fmt.Fprintln(w)
	return nil
}
