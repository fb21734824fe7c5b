package bulk

import (
	"testing"
	"time"
)

func TestAppendDec(t *testing.T) {
	for _, c := range []struct {
		u     int64
		scale int
		want  string
	}{{-1000, 2, "-10.00"}, {5, 2, "0.05"}, {2000, 4, "0.2000"}, {30000000, 2, "300000.00"}, {7, 0, "7"}} {
		if got := string(AppendDec(nil, c.u, c.scale)); got != c.want {
			t.Errorf("appendDec(%d, %d) = %s, want %s", c.u, c.scale, got, c.want)
		}
	}
}

// AppendDate agrees with the time package over four centuries either side of 1970.
func TestAppendDate(t *testing.T) {
	for d := int32(-146097); d <= 146097*2; d += 17 {
		want := time.Unix(int64(d)*86400, 0).UTC().Format("2006-01-02")
		if got := string(AppendDate(nil, d)); got != want {
			t.Fatalf("day %d: %s, want %s", d, got, want)
		}
	}
	if got := string(AppendDate(nil, 8035)); got != "1992-01-01" {
		t.Fatalf("dbgen's day 0: %s", got)
	}
}
