package method_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Result files and stores written before results carried their metrics (schema version 1, e2f9aba) load in
// results, compare and report: their metrics come from the workload that wrote them, the database host's cores
// from where the database ran. testdata/v1 holds files that version wrote (a two-target TPC-C run, a TPC-H
// power and throughput test, a TPC-H stream sweep inside one result).
func TestResultsOfVersion1Load(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "v1", "*.json"))
	if len(files) != 4 {
		t.Fatalf("fixtures: %v", files)
	}
	byName := map[string]*result.Result{}
	for _, f := range files {
		r, err := result.Read(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if r.SchemaVersion != result.SchemaVersion || len(r.Metrics) == 0 {
			t.Fatalf("%s: version %d, %d metrics", f, r.SchemaVersion, len(r.Metrics))
		}
		if e := r.Environment; e.DBHostCores != e.Cores || e.DBHostCoresSource != result.LocalCores {
			t.Fatalf("%s: database host cores %d (%s), machine cores %d", f, e.DBHostCores, e.DBHostCoresSource, e.Cores)
		}
		byName[filepath.Base(f)] = r
	}
	if h, ok := byName["tpcc.json"].Headline(); !ok || h.Name != "NOPM" || h.Value != byName["tpcc.json"].Figures["nopm"] {
		t.Fatalf("tpcc headline %+v", h)
	}
	if m := byName["tpcc.json"].Measurement; m.KeyTx != "new_order" || m.KeyLabel != "NOPM" {
		t.Fatalf("tpcc key transaction %q %q", m.KeyTx, m.KeyLabel)
	}
	if h, ok := byName["tpch.json"].Headline(); !ok || h.Name != "QphH@Size" || h.Value != *byName["tpch.json"].Analytic.QphH {
		t.Fatalf("tpch headline %+v", h)
	}
	names := map[string]bool{}
	for _, m := range byName["tpchsweep.json"].Metrics {
		names[m.Name] = true
	}
	// (that run was of queries 1 and 6: its metrics are marked a subset)
	if !names["1 stream(s): time to complete (subset Q1,6 of 22)"] || !names["2 stream(s): time to complete (subset Q1,6 of 22)"] {
		t.Fatalf("the sweep inside one result keeps its points apart: %v", names)
	}

	// the same documents in a store written by that version (the store's own schema did not change)
	path := filepath.Join(t.TempDir(), "v1.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, _ := sql.Open("sqlite", path)
	for _, f := range files {
		doc, _ := os.ReadFile(f)
		var raw map[string]any
		json.Unmarshal(doc, &raw)
		if _, err := db.Exec(`INSERT INTO results (run_id, workload, engine, target, status, started_at, document) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			raw["run_id"], raw["workload"], raw["target"].(map[string]any)["engine"], raw["target"].(map[string]any)["url"], raw["status"], raw["started_at"], string(doc)); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	ctx := context.Background()
	var list, cmp bytes.Buffer
	if err := results.List(ctx, &list, path, store.Filter{}); err != nil || strings.Count(list.String(), "\n") != 5 {
		t.Fatalf("list: %v\n%s", err, list.String())
	}
	ids := []string{byName["tpcc.json"].RunID, byName["tpcc-target2.json"].RunID}
	if err := results.Compare(ctx, &cmp, path, ids); err != nil || !strings.Contains(cmp.String(), "NOPM per $/hour") {
		t.Fatalf("compare: %v\n%s", err, cmp.String())
	}
	html := filepath.Join(t.TempDir(), "r.html")
	if _, err := results.Report(ctx, os.Stderr, path, nil, store.Filter{}, "v1", html); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(html)
	for _, want := range []string{"Throughput over time", "QphH@Size", "Power@Size", "v1box target 1", "v1box target 2"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report of version-1 results lacks %q", want)
		}
	}
}

// Per-core figures use the database host's cores: this machine's when the database runs here, a db_cores
// label's when given, none when neither says (a server elsewhere); the result says which.
func TestDatabaseHostCores(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "c.db")
	clitest.TPCCBuiltAt(t, url)
	local, labelled := filepath.Join(dir, "l.json"), filepath.Join(dir, "d.json")
	// counts, not times: 100 transactions hold new orders however slow the machine (a 1 s window could hold none)
	clitest.Must(t, "tpcc", "run", "--target", url, "--rampup", "0s", "--transactions", "100", "--store", "", "--result", local)
	clitest.Must(t, "tpcc", "run", "--target", url, "--rampup", "0s", "--transactions", "100", "--store", "", "--result", labelled, "--label", "db_cores=16")
	l, _ := clitest.ReadResult(t, local)
	d, _ := clitest.ReadResult(t, labelled)
	if l.Environment.DBHostCores != l.Environment.Cores || l.Environment.DBHostCoresSource != result.LocalCores {
		t.Fatalf("local database: %d cores from %q", l.Environment.DBHostCores, l.Environment.DBHostCoresSource)
	}
	if d.Environment.DBHostCores != 16 || d.Environment.DBHostCoresSource != "label db_cores" {
		t.Fatalf("labelled: %d cores from %q", d.Environment.DBHostCores, d.Environment.DBHostCoresSource)
	}
	var out bytes.Buffer
	if err := results.Compare(context.Background(), &out, "", []string{local, labelled}); err != nil {
		t.Fatal(err)
	}
	h, _ := d.Headline()
	if !strings.Contains(out.String(), "NOPM per physical core") || !strings.Contains(out.String(), " "+compare.Format(h.Value/16)+" ") {
		t.Fatalf("per core from the label (NOPM %v / 16):\n%s", h.Value, out.String())
	}
	// a result whose database ran elsewhere and that no label tells about has no per-core figure
	l.Environment.DBHostCores, l.Environment.DatabaseLocal, l.Environment.DBHostCoresSource = 0, false, ""
	remote := filepath.Join(dir, "remote.json")
	if err := l.WriteFile(remote); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := results.Compare(context.Background(), &out, "", []string{remote, labelled}); err != nil || strings.Contains(out.String(), "per physical core") {
		t.Fatalf("no per-core figure without the database host's cores: %v\n%s", err, out.String())
	}
}

var update = flag.Bool("update", false, "rewrite the golden files")

// dbdyno sql prints exactly what runs; testdata/sql keeps that output for every workload and engine, so a
// change to any statement shows in review. The output is kept in two parts, split at the line that starts the
// engine's own statements: the workload's part in WORKLOAD-ENGINE.sql, and the engine's own statements (the
// same after every workload) once, in engine-ENGINE.sql. go test ./internal/method -run TestSQLGolden -update
// rewrites both kinds.
func TestSQLGolden(t *testing.T) {
	engines := map[string][]byte{} // the engine's part as -update writes it
	for _, m := range workload.All() {
		if m.SQL == nil {
			continue
		}
		for _, e := range engine.All() {
			if m.Supports != nil && m.Supports(e) != nil {
				// dbdyno sql refuses it, as the workload does
				if err := results.PrintSQL(io.Discard, m.Name, e.Name); err == nil || err.Error() != m.Supports(e).Error() {
					t.Errorf("dbdyno sql --workload %s --engine %s: %v, want the workload's refusal", m.Name, e.Name, err)
				}
				continue
			}
			var out bytes.Buffer
			if err := results.PrintSQL(&out, m.Name, e.Name); err != nil {
				t.Fatalf("%s on %s: %v", m.Name, e.Name, err)
			}
			marker := []byte("-- " + e.Title + "'s own statements (internal/engine/sql)\n")
			at := bytes.Index(out.Bytes(), marker)
			if bytes.Count(out.Bytes(), marker) != 1 || at < 1 || out.Bytes()[at-1] != '\n' {
				t.Fatalf("dbdyno sql --workload %s --engine %s: want one line %q starting the engine's own statements", m.Name, e.Name, marker)
			}
			parts := []struct {
				file string
				got  []byte
			}{
				{filepath.Join("testdata", "sql", m.Name+"-"+e.Name+".sql"), out.Bytes()[:at]},
				{filepath.Join("testdata", "sql", "engine-"+e.Name+".sql"), out.Bytes()[at:]},
			}
			if *update {
				if prev, ok := engines[e.Name]; ok && !bytes.Equal(prev, parts[1].got) {
					t.Errorf("%s's own statements differ after workload %s from after another workload: one file cannot hold them", e.Title, m.Name)
				}
				engines[e.Name] = parts[1].got
				os.MkdirAll(filepath.Join("testdata", "sql"), 0o755)
				for _, p := range parts {
					os.WriteFile(p.file, p.got, 0o644)
				}
				continue
			}
			for _, p := range parts {
				want, err := os.ReadFile(p.file)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if !bytes.Equal(p.got, want) {
					t.Errorf("dbdyno sql --workload %s --engine %s differs from %s (run with -update after checking the change)", m.Name, e.Name, p.file)
				}
			}
		}
	}
}
