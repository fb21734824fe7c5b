package sizing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
)

// page is the plan's HTML page.
func page(t *testing.T, p *Plan, top int) string {
	t.Helper()
	var b bytes.Buffer
	if err := p.WriteHTML(&b, top); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	tagRe  = regexp.MustCompile(`<[^>]*>`)
	rowRe  = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cellRe = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
)

// planRows are the cells of the page's candidates table, as text (a <br> a space).
func planRows(t *testing.T, page string) [][]string {
	t.Helper()
	i := strings.Index(page, `<table class="plan" id="plan">`)
	if i < 0 {
		t.Fatal("the page has no candidates table")
	}
	table := page[i : i+strings.Index(page[i:], "</table>")]
	var out [][]string
	for _, r := range rowRe.FindAllStringSubmatch(table, -1) {
		var cells []string
		for _, c := range cellRe.FindAllStringSubmatch(r[1], -1) {
			cells = append(cells, html.UnescapeString(tagRe.ReplaceAllString(strings.ReplaceAll(c[1], "<br>", " "), "")))
		}
		if len(cells) > 0 {
			out = append(out, cells)
		}
	}
	return out
}

// The page's figures are the text table's and the JSON's, candidate by candidate: all three come from one plan.
// The worked example's page shows both of its totals, $3,208.98 and $1,548.00, and marks the cheapest in the
// table and the chart.
func TestHTMLHasTheTextAndJSONFigures(t *testing.T) {
	c := load(t)
	mix, err := Parse("mix.yaml", []byte(mixCatalog))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    *Catalog
		need Need
		top  int
	}{
		{"worked example", c, Need{IOPS: 16000, From: "--need iops=16000", Asked: Asked{Inline: "iops=16000"}}, 10},
		{"every candidate, MB/s and request size", c, Need{IOPS: 12000, MBps: 300, IOSizeKB: 64, GiB: 2048}, 0},
		{"host cache", c, Need{IOPS: 16000, IOSizeKB: 8, ReadPct: 90, CacheHit: 0.5}, 5},
		{"a mix", mix, Need{IOPS: 17500, GiB: 4096}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Size(tc.c, tc.need)
			if err != nil {
				t.Fatal(err)
			}
			var text, js bytes.Buffer
			p.Write(&text, tc.top)
			if err := p.WriteJSON(&js, tc.top); err != nil {
				t.Fatal(err)
			}
			var pj PlanJSON
			if err := json.Unmarshal(js.Bytes(), &pj); err != nil {
				t.Fatal(err)
			}
			h := page(t, p, tc.top)
			rows := planRows(t, h)
			lines := strings.Split(text.String(), "\n")
			if len(rows) != len(pj.Candidates)+0 || len(rows) < 2 {
				t.Fatalf("the page lists %d candidates, the JSON %d", len(rows), len(pj.Candidates))
			}
			for i, cand := range pj.Candidates {
				cells := rows[i]
				// the text table's row: name, IOPS, MB/s, GiB, binding limit, $/month, VM + disks
				var line string
				for _, l := range lines {
					if strings.HasPrefix(l, cand.Name+" ") {
						line = l
					}
				}
				if line == "" {
					t.Fatalf("no text row for %s", cand.Name)
				}
				fig := func(x *float64) string {
					if x == nil {
						return "not stated"
					}
					return num(*x)
				}
				money := func(x *float64) string {
					if x == nil {
						return "not priced"
					}
					return Money(*x * 10000).String()
				}
				split := "not priced"
				if cand.CostMonth != nil {
					split = money(cand.VMMonth) + " + " + money(cand.DisksMonth)
				}
				want := []string{fig(cand.IOPS), fig(cand.MBps), num(cand.GiB), LimitWords(cand.Limit), money(cand.CostMonth), split}
				got := append([]string(nil), cells[2:]...)
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("candidate %d %s: the page has %q, the JSON %q", i+1, cand.Name, got, want)
				}
				if !strings.HasPrefix(cells[1], cand.VM+" "+cand.Disks) {
					t.Errorf("candidate %d: the page names %q, the JSON %s + %s", i+1, cells[1], cand.VM, cand.Disks)
				}
				texts := []string{want[0], want[1], want[2], cand.Limit, want[4]}
				if cand.CostMonth != nil {
					texts = append(texts, split)
				}
				for _, f := range texts {
					if !strings.Contains(line, f) {
						t.Errorf("candidate %d: the text row %q lacks %q", i+1, line, f)
					}
				}
			}
			if more := fmt.Sprintf("%d more candidates: --top 0 lists them all", pj.More); pj.More > 0 && (!strings.Contains(h, more) || !strings.Contains(text.String(), more)) {
				t.Errorf("the page or the text does not say %q", more)
			}
			// the cheapest, marked in the table and the chart
			if pj.Cheapest == "" || !strings.HasPrefix(rows[0][0], "1 cheapest") || strings.Count(h, "cheapest</td>") != 1 {
				t.Errorf("the cheapest row is not marked: %q", rows[0])
			}
			if !strings.Contains(h, ">"+*moneyOf(pj.Candidates[0].CostMonth)+" (cheapest)</text>") {
				t.Errorf("the chart does not mark the cheapest at %s", *moneyOf(pj.Candidates[0].CostMonth))
			}
			if tc.name == "worked example" {
				for _, want := range []string{"$3,208.98", "$1,548.00", "$1,570.58", "$1,638.40", "$1,003.66", "$544.34", "Standard_DS13 + 4 x P30", "16,000"} {
					if !strings.Contains(h, want) {
						t.Errorf("the worked example's page lacks %s", want)
					}
				}
				if !strings.Contains(tagRe.ReplaceAllString(h, ""), "Cheapest: Standard_DS13 + 4 x P30, $1,548.00 a month (VM $1,003.66 + 4 x P30 $544.34)") {
					t.Errorf("the page lacks the cheapest line")
				}
			}
			// human labels: no raw key of the JSON is a label of the page
			for _, key := range []string{"binding_limit", "cost_month", "vm_month", "disks_month", "io_size_kb", "read_pct", "cache_hit"} {
				if strings.Contains(h, key) {
					t.Errorf("the page shows the raw key %s", key)
				}
			}
			if !strings.Contains(h, "mix.yaml") && !strings.Contains(h, "azure-2015.yaml") {
				t.Errorf("the page does not name the catalogue")
			}
		})
	}
}

func moneyOf(x *float64) *string {
	s := "not priced"
	if x != nil {
		s = Money(*x * 10000).String()
	}
	return &s
}

// What was asked: each requirement with where it came from (the checklist's recording and file, the period whose
// figure it is, the percentile and the growth; or the inline figure), and the host cache's share.
func TestHTMLSaysWhatWasAsked(t *testing.T) {
	st := func(p99, avg float64) *monitor.Stat {
		return &monitor.Stat{P50: p99 / 2, P90: p99 * 0.8, P99: p99, Avg: avg}
	}
	cl := &monitor.Checklist{Name: "erp", Growth: 1.5, Periods: []monitor.Period{
		{Name: "normal", Spec: "Mon-Fri 09:00-17:00", Rows: []monitor.Row{{Key: monitor.KeyIOPS, Stat: st(9000, 5000), Scaled: true}, {Key: monitor.KeyMBps, Stat: st(150, 90), Scaled: true},
			{Key: monitor.KeyIOSize, Stat: st(16, 12)}, {Key: monitor.KeyReadPct, Stat: st(95, 85)}}},
		{Name: "peak", Spec: "Mon-Fri 11:00-14:00", Rows: []monitor.Row{{Key: monitor.KeyIOPS, Stat: st(16000, 9000), Scaled: true}, {Key: monitor.KeyMBps, Stat: st(120, 80), Scaled: true},
			{Key: monitor.KeyIOSize, Stat: st(8, 8)}, {Key: monitor.KeyReadPct, Stat: st(80, 70)}}}}}
	need, err := FromChecklist(cl, "p99", "", "erp.json")
	if err != nil {
		t.Fatal(err)
	}
	need.CacheHit = 0.6
	p, err := Size(load(t), need)
	if err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(tagRe.ReplaceAllString(page(t, p, 10), " "))
	text = strings.Join(strings.Fields(text), " ")
	for _, want := range []string{
		"IOPS (reads and writes a second) 16,000 checklist of recording erp (erp.json): p99 (99th percentile) of period peak (Mon-Fri 11:00-14:00), the largest of the 2 periods', growth x1.5 applied",
		"Throughput (MB/s) 150 checklist of recording erp (erp.json): p99 (99th percentile) of period normal (Mon-Fri 09:00-17:00), the largest of the 2 periods', growth x1.5 applied",
		"IO request size (KB): each cap is converted at it 16 checklist of recording erp (erp.json): p99 (99th percentile) of period normal (Mon-Fri 09:00-17:00), the largest of the 2 periods'",
		"Capacity (GiB) no requirement a checklist states no capacity",
		"Read share (% of operations) 85 checklist of recording erp (erp.json): the average of period normal",
		"Reads served by a VM's ReadOnly host cache (% of the reads) 60 --cache-hit 60%",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "request size (KB): each cap is converted at it 16 checklist of recording erp (erp.json): p99 (99th percentile) of period normal (Mon-Fri 09:00-17:00), the largest of the 2 periods', growth") {
		t.Errorf("the request size is said scaled by the growth")
	}
	// one period
	need, _ = FromChecklist(cl, "p90", "peak", "erp.json")
	p, _ = Size(load(t), need)
	text = html.UnescapeString(tagRe.ReplaceAllString(page(t, p, 10), " "))
	if want := "12,800 checklist of recording erp (erp.json): p90 (90th percentile) of period peak (Mon-Fri 11:00-14:00), growth x1.5 applied"; !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
		t.Errorf("--period peak: the page lacks %q", want)
	}
	// inline figures name their part of --need
	need, _ = inlineNeed("iops=16000,io-size=8k")
	p, _ = Size(load(t), need)
	text = strings.Join(strings.Fields(html.UnescapeString(tagRe.ReplaceAllString(page(t, p, 10), " "))), " ")
	for _, want := range []string{"16,000 --need iops=16000", "converted at it 8 --need io-size=8k", "Throughput (MB/s) no requirement not in --need", "none counted --cache-hit 0% (the default)"} {
		if !strings.Contains(text, want) {
			t.Errorf("inline: the page lacks %q", want)
		}
	}
}

// A need no candidate meets: the page says which requirement and by how much, in the error's words, and what a
// host cache would do.
func TestHTMLSaysWhatNoCandidateMeets(t *testing.T) {
	p, err := Size(load(t), Need{IOPS: 82000, IOSizeKB: 8, ReadPct: 90})
	var u *UnmetError
	if !errors.As(err, &u) || p == nil || p.Unmet != u {
		t.Fatalf("got %v and plan %v, want an unmet need in the plan", err, p)
	}
	h := html.UnescapeString(page(t, p, 10))
	if strings.Contains(h, `<table class="plan" id="plan">`) || !strings.Contains(h, "No VM and disks of the catalogue meet every requirement") {
		t.Errorf("the page lists candidates for an unmet need")
	}
	for _, l := range u.Lines {
		if !strings.Contains(h, strings.ToUpper(l[:1])+l[1:]) || !strings.Contains(l, "short by 2,000") {
			t.Errorf("the page lacks the unmet line %q", l)
		}
	}
	if !strings.Contains(h, u.Cache) || !strings.Contains(h, "(--cache-hit 3%) would") {
		t.Errorf("the page lacks what a host cache would do: %q", u.Cache)
	}
	if p, _ := Size(load(t), Need{IOPS: 16000}); !strings.Contains(page(t, p, 10), "None: every candidate listed meets each requirement.") {
		t.Errorf("a met need's page does not say every requirement is met")
	}
}
