package report

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/facts"
)

func init() {
	result.RegisterKind(&result.Kind{Workload: "streamtest", Work: func(r *result.Result) string { return fmt.Sprintf("scale %v", r.Options["scale"]) },
		SweepTitles: map[string]string{"streams": "N concurrent streams"}})
}

// The seed study's Table 1 from its own figures (FACTS.md): two VM series, three sizes, 1 to 6 streams, the
// median of three runs each; the report's study table has a row per size and streams, a column per series,
// and the newer's "% faster" as the study computes it (the time ratio), each judged better against the
// repeats' spread, in the study's labels, not group IDs.
func TestStudyTableOfTheSeedStudy(t *testing.T) {
	tab := facts.Read(t, "Warehouse query-set streams")[0]
	var runs []*result.Result
	groups := map[string]string{"Es_v3": "g-es", "Eds_v4": "g-eds"}
	type want struct {
		label  string
		faster float64
	}
	var wants []want
	for i, row := range tab.Rows {
		scale := strings.TrimSuffix(strings.SplitN(row[0], "(", 2)[1], " GB)")
		streams := facts.Number(t, row[1])
		wants = append(wants, want{fmt.Sprintf("scale %s, streams=%g", scale, streams), facts.Number(t, row[4])})
		for ci, sys := range []string{"Es_v3", "Eds_v4"} {
			v := facts.Number(t, row[2+ci])
			for rep, f := range []float64{0.995, 1, 1.005} {
				runs = append(runs, &result.Result{RunID: fmt.Sprintf("r%d-%d-%d", i, ci, rep), Workload: "streamtest", Status: result.StatusOK,
					Options: map[string]any{"scale": scale}, Labels: map[string]any{"system": sys},
					Target:  result.Target{Engine: "sqlserver", URL: "sqlserver://u@" + sys + ":1433?database=tpch"},
					Group:   &result.Group{ID: groups[sys] + "-" + scale, Repeat: rep + 1, Repeats: 3, Sweep: "streams", Value: streams},
					Metrics: []result.Metric{{Name: "time to complete", Unit: "s", Better: result.Lower, Value: v * f, Headline: true, Elapsed: true}}})
			}
		}
	}
	var configs []compare.StudyConfig
	for ci, sys := range []string{"Es_v3", "Eds_v4"} {
		c := compare.StudyConfig{Name: sys, Alias: compare.Alias(ci)}
		for _, r := range runs {
			if r.Labels["system"] == sys {
				c.Runs = append(c.Runs, r)
			}
		}
		configs = append(configs, c)
	}
	s, err := compare.NewStudy(configs, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteWith(&b, Options{Title: "Two VM series", Runs: runs, Study: s}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	i := strings.Index(page, `<table class="study">`)
	if i < 0 {
		t.Fatal("no study table")
	}
	table := page[i : i+strings.Index(page[i:], "</table>")]
	if !strings.Contains(table, "<th class=\"l\">point</th><th>Es_v3</th><th>Eds_v4</th><th>Eds_v4 vs Es_v3</th>") {
		t.Fatalf("the heading:\n%s", table)
	}
	cells := regexp.MustCompile(`<tr><td class="l">([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td class="ok">([0-9.]+)% faster \(better\)</td></tr>`).FindAllStringSubmatch(table, -1)
	if len(cells) != len(wants) {
		t.Fatalf("%d rows judged faster, want %d:\n%s", len(cells), len(wants), table)
	}
	for i, c := range cells {
		got, _ := strconv.ParseFloat(c[4], 64)
		// the study printed 36.40% for 206 s / 151 s (36.42%): its times were not rounded to the second
		if c[1] != wants[i].label || math.Abs(got-wants[i].faster) > 0.03 || c[2] != compare.Format(facts.Number(t, tab.Rows[i][2])) {
			t.Errorf("row %d: %q %s %s %s%%, want %q and %.2f%%", i+1, c[1], c[2], c[3], c[4], wants[i].label, wants[i].faster)
		}
	}
	for _, w := range []string{"% faster is the time ratio: Es_v3&#39;s time / the configuration&#39;s time - 1; % slower the other way round (74 / 56 - 1 = 32.14%).",
		"Time to complete (s), median of 3 runs per cell; each configuration against Es_v3 at the same point"} {
		if !strings.Contains(page, w) {
			t.Errorf("the report lacks %q: %s", w, regexp.MustCompile(`[^>]*time ratio[^<]*`).FindString(page))
		}
	}
	// the charts name the configurations by their labels; no group ID names a chart or a heading
	if !strings.Contains(page, `aria-label="Time to complete (s) by configuration and point"`) || regexp.MustCompile(`aria-label="[^"]*g-es`).MatchString(page) ||
		regexp.MustCompile(`<h[23][^>]*>[^<]*g-e`).MatchString(page) || strings.Contains(page, `id="comparison"`) {
		t.Errorf("charts or headings by group ID, or a comparison of points with other points")
	}
}
