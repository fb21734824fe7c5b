// Package browser opens the HTML pages dbdyno writes in headless Chromium for the tests: where there is no
// browser the test is skipped, except in CI (.ci/run installs one), where it fails.
package browser

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path is the Chromium binary: the test is skipped when there is none (failed in CI).
func Path(t testing.TB) string {
	t.Helper()
	for _, b := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(b); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: .ci/run installs it")
	}
	t.Skip("no Chromium binary")
	return ""
}

// Open starts a headless Chromium with a profile in dir and returns its context, ended with the test; guard
// bounds a hung browser (it is not a speed limit).
func Open(t testing.TB, dir string, guard time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(Path(t)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(filepath.Join(dir, "profile")))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(ctx, guard)
	t.Cleanup(func() { cancel(); cancelCtx(); cancelAlloc() })
	return ctx
}

// Problems lists, in the page loaded in ctx, what a reader would see broken: the page scrolling sideways; text
// overflowing its cell, heading, paragraph, list item, navigation or caption; a table wider than its scrolling
// box (.wide); a chart (svg.chart) wider than the page or reaching out of the body; a chart's text or rectangle
// (a bar, a band) leaving it; two of a chart's texts overlapping. Each is one line beginning with what broke
// ("text overflows its <td>", "a table is wider than its box", "the chart does not fit the page", "leaves its
// chart", "texts overlap"), then where. Every page dbdyno writes is held to the same checks.
func Problems(ctx context.Context) ([]string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]string](problemsJS))
}

const problemsJS = `(() => {
  const bad = [];
  const de = document.documentElement;
  if (de.scrollWidth > de.clientWidth + 1) bad.push("the page scrolls sideways: " + de.scrollWidth + " > " + de.clientWidth);
  for (const el of document.querySelectorAll("td,th,h1,h2,h3,p,li,nav,caption")) {
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) bad.push("text overflows its <" + el.tagName.toLowerCase() + ">: " + el.textContent.slice(0, 80));
  }
  for (const w of document.querySelectorAll(".wide")) {
    if (w.scrollWidth > w.clientWidth + 1) bad.push("a table is wider than its box: " + w.scrollWidth + " > " + w.clientWidth + ": " + w.textContent.slice(0, 60));
  }
  const body = document.body.getBoundingClientRect();
  for (const svg of document.querySelectorAll("svg.chart")) {
    const name = svg.getAttribute("aria-label");
    const box = svg.getBoundingClientRect();
    if (box.width <= 0 || box.right > de.clientWidth + 0.5 || box.left < body.left - 0.5 || box.right > body.right + 0.5) bad.push("the chart does not fit the page: " + box.left + " to " + box.right + " of " + de.clientWidth + ": " + name);
    const texts = [...svg.querySelectorAll("text")].map(t => ({t: t.textContent, r: t.getBoundingClientRect()})).filter(x => x.r.width > 0);
    const rects = [...svg.querySelectorAll("rect")].map(r => ({t: "a " + (r.getAttribute("class") || "rectangle"), r: r.getBoundingClientRect()})).filter(x => x.r.width > 0);
    for (const x of [...texts, ...rects]) {
      if (x.r.left < box.left - 0.5 || x.r.right > box.right + 0.5 || x.r.top < box.top - 0.5 || x.r.bottom > box.bottom + 0.5)
        bad.push("leaves its chart: " + JSON.stringify(x.t) + " in " + JSON.stringify(name));
    }
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].r, b = texts[j].r;
      const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left), oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (ox > 1 && oy > 1) bad.push("texts overlap: " + JSON.stringify(texts[i].t) + " and " + JSON.stringify(texts[j].t) + " in " + JSON.stringify(name));
    }
  }
  return bad;
})()`
