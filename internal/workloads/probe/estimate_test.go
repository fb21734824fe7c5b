package probe

import (
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// The memory probe's estimate read off its second passes: a knee, a floor when every set stayed cached, and a
// ceiling when even the smallest fell out. Before, the last was "0 MiB" with no bound, and a run whose every step
// read its data failed as one that "did none of the work it measures" (CI, TestStudy001TiersByFiveProbes, when
// the package's parallel tests' reads landed in the process's IO counters).
func TestMemoryEstimateBounds(t *testing.T) {
	pct := func(v float64) *float64 { return &v }
	probe := func(cached ...float64) *result.Probe {
		p := &result.Probe{Kind: "memory"}
		for i, c := range cached {
			x := float64(int(4) << i)
			p.Steps = append(p.Steps, result.ProbeStep{X: x, Pass: 1, Cached: pct(0)}, result.ProbeStep{X: x, Pass: 2, Cached: pct(c)})
		}
		return p
	}
	for _, c := range []struct {
		name    string
		p       *result.Probe
		value   float64
		bound   string
		noKnees bool
	}{
		{"every set cached", probe(100, 99, 95), 16, "at least", true},
		{"none cached", probe(0, 0, 0), 4, "less than", true},
		{"a knee", probe(100, 50, 0), 4, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := map[string]any{"probe": "memory"}
			r := &result.Result{Workload: "probe", Probe: c.p, Options: o, Figures: figures(c.p, o)}
			ms := metrics(r)
			if len(ms) != 1 {
				t.Fatalf("metrics %+v, want the cache estimate alone", ms)
			}
			m := ms[0]
			if m.Value != c.value || m.Bound != c.bound || m.Unit != "MiB" {
				t.Errorf("estimate %v %q %s, want %v %q MiB (%v)", m.Value, m.Bound, m.Unit, c.value, c.bound, r.Figures)
			}
			if m.Value == 0 {
				t.Errorf("an estimate of 0 MiB from a probe that read every set (%v)", r.Figures)
			}
			if _, ok := r.Figures["knee_low_mib"]; ok == c.noKnees {
				t.Errorf("knee figures %v, want them only for a knee", r.Figures)
			}
		})
	}
}
