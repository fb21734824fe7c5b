package probe_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// A size is printed in one unit from progress to summary, result and report: MiB, as it is typed (--step-size 1m
// is 1 MiB, not 1.0 MB), while rates stay in MB/min of 10^6 bytes; counts print whole, never 4000.0 or 4.07e+06.
// Before, the memory probe's progress said "2 MiB" and its summary "cache estimate 2.1 MB", comparisons' heading
// "steps of 1 MB", and the cpu probe printed one figure as 4.07e+06 and 4843506.0.
func TestOneUnitPerSize(t *testing.T) {
	t.Parallel() // its own files
	dir := t.TempDir()
	u := "sqlite://" + filepath.Join(dir, "units.db")
	mbSize := regexp.MustCompile(`[0-9] ?MB\b(?:[^/]|$)|[0-9]e[+-][0-9]|[0-9]\.0 (rows|pairs/s)`)
	for _, c := range [][]string{
		{"probe", "memory", "--target", u, "--step-size", "1m", "--max", "2m"},
		{"probe", "write", "--target", u, "--chunk", "1m", "--total", "2m"},
		{"probe", "read", "--target", u, "--table-size", "1m", "--tables", "2"},
		{"probe", "cpu", "--target", u, "--rows", "4000", "--steps", "1000,2000"},
	} {
		res := filepath.Join(dir, c[1]+".json")
		out := clitest.Must(t, append(c, "--store", "", "--result", res)...)
		if m := mbSize.FindAllString(out.Stdout, -1); len(m) > 0 {
			t.Errorf("%s: %q printed:\n%s", c[1], m, out.Stdout)
		}
		text, err := os.ReadFile(res)
		if err != nil {
			t.Fatal(err)
		}
		if m := regexp.MustCompile(`"[a-z_]+_mb"`).FindAllString(string(text), -1); len(m) > 0 {
			t.Errorf("%s: the result keeps sizes in MB: %q", c[1], m)
		}
		r, _ := clitest.ReadResult(t, res)
		var page strings.Builder
		if err := report.Write(&page, "units", []*result.Result{r}); err != nil {
			t.Fatal(err)
		}
		if m := mbSize.FindAllString(page.String(), -1); len(m) > 0 {
			t.Errorf("%s report: %q", c[1], m)
		}
		switch c[1] {
		case "memory":
			// the estimate's figure depends on the process's IO counters, which the package's parallel tests share:
			// its unit is what is checked
			if !strings.Contains(out.Stdout, "working set 2 MiB pass 2") || !regexp.MustCompile(`(?m)^  cache estimate +[0-9.]+ (MiB|KiB)$`).MatchString(out.Stdout) ||
				!strings.Contains(result.WorkOf(r), "steps of 1 MiB up to 2 MiB") {
				t.Errorf("memory: sizes not in MiB:\n%s", out.Stdout)
			}
		case "write":
			if !regexp.MustCompile(`(?m)^  written +2 MiB$`).MatchString(out.Stdout) || !strings.Contains(result.WorkOf(r), "2 chunks of 1 MiB") {
				t.Errorf("write: sizes not in MiB:\n%s", out.Stdout)
			}
		case "cpu":
			if !regexp.MustCompile(`(?m)^  largest N completed +2000 rows$`).MatchString(out.Stdout) {
				t.Errorf("cpu: N not whole:\n%s", out.Stdout)
			}
		}
	}
}
