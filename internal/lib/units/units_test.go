package units

import (
	"strings"
	"testing"
)

// Sizes read as fio reads them: powers of 1024 whatever the suffix's spelling; anything else is refused with
// one line naming the forms taken.
func TestSizesReadAsFioReadsThem(t *testing.T) {
	for s, want := range map[string]int64{"4k": 4096, "4K": 4096, "4KiB": 4096, "4kb": 4096, "1m": 1 << 20, "30g": 30 << 30, "512": 512,
		"1.5k": 1536, " 2t ": 2 << 40, "1p": 1 << 50, "64 MB": 64 << 20} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("size %q = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, bad := range []string{"", "k", "4x", "-1k", "1e", "4kk"} {
		_, err := ParseSize(bad)
		if err == nil {
			t.Errorf("size %q accepted", bad)
			continue
		}
		if want := `is not a size: use bytes or a number with k, m, g or t (4k, 1m, 30g)`; !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("size %q: %v, want one line with %q", bad, err, want)
		}
	}
}
