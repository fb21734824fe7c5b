package sizing

import (
	"errors"
	"strings"
	"testing"
)

func unmetCache(t *testing.T, c *Catalog, need Need) *UnmetError {
	t.Helper()
	_, err := Size(c, need)
	var u *UnmetError
	if !errors.As(err, &u) {
		t.Fatalf("%+v: got %v, want an unmet need", need, err)
	}
	return u
}

// When no VM meets the need, the explanation says whether a ReadOnly host cache (--cache-hit) would have made
// one meet it, and which limit still fails where none would. By hand on the example catalogue, 8 KB requests,
// 90% reads (GS5: 80,000 uncached IOPS, its cache 5,000 IOPS and 50 MB/s, i.e. 5,000 at 8 KB; DS14: 50,000 and a
// 4,000 IOPS cache):
//   - 82,000 IOPS: the disks may carry at most 80,000, so the cache must serve 2,000 of the 73,800 reads: a hit
//     rate of 0.0271, 0.03 in steps of 0.01 (2,214 cached, within 5,000); the disks' 79,786 are 35 x P20
//     (80,500; 34 give 78,200);
//   - 160,000 IOPS: the cache takes the most off the disks at its cap, 5,000 / 144,000 = 0.0347 (0.034: 4,896
//     cached), leaving 155,104 for the disks, and GS5's uncached cap of 80,000 still fails.
func TestUnmetSaysWhatTheHostCacheWouldDo(t *testing.T) {
	c := load(t)
	u := unmetCache(t, c, Need{IOPS: 82000, IOSizeKB: 8, ReadPct: 90})
	if len(u.Lines) != 1 || !strings.Contains(u.Lines[0], "short by 2,000") {
		t.Errorf("the uncached shortfall: %q", u.Lines)
	}
	if want := "a ReadOnly host cache serving 3% of the 90% reads (--cache-hit 3%) would: Standard_GS5 + 35 x P20 cached, not priced"; u.Cache != want {
		t.Errorf("82,000 IOPS:\n got %q\nwant %q", u.Cache, want)
	}
	u = unmetCache(t, c, Need{IOPS: 160000, IOSizeKB: 8, ReadPct: 90})
	if want := "a ReadOnly host cache would not: at any hit rate within the caches' caps the closest, Standard_GS5 + 64 x P20 cached at --cache-hit 3.4% (its cache serving 4,896 IOPS), is still held by its VM IOPS cap (80,000 of the 155,104 IOPS needed of it)"; u.Cache != want {
		t.Errorf("160,000 IOPS:\n got %q\nwant %q", u.Cache, want)
	}
	// a rate the user gave that was too low is named beside the one that would do
	u = unmetCache(t, c, Need{IOPS: 82000, IOSizeKB: 8, ReadPct: 90, CacheHit: 0.02})
	if !strings.Contains(u.Cache, "(--cache-hit 3%) would") || !strings.Contains(u.Cache, "(this need counted --cache-hit 2%)") {
		t.Errorf("with --cache-hit 2%%: %q", u.Cache)
	}
	if !strings.HasSuffix(u.Error(), u.Cache) {
		t.Errorf("the error lacks the cache's line: %v", u)
	}
	// no read share: the cache cannot be counted, and the explanation says why
	u = unmetCache(t, c, Need{IOPS: 82000, IOSizeKB: 8})
	if !strings.Contains(u.Cache, "not counted: the need states no read share") {
		t.Errorf("without a read share: %q", u.Cache)
	}
	// a catalogue whose VMs offer no host cache
	mix, err := Parse("mix.yaml", []byte(mixCatalog))
	if err != nil {
		t.Fatal(err)
	}
	u = unmetCache(t, mix, Need{IOPS: 100000, ReadPct: 90})
	if !strings.HasPrefix(u.Cache, "host read caching would not help: no VM in mix.yaml offers ReadOnly caching") {
		t.Errorf("no cache offered: %q", u.Cache)
	}
}
