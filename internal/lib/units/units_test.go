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

// A percentage is typed 20% or 20; a number below 1 without % is refused as ambiguous, in one line that gives
// both readings; shares print as typed.
func TestPercent(t *testing.T) {
	for s, want := range map[string]Percent{"20%": 20, "20": 20, "0.2%": 0.2, "0": 0, "0%": 0, "1": 1, "100%": 100, " 75 % ": 75, "0.9%": 0.9, "12.5": 12.5} {
		if got, err := ParsePercent("--hot", s); err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParsePercent("--new-customers", "0.2"); err == nil || err.Error() != "--new-customers 0.2 is ambiguous: write 0.2% or 20%" {
		t.Errorf("0.2: %v", err)
	}
	for _, bad := range []string{"", "%", "x", "101", "-1%", "NaN", "1e400"} {
		if _, err := ParsePercent("--hot", bad); err == nil || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "--hot ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	hot := 0.009
	for _, c := range []struct {
		p    Percent
		want string
	}{{0.9, "0.9%"}, {Percent(hot * 100), "0.9%"}, {20, "20%"}, {100.0 / 3, "33.333333%"}, {0, "0%"}} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%v printed %q, want %q", float64(c.p), got, c.want)
		}
	}
	if f := Percent(20).Fraction(); f != 0.2 {
		t.Errorf("20%% is %v", f)
	}
}

// Sizes print in the binary units they are typed in, the unit named: 16m is 16 MiB (not 16.8 MB).
func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{16 << 20: "16 MiB", 40920 * 410: "16 MiB", 2557 * 410: "1 MiB", 1 << 30: "1 GiB", 3 << 29: "1.5 GiB", 512: "512 B", 4096: "4 KiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("%d bytes printed %q, want %q", n, got, want)
		}
		if s, _ := ParseSize(strings.ReplaceAll(FormatBytes(n), " ", "")); s < n*99/100 || s > n*101/100 {
			t.Errorf("%s reads back as %d, not about %d", FormatBytes(n), s, n)
		}
	}
}
