package script

import (
	"math"
	"strings"
	"testing"
)

type testEnv struct {
	vars map[string]value
	r    *randSource
}

func (e testEnv) lookup(n string) (value, bool) { v, ok := e.vars[n]; return v, ok }
func (e testEnv) rng() *randSource              { return e.r }
func (e testEnv) debug(value)                   {}

func eval(t *testing.T, src string) (value, error) {
	t.Helper()
	n, err := parseExpr(src, map[string]bool{})
	if err != nil {
		return value{}, err
	}
	return n.eval(testEnv{vars: map[string]value{"x": intv(7), "d": dblv(2.5), "s": strv("12"), "w": strv("abc")}, r: newRand(1, 1)})
}

// The expression language as pgbench's documentation states it: operators, their precedence and typing, the
// functions, CASE and IS.
func TestExpressions(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"1 + 2 * 3", "7"},
		{"(1 + 2) * 3", "9"},
		{"7 / 2", "3"},   // integer division truncates
		{"-7 / 2", "-3"}, // towards zero
		{"7 % 3", "1"},
		{"-7 % 3", "-1"},
		{"7.0 / 2", "3.5"}, // a double makes the operation double
		{":x * 2 + 1", "15"},
		{":x / :d", "2.8"},
		{":s + 1", "13"}, // a -D value that spells a number is one
		{"1 + 2 = 3", "true"},
		{"1 < 2 and 2 < 1", "false"},
		{"1 < 2 or 2 < 1", "true"},
		{"not 1 = 2", "true"},
		{"5 & 3 | 8", "9"},
		{"5 # 1", "4"},
		{"1 << 4", "16"},
		{"~0", "-1"},
		{"abs(-5)", "5"},
		{"abs(-2.5)", "2.5"},
		{"int(5.9)", "6"},   // pgbench 15.18 rounds a double to the nearest integer (rint)
		{"int(-5.9)", "-6"}, // likewise
		{"int(2.5)", "2"},   // halves to even
		{"mod(7.9, 4)", "0"},
		{"random(1.6, 1.6)", "2"},
		{"double(3)", "3"},
		{"least(3, 1, 2)", "1"},
		{"greatest(3, 1.5, 2)", "3"},
		{"greatest(3, 1, 2)", "3"},
		{"mod(10, 4)", "2"},
		{"sqrt(16)", "4"},
		{"pow(2, 10)", "1024"},
		{"power(2, 0.5)", "1.4142135623731"},
		{"ln(exp(1))", "1"},
		{"pi()", "3.14159265358979"},
		{"case when :x > 5 then 1 when :x > 2 then 2 else 3 end", "1"},
		{"case when :x > 9 then 1 end", "NULL"},
		{"null is null", "true"},
		{":x is not null", "true"},
		{"null + 1", "NULL"},
		{"(1 = 1) is true", "true"},
		{"random(5, 5)", "5"},
		{"-9223372036854775807 - 1", "-9223372036854775808"},
		{"10 - 2 - 3", "5"}, // left-associative
		{"2 * 3 % 4", "2"},
	} {
		v, err := eval(t, c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if got := v.text(); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

func TestExpressionErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"1 / 0", "division by zero"},
		{"1 % 0", "division by zero"},
		{"9223372036854775807 + 1", "bigint out of range"},
		{"3037000500 * 3037000500", "bigint out of range"},
		{":nope + 1", "undefined variable :nope"},
		{":w + 1", "not a number"},
		{"1 +", "unexpected end"},
		{"foo(1)", "unknown function foo()"},
		{"random(1)", "takes 2 argument(s)"},
		{"random(5, 1)", "empty range"},
		{"random_gaussian(1, 10, 1.5)", "at least 2"},
		{"random_exponential(1, 10, 0)", "greater than 0"},
		{"random_zipfian(1, 10, 1.0)", "[1.001, 1000]"},
		{"(1 + 2", "missing )"},
		{"1 ! 2", "unexpected character"},
		{"abc", "a variable is written :abc"},
	} {
		_, err := eval(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.src, err, c.want)
		}
	}
}

// chiSquare is the statistic of observed counts against expected probabilities over cells lo..hi, and its
// degrees of freedom; cells expected fewer than 5 times are pooled into one.
func chiSquare(counts map[int64]int, p func(k int64) float64, lo, hi int64, n int) (float64, int) {
	var stat, poolE float64
	var poolO, cells int
	for k := lo; k <= hi; k++ {
		e := p(k) * float64(n)
		o := counts[k]
		if e < 5 {
			poolE += e
			poolO += o
			continue
		}
		stat += (float64(o) - e) * (float64(o) - e) / e
		cells++
	}
	if poolE > 0 {
		stat += (float64(poolO) - poolE) * (float64(poolO) - poolE) / poolE
		cells++
	}
	return stat, cells - 1
}

// critical is the chi-square distribution's 99.9% quantile for df degrees of freedom (Wilson-Hilferty): a
// statistic above it rejects the distribution at the 0.1% level.
func critical(df int) float64 {
	k := float64(df)
	z := 3.090 // the standard normal's 99.9% quantile
	c := 1 - 2/(9*k) + z*math.Sqrt(2/(9*k))
	return k * c * c * c
}

func phi(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }

// The random functions draw pgbench's distributions, checked by a chi-square test against the probabilities
// pgbench's documentation defines: uniform; exponential f(x) = exp(-p(x-min)/(max-min+1)) / (1-exp(-p)) over
// each integer's interval; gaussian, the normal truncated to [-p, p) and mapped onto the range; zipfian,
// P(k) proportional to 1/k^s. Each test also rejects a neighbouring distribution from the same draws, so that
// it can fail.
func TestRandomDistributions(t *testing.T) {
	const n = 200_000
	lo, hi := int64(11), int64(60)
	size := float64(hi - lo + 1)
	expo := func(p float64) func(int64) float64 {
		return func(x int64) float64 {
			k := float64(x - lo)
			return (math.Exp(-p*k/size) - math.Exp(-p*(k+1)/size)) / (1 - math.Exp(-p))
		}
	}
	gauss := func(p float64) func(int64) float64 {
		return func(x int64) float64 {
			k := float64(x - lo)
			a, b := -p+2*p*k/size, -p+2*p*(k+1)/size
			return (phi(b) - phi(a)) / (phi(p) - phi(-p))
		}
	}
	zipf := func(s float64) func(int64) float64 {
		var h float64
		for k := 1.0; k <= size; k++ {
			h += math.Pow(k, -s)
		}
		return func(x int64) float64 { return math.Pow(float64(x-lo+1), -s) / h }
	}
	uniform := func(int64) float64 { return 1 / size }
	for _, c := range []struct {
		name      string
		draw      func(r *randSource) int64
		want, not func(int64) float64
	}{
		{"random", func(r *randSource) int64 { return r.uniform(lo, hi) }, uniform, expo(0.3)},
		{"random_exponential(3)", func(r *randSource) int64 { return r.exponential(lo, hi, 3) }, expo(3), expo(3.2)},
		{"random_exponential(0.5)", func(r *randSource) int64 { return r.exponential(lo, hi, 0.5) }, expo(0.5), expo(0.6)},
		{"random_gaussian(2)", func(r *randSource) int64 { return r.gaussian(lo, hi, 2) }, gauss(2), gauss(2.2)},
		{"random_gaussian(5)", func(r *randSource) int64 { return r.gaussian(lo, hi, 5) }, gauss(5), gauss(5.5)},
		{"random_zipfian(1.5)", func(r *randSource) int64 { return r.zipfian(lo, hi, 1.5) }, zipf(1.5), zipf(1.45)},
		{"random_zipfian(1.07)", func(r *randSource) int64 { return r.zipfian(lo, hi, 1.07) }, zipf(1.07), zipf(1.0)},
		{"random_zipfian(3)", func(r *randSource) int64 { return r.zipfian(lo, hi, 3) }, zipf(3), zipf(2.9)},
	} {
		r := newRand(42, 7)
		counts := map[int64]int{}
		for i := 0; i < n; i++ {
			v := c.draw(r)
			if v < lo || v > hi {
				t.Fatalf("%s drew %d outside [%d, %d]", c.name, v, lo, hi)
			}
			counts[v]++
		}
		stat, df := chiSquare(counts, c.want, lo, hi, n)
		if crit := critical(df); stat > crit {
			t.Errorf("%s: chi-square %.1f > %.1f (df %d): not the distribution pgbench defines", c.name, stat, crit, df)
		}
		stat, df = chiSquare(counts, c.not, lo, hi, n)
		if crit := critical(df); stat <= crit {
			t.Errorf("%s: the test cannot tell it from a neighbouring distribution (chi-square %.1f <= %.1f)", c.name, stat, crit)
		}
	}
}

// pgbench documents random_zipfian(1, ..., 2.5) drawing 1 about (2/1)^2.5 = 5.66 times as often as 2.
func TestZipfianRatio(t *testing.T) {
	r := newRand(3, 3)
	var ones, twos int
	for i := 0; i < 300_000; i++ {
		switch r.zipfian(1, 1000, 2.5) {
		case 1:
			ones++
		case 2:
			twos++
		}
	}
	if ratio := float64(ones) / float64(twos); math.Abs(ratio-5.66) > 0.2 {
		t.Errorf("P(1)/P(2) = %.2f, pgbench's documentation says 5.66", ratio)
	}
}
