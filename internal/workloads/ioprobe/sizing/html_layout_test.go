package sizing

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/dbdyno/dbdyno/internal/testkit/browser"
)

// The plan's page in headless Chromium, at a desktop and a narrow width: no text overflows its box, the page does
// not scroll sideways, the chart fits the page's width and its texts stay inside it without overlapping, and
// the candidates' table fits its box. The worked example's page shows both totals and marks the cheapest in the
// table and the chart. Also drawn: every candidate of a need with MB/s and a request size (a long list), a host
// cache, a mix of sizes, and a need no candidate meets. DBDYNO_KEEP_SHOTS=DIR keeps the pages and screenshots.
func TestHTMLLayoutInChromium(t *testing.T) {
	browser.Path(t)
	c := load(t)
	mix, err := Parse("mix.yaml", []byte(mixCatalog))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := dir
	if d := os.Getenv("DBDYNO_KEEP_SHOTS"); d != "" {
		out = d
	}
	inline := func(s string, hit float64) Need {
		n, err := inlineNeed(s)
		if err != nil {
			t.Fatal(err)
		}
		n.CacheHit = hit
		return n
	}
	pages := map[string]string{}
	for _, p := range []struct {
		name string
		c    *Catalog
		need Need
		top  int
	}{
		{"worked-example", c, inline("iops=16000", 0), 10},
		{"every-candidate", c, inline("iops=4000,mbps=100,io-size=32k", 0), 0},
		{"host-cache", c, inline("iops=16000,io-size=8k,read=90", 0.5), 10},
		{"mix", mix, inline("iops=17500,gib=4096", 0), 0},
		{"unmet", c, inline("iops=160000,io-size=8k,read=90", 0), 10},
	} {
		plan, _ := Size(p.c, p.need)
		path := filepath.Join(out, "plan-"+p.name+".html")
		if err := os.WriteFile(path, []byte(page(t, plan, p.top)), 0o644); err != nil {
			t.Fatal(err)
		}
		pages[p.name] = path
	}
	ctx := browser.Open(t, dir, 5*time.Minute) // the guard is against a hung browser, not a speed limit
	// the checks see what they look for: a page with each fault
	broken := filepath.Join(dir, "broken.html")
	os.WriteFile(broken, []byte(`<!DOCTYPE html><html><body style="max-width:600px"><table><tr><td style="white-space:nowrap;max-width:50px;overflow:hidden">`+strings.Repeat("x", 200)+
		`</td></tr></table><div class="wide" style="overflow-x:auto"><table><tr><td style="white-space:nowrap">`+strings.Repeat("y ", 400)+`</td></tr></table></div>`+
		`<svg class="chart" viewBox="0 0 200 100" style="width:700px" aria-label="c"><text x="10" y="20">overlapping</text>`+
		`<text x="20" y="22">text</text><text x="150" y="50">leaves the chart</text></svg></body></html>`), 0o644)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(800, 900), chromedp.Navigate("file://"+broken)); err != nil {
		t.Fatal(err)
	}
	problems, err := browser.Problems(ctx)
	found := map[string]bool{}
	for _, p := range problems {
		found[strings.SplitN(p, ":", 2)[0]] = true
	}
	for _, want := range []string{"text overflows its <td>", "a table is wider than its box", "the chart does not fit the page", "leaves its chart", "texts overlap"} {
		if err != nil || !found[want] {
			t.Fatalf("the layout checks miss %q: %v (%v)", want, problems, err)
		}
	}
	for name, path := range pages {
		for _, width := range []int64{1280, 760} {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate("file://"+path)); err != nil {
				t.Fatal(err)
			}
			problems, err := browser.Problems(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Errorf("%s, %d px: %s", name, width, p)
			}
			charts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("svg.chart").length`))
			if err != nil || (name == "unmet") != (charts == 0) {
				t.Errorf("%s, %d px: %d charts (%v)", name, width, charts, err)
			}
			if name == "worked-example" {
				seen, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.body.innerText, document.querySelector("#plan tr.cheapest").innerText,
					[...document.querySelectorAll("svg.chart text")].filter(t => t.textContent.includes("(cheapest)")).map(t => t.textContent + " " + t.getBoundingClientRect().width).join(";"),
					String(document.querySelectorAll("svg.chart rect.mark").length)]`))
				if err != nil {
					t.Fatal(err)
				}
				for _, want := range []string{"$3,208.98", "$1,548.00", "$1,003.66 + $544.34", "$1,570.58 + $1,638.40"} {
					if !strings.Contains(seen[0], want) {
						t.Errorf("%d px: the worked example's page does not show %s", width, want)
					}
				}
				if !strings.Contains(seen[1], "cheapest") || !strings.Contains(seen[1], "Standard_DS13") || !strings.Contains(seen[1], "$1,548.00") {
					t.Errorf("%d px: the cheapest row is %q", width, seen[1])
				}
				if !strings.HasPrefix(seen[2], "$1,548.00 (cheapest) ") || strings.HasSuffix(seen[2], " 0") || seen[3] != "1" {
					t.Errorf("%d px: the chart marks %q, %s marked rows", width, seen[2], seen[3])
				}
			}
			shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(80))
			if err != nil || len(shot) < 10000 {
				t.Fatalf("screenshot of %d bytes: %v", len(shot), err)
			}
			os.WriteFile(filepath.Join(out, fmt.Sprintf("plan-%s-%d.jpg", name, width)), shot, 0o644)
		}
	}
}
