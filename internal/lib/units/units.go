// Package units reads the sizes dbdyno's options are given in (4k, 64m, 1g, 30g), in fio's binary units, for
// the storage probe (dbdyno io) and the engine probe (dbdyno probe) alike.
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// ParseSize reads fio's sizes: bytes, or with k/m/g/t (and KiB, MB ...: fio's default kb_base=1024 counts
// them all in powers of 1024).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' })
	num, suf := t, ""
	if i >= 0 {
		num, suf = t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	}
	suf = strings.TrimSuffix(strings.TrimSuffix(suf, "b"), "i")
	mult := map[string]int64{"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}[suf]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || f < 0 {
		return 0, fmt.Errorf("%q is not a size: use bytes or a number with k, m, g or t (4k, 1m, 30g)", s)
	}
	return int64(f * float64(mult)), nil
}

// FormatBytes writes a size in the binary units sizes are typed in (16m is 16 MiB): 16 MiB, 1.5 GiB, 512 B, the
// unit always named (MiB, not MB: 16m is 16.8 MB), to one decimal.
func FormatBytes(n int64) string {
	f := float64(n)
	for _, u := range []struct {
		s string
		m float64
	}{{"PiB", 1 << 50}, {"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if f >= 0.99*u.m { // 1023.8 KiB of whole 410-byte rows from --table-size 1m is 1 MiB
			return strconv.FormatFloat(math.Round(f/u.m*10)/10, 'f', -1, 64) + " " + u.s
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}
