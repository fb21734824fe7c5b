package method_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/results"
)

// compare refuses a failed run unless asked for it (--include-failed), and then says which run failed beside
// the comparison.
func TestCompareIncludesFailedRunsOnlyWhenAsked(t *testing.T) {
	v1 := func(name string) string { return filepath.Join("testdata", "v1", name) }
	failed := filepath.Join(t.TempDir(), "failed.json")
	var doc map[string]any
	b, _ := os.ReadFile(v1("tpcc-target2.json"))
	json.Unmarshal(b, &doc)
	doc["status"], doc["error"] = "failed", "the run stalled"
	b, _ = json.Marshal(doc)
	os.WriteFile(failed, b, 0o644)
	ctx := context.Background()
	var out bytes.Buffer
	if err := results.Compare(ctx, &out, "", []string{v1("tpcc.json"), failed}); err == nil || !strings.Contains(err.Error(), "--include-failed") {
		t.Fatalf("a failed run compared without being asked for: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := results.CompareWith(ctx, &out, "", []string{v1("tpcc.json"), failed}, results.CompareOptions{IncludeFailed: true}); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "WARNING: run "+doc["run_id"].(string)+" ended failed (the run stalled)") || !strings.Contains(s, "NOPM") {
		t.Fatalf("compare --include-failed:\n%s", s)
	}
}
