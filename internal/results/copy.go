package results

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/outfile"

	"github.com/dbdyno/dbdyno/internal/store"
)

// CopyRuns copies runs from one results store to another (dbdyno results push and pull): those refs name (run
// IDs or their starts, store numbers, group IDs) or, with all, every run, under the same run IDs. The source
// must exist; the destination is made when missing. A run the destination holds already is left as it is, so
// copying again copies nothing. A run whose stored document is corrupt (not a result, or changed since the run
// wrote it: its digest does not match) is not copied: the others are, and the copy fails naming it.
func CopyRuns(ctx context.Context, w io.Writer, from, to string, refs []string, all bool) error {
	if all == (len(refs) > 0) {
		return fmt.Errorf("name the runs to copy (run IDs, group IDs) or give --all, not both")
	}
	src, dst, err := openStorePair(ctx, from, to)
	if err != nil {
		return err
	}
	defer src.Close()
	defer dst.Close()
	c, err := src.Copy(ctx, dst, refs, all)
	fmt.Fprintf(w, "copied %d run(s) from %s to %s", len(c.Copied), src.Where(), dst.Where())
	if len(c.Present) > 0 {
		fmt.Fprintf(w, "; %d were there already", len(c.Present))
	}
	if len(c.Corrupt) > 0 {
		fmt.Fprintf(w, "; %d corrupt, not copied: %s", len(c.Corrupt), strings.Join(c.Corrupt, ", "))
	}
	fmt.Fprintln(w)
	return err
}

// CopyRecordings copies monitor recordings from one results store to another (dbdyno results push and pull
// with --recording NAME or --recordings): each interval under the same name and moment, its document byte for
// byte. The source must exist; the destination is made when missing. Intervals the destination holds already
// are left as they are, so copying again copies nothing, and a recording that went on since is completed.
func CopyRecordings(ctx context.Context, w io.Writer, from, to string, names []string, all bool) error {
	src, dst, err := openStorePair(ctx, from, to)
	if err != nil {
		return err
	}
	defer src.Close()
	defer dst.Close()
	c, err := src.CopyRecordings(ctx, dst, names, all)
	fmt.Fprintf(w, "copied %d monitor recording(s), %d interval(s), from %s to %s", len(c.Recordings), c.Intervals, src.Where(), dst.Where())
	if c.Present > 0 {
		fmt.Fprintf(w, "; %d interval(s) were there already", c.Present)
	}
	fmt.Fprintln(w)
	return err
}

// openStorePair opens the stores a copy goes from and to: the source must exist, the destination is made when
// missing, and they must be two stores.
func openStorePair(ctx context.Context, from, to string) (src, dst *store.Store, err error) {
	if from == "" || to == "" {
		return nil, nil, fmt.Errorf(`--store "" is no store: name the stores to copy between`)
	}
	if store.Display(from) == store.Display(to) || !store.IsURL(from) && !store.IsURL(to) && outfile.SamePath(from, to) {
		return nil, nil, fmt.Errorf("%s is both the store copied from and the one copied to: name another", StoreName(from))
	}
	if src, err = OpenStore(ctx, from); err != nil {
		return nil, nil, err
	}
	if dst, err = store.Open(ctx, to); err != nil {
		src.Close()
		return nil, nil, err
	}
	return src, dst, nil
}
