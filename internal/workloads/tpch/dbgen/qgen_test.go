package dbgen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// paramLog writes parameters as qgen's -l log does: the query number, then each parameter after a tab.
func paramLog(seed int64, sf float64) string {
	g := NewQGen(seed, sf)
	var out strings.Builder
	for q := 1; q <= 22; q++ {
		fmt.Fprintf(&out, "%d\t%s\n", q, strings.Join(g.Params(q), "\t"))
	}
	return out.String()
}

// The parameter logs of the TPC-H 3.0.1 kit's qgen (`qgen -r SEED -s SF -l FILE`), built from the kit with gcc
// and run on this project's development machine: one in full, the others as SHA-256.
const qgenLog1122034512 = `1	116
2	48	BRASS	AMERICA
3	MACHINERY	1995-03-08
4	1994-02-01
5	EUROPE	1997-01-01
6	1997-01-01	0.04	24
7	GERMANY	ETHIOPIA
8	ETHIOPIA	AFRICA	MEDIUM BURNISHED TIN
9	green
10	1993-10-01
11	JORDAN	0.0001000000
12	MAIL	AIR	1995-01-01
13	special	accounts
14	1995-12-01
15	1997-07-01
16	Brand#44	LARGE PLATED	18	32	11	6	19	8	42	21
17	Brand#43	LG CAN
18	314
19	Brand#24	Brand#11	Brand#21	9	13	28
20	navy	1993-01-01	ARGENTINA
21	EGYPT
22	11	18	13	30	20	12	22
`

func TestQGenIdenticalToQgen(t *testing.T) {
	if got := paramLog(1122034512, 1); got != qgenLog1122034512 {
		t.Errorf("seed 1122034512:\n%s\nqgen:\n%s", got, qgenLog1122034512)
	}
	for _, c := range []struct {
		seed int64
		sf   float64
		sha  string
	}{
		{1, 1, "3f8e998ba72521a7c4ab3d43f94a5992d5f418d8794edddb631296c6b0da5aaa"},
		{101, 1, "0bcb4bfc2ad6fc4f29d69dfc221218847e931e9e282d45fccdc43bdfe6e6afe8"},
		{2147483646, 1, "494707a7d63b89c34deb4e2a080a2305b99dae95cb93ead8fbbaeaba511399da"},
		{987654321, 1, "cf00825543d208a93a36ffda40b14b20d43700d8691843472c58f90303604ba7"},
		{5, 0.01, "0bacb4dc6e124b5ffd00db7c2e5b838860c8faeecf77324cc86175f020c24a11"}, // Q11's fraction is 0.0001/SF
	} {
		got := paramLog(c.seed, c.sf)
		if sum := sha256.Sum256([]byte(got)); hex.EncodeToString(sum[:]) != c.sha {
			t.Errorf("seed %d SF %g: parameters differ from qgen's:\n%s", c.seed, c.sf, got)
		}
	}
}
