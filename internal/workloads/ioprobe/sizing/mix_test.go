package sizing

import (
	"bytes"
	"strings"
	"testing"
)

// mixCatalog is the study's premium disks with a price for P20 and P40 set for these tests (the catalogue's
// P30 at the worked example's $136.085), a DS13 and a VM of two slots.
const mixCatalog = `disks:
  - {name: P20, tier: premium, size_gib: 512,  iops: 2300, mbps: 150, price_month: 73.22}
  - {name: P30, tier: premium, size_gib: 1024, iops: 5000, mbps: 200, price_month: 136.085}
  - {name: P40, tier: premium, size_gib: 2048, iops: 7500, mbps: 250, price_month: 259.05}
  - {name: Standard-1TB, tier: standard, size_gib: 1024, iops: 500, price_month: 51.20}
vms:
  - {name: Standard_DS13, uncached_iops: 25600, uncached_mbps: 256, max_data_disks: 16, disk_tiers: [premium, standard], price_month: 1003.66}
  - {name: Two, uncached_iops: 25600, uncached_mbps: 256, max_data_disks: 2, disk_tiers: [premium], price_month: 500}
`

func sizeMix(t *testing.T, need Need) map[string]Candidate {
	t.Helper()
	c, err := Parse("mix.yaml", []byte(mixCatalog))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Size(c, need)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Candidate{}
	for _, x := range p.Candidates {
		got[x.String()] = x
	}
	return got
}

// Mixes of two disk sizes, by hand from the prices above (each disk a volume of its own: the sums of the
// disks' caps and sizes, within the VM's caps).
//
// 17,500 IOPS and 4,096 GiB on the DS13: identical disks, 4 x P30 (20,000 IOPS, 4,096 GiB) $544.34, 3 x P40
// $777.15, 8 x P20 (18,400, 4,096) $585.76; mixes of P20 and P30 or P40 fall short of the IOPS below $544.34
// (3 x P30 + 1 x P20: 17,300); 2 x P30 + 1 x P40: 10,000 + 7,500 = 17,500 IOPS, 2,048 + 2,048 = 4,096 GiB,
// 2 x $136.085 + $259.05 = $531.22, so $1,003.66 + $531.22 = $1,534.88, the cheapest. Mixing tiers is not
// offered: 3 x P30 + 2 x Standard-1TB would carry 16,000 IOPS for $510.66.
func TestMixOfDiskSizes(t *testing.T) {
	c, _ := Parse("mix.yaml", []byte(mixCatalog))
	p, err := Size(c, Need{IOPS: 17500, GiB: 4096})
	if err != nil {
		t.Fatal(err)
	}
	b := p.Candidates[0]
	if b.String() != "Standard_DS13 + 1 x P40 + 2 x P30 placed" || b.Cost.String() != "$1,534.88" || b.DiskCost().String() != "$531.22" ||
		b.IOPS != 17500 || b.GiB != 4096 || b.MBps != 256 {
		t.Errorf("cheapest: %s at %s (disks %s), %v IOPS %v GiB %v MB/s; want Standard_DS13 + 1 x P40 + 2 x P30 placed at $1,534.88 (disks $531.22), 17,500 IOPS, 4,096 GiB, 256 MB/s (the VM's cap)",
			b, b.Cost, b.DiskCost(), b.IOPS, b.GiB, b.MBps)
	}
	var out bytes.Buffer
	p.Write(&out, 0)
	for _, want := range []string{"Standard_DS13 + 4 x P30", "$1,548.00", "$1,003.66 + $531.22", "cheapest: Standard_DS13 + 1 x P40 + 2 x P30 placed, $1,534.88", "placed: each disk a volume of its own"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the plan lacks %q:\n%s", want, out.String())
		}
	}
	// the worked example's 16,000 IOPS with P20 priced: 3 x P30 + 1 x P20 (17,300 IOPS) for $481.48 beats
	// 4 x P30's $544.34; never the standard disks beside the premium ones
	got := sizeMix(t, Need{IOPS: 16000})
	m, ok := got["Standard_DS13 + 3 x P30 + 1 x P20 placed"]
	if !ok || m.Cost.String() != "$1,485.14" || m.IOPS != 17300 {
		t.Errorf("16,000 IOPS: %v", got)
	}
	for name := range got {
		if strings.Contains(name, "placed") && strings.Contains(name, "Standard-1TB") {
			t.Errorf("a mix of tiers: %s", name)
		}
	}
}

// The VM's slots bound a mix: on Two (2 slots), 12,500 IOPS and 3,072 GiB are 1 x P30 + 1 x P40 ($395.14,
// against 2 x P40's $518.10; 3 x P30 does not fit); 13,000 IOPS is beyond 1 + 1 (12,500) and no mix of two
// disks carries it for less than 2 x P40, so no mix is listed for Two.
func TestMixWithinTheVMsSlots(t *testing.T) {
	got := sizeMix(t, Need{IOPS: 12500, GiB: 3072})
	m, ok := got["Two + 1 x P40 + 1 x P30 placed"]
	if !ok || m.Cost.String() != "$895.14" || m.N+m.Mix[0].N != 2 {
		t.Errorf("12,500 IOPS and 3,072 GiB on Two: %v", got)
	}
	if x, ok := got["Two + 2 x P40"]; !ok || x.Cost.String() != "$1,018.10" {
		t.Errorf("Two + 2 x P40: %v", got)
	}
	for name := range sizeMix(t, Need{IOPS: 13000, GiB: 3072}) {
		if strings.HasPrefix(name, "Two ") && strings.Contains(name, "placed") {
			t.Errorf("13,000 IOPS on two slots: %s", name)
		}
	}
}

// A mix of three sizes, by hand, with P10 priced too ($19.71): 18,000 IOPS on the DS13. A P30 is the cheapest
// IOPS ($136.085 / 5,000 = $0.0272 each; P40 $0.0345, P20 $0.0318, P10 $0.0394), so three of them (15,000); the
// other 3,000 cost $136.09 as a fourth P30 (4 x P30, $1,548.00), $146.44 as two P20, $118.26 as six P10, and
// $112.64 as one P20 and two P10 (2,300 + 1,000 = 3,300): 3 x P30 + 1 x P20 + 2 x P10, 18,300 IOPS for $408.255
// + $73.22 + $39.42 = $520.895, $1,524.56 with the VM (the brute force agrees that nothing is cheaper).
func TestMixOfThreeSizes(t *testing.T) {
	doc := strings.Replace(mixCatalog, "disks:\n", "disks:\n  - {name: P10, tier: premium, size_gib: 128, iops: 500, mbps: 100, price_month: 19.71}\n", 1)
	c, err := Parse("mix.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	need := Need{IOPS: 18000}
	p, err := Size(c, need)
	if err != nil {
		t.Fatal(err)
	}
	b := p.Candidates[0]
	if b.String() != "Standard_DS13 + 3 x P30 + 1 x P20 + 2 x P10 placed" || b.Cost.String() != "$1,524.56" || b.DiskCost().String() != "$520.90" ||
		b.IOPS != 18300 || b.GiB != 3*1024+512+2*128 || len(b.Parts()) != 3 {
		t.Errorf("cheapest: %s at %s (disks %s), %v IOPS %v GiB; want Standard_DS13 + 3 x P30 + 1 x P20 + 2 x P10 placed at $1,524.56 (disks $520.90), 18,300 IOPS, 3,840 GiB",
			b, b.Cost, b.DiskCost(), b.IOPS, b.GiB)
	}
	if want, ok := bruteCheapest(c, need); !ok || want != b.Cost {
		t.Errorf("the brute force's cheapest costs %s, Size's %s", want, b.Cost)
	}
	var out bytes.Buffer
	p.Write(&out, 3)
	for _, want := range []string{"Standard_DS13 + 3 x P30 + 1 x P20 + 2 x P10 placed", "$1,003.66 + $520.90",
		"cheapest: Standard_DS13 + 3 x P30 + 1 x P20 + 2 x P10 placed, $1,524.56 a month (VM $1,003.66 + 3 x P30 + 1 x P20 + 2 x P10 placed $520.90)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the plan lacks %q:\n%s", want, out.String())
		}
	}
	// the columns stay aligned past the usual width: every row's IOPS column ends where the header's does
	lines := strings.Split(out.String(), "\n")
	var head string
	for _, l := range lines {
		if strings.HasPrefix(l, "candidate ") {
			head = l
		}
	}
	end := strings.Index(head, "IOPS") + len("IOPS")
	for _, l := range lines {
		if strings.HasPrefix(l, "Standard_DS13 + ") && (len(l) < end || l[end-1] < '0' || l[end-1] > '9' || l[end] != ' ') {
			t.Errorf("misaligned row:\n%s\n%s", head, l)
		}
	}
	// as JSON: the same name, and the disks counted a size at a time
	j := p.JSON(3)
	c0 := j.Candidates[0]
	if j.Cheapest != b.String() || c0.Disks != "3 x P30 + 1 x P20 + 2 x P10 placed" || !c0.Placed || len(c0.Parts) != 3 ||
		c0.Parts[0] != (PartJSON{"P30", 3}) || c0.Parts[1] != (PartJSON{"P20", 1}) || c0.Parts[2] != (PartJSON{"P10", 2}) ||
		*c0.CostMonth != 1524.56 || *c0.DisksMonth != 520.90 || j.More != 1 || c0.MBps == nil || *c0.MBps != 256 {
		t.Errorf("JSON: %+v", j)
	}
	if c1 := j.Candidates[1]; c1.Disks != "4 x P30" || c1.Placed || len(c1.Parts) != 1 || c1.Parts[0] != (PartJSON{"P30", 4}) {
		t.Errorf("JSON, 4 x P30: %+v", c1)
	}
}
