package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/dbdyno/dbdyno/internal/testkit/browser"

	"github.com/dbdyno/dbdyno/internal/store"
)

// storeWeek puts the synthetic fortnight (periods_test.go) into a results store as a recording, with TPS: a copy,
// in the test's directory, of the one store written once per test process (2,016 samples of a commit each, most
// of a test's time when they waited on the disk).
func storeWeek(t *testing.T) (*store.Store, []Sample) {
	ctx := context.Background()
	ss := week(t, time.UTC)
	for i := range ss {
		tps := float64(ss[i].Devices["sda"].Reads) / 6000
		ss[i].TPS, ss[i].CPU, ss[i].MemUsed = &tps, tps/5, 4<<30
		ss[i].Devices["sda"] = Delta{Reads: ss[i].Devices["sda"].Reads, ReadBytes: ss[i].Devices["sda"].ReadBytes, ReadMs: 600, WeightedMs: 1200}
	}
	weekStore.Do(func() {
		// in memory where the machine has it (/dev/shm): each sample's commit waits on no disk
		if weekStore.dir, weekStore.err = os.MkdirTemp("/dev/shm", "dbdyno-monitor-week"); weekStore.err != nil {
			if weekStore.dir, weekStore.err = os.MkdirTemp("", "dbdyno-monitor-week"); weekStore.err != nil {
				return
			}
		}
		st, err := store.Open(ctx, filepath.Join(weekStore.dir, "r.db"))
		if err != nil {
			weekStore.err = err
			return
		}
		defer st.Close() // the copies are of the closed file
		for i := range ss {
			doc, _ := json.Marshal(ss[i])
			if err := st.AddSample(ctx, "erp", ss[i].At, doc); err != nil {
				weekStore.err = err
				return
			}
		}
	})
	if weekStore.err != nil {
		t.Fatalf("the fortnight's store every test copies: %v", weekStore.err)
	}
	path := filepath.Join(t.TempDir(), "r.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(filepath.Join(weekStore.dir, "r.db") + suffix)
		if suffix != "" && os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, ss
}

// weekStore is the directory of the fortnight's store (removed by TestMain).
var weekStore struct {
	sync.Once
	dir string
	err error
}

// The report of a stored recording: six charts with the found periods shaded (the fortnight's ten weekday
// lunch hours are ten peak stretches on each chart), the random share said not recorded, and the checklist's
// table per period with the found periods' figures.
func TestReportShadesThePeriods(t *testing.T) {
	st, _ := storeWeek(t)
	var b bytes.Buffer
	if err := WriteReport(context.Background(), st, &b, "erp", nil, nil, 1, time.UTC); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	charts := strings.Count(page, `<svg class="chart"`)
	if charts != 6 {
		t.Errorf("%d charts, want 6 (IOPS, MB/s, latency, queue depth, CPU, TPS)", charts)
	}
	if n := strings.Count(page, `<title>peak (Mon-Fri 11:00-13:00)</title>`); n != 10*charts {
		t.Errorf("%d peak stretches, want 10 on each of %d charts", n, charts)
	}
	for _, want := range []string{"Random share of issued requests (block layer trace): not recorded", "<h3>peak (Mon-Fri 11:00-13:00): 120 intervals",
		"<td class=\"l\">IOPS (reads + writes)</td><td>1/s</td><td>5000</td>", "periods found from the load", "days from Mon 2026-11-16 00:00 UTC"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// the series are bucketed: a fortnight of 2,016 intervals draws at most two points a bucket
	if len(page) > 400<<10 {
		t.Errorf("page of %d bytes", len(page))
	}
	// growth and given periods
	b.Reset()
	ps, _ := ParsePeriods("lunch=Mon-Fri 11:00-13:00")
	if err := WriteReport(context.Background(), st, &b, "erp", ps, nil, 2, time.UTC); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<td class=\"l\">IOPS (reads + writes) *</td><td>1/s</td><td>10000</td>") || strings.Count(b.String(), "<title>lunch (Mon-Fri 11:00-13:00)</title>") != 10*6 {
		t.Errorf("given periods and growth are not in the page")
	}
}

// The report in headless Chromium: its charts render, the bands are drawn inside the plots, no text leaves its
// box and the page does not scroll sideways at a desktop or a narrow width. The screenshots are kept in the
// test's directory (DBDYNO_KEEP_SHOTS=DIR keeps them there for a human).
func TestReportInChromium(t *testing.T) {
	browser.Path(t)
	st, _ := storeWeek(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "monitor.html")
	var b bytes.Buffer
	if err := WriteReport(context.Background(), st, &b, "erp", nil, nil, 1.5, time.UTC); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browser.Open(t, dir, 5*time.Minute) // the guard is against a hung browser, not a speed limit
	for _, width := range []int64{1280, 760} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate("file://"+path)); err != nil {
			t.Fatal(err)
		}
		problems, err := browser.Problems(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("%d px: %s", width, p)
		}
		drawn, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("svg.chart rect.band")].filter(r => r.getBoundingClientRect().width > 0).length`))
		if err != nil || drawn < 6*10 {
			t.Errorf("%d px: %d bands drawn (%v)", width, drawn, err)
		}
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(80))
		if err != nil || len(shot) < 20000 {
			t.Fatalf("screenshot of %d bytes: %v", len(shot), err)
		}
		out := dir
		if d := os.Getenv("DBDYNO_KEEP_SHOTS"); d != "" {
			out = d
			os.WriteFile(filepath.Join(out, "monitor.html"), b.Bytes(), 0o644)
		}
		os.WriteFile(filepath.Join(out, fmt.Sprintf("monitor-%d.jpg", width)), shot, 0o644)
	}
}

// A short recording's charts run in seconds: 50 s of 5 s intervals is 0 to 50 seconds, not 0.2 and 0.4 minutes,
// and its throughput is named in the unit it is counted in (MiB/s).
func TestShortRecordingInSeconds(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Date(2026, 11, 16, 10, 0, 0, 0, time.UTC)
	for i := 1; i <= 10; i++ {
		s := Sample{At: t0.Add(time.Duration(i) * 5 * time.Second), Seconds: 5, CPU: 20, MemUsed: 4 << 30, MemTotal: 8 << 30,
			Devices: map[string]Delta{"sda": {Reads: 500, ReadBytes: 500 * 8192, ReadMs: 250, IOMs: 2000, WeightedMs: 500}}}
		doc, _ := json.Marshal(s)
		if err := st.AddSample(ctx, "short", s.At, doc); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := WriteReport(ctx, st, &b, "short", nil, nil, 1, time.UTC); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.Contains(page, ">seconds from ") || strings.Contains(page, ">minutes from ") || !strings.Contains(page, "MiB/s") {
		t.Errorf("a 50 s recording's axis is not in seconds, or its throughput not in MiB/s:\n%.3000s", page)
	}
}
