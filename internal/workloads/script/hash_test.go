package script

import (
	"strings"
	"testing"
)

// The hash functions, permute and :default_seed give pgbench's own values: each expected value below is what
// pgbench 15.18 computed for the same expression (`pgbench -n -t 1 -c 1 --random-seed=5` running \set and an
// INSERT of the values; default_seed at -c 3 from the same run with three clients). TestAgainstPgbench in the
// CLI tests compares against a live pgbench where one is installed.
func TestHashAndPermuteMatchPgbench(t *testing.T) {
	ds := defaultSeed(5, 1)
	if ds != -1240385398947155067 {
		t.Fatalf("default_seed for --random-seed=5 -c 1: %d, pgbench's -1240385398947155067", ds)
	}
	if d3 := defaultSeed(5, 3); d3 != 8017708085652892619 {
		t.Fatalf("default_seed for --random-seed=5 -c 3: %d, pgbench's 8017708085652892619", d3)
	}
	for _, c := range []struct {
		src  string
		want int64
	}{
		{"hash(0, 0)", 8217090173679840641},
		{"hash(1, 0)", -8089716718896805586},
		{"hash_murmur2(-1, 12345)", 6450241028426015414},
		{"hash_fnv1a(0, 0)", -6284781860667377211},
		{"hash_fnv1a(123456789, 5)", 3419535723469586336},
		{"hash_fnv1a(-42, -7)", 2945412177850604557},
		{"hash_murmur2(9223372036854775807, 1)", -422191570849047500},
		{"hash(7)", 2838345042214518780},       // the seed :default_seed
		{"hash_fnv1a(7)", 3857449577570478983}, // likewise
		{"permute(0, 10, 1)", 5},
		{"permute(7, 1000, 42)", 440},
		{"permute(-3, 1000, 42)", 267},
		{"permute(12345, 1000000007, -5)", 641549001},
		{"permute(5, 3, 9)", 2},
		{"permute(5, 100)", 96},
		{"permute(1, 1, 3)", 0},
		{"permute(2.9, 10, 1)", 2},             // a double argument is rounded to an integer (3), as pgbench's coerceToInt does
		{"hash(2.5, 1)", -3163560438150112631}, // halves to even: hash(2, 1)
	} {
		n, err := parseExpr(c.src, map[string]bool{})
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		v, err := n.eval(testEnv{vars: map[string]value{"default_seed": intv(ds)}})
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if v.k != kInt || v.i != c.want {
			t.Errorf("%s = %s, pgbench's %d", c.src, v.text(), c.want)
		}
	}
}

// permute is a permutation: every value of [0, size) once, whatever the size (a power of two or not) and seed.
func TestPermuteIsAPermutation(t *testing.T) {
	for _, size := range []int64{1, 2, 3, 7, 8, 64, 1000, 1023, 1025} {
		for _, seed := range []uint64{0, 1, 42, 1 << 63} {
			seen := make([]bool, size)
			for i := range size {
				p := permute(i, size, seed)
				if p < 0 || p >= size || seen[p] {
					t.Fatalf("permute(%d, %d, %d) = %d: out of range or repeated", i, size, seed, p)
				}
				seen[p] = true
			}
		}
	}
}

func TestHashAndPermuteErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"permute(1, 0, 1)", "size must be greater than zero"},
		{"permute(1)", "permute() takes 2 or 3 argument(s), got 1"},
		{"hash(1, 2, 3)", "hash() takes 1 or 2 argument(s), got 3"},
		{"hash()", "hash() takes 1 or 2 argument(s), got 0"},
		{"mod(1)", "mod() takes 2 argument(s), got 1"},
	} {
		n, err := parseExpr(c.src, map[string]bool{})
		if err == nil {
			_, err = n.eval(testEnv{vars: map[string]value{}})
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
	vars := map[string]bool{}
	if _, err := parseExpr("hash(1)", vars); err != nil || !vars["default_seed"] {
		t.Errorf("hash(1) does not read :default_seed: %v %v", err, vars)
	}
}
