package method_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// A planned start is kept: the virtual users connect first and then wait, so a run given time enough is never
// told late. The wait had ended at the ramp-up's start less nothing, its timer a millisecond late: every run
// said "connected late" with a ramp-up of 1.999s for 2s, and every --rampup 0s run was refused ("had passed
// (by 2ms) when the virtual users were connected"), however far ahead --start-at was.
func TestStartAtKeptWithAndWithoutRampup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := "sqlite://" + filepath.Join(dir, "p.db")
	for _, rampup := range []string{"0s", "1s"} {
		file := filepath.Join(dir, "r"+rampup+".json")
		at := time.Now().Add(3 * time.Second).UTC()
		r := clitest.Run(context.Background(), "ping", "--target", target, "--vus", "1", "--rampup", rampup, "--duration", "1s",
			"--start-at", at.Format(time.RFC3339Nano), "--result", file, "--store", "")
		if r.Code != 0 || strings.Contains(r.Stdout+r.Stderr, "connected late") {
			t.Fatalf("--rampup %s, --start-at 3 s ahead: exit %d\n%s%s", rampup, r.Code, r.Stdout, r.Stderr)
		}
		res, _ := clitest.ReadResult(t, file)
		if res.Status != result.StatusOK || res.Measurement.MeasureStart.Before(at) {
			t.Fatalf("--rampup %s: %s, measured from %s, --start-at %s", rampup, res.Status, res.Measurement.MeasureStart.Format(time.RFC3339Nano), at.Format(time.RFC3339Nano))
		}
	}
}

// A start more than a day ahead is refused at once, not waited for (2099-01-01 waited 631,873 hours).
func TestStartAtFarAheadRefused(t *testing.T) {
	t.Parallel()
	target := "sqlite://" + filepath.Join(t.TempDir(), "p.db")
	for _, at := range []string{"2099-01-01T00:00:00Z", "+99999h", "+25h"} {
		r := clitest.Run(context.Background(), "ping", "--target", target, "--start-at", at, "--store", "")
		lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
		if r.Code == 0 || len(lines) != 1 || !strings.Contains(r.Stderr, "--start-at "+strings.TrimPrefix(at, "+")) && !strings.Contains(r.Stderr, "more than a day ahead") {
			t.Fatalf("--start-at %s: exit %d, stderr %q; want one line refusing it", at, r.Code, r.Stderr)
		}
		if !strings.Contains(r.Stderr, "more than a day ahead") {
			t.Fatalf("--start-at %s: %q does not say it is too far ahead", at, r.Stderr)
		}
	}
}
