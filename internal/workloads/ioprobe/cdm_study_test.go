package ioprobe_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workloads/ioprobe"
)

// A study of CrystalDiskMark runs (a disk before and after a change) sets their 4x2 grids side by side, as its
// users compare them: every cell of the other configurations with its change against the baseline's, judged
// against both cells' per-second noise; a run that measured the same is never called better or worse, one that
// read and wrote twice as fast is better in every cell.
func TestCDMStudyGridsSideBySide(t *testing.T) {
	mk := func(name string, factor float64) compare.StudyConfig {
		x := cdmResult()
		for i := range x.Tests {
			tt := &x.Tests[i]
			for _, d := range []*result.IODir{tt.Read, tt.Write} {
				if d != nil {
					d.MBs *= factor
					d.IOPS *= factor
				}
			}
			for s := 0; s < 10; s++ { // per-second series: the figure, ±1% about it
				f := factor * (1 + 0.01*float64(s%3-1))
				sec := result.IOSecond{T: float64(s + 1)}
				if tt.Read != nil {
					sec.ReadMBs, sec.ReadIOPS = tt.Read.MBs/factor*f, tt.Read.IOPS/factor*f
				} else {
					sec.WriteMBs, sec.WriteIOPS = tt.Write.MBs/factor*f, tt.Write.IOPS/factor*f
				}
				tt.Series = append(tt.Series, sec)
			}
		}
		r := &result.Result{RunID: "r-" + name, Workload: "io", Status: result.StatusOK, IO: x, Labels: map[string]any{"configuration": name}}
		r.Metrics = ioprobe.Metrics(r)
		return compare.StudyConfig{Name: name, Runs: []*result.Result{r}}
	}
	configs := []compare.StudyConfig{mk("before", 1), mk("same", 1.002), mk("after", 2)}
	s, err := compare.NewStudy(configs, 0)
	if err != nil {
		t.Fatal(err)
	}
	var runs []*result.Result
	for _, c := range configs {
		runs = append(runs, c.Runs...)
	}
	var b strings.Builder
	if err := report.WriteWith(&b, report.Options{Title: "disk before and after", Runs: runs, Study: s}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	grids := strings.Split(page, `<table class="io-cdm-study">`)
	if len(grids) != 4 {
		t.Fatalf("%d CrystalDiskMark grids in the study, want 3", len(grids)-1)
	}
	for i, name := range []string{"before (baseline)", "same", "after"} {
		g := grids[i+1][:strings.Index(grids[i+1], "</table>")]
		if !strings.Contains(g, "<th class=\"l\">"+name+"</th><th>Read [MB/s]</th><th>Write [MB/s]</th>") {
			t.Fatalf("grid %d is not %s's:\n%s", i+1, name, g)
		}
		if n := strings.Count(g, "<tr>"); n != 5 {
			t.Errorf("%s: %d rows, want a heading and 4 tests", name, n)
		}
		switch name {
		case "same":
			if strings.Contains(g, "better") || strings.Contains(g, "worse") || strings.Count(g, "0.20% higher [1]") != 8 {
				t.Errorf("identical runs judged:\n%s", g)
			}
			if !strings.Contains(page, "[1] within noise") {
				t.Errorf("no note says the change is within noise")
			}
		case "after":
			if n := strings.Count(g, "100.00% higher (better)"); n != 8 {
				t.Errorf("%d of 8 cells twice as fast and better:\n%s", n, g)
			}
			if !strings.Contains(g, fmt.Sprintf("<td>%.2f<br>", 3512.3456*2)) {
				t.Errorf("SEQ1M Q8T1 read is not 7024.69 MB/s:\n%s", g)
			}
		}
	}
}
