package result

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The engine layer says which engines a result may name; here, the one the sample names.
func init() { KnownEngine = func(name string) bool { return name == "postgres" } }

func sample() *Result {
	now := time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)
	return &Result{SchemaVersion: SchemaVersion, Tool: Tool{Name: "dbdyno", Version: "t", GoVersion: "go"}, Workload: "tpcc",
		Command: []string{"dbdyno", "tpcc", "run"}, Options: map[string]any{"vus": 2}, Status: StatusOK, StartedAt: now, EndedAt: now,
		Target: Target{URL: "postgres://u:xxxxx@h:5432/d", Engine: "postgres", ServerVersion: "PostgreSQL 15"},
		Measurement: &Measurement{VUs: 2, MeasureStart: now, MeasureEnd: now, Transactions: map[string]TxStats{"new_order": {Count: 3}},
			Intervals: []Interval{{ElapsedSeconds: 1, Transactions: map[string]IntervalTxStat{"new_order": {Count: 1}}}}},
		Figures: map[string]any{"nopm": 1.5}}
}

func TestResultMatchesSchemaAndRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	if err := sample().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	r, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Measurement.Transactions["new_order"].Count != 3 || r.Figures["nopm"] != 1.5 {
		t.Fatalf("round trip lost data: %+v", r)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestSchemaRejectsBadDocuments(t *testing.T) {
	for name, mutate := range map[string]func(*Result){
		"bad status":       func(r *Result) { r.Status = "great" },
		"password in url":  func(r *Result) { r.Target.URL = "postgres://u:hunter2@h:5432/d" },
		"password in args": func(r *Result) { r.Command = []string{"--target=mysql://root:s3cret@h/d"} },
		"negative count":   func(r *Result) { r.Measurement.Committed = -1 },
		"unknown engine":   func(r *Result) { r.Target.Engine = "oracle" },
	} {
		r := sample()
		mutate(r)
		b, _ := r.Marshal()
		if err := Validate(b); err == nil {
			t.Errorf("%s: schema accepted it", name)
		}
	}
	if err := Validate([]byte(`{"schema_version": 99}`)); err == nil || !strings.Contains(err.Error(), "version 99 is not supported") {
		t.Errorf("newer version: %v", err)
	}
}

// A document that fails the schema is named by the schema's own name, not a made-up file URL.
func TestSchemaErrorNamesTheSchema(t *testing.T) {
	r := sample()
	r.Status = "great"
	b, _ := r.Marshal()
	err := Validate(b)
	if err == nil || strings.Contains(err.Error(), "file://") || !strings.Contains(err.Error(), "result-v2.json") {
		t.Fatalf("%v", err)
	}
}
