package workload_test

import (
	"testing"

	"github.com/dbdyno/dbdyno/internal/workload"
)

// A count above the cap names the cap, as one below 1 names 1; a range or list past it says what the cap is.
func TestParseCountsNamesTheCap(t *testing.T) {
	for in, want := range map[string]string{
		"5000":     "--vus must be at most 1000 (got 5000)",
		"0":        "--vus must be at least 1 (got 0)",
		"1..5000":  `--vus "1..5000" is not a count from 1 to 1000, a range 1..N or a list 1,2,4 (each at most 1000)`,
		"1,2,4000": `--vus "1,2,4000" is not a count from 1 to 1000, a range 1..N or a list 1,2,4 (each at most 1000)`,
		"four":     `--vus "four" is not a count from 1 to 1000, a range 1..N or a list 1,2,4 (each at most 1000)`,
	} {
		if _, err := workload.ParseCounts("--vus", in); err == nil || err.Error() != want {
			t.Errorf("--vus %s: %v, want %s", in, err, want)
		}
	}
	for in, n := range map[string]int{"1000": 1, "1..1000": 1000, "1,2,1000": 3} {
		if got, err := workload.ParseCounts("--vus", in); err != nil || len(got) != n {
			t.Errorf("--vus %s: %v %v", in, got, err)
		}
	}
}
