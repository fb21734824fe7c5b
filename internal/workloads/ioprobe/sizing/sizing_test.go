package sizing

import (
	"bytes"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
)

var example = filepath.Join("..", "..", "..", "..", "examples", "catalogs/azure-2015.yaml")

func load(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load(example)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The study's worked example: 16,000 IOPS on standard storage is a D14 with 32 x 1 TB disks, $1,570.58 +
// $1,638.40 = $3,208.98 a month; on premium storage a DS13 with 4 x P30, $1,003.66 + $544.34 = $1,548.00 (the
// study prints $1,544.34, an arithmetic slip), the cheapest.
func TestWorkedExamples(t *testing.T) {
	c := load(t)
	p, err := Size(c, Need{IOPS: 16000})
	if err != nil {
		t.Fatal(err)
	}
	find := func(vm, disk string) Candidate {
		for _, x := range p.Candidates {
			if x.VM.Name == vm && x.Disk.Name == disk {
				return x
			}
		}
		t.Fatalf("no candidate %s with %s: %v", vm, disk, p.Candidates)
		return Candidate{}
	}
	std := find("Standard_D14", "Standard-1TB")
	if std.N != 32 || std.Cost.Cents() != 320898 || std.Cost.String() != "$3,208.98" || std.IOPS != 16000 {
		t.Errorf("standard: %d disks, %s, %v IOPS; want 32, $3,208.98, 16000", std.N, std.Cost, std.IOPS)
	}
	if got := (Money(32) * std.Disk.Price).String(); got != "$1,638.40" {
		t.Errorf("32 standard disks cost %s, want $1,638.40", got)
	}
	prem := p.Candidates[0]
	if prem.VM.Name != "Standard_DS13" || prem.Disk.Name != "P30" || prem.N != 4 || prem.Cost.String() != "$1,548.00" {
		t.Errorf("cheapest is %s at %s, want Standard_DS13 + 4 x P30 at $1,548.00", prem, prem.Cost)
	}
	if got := (Money(4) * prem.Disk.Price).String(); got != "$544.34" {
		t.Errorf("4 x P30 cost %s, want $544.34", got)
	}
	if prem.IOPS != 20000 || prem.Limit != "disk IOPS" {
		t.Errorf("DS13 + 4 x P30 delivers %v IOPS bound by %q, want 20000 by disk IOPS", prem.IOPS, prem.Limit)
	}
	var out bytes.Buffer
	p.Write(&out, 0)
	for _, want := range []string{"cheapest: Standard_DS13 + 4 x P30, $1,548.00 a month", "$3,208.98", "$1,570.58 + $1,638.40"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// One P30's two caps (5,000 IOPS, 200 MB/s) at four request sizes, as the study's table prints them.
func TestP30IOSizeTable(t *testing.T) {
	p30, ok := load(t).Disk("P30")
	if !ok {
		t.Fatal("no P30")
	}
	for _, c := range []struct{ kb, iops, mbps float64 }{{8, 5000, 40}, {1024, 200, 200}, {64, 3200, 200}, {32, 5000, 160}} {
		iops, mbps := AtIOSize(p30.IOPS, p30.MBps, c.kb)
		if iops != c.iops || mbps != c.mbps {
			t.Errorf("P30 at %v KB: %v IOPS %v MB/s, want %v and %v", c.kb, iops, mbps, c.iops, c.mbps)
		}
	}
}

// Caps apply independently and the lower binds: a P30 on a DS1 for 4,000 IOPS is bound by the VM's 3,200; a
// DS4 (256 MB/s) with P30s for 250 MB/s needs two (one P30 gives 200).
func TestBindingLimits(t *testing.T) {
	c := load(t)
	ds1, _ := vm(c, "Standard_DS1")
	p30, _ := c.Disk("P30")
	cand, ok := evaluate(ds1, []Part{{p30, 1}}, Need{IOPS: 4000}, false)
	if ok || cand.IOPS != 3200 || cand.Limit != "VM IOPS cap" {
		t.Errorf("DS1 + P30 for 4,000 IOPS: met %v, %v IOPS, limit %q; want not met, 3,200, VM IOPS cap", ok, cand.IOPS, cand.Limit)
	}
	ds4, _ := vm(c, "Standard_DS4")
	if cand, ok := evaluate(ds4, []Part{{p30, 1}}, Need{MBps: 250}, false); ok || cand.Limit != "disk MB/s" {
		t.Errorf("DS4 + 1 P30 for 250 MB/s: met %v, limit %q; want not met, disk MB/s", ok, cand.Limit)
	}
	if cand, ok := evaluate(ds4, []Part{{p30, 2}}, Need{MBps: 250}, false); !ok || cand.MBps != 256 || cand.Limit != "VM MB/s cap" {
		t.Errorf("DS4 + 2 P30 for 250 MB/s: met %v, %v MB/s, limit %q; want met, 256, VM MB/s cap", ok, cand.MBps, cand.Limit)
	}
}

func vm(c *Catalog, name string) (VM, bool) {
	for _, v := range c.VMs {
		if v.Name == name {
			return v, true
		}
	}
	return VM{}, false
}

// A need beyond every VM says which requirement and by how much.
func TestUnmet(t *testing.T) {
	_, err := Size(load(t), Need{IOPS: 100000, MBps: 100})
	var u *UnmetError
	if !errors.As(err, &u) || len(u.Lines) != 1 {
		t.Fatalf("got %v, want one unmet requirement", err)
	}
	for _, want := range []string{"100,000 IOPS", "the most is 80,000", "Standard_GS5", "VM IOPS cap", "short by 20,000 (20%)"} {
		if !strings.Contains(u.Lines[0], want) {
			t.Errorf("%q lacks %q", u.Lines[0], want)
		}
	}
}

func TestCatalogValidation(t *testing.T) {
	good := "disks:\n  - {name: A, size_gib: 10, iops: 100}\nvms:\n  - name: V\n    max_data_disks: 2\n"
	if _, err := Parse("c.yaml", []byte(good)); err != nil {
		t.Fatalf("a valid catalogue refused: %v", err)
	}
	for _, c := range []struct{ name, doc, want string }{
		{"unknown key", "disks:\n  - {name: A, size_gib: 10, iops: 100, ipos: 3}\nvms:\n  - {name: V, max_data_disks: 2}\n", "c.yaml:2: disks[A].ipos: unknown key"},
		{"negative cap", "disks:\n  - {name: A, size_gib: 10, iops: 100}\nvms:\n  - name: V\n    max_data_disks: 2\n    uncached_iops: -5\n", "c.yaml:6: vms[V].uncached_iops: -5 is negative"},
		{"no disk slots", "disks:\n  - {name: A, size_gib: 10, iops: 100}\nvms:\n  - name: V\n    max_data_disks: 0\n", "c.yaml:5: vms[V].max_data_disks: 0: a VM with no data disk slots"},
		{"slots missing", "disks:\n  - {name: A, size_gib: 10, iops: 100}\nvms:\n  - name: V\n", "c.yaml:4: vms[V].max_data_disks: missing"},
		{"top-level key", "disk:\n  - {name: A}\n", "c.yaml:1: disk: unknown key"},
		{"negative price", "disks:\n  - {name: A, size_gib: 10, iops: 100, price_month: -1}\nvms:\n  - {name: V, max_data_disks: 2}\n", "c.yaml:2: disks[A].price_month: -1 is negative"},
		{"duplicate", "disks:\n  - {name: A, size_gib: 10, iops: 100}\n  - {name: A, size_gib: 10, iops: 100}\nvms:\n  - {name: V, max_data_disks: 2}\n", "c.yaml:3: disks[A].name: a disk of that name is already on line 2"},
	} {
		_, err := Parse("c.yaml", []byte(c.doc))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line starting %q", c.name, err, c.want)
		}
	}
}

func TestMoney(t *testing.T) {
	for s, want := range map[string]string{"136.085": "$136.09", "1003.66": "$1,003.66", "$1,570.58": "$1,570.58", "51.2": "$51.20", "0": "$0.00"} {
		m, err := ParseMoney(s)
		if err != nil || m.String() != want {
			t.Errorf("ParseMoney(%q) = %s, %v; want %s", s, m, err, want)
		}
	}
	for _, s := range []string{"abc", "1.23456", "", "-3"} {
		if _, err := ParseMoney(s); err == nil {
			t.Errorf("ParseMoney(%q) accepted", s)
		}
	}
}

func TestInlineNeed(t *testing.T) {
	n, err := ReadNeed("iops=16000,mbps=200,io-size=64k,gib=2048", "p99", "")
	if err != nil || n.IOPS != 16000 || n.MBps != 200 || n.IOSizeKB != 64 || n.GiB != 2048 {
		t.Fatalf("got %+v, %v", n, err)
	}
	if _, err := ReadNeed("iops=1,ipos=3", "p99", ""); err == nil || !strings.Contains(err.Error(), `unknown key "ipos"`) {
		t.Errorf("an unknown key: %v", err)
	}
}

func TestNeedFromChecklist(t *testing.T) {
	row := func(p99 float64) []monitor.Row {
		return []monitor.Row{{Key: monitor.KeyIOPS, Stat: &monitor.Stat{P50: p99 / 2, P99: p99}}, {Key: monitor.KeyRandomPct, NotMeasured: "not measured"}}
	}
	c := &monitor.Checklist{Growth: 1.5, Periods: []monitor.Period{{Name: "normal", Rows: row(16000)}, {Name: "off", Rows: row(1000)}}}
	if n, err := FromChecklist(c, "p99", "", "c.json"); err != nil || n.IOPS != 16000 || !strings.Contains(n.From, "largest of every period, growth x1.5") {
		t.Errorf("every period: %+v, %v", n, err)
	}
	if n, err := FromChecklist(c, "p50", "off", "c.json"); err != nil || n.IOPS != 500 {
		t.Errorf("off at p50: %+v, %v", n, err)
	}
	if _, err := FromChecklist(c, "p95", "", "c.json"); err == nil {
		t.Error("p95 accepted")
	}
	if _, err := FromChecklist(c, "p99", "peak", "c.json"); err == nil || !strings.Contains(err.Error(), "normal, off") {
		t.Errorf("an unknown period: %v", err)
	}
}

func TestProfileOf(t *testing.T) {
	st := func(p50, p90, p99, avg float64) *monitor.Stat {
		return &monitor.Stat{P50: p50, P90: p90, P99: p99, Avg: avg}
	}
	period := func(name string, iops float64) monitor.Period {
		return monitor.Period{Name: name, Rows: []monitor.Row{
			{Key: monitor.KeyIOPS, Stat: st(iops/2, iops/2, iops, iops/2)},
			{Key: monitor.KeyReadPct, Stat: st(60, 80, 90, 75)},
			{Key: monitor.KeyIOSize, Stat: st(7, 9, 65, 12)},
			{Key: monitor.KeyMBps, Stat: st(1, 2, 300, 1)},
			{Key: monitor.KeyLatency, Stat: st(1, 2, 4, 1)},
			{Key: monitor.KeyQueueDepth, Stat: st(0.5, 1.2, 2.01, 0.6)},
			{Key: monitor.KeyRandomPct, NotMeasured: "not measured"},
		}}
	}
	c := &monitor.Checklist{Growth: 1, Periods: []monitor.Period{period("off", 100), period("peak", 4000)}}
	p, err := ProfileOf(c, "p99", "", "c.json")
	if err != nil {
		t.Fatal(err)
	}
	// the busiest period; sizes 7, 9, 65 KB round to 8k, 8k, 64k: 8k/90:64k/10; reads 75% of 4,000 IOPS
	if p.Period != "peak" || p.BSSplit != "8k/90:64k/10" || p.MeanKB != 13.6 || p.QueueDepth != 3 || p.RateRead != 3000 || p.RateWrite != 1000 {
		t.Errorf("got %+v", p)
	}
	// 300 MB/s at p99 is beyond what 4,000 IOPS of 13.6 KB carry (53.1): judged against what the job carries
	if math.Abs(p.MBps-4000*13.6/1024) > 1e-9 || len(p.Notes) != 2 {
		t.Errorf("MB/s %v, notes %q", p.MBps, p.Notes)
	}
	vs := p.Judge(3950, p.MBps, 74, 13.6, 5)
	for _, v := range vs {
		if v.Met != (v.What != "average latency ms") {
			t.Errorf("%s: met %v (needed %s, measured %s)", v.What, v.Met, v.Need, v.Measured)
		}
	}
}

func TestExpectFlatTop(t *testing.T) {
	e, err := ParseExpect("P30", example)
	if err != nil || e.IOPS != 5000 || e.MBps != 200 {
		t.Fatalf("P30: %+v, %v", e, err)
	}
	if _, err := ParseExpect("P31", example); err == nil || !strings.Contains(err.Error(), "no such disk") {
		t.Errorf("P31: %v", err)
	}
	if _, err := ParseExpect("P30", ""); err == nil || !strings.Contains(err.Error(), "--catalog") {
		t.Errorf("P30 without a catalogue: %v", err)
	}
	flat := []Second{{4990, 39}, {5010, 39}, {4950, 38.7}, {3000, 23}, {5000, 39}}
	lines := e.Compare(8, 4590, 35.9, flat)
	if len(lines) != 2 || !strings.Contains(lines[0], "92% of 5000 advertised") || !strings.Contains(lines[1], "flat top at the IOPS cap (5000): 4 of 5 seconds") {
		t.Errorf("8 KB at the IOPS cap: %q", lines)
	}
	// 64 KB: the MB/s cap binds (3,200 IOPS, 200 MB/s)
	lines = e.Compare(64, 3190, 199, []Second{{3190, 199}, {3200, 200}, {3180, 198.8}})
	if len(lines) != 2 || !strings.Contains(lines[1], "flat top at the MB/s cap (200)") {
		t.Errorf("64 KB at the MB/s cap: %q", lines)
	}
	// a device that varies is not throttled
	if lines := e.Compare(8, 2000, 16, []Second{{1000, 8}, {4000, 31}, {1500, 12}, {2500, 20}}); len(lines) != 1 {
		t.Errorf("no flat top: %q", lines)
	}
}

// Host caching, by hand: 16,000 IOPS of 8 KB requests, 90% reads, half of them expected from a ReadOnly host
// cache: the cache serves 16,000 x 0.9 x 0.5 = 7,200 IOPS within the VM's cache caps, the disks the other
// 8,800: two P30 (10,000) instead of four, $1,000 + 2 x $136.085 = $1,272.17 against $1,544.34 uncached. A VM
// whose cache is capped at 4,000 IOPS cannot serve the 7,200 and is sized uncached (four P30); a VM without
// cache caps, or a need without the hit rate, is sized as before.
func TestHostCaching(t *testing.T) {
	c, err := Parse("c.yaml", []byte(`disks:
  - {name: P30, tier: premium, size_gib: 1024, iops: 5000, mbps: 200, price_month: 136.085}
vms:
  - {name: Big, uncached_iops: 25600, uncached_mbps: 256, max_data_disks: 16, caching: "ReadOnly, ReadWrite", cache_iops: 32000, cache_mbps: 256, price_month: 1000}
  - {name: Small, uncached_iops: 25600, uncached_mbps: 256, max_data_disks: 16, caching: "ReadOnly, ReadWrite", cache_iops: 4000, cache_mbps: 256, price_month: 1000.01}
  - {name: NoCaps, uncached_iops: 25600, uncached_mbps: 256, max_data_disks: 16, caching: "ReadOnly", price_month: 1000.02}
`))
	if err != nil {
		t.Fatal(err)
	}
	need := Need{IOPS: 16000, IOSizeKB: 8, ReadPct: 90, CacheHit: 0.5}
	p, err := Size(c, need)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Candidate{}
	for _, x := range p.Candidates {
		got[x.VM.Name] = x
	}
	big, small, nocaps := got["Big"], got["Small"], got["NoCaps"]
	if !big.Cached || big.N != 2 || big.Cost.String() != "$1,272.17" || big.CacheIOPS != 7200 || big.IOPS != 10000+32000 || big.Limit != "disk IOPS" {
		t.Errorf("Big: %+v (%s), want 2 x P30 cached, $1,272.17, 7,200 IOPS from the cache, disk IOPS binding", big, big.Cost)
	}
	if small.Cached || small.N != 4 || small.Cost.String() != "$1,544.35" {
		t.Errorf("Small: %s %d disks cached %v %s, want 4 x P30 uncached, $1,544.35", small, small.N, small.Cached, small.Cost)
	}
	if nocaps.Cached || nocaps.N != 4 {
		t.Errorf("NoCaps: %s", nocaps)
	}
	if p.Candidates[0].VM.Name != "Big" {
		t.Errorf("cheapest: %s", p.Candidates[0])
	}
	// beyond the cache's cap: at 40,000 IOPS, 90% x 0.9 = 32,400 cached > Big's 32,000, and uncached its 25,600
	// IOPS cap cannot carry 40,000 either: no candidate of Big
	p, err = Size(c, Need{IOPS: 40000, IOSizeKB: 8, ReadPct: 90, CacheHit: 0.9})
	if err == nil {
		for _, x := range p.Candidates {
			if x.VM.Name == "Big" {
				t.Errorf("Big meets 40,000 IOPS: %+v", x)
			}
		}
	}
	// at 30,000 IOPS and 0.9: the cache serves 24,300 (of its 32,000), the disks 5,700 (2 P30, 10,000): the
	// headrooms are 10,000/5,700 = 1.75 and 32,000/24,300 = 1.32, so the VM cache IOPS cap binds
	p, err = Size(c, Need{IOPS: 30000, IOSizeKB: 8, ReadPct: 90, CacheHit: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if b := p.Candidates[0]; b.VM.Name != "Big" || b.N != 2 || b.Limit != "VM cache IOPS cap" {
		t.Errorf("30,000 IOPS: %s binding %s", b, b.Limit)
	}
	if p, _ := Size(c, Need{IOPS: 16000, IOSizeKB: 8, ReadPct: 90}); p.Candidates[0].Cached || p.Candidates[0].N != 4 {
		t.Errorf("without a hit rate: %s", p.Candidates[0])
	}
}
