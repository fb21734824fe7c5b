package method_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/browser"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// The --live page in headless Chromium: opened while the run runs, its intervals grow as they come (the page
// is fed by server-sent events), and when the run ends it shows the result's own intervals, figure for figure,
// and the run's status; it passes the layout checks every page dbdyno writes is held to.
func TestLivePageInChromium(t *testing.T) {
	dir := t.TempDir()
	ctx := browser.Open(t, dir, 5*time.Minute) // the guard is against a hung browser, not a speed limit
	u := "sqlite://" + filepath.Join(dir, "p.db")
	res := filepath.Join(dir, "r.json")
	urls := make(chan string, 1)
	measuring, release := make(chan bool, 1), make(chan bool)
	done := make(chan clitest.Result, 1)
	page := regexp.MustCompile(`live page: (http://\S+/)`)
	held := false
	go func() {
		done <- clitest.RunWatching(context.Background(), func(line string) {
			if m := page.FindStringSubmatch(line); m != nil {
				urls <- m[1]
			}
			// the first measured interval's line is held (on the run's own goroutine) until the page has shown
			// an interval: whatever the machine's speed, the page is open while the run runs
			if !held && strings.Contains(line, " measure ") {
				held = true
				measuring <- true
				select {
				case <-release:
				case <-time.After(2 * time.Minute): // against a hang
				}
			}
		}, "ping", "--target", u, "--rampup", "1s", "--duration", "3s", "--interval", "500ms", "--live", "127.0.0.1:0", "--store", "", "--result", res)
	}()
	var url string
	select {
	case url = <-urls:
	case r := <-done:
		t.Fatalf("the run ended before serving its page: %s %s", r.Stdout, r.Stderr)
	}
	<-measuring
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	rows := func() int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Math.max(0, document.querySelectorAll("table.intervals tr").length - 1)`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	first := 0
	for end := time.Now().Add(time.Minute); first == 0 && time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		first = rows()
	}
	close(release)
	r := <-done
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	got, err := result.Read(res)
	if err != nil {
		t.Fatal(err)
	}
	var status string
	for end := time.Now().Add(time.Minute); status == "" && time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		status, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(".status") || {textContent: ""}).textContent`))
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table.intervals td.pm")].map(td => td.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, iv := range got.Measurement.Intervals {
		want = append(want, fmt.Sprintf("%.1f", iv.PerMinute))
	}
	if first < 1 || first >= len(want) {
		t.Errorf("mid-run the page showed %d intervals (want some, fewer than the run's %d)", first, len(want))
	}
	if bad, err := browser.Problems(ctx); err != nil || len(bad) > 0 {
		t.Errorf("the page's layout: %v %v", bad, err)
	}
	if status != "ok" || strings.Join(shown, " ") != strings.Join(want, " ") {
		t.Errorf("at the end: status %q, intervals %v; want ok and the result's %v", status, shown, want)
	}
}
