package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Percent is a share in per cent (20 is 20%), as every percentage option of dbdyno is given: "20%" or "20". A
// number below 1 without "%" is refused (0.2 could mean 0.2% or a fraction, 20%).
type Percent float64

// ParsePercent reads a percentage option's value for flag (its --name, for the one-line refusal).
func ParsePercent(flag, s string) (Percent, error) {
	t := strings.TrimSpace(s)
	num, sign := strings.CutSuffix(t, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%s %q is not a percentage: give 0%% to 100%%, e.g. 20%%", flag, s)
	case f < 0 || f > 100:
		return 0, fmt.Errorf("%s %q is outside 0%% to 100%%", flag, t)
	case !sign && f > 0 && f < 1:
		return 0, fmt.Errorf("%s %s is ambiguous: write %s or %s", flag, t, Percent(f), Percent(f*100))
	}
	return Percent(f), nil
}

// String writes the share as it is typed: 20%, 0.9%, 33.333333%, never 0.9000000000000001%.
func (p Percent) String() string { return FormatNumber(float64(p)) + "%" }

// Fraction is the share from 0 to 1.
func (p Percent) Fraction() float64 { return float64(p) / 100 }

// FormatNumber writes a number with at most six decimals and no trailing zeros (the float noise of a share
// computed as x/100*100 dropped).
func FormatNumber(f float64) string {
	return strconv.FormatFloat(math.Round(f*1e6)/1e6, 'f', -1, 64)
}
