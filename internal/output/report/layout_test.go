package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/dbdyno/dbdyno/internal/testkit/browser"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

const fixtureVersion = "PostgreSQL 17.2 (Debian 17.2-1.pgdg120+1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit"

// fixture is n runs as a study makes them: configurations of three repeats on one machine, each a timed run
// of five minutes with its transactions, progress intervals, system samples (two disks, a network
// interface) and environment; the last configuration is a sweep.
func fixture(n int) []*result.Result {
	start := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
	txs := []string{"new_order", "payment", "order_status", "delivery", "stock_level"}
	env := &result.Environment{Host: "bench-01", OS: "linux", Platform: "debian 12.8", Kernel: "6.1.0-28-cloud-amd64", CPUModel: "AMD EPYC 7763 64-Core Processor",
		Sockets: 1, Cores: 8, Threads: 16, NUMANodes: 1, MemoryBytes: 64 << 30 /* GiB */, DBHostCores: 8, Engine: "postgres", EngineVersion: fixtureVersion, Settings: map[string]string{}}
	for i := 0; i < 25; i++ {
		env.Settings[fmt.Sprintf("setting_number_%02d", i)] = fmt.Sprintf("value %d with some text", i)
	}
	var runs []*result.Result
	for i := 0; i < n; i++ {
		conf := i / 3
		r := &result.Result{RunID: fmt.Sprintf("r20261125T18%04d-%06x", i, i*7919), Workload: "layouttest", Status: result.StatusOK,
			StartedAt: start.Add(time.Duration(i) * 6 * time.Minute), EndedAt: start.Add(time.Duration(i)*6*time.Minute + 5*time.Minute),
			Target:      result.Target{Engine: "postgres", ServerVersion: fixtureVersion, URL: "postgres://bench@db-host-01.example.internal:5432/tpcc_warehouses_100"},
			Labels:      map[string]any{"shared_buffers": fmt.Sprintf("%dGB", conf+1)},
			Group:       &result.Group{ID: fmt.Sprintf("g20261125T18%04d-%06x", conf, conf*104729), Repeat: i%3 + 1, Repeats: 3, Median: i%3 == 1},
			Environment: env}
		if conf == (n-1)/3 && conf > 0 { // the last configuration sweeps its virtual users
			r.Group.Sweep, r.Group.Value, r.Group.Repeats, r.Group.Repeat = "vus", float64(int(1)<<(i%3)), 1, 1
			r.Labels = nil
		}
		v := 1000 * (1 + float64(conf%5)/10 + float64(i%3)/100)
		r.Metrics = []result.Metric{{Name: "NOPM", Unit: "new orders/min", Better: result.Higher, Value: v, Headline: true, PerCore: true},
			{Name: "TPM", Unit: "transactions/min", Better: result.Higher, Value: 2.2 * v, PerCore: true}}
		m := &result.Measurement{VUs: 8, MeasuredSecs: 300, PerMinute: 2.2 * v, Transactions: map[string]result.TxStats{}, KeyTx: "new_order", KeyLabel: "NOPM"}
		for j, tx := range txs {
			lat := int64(1000 * (j + 1) * (conf%4 + 1))
			m.Transactions[tx] = result.TxStats{Count: 1000, Latency: result.Latency{Min: lat / 4, P50: lat, P90: 2 * lat, P95: 3 * lat, P99: 4 * lat, Max: 9 * lat}}
			r.Metrics = append(r.Metrics, result.Metric{Name: tx + " p95 latency", Unit: "ms", Better: result.Lower, Value: float64(3*lat) / 1000})
		}
		r.Metrics = append(r.Metrics, result.Metric{Name: "client CPU per transaction", Unit: "µs", Better: result.Lower, Value: 120 + float64(conf)})
		sys := &result.SystemMetrics{Scope: "database and client", IntervalS: 1, Summary: map[string]result.Stat{}}
		for t := 1; t <= 300; t++ {
			x := float64(t)
			m.Intervals = append(m.Intervals, result.Interval{ElapsedSeconds: x, Measured: true, PerMinute: 2.2*v + float64(t%7)*10,
				Transactions: map[string]result.IntervalTxStat{"new_order": {Count: int64(v/60) + int64(t%5)}}})
			sys.Samples = append(sys.Samples, result.SystemSample{T: x, CPUBusy: 60 + float64(t%13), CPUUser: 45 + float64(t%11), CPUSystem: 10, CPUIowait: float64(t % 3),
				MemUsed: 30e9 + uint64(t)*1e6, Disks: map[string]result.DiskSample{"vda": {IOPS: 900 + float64(t%17)}, "nvme0n1": {IOPS: 5000 + float64(t%23)}},
				Net: map[string]result.NetSample{"eth0": {RxMBs: 3, TxMBs: 4}}})
		}
		for _, k := range []string{"cpu_busy_pct", "cpu_user_pct", "cpu_system_pct", "cpu_iowait_pct", "cpu_steal_pct", "core0_busy_pct", "mem_used_bytes",
			"disk.vda.avg_latency_ms", "disk.vda.iops", "disk.vda.queue_depth", "disk.vda.read_mb_s", "disk.vda.write_mb_s", "net.eth0.rx_mb_s", "net.eth0.tx_mb_s"} {
			sys.Summary[k] = result.Stat{Mean: 50, P50: 50, P90: 70, P99: 80, Max: 90}
		}
		r.Measurement, r.System = m, sys
		runs = append(runs, r)
	}
	return runs
}

func render(t *testing.T, runs []*result.Result) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, "Buffer sizes on bench-01", runs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A report stays small for many runs: what repeats (versions, group IDs, targets, the environment, the style)
// is said once, per configuration or once in all, and long series are thinned, so the page grows by a few
// kilobytes per run, never by repeated text.
func TestReportSizeGrowsSlowly(t *testing.T) {
	page30, page100 := render(t, fixture(30)), render(t, fixture(100))
	perRun := (len(page100) - len(page30)) / 70
	t.Logf("report of 30 runs: %d bytes; of 100 runs: %d bytes; %d bytes per further run", len(page30), len(page100), perRun)
	if perRun > 14<<10 {
		t.Errorf("each further run adds %d bytes", perRun)
	}
	confs := len(Group(fixture(100)))
	for what, s := range map[string]string{"the server version": fixtureVersion, "the target": "db-host-01.example.internal", "a group ID": "g20261125T180001-019919",
		"the style": "svg.chart{", "an environment setting": "setting_number_07"} {
		if n := strings.Count(page100, s); n == 0 || n > 2 && n > confs+2 {
			t.Errorf("%s appears %d times in a report of 100 runs in %d configurations", what, n, confs)
		}
	}
}

// The report is laid out for a reader: opened in headless Chromium at a desktop and a narrow width, no text
// overflows its box (table cells, headings, the contents), the page does not scroll sideways, and no text of
// a chart overlaps another or leaves its chart. Screenshots are kept in the test's directory for a human.
func TestReportLayoutInChromium(t *testing.T) {
	browser.Path(t)
	dir := t.TempDir()
	// with published figures: a leaderboard section and its ranked chart
	runs := append(fixture(14), publishedFixture(t)...)
	delete(sections, "layouttest") // -count=2 registers it again
	stressed := false
	RegisterSection("layouttest", func(b *strings.Builder, r *result.Result, of string) {
		MeasurementSection(b, r, of)
		if stressed {
			return
		}
		stressed = true
		// the hardest charts workloads draw: 22 queries of 3 streams, 40 long names, 12 series, a long title
		var q, long []string
		var s3 []Series
		for i := 1; i <= 22; i++ {
			q = append(q, fmt.Sprintf("Q%d", i))
		}
		for k := 0; k < 3; k++ {
			s := Series{Name: fmt.Sprintf("stream %d", k)}
			for i := range q {
				s.Y = append(s.Y, float64((i*7+k*3)%11+1))
			}
			s3 = append(s3, s)
		}
		b.WriteString(BarChart("Query times per stream"+of, "s", q, s3))
		one := Series{Name: "p99"}
		for i := 0; i < 40; i++ {
			long = append(long, fmt.Sprintf("transaction_with_a_long_name_%02d", i))
			one.Y = append(one.Y, float64(i%9+1))
		}
		b.WriteString(BarChart("Latency of forty transactions with long names"+of, "ms", long, []Series{one}))
		b.WriteString(BarChart("A few long categories"+of, "ms", long[:5], []Series{one}))
		var lines []Series
		for k := 0; k < 12; k++ {
			l := Series{Name: fmt.Sprintf("disk.nvme%dn1.avg_latency_ms", k)}
			for x := 0; x < 3600; x++ {
				l.X, l.Y = append(l.X, float64(x)), append(l.Y, float64((x*(k+1))%97))
			}
			l.Name, _ = SeriesName(l.Name)
			lines = append(lines, l)
		}
		b.WriteString(LineChart("Average latency of every NVMe device of the database host over the whole of the measured window, sampled every second"+of, "elapsed (s)", "ms", lines))
		// a ranked list: 40 rows of long names, long texts after the bars, the last (longest) row marked
		h := HBars{Title: "Monthly cost of forty candidates" + of, XLabel: "$ a month", Series: []Series{{Name: "VM"}, {Name: "disks"}}, Mark: 39, MarkNote: "the longest, marked"}
		for i, n := range long {
			h.Categories = append(h.Categories, n+" + 3 x P30 + 1 x P20 + 2 x P10 placed")
			h.Series[0].Y, h.Series[1].Y = append(h.Series[0].Y, float64(1000+37*i)), append(h.Series[1].Y, float64(300*(i%7)+40*i))
			h.Ends = append(h.Ends, fmt.Sprintf("$%d,%03d.00 a month, every cap applied", 1+i/10, i*37%1000))
		}
		b.WriteString(HBarChart(h))
		b.WriteString(LineChart("Sweep"+of, "vus", "NOPM", []Series{{Name: "NOPM", X: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256}, Y: []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}}}))
	})
	ctx := browser.Open(t, dir, 10*time.Minute) // the guard is against a hung browser, not a speed limit
	// load opens a page at a width and returns what is broken in it, its charts and a screenshot
	load := func(path string, width int64) (problems []string, charts int, shot []byte) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate("file://"+path)); err != nil {
			t.Fatal(err)
		}
		var err error
		if charts, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("svg.chart").length`)); err != nil {
			t.Fatal(err)
		}
		if problems, err = browser.Problems(ctx); err != nil {
			t.Fatal(err)
		}
		if shot, err = chromedp.Run(ctx, chromedp.FullScreenshot(80)); err != nil {
			t.Fatal(err)
		}
		return problems, charts, shot
	}
	// the checks see what they look for: a page with each fault
	broken := filepath.Join(dir, "broken.html")
	os.WriteFile(broken, []byte(`<!DOCTYPE html><html><body><table><tr><td style="white-space:nowrap;max-width:50px;overflow:hidden">`+strings.Repeat("x", 200)+
		`</td></tr></table><svg class="chart" viewBox="0 0 200 100" style="width:200px" aria-label="c"><text x="10" y="20">overlapping</text>`+
		`<text x="20" y="22">text</text><text x="150" y="50">leaves the chart</text></svg></body></html>`), 0o644)
	found := map[string]bool{}
	problems, _, _ := load(broken, 800)
	for _, p := range problems {
		found[strings.SplitN(p, ":", 2)[0]] = true
	}
	if !found["text overflows its <td>"] || !found["texts overlap"] || !found["leaves its chart"] {
		t.Fatalf("the layout checks miss faults: %v", problems)
	}
	path := filepath.Join(dir, "report.html")
	page := render(t, runs)
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if !stressed || !strings.Contains(page, `aria-label="Latency of forty transactions with long names`) || !strings.Contains(page, `aria-label="Monthly cost of forty candidates`) || !strings.Contains(page, `aria-label="NOPM per physical core of layouttest`) {
		t.Fatal("the hardest charts are not in the page")
	}
	for _, width := range []int64{1280, 760} {
		problems, charts, shot := load(path, width)
		png := filepath.Join(dir, fmt.Sprintf("report-%d.jpg", width))
		if err := os.WriteFile(png, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d px wide: %d charts, screenshot %s (%d bytes)", width, charts, png, len(shot))
		if charts < 20 || len(shot) < 20000 {
			t.Fatalf("%d charts rendered, a screenshot of %d bytes", charts, len(shot))
		}
		for _, p := range problems {
			t.Errorf("%d px: %s", width, p)
		}
	}
}
