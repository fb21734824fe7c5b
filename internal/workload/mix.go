package workload

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Mix is a workload's transaction weights as --mix name=weight,... gives them (a workload with a mix: tpcc).
type Mix struct {
	Weights []float64 // per transaction, in the workload's order
	// Custom says the weights are not the workload's standard mix (in proportion): its results are marked
	// "custom mix" and compared only with results of the same mix.
	Custom bool
	Text   string // the weights as given, in the workload's order: new_order=50,payment=50
}

// ParseMix reads --mix over the workload's transactions: "" is the standard mix; each term is name=weight,
// weights relative (they need not sum to 100), a transaction not named has weight 0.
func ParseMix(s string, names []string, standard []float64) (Mix, error) {
	m := Mix{Weights: append([]float64(nil), standard...)}
	if strings.TrimSpace(s) == "" {
		return m, nil
	}
	m.Weights = make([]float64, len(names))
	seen := map[string]bool{}
	for _, term := range strings.Split(s, ",") {
		name, w, ok := strings.Cut(strings.TrimSpace(term), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return Mix{}, fmt.Errorf("--mix %q: a term is TRANSACTION=WEIGHT, e.g. %s=50 (got %q)", s, names[0], term)
		}
		i := -1
		for j, n := range names {
			if n == name {
				i = j
			}
		}
		if i < 0 {
			return Mix{}, fmt.Errorf("--mix %q: %q names no transaction of this workload: use %s", s, name, strings.Join(names, ", "))
		}
		if seen[name] {
			return Mix{}, fmt.Errorf("--mix %q: %s is given twice", s, name)
		}
		seen[name] = true
		v, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return Mix{}, fmt.Errorf("--mix %q: %s's weight %q is not a number of 0 or more", s, name, strings.TrimSpace(w))
		}
		m.Weights[i] = v
	}
	sum, std := 0.0, 0.0
	for i := range names {
		sum, std = sum+m.Weights[i], std+standard[i]
	}
	if sum <= 0 {
		return Mix{}, fmt.Errorf("--mix %q: every weight is 0: give at least one transaction a weight", s)
	}
	var parts []string
	for i, n := range names {
		if math.Abs(m.Weights[i]/sum-standard[i]/std) > 1e-9 {
			m.Custom = true
		}
		if m.Weights[i] > 0 {
			parts = append(parts, n+"="+strconv.FormatFloat(m.Weights[i], 'f', -1, 64))
		}
	}
	m.Text = strings.Join(parts, ",")
	return m, nil
}

// Cards are the weights as whole cards of a deck drawn without replacement (every deck holds the mix
// exactly): the weights themselves when they are whole and at most 1000 in all, else scaled to 1000 cards,
// each transaction with a weight getting at least one.
func (m Mix) Cards() []int {
	out := make([]int, len(m.Weights))
	sum, whole := 0.0, true
	for _, w := range m.Weights {
		sum += w
		whole = whole && w == math.Trunc(w)
	}
	for i, w := range m.Weights {
		switch {
		case whole && sum <= 1000:
			out[i] = int(w)
		case w > 0:
			out[i] = max(1, int(math.Round(w/sum*1000)))
		}
	}
	return out
}
