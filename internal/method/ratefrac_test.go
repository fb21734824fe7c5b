package method_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// --rate takes decimals as pgbench -R does (0.5: one start every 2 s on average); a rate that is not a positive
// number is refused in one line that says what to give, before any work.
func TestFractionalRate(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite://" + filepath.Join(dir, "m.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"probe", "mixed", "--rate", "0"}, "--rate 0: give a positive number of transactions per second"},
		{[]string{"tpcc", "run", "--rate", "nan"}, "--rate NaN: give a positive number"},
		{[]string{"webstore", "run", "--rate", "inf"}, "--rate +Inf: give a positive number"},
		{[]string{"tpcc", "run", "--rate", "-0.5"}, "--rate -0.5: give a positive number"},
		{[]string{"webstore", "run", "--rate", "fast"}, `invalid argument "fast" for "--rate" flag: not a number: give one such as 0.5 or 200`},
		{[]string{"tpcc", "run", "--rate", "2.5", "--keying-thinking"}, "--rate 2.5 (open loop) and --keying-thinking (think time)"},
		{[]string{"tpcc", "run", "--find-peak", "--by", "rate", "--rate", "0.5"}, "give a whole rate of at least 1 to begin with"},
	} {
		r := clitest.Run(context.Background(), append(c.args, "--target", db, "--store", "")...)
		if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%s: exit %d, %q (want one line saying %q)", strings.Join(c.args, " "), r.Code, r.Stderr, c.want)
		}
	}
	res := filepath.Join(dir, "r.json")
	// a fixed seed: one user's four draws of the mix are then always the same, and hold a select by id (the
	// run's key operation); from the clock, none of four was drawn about one run in three and the run failed
	clitest.Must(t, "probe", "mixed", "--target", db, "--rows", "1000", "--vus", "1", "--rampup", "0s", "--transactions", "4", "--interval", "1s",
		"--rate", "2.5", "--seed", "3", "--store", "", "--result", res)
	r, _ := clitest.ReadResult(t, res)
	if rate, _ := r.Options["rate"].(float64); rate != 2.5 {
		t.Errorf("options' rate %v, want 2.5", r.Options["rate"])
	}
	if ol := r.Measurement.OpenLoop; ol == nil || ol.RatePerS != 2.5 || ol.Started != 4 {
		t.Errorf("open loop %+v, want rate_per_s 2.5 and 4 started", ol)
	}
}
