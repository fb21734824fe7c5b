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
	if b.String() != "Standard_DS13 + 2 x P30 + 1 x P40 placed" || b.Cost.String() != "$1,534.88" || b.DiskCost().String() != "$531.22" ||
		b.IOPS != 17500 || b.GiB != 4096 || b.MBps != 256 {
		t.Errorf("cheapest: %s at %s (disks %s), %v IOPS %v GiB %v MB/s; want Standard_DS13 + 2 x P30 + 1 x P40 placed at $1,534.88 (disks $531.22), 17,500 IOPS, 4,096 GiB, 256 MB/s (the VM's cap)",
			b, b.Cost, b.DiskCost(), b.IOPS, b.GiB, b.MBps)
	}
	var out bytes.Buffer
	p.Write(&out, 0)
	for _, want := range []string{"Standard_DS13 + 4 x P30", "$1,548.00", "$1,003.66 + $531.22", "cheapest: Standard_DS13 + 2 x P30 + 1 x P40 placed, $1,534.88", "placed: each disk a volume of its own"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the plan lacks %q:\n%s", want, out.String())
		}
	}
	// the worked example's 16,000 IOPS with P20 priced: 3 x P30 + 1 x P20 (17,300 IOPS) for $481.48 beats
	// 4 x P30's $544.34; never the standard disks beside the premium ones
	got := sizeMix(t, Need{IOPS: 16000})
	m, ok := got["Standard_DS13 + 1 x P20 + 3 x P30 placed"]
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
	m, ok := got["Two + 1 x P30 + 1 x P40 placed"]
	if !ok || m.Cost.String() != "$895.14" || m.N+m.Mix.N != 2 {
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
