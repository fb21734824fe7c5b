package monitor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"
)

// diskstats is one /proc/diskstats snapshot: sda's counters (a partition and a loop device beside it).
func diskstats(reads, rsect, rms, writes, wsect, wms, weighted uint64) string {
	return fmt.Sprintf("   7       0 loop0 5 0 10 1 0 0 0 0 0 1 1 0 0 0 0\n"+
		"   8       0 sda %d 7 %d %d %d 3 %d %d 0 %d %d 0 0 0 0 0 0\n"+
		"   8       1 sda1 1 0 8 1 1 0 8 1 0 2 2\n", reads, rsect, rms, writes, wsect, wms, weighted/2, weighted)
}

// samples are four 10 s intervals of sda from five snapshots, the last starting Monday 09:00 UTC:
//
//	1: 1,000 reads of 8 KiB in 2,000 ms, 20,000 weighted ms: 100 IOPS, 100% reads, 8 KiB, 0.78125 MB/s, 2 ms, QD 2
//	2: 500 reads of 8 KiB and 500 writes of 64 KiB, 500 + 1,500 ms, 10,000 weighted ms: 100 IOPS, 50% reads,
//	   36 KiB, 3.515625 MB/s, 2 ms, QD 1
//	3: no IO: 0 IOPS, 0 MB/s, QD 0 (no share, size or latency)
//	4: 2,000 writes of 8 KiB in 1,000 ms, 5,000 weighted ms: 200 IOPS, 0% reads, 8 KiB, 1.5625 MB/s, 0.5 ms, QD 0.5
func samples(t *testing.T) []Sample {
	snaps := []string{
		diskstats(10, 80, 10, 10, 80, 10, 100),
		diskstats(1010, 16080, 2010, 10, 80, 10, 20100),
		diskstats(1510, 24080, 2510, 510, 64080, 1510, 30100),
		diskstats(1510, 24080, 2510, 510, 64080, 1510, 30100),
		diskstats(1510, 24080, 2510, 2510, 96080, 2510, 35100),
	}
	start := time.Date(2026, 11, 23, 8, 59, 30, 0, time.UTC)
	if start.Weekday() != time.Monday {
		t.Fatalf("%v is a %v", start, start.Weekday())
	}
	var out []Sample
	var prev map[string]Counters
	for i, s := range snaps {
		cur, err := ParseDiskstats(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil {
			d, missing := Between(prev, cur, WholeDisk)
			if len(missing) > 0 {
				t.Fatalf("missing %v", missing)
			}
			out = append(out, Sample{At: start.Add(time.Duration(i) * 10 * time.Second), Seconds: 10, Devices: d,
				CPU: float64(10 * i), MemUsed: uint64(i) << 30})
		}
		prev = cur
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func check(t *testing.T, p Period, key string, want Stat) {
	t.Helper()
	r, ok := p.Row(key)
	if !ok || r.Stat == nil {
		t.Fatalf("%s: no %s row (%s)", p.Name, key, r.NotMeasured)
	}
	got := *r.Stat
	if !near(got.P50, want.P50) || !near(got.P90, want.P90) || !near(got.P99, want.P99) || !near(got.Min, want.Min) || !near(got.Avg, want.Avg) || !near(got.Max, want.Max) {
		t.Errorf("%s %s: got %+v, want %+v", p.Name, key, got, want)
	}
}

func TestChecklistFromDiskstats(t *testing.T) {
	ss := samples(t)
	if _, ok := ss[0].Devices["sda1"]; ok {
		t.Errorf("a partition was recorded: %v", ss[0].Devices)
	}
	c := Build("t", ss, nil, nil, 1, time.UTC)
	if len(c.Periods) != 1 || c.Periods[0].Intervals != 4 || strings.Join(c.Devices, ",") != "sda" {
		t.Fatalf("got %d periods, devices %v", len(c.Periods), c.Devices)
	}
	p := c.Periods[0]
	// IOPS 100, 100, 0, 200: nearest rank of 4 values, p50 the 2nd, p90 and p99 the 4th
	check(t, p, KeyIOPS, Stat{P50: 100, P90: 200, P99: 200, Min: 0, Avg: 100, Max: 200})
	check(t, p, KeyReadPct, Stat{P50: 50, P90: 100, P99: 100, Min: 0, Avg: 50, Max: 100})
	check(t, p, KeyWritePct, Stat{P50: 50, P90: 100, P99: 100, Min: 0, Avg: 50, Max: 100})
	check(t, p, KeyIOSize, Stat{P50: 8, P90: 36, P99: 36, Min: 8, Avg: 52.0 / 3, Max: 36})
	check(t, p, KeyMBps, Stat{P50: 0.78125, P90: 3.515625, P99: 3.515625, Min: 0, Avg: 5.859375 / 4, Max: 3.515625})
	check(t, p, KeyLatency, Stat{P50: 2, P90: 2, P99: 2, Min: 0.5, Avg: 1.5, Max: 2})
	check(t, p, KeyQueueDepth, Stat{P50: 0.5, P90: 2, P99: 2, Min: 0, Avg: 0.875, Max: 2})
	check(t, p, KeyCPU, Stat{P50: 20, P90: 40, P99: 40, Min: 10, Avg: 25, Max: 40})
	check(t, p, KeyMemory, Stat{P50: 2, P90: 4, P99: 4, Min: 1, Avg: 2.5, Max: 4})
	for _, k := range []string{KeyRandomPct, KeySeqPct, KeyTPS} {
		if r, _ := p.Row(k); r.Stat != nil || !strings.HasPrefix(r.NotMeasured, "not measured: ") {
			t.Errorf("%s: %+v, want not measured with the reason", k, r)
		}
	}
}

func TestChecklistPeriodsAndGrowth(t *testing.T) {
	periods, err := ParsePeriods("normal=Mon-Fri 09:00-17:00,early=Mon-Fri 00:00-09:00,weekend=Sat-Sun 00:00-24:00")
	if err != nil {
		t.Fatal(err)
	}
	c := Build("t", samples(t), periods, []string{"sda"}, 1.5, time.UTC)
	byName := map[string]Period{}
	for _, p := range c.Periods {
		byName[p.Name] = p
	}
	if n := byName["normal"].Intervals; n != 1 {
		t.Errorf("normal: %d intervals, want 1 (the one starting at 09:00)", n)
	}
	if n := byName["early"].Intervals; n != 3 {
		t.Errorf("early: %d intervals, want 3", n)
	}
	if n := byName["weekend"].Intervals; n != 0 {
		t.Errorf("weekend: %d intervals, want 0", n)
	}
	// growth 1.5 multiplies the load (IOPS 200 -> 300), not the shares or sizes
	check(t, byName["normal"], KeyIOPS, Stat{P50: 300, P90: 300, P99: 300, Min: 300, Avg: 300, Max: 300})
	check(t, byName["normal"], KeyReadPct, Stat{})
	check(t, byName["normal"], KeyIOSize, Stat{P50: 8, P90: 8, P99: 8, Min: 8, Avg: 8, Max: 8})
	check(t, byName["early"], KeyIOPS, Stat{P50: 150, P90: 150, P99: 150, Min: 0, Avg: 100, Max: 150})
	if r, _ := byName["weekend"].Row(KeyIOPS); r.Stat != nil || r.NotMeasured == "" {
		t.Errorf("an empty period's IOPS: %+v", r)
	}
	var js bytes.Buffer
	if err := c.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Checklist
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Periods) != 3 || back.Periods[0].Rows[1].P99 != 300 {
		t.Errorf("JSON does not read back: %v\n%s", err, js.String())
	}
	var tab bytes.Buffer
	c.WriteTable(&tab)
	for _, want := range []string{"normal (Mon-Fri 09:00-17:00): 1 intervals", "IOPS (reads + writes) *", "% random operations", "not measured: it needs"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
}

func TestParsePeriodsRefuses(t *testing.T) {
	for _, s := range []string{"normal", "normal=Mon-Fri", "x=Mon-Fri 09:00-25:00", "x=Funday 09:00-10:00", "x=09:00-09:00", "a=09:00-10:00,a=11:00-12:00"} {
		if _, err := ParsePeriods(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	p, err := ParsePeriods("night=22:00-06:00")
	if err != nil {
		t.Fatal(err)
	}
	at := func(h int) time.Time { return time.Date(2026, 11, 25, h, 0, 0, 0, time.UTC) }
	if !p[0].Contains(at(23)) || !p[0].Contains(at(5)) || p[0].Contains(at(12)) {
		t.Errorf("22:00-06:00 wraps midnight")
	}
}

func TestVanishedDevice(t *testing.T) {
	a, _ := ParseDiskstats(strings.NewReader(diskstats(1, 1, 1, 1, 1, 1, 1) + "   8 16 sdb 1 0 8 1 1 0 8 1 0 2 2\n"))
	b, _ := ParseDiskstats(strings.NewReader(diskstats(2, 2, 2, 2, 2, 2, 2)))
	d, missing := Between(a, b, WholeDisk)
	if _, ok := d["sda"]; !ok || len(missing) != 1 || missing[0] != "sdb" {
		t.Errorf("got %v, missing %v; want sda recorded and sdb missing", d, missing)
	}
}

// BenchmarkChecklist30Days: a month of 10 s intervals (259,200) of two devices, decoded from their stored
// JSON and summed into three periods' checklist (the bound: under 5 s).
func BenchmarkChecklist30Days(b *testing.B) {
	t0 := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	const n = 30 * 24 * 360
	docs := make([][]byte, n)
	for i := range docs {
		s := Sample{At: t0.Add(time.Duration(i+1) * 10 * time.Second), Seconds: 10, CPU: float64(i % 100), MemUsed: uint64(i%1000) << 20,
			Devices: map[string]Delta{"sda": {Reads: uint64(i % 5000), Writes: 100, ReadBytes: uint64(i%5000) * 8192, WriteBytes: 819200, ReadMs: 50, WriteMs: 20, WeightedMs: 300},
				"sdb": {Writes: uint64(i % 700), WriteBytes: uint64(i%700) * 65536, WriteMs: 9, WeightedMs: 90}}}
		docs[i], _ = json.Marshal(s)
	}
	periods, _ := ParsePeriods("normal=Mon-Fri 09:00-17:00,peak=Mon-Fri 12:00-13:00,off=Sat-Sun 00:00-24:00")
	b.ResetTimer()
	for range b.N {
		bl := NewBuilder(periods, nil, 1.5, time.UTC)
		var s Sample
		for _, d := range docs {
			clear(s.Devices)
			s.Missing, s.TPS, s.First = s.Missing[:0], nil, false
			if err := gojson.Unmarshal(d, &s); err != nil {
				b.Fatal(err)
			}
			bl.Add(s)
		}
		if c := bl.Checklist("b"); c.Periods[0].Intervals == 0 {
			b.Fatal("no interval in normal")
		}
	}
}
