package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// io size --output-format json: the plan as one JSON object, a mix of three sizes named as the table does and
// counted a size at a time; another format is refused in one line.
func TestSizeJSONMix(t *testing.T) {
	dir := t.TempDir()
	catalog := filepath.Join(dir, "c.yaml")
	doc := `disks:
  - {name: P10, tier: premium, size_gib: 128,  iops: 500,  mbps: 100, price_month: 19.71}
  - {name: P20, tier: premium, size_gib: 512,  iops: 2300, mbps: 150, price_month: 73.22}
  - {name: P30, tier: premium, size_gib: 1024, iops: 5000, mbps: 200, price_month: 136.085}
vms:
  - {name: Standard_DS13, uncached_iops: 25600, uncached_mbps: 256, max_data_disks: 16, disk_tiers: [premium], price_month: 1003.66}
`
	if err := os.WriteFile(catalog, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r := cli(ctx, "io", "size", "--need", "iops=18000", "--catalog", catalog, "--output-format", "json")
	var plan struct {
		Cheapest   string
		Candidates []struct {
			Disks  string
			Placed bool
			Parts  []struct {
				Disk string
				N    int
			}
			CostMonth float64 `json:"cost_month"`
		}
	}
	if r.code != 0 {
		t.Fatalf("io size json: %d %q", r.code, r.stderr)
	}
	if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if len(plan.Candidates) == 0 || plan.Cheapest != "Standard_DS13 + 3 x P30 + 1 x P20 + 2 x P10 placed" {
		t.Fatalf("cheapest: %+v", plan)
	}
	c := plan.Candidates[0]
	if c.Disks != "3 x P30 + 1 x P20 + 2 x P10 placed" || !c.Placed || len(c.Parts) != 3 || c.Parts[2].Disk != "P10" || c.Parts[2].N != 2 || c.CostMonth != 1524.56 {
		t.Errorf("the cheapest candidate: %+v", c)
	}
	r = cli(ctx, "io", "size", "--need", "iops=18000", "--catalog", catalog)
	if r.code != 0 || !strings.Contains(r.stdout, "cheapest: Standard_DS13 + 3 x P30 + 1 x P20 + 2 x P10 placed, $1,524.56 a month") {
		t.Errorf("io size: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = cli(ctx, "io", "size", "--need", "iops=18000", "--catalog", catalog, "--output-format", "xml")
	if r.code == 0 || !strings.Contains(r.stderr, `--output-format "xml" is not known: use normal or json`) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
		t.Errorf("--output-format xml: %d %q", r.code, r.stderr)
	}
}
