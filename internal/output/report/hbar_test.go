package report

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A horizontal bar chart stacks its series in each row (a bar's length is its value on the axis), marks one row,
// shortens a long label in its middle (the whole in its tooltip), draws no bar for a missing value, and keeps
// every bar and its text inside the chart.
func TestHBarChart(t *testing.T) {
	long := "a_very_long_category_name_that_cannot_fit_in_the_label_column_of_any_chart_0042"
	svg := HBarChart(HBars{Title: "Monthly cost", XLabel: "$ a month", Categories: []string{"first", "second", long},
		Series: []Series{{Name: "VM", Y: []float64{1000, 1500, math.NaN()}}, {Name: "disks", Y: []float64{500, 1700, math.NaN()}}},
		Ends:   []string{"$1,500.00", "$3,200.00", "not priced"}, Mark: 0, MarkNote: "cheapest"})
	bars := regexp.MustCompile(`<rect class="bar" x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"`).FindAllStringSubmatch(svg, -1)
	if len(bars) != 4 {
		t.Fatalf("%d bars, want 4 (none for the row without values)", len(bars))
	}
	f := func(s string) float64 { x, _ := strconv.ParseFloat(s, 64); return x }
	x0, vm1, d1 := f(bars[0][1]), f(bars[0][2]), f(bars[1][2])
	if math.Abs(f(bars[1][1])-(x0+vm1)) > 0.11 {
		t.Errorf("the second series does not start where the first ends: %v", bars[:2])
	}
	if math.Abs(vm1/d1-2) > 0.01 || math.Abs(f(bars[3][2])/vm1-1.7) > 0.01 {
		t.Errorf("bar lengths are not proportional to their values: %v", bars)
	}
	// the axis ends at the first round step past the longest bar (3,200: 4,000), and the chart holds it all
	if x := f(bars[3][1]) + f(bars[3][2]); x > chartW-padR {
		t.Errorf("the longest bar ends at %v, outside the chart", x)
	}
	if got := strings.Join(xTicks(svg), " "); got != "0 1000 2000 3000 4000" {
		t.Errorf("axis ticks %q", got)
	}
	if !strings.Contains(svg, `font-weight="bold">$1,500.00 (cheapest)</text>`) || strings.Count(svg, `<rect class="mark"`) != 1 {
		t.Errorf("the first row is not marked")
	}
	if !strings.Contains(svg, "<title>"+long+"</title>") || strings.Contains(svg, ">"+long+"<title>") || strings.Contains(svg, ">"+long+"</text>") {
		t.Errorf("the long label is not shortened with its whole name in a tooltip")
	}
	for _, m := range regexp.MustCompile(`<text[^>]* x="([0-9.]+)"[^>]*>([^<]*)`).FindAllStringSubmatch(svg, -1) {
		if x := f(m[1]); x < 0 || x+textWidth(m[2], 11, true) > chartW+0.5 && !strings.Contains(m[0], `class="y"`) && !strings.Contains(m[0], "xtick") && !strings.Contains(m[0], `class="xl"`) {
			t.Errorf("text %q at x %v leaves the chart", m[2], x)
		}
	}
}
