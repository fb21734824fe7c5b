package tpcc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// The client's TPM is never called plain "TPM" beside HammerDB's: a result written before it was named (figure
// "tpm", metric "TPM") reads as the client TPM, in its figures and its metrics, so that compare and the report
// put old and new runs on one row.
func TestClientTPMNamedForWhatItIs(t *testing.T) {
	for _, old := range []string{
		"../../method/testdata/v1/tpcc.json", // figures only: metrics derived on reading
		"",                                   // a stored metric named TPM
	} {
		if old == "" {
			r, err := result.Read("../../method/testdata/v1/tpcc.json")
			if err != nil {
				t.Fatal(err)
			}
			r.Figures = map[string]any{"nopm": 1000.0, "tpm": 2300.0}
			r.Metrics = []result.Metric{{Name: "NOPM", Value: 1000, Headline: true, Better: result.Higher}, {Name: "TPM", Unit: "transactions/min", Value: 2300, Better: result.Higher}}
			b, err := r.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			old = filepath.Join(t.TempDir(), "old.json")
			if err := os.WriteFile(old, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r, err := result.Read(old)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.Figures["tpm"]; ok || r.Figures["client_tpm"] == nil {
			t.Errorf("%s: figures %v, want client_tpm", old, r.Figures)
		}
		var names []string
		for _, m := range r.Metrics {
			names = append(names, m.Name)
		}
		if got := strings.Join(names, ", "); !strings.Contains(got, "client TPM") || strings.Contains(", "+got+",", ", TPM,") {
			t.Errorf("%s: metrics %s, want the client TPM named so", old, got)
		}
	}
}
