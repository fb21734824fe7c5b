package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// What a distributed SQL database cannot answer of the engine's settings and counters statements is recorded
// as not collected, naming the product, in the result and its report; the run does not fail, and what it can
// answer is kept. A real PostgreSQL database poses as CockroachDB (a version() before pg_catalog's on the
// search_path) and, as CockroachDB does, refuses pg_current_wal_lsn() (the counters' WAL figure) and one
// setting; the statements CockroachDB is documented not to answer (the background writer's) are marked
// without being asked.
func TestDistributedSQLNotCollected(t *testing.T) {
	pg := testsrv.URL(t, testsrv.PostgresEnv)
	url := testsrv.Beside(t, pg, "dbdyno_as_cockroach_nc")
	testsrv.Exec(t, url,
		"DROP SCHEMA IF EXISTS public CASCADE", "CREATE SCHEMA public",
		`CREATE FUNCTION public.version() RETURNS text LANGUAGE sql AS $$ SELECT 'CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)'::text $$`,
		`CREATE FUNCTION public.pg_current_wal_lsn() RETURNS pg_lsn LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'unknown function: pg_current_wal_lsn()'; END $$`,
		`CREATE FUNCTION public.current_setting(name text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN
			IF name = 'jit' THEN RAISE EXCEPTION 'unrecognized configuration parameter "jit"'; END IF;
			RETURN pg_catalog.current_setting(name); END $$`,
		"ALTER DATABASE dbdyno_as_cockroach_nc SET search_path = public, pg_catalog")
	dir := t.TempDir()
	file := filepath.Join(dir, "r.json")
	clitest.Must(t, "ping", "--target", url, "--vus", "1", "--duration", "1s", "--store", "", "--result", file)
	r, _ := clitest.ReadResult(t, file)
	if r.Status != "ok" || r.Environment == nil {
		t.Fatalf("the run on CockroachDB: %s %s", r.Status, r.Error)
	}
	set := r.Environment.Settings
	for name, want := range map[string]string{
		"counters":          "not collected: CockroachDB 23.1.11 could not answer it: ",
		"io_counters":       "not collected: CockroachDB 23.1.11 could not answer it: ",
		"jit":               `not collected: CockroachDB 23.1.11 could not answer it: ERROR: unrecognized configuration parameter "jit"`,
		"counters_bgwriter": "not collected: CockroachDB 23.1.11 has no background writer",
		"wal_level":         "not collected: CockroachDB 23.1.11 has no PostgreSQL write-ahead log",
	} {
		if !strings.HasPrefix(set[name], want) {
			t.Errorf("setting %s: %q, want it to start %q", name, set[name], want)
		}
	}
	if !strings.Contains(set["counters"], "pg_current_wal_lsn") || set["work_mem"] == "" || strings.HasPrefix(set["work_mem"], "not collected") ||
		strings.HasPrefix(set["tx_counts"], "not collected") {
		t.Errorf("counters %q, work_mem %q, tx_counts %q: what CockroachDB answers is kept", set["counters"], set["work_mem"], set["tx_counts"])
	}
	html := filepath.Join(dir, "r.html")
	if res := cli(context.Background(), "report", file, "-o", html); res.code != 0 {
		t.Fatalf("report: %d %s", res.code, res.stderr)
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "not collected: CockroachDB 23.1.11 could not answer it: ERROR: unrecognized configuration parameter") ||
		!strings.Contains(string(b), "has no background writer") {
		t.Error("the report does not say what CockroachDB did not give")
	}

	// PostgreSQL itself: every statement it answers is collected, nothing is marked
	own := filepath.Join(dir, "own.json")
	clitest.Must(t, "ping", "--target", pg, "--vus", "1", "--duration", "1s", "--store", "", "--result", own)
	ro, _ := clitest.ReadResult(t, own)
	for k, v := range ro.Environment.Settings {
		if strings.HasPrefix(v, "not collected") && k != "counters_checkpoints" && k != "counters_checkpointer" {
			t.Errorf("on PostgreSQL, %s: %s", k, v)
		}
	}
}

// A build on a distributed SQL database that fails one of the manifest's catalog reads (CockroachDB has no
// hashtext(), which the tables' checksums use) is not failed by it: the build says which fact its manifest lacks
// and why, naming the product; a run on it then records in its result's settings the catalog facts the product
// is documented not to give (CockroachDB's row estimate), and the check verb compares what it can. A real
// PostgreSQL database poses as CockroachDB, its hashtext() refusing a row's text (the checksums'; the dataset
// lock's names it hashes as PostgreSQL does) as CockroachDB refuses the functions it lacks.
func TestDistributedSQLBuildCatalogNotCollected(t *testing.T) {
	pg := testsrv.URL(t, testsrv.PostgresEnv)
	url := testsrv.Beside(t, pg, "dbdyno_as_cockroach_build")
	testsrv.Exec(t, url,
		"DROP SCHEMA IF EXISTS public CASCADE", "CREATE SCHEMA public",
		`CREATE FUNCTION public.version() RETURNS text LANGUAGE sql AS $$ SELECT 'CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)'::text $$`,
		`CREATE FUNCTION public.hashtext(v text) RETURNS int LANGUAGE plpgsql AS $$ BEGIN
			IF v LIKE '(%' THEN RAISE EXCEPTION 'unknown function: hashtext()'; END IF;
			RETURN pg_catalog.hashtext(v); END $$`,
		"ALTER DATABASE dbdyno_as_cockroach_build SET search_path = public, pg_catalog")
	b := clitest.Run(context.Background(), "tpch", "build", "--target", url, "--scale", "0.01", "--drop")
	if b.Code != 0 {
		t.Fatalf("tpch build on CockroachDB: exit %d\n%s%s", b.Code, b.Stdout, b.Stderr)
	}
	if want := "the build's manifest has no table_checksum (not collected: CockroachDB 23.1.11 could not answer it: ERROR: unknown function: hashtext()"; !strings.Contains(b.Stdout+b.Stderr, want) {
		t.Fatalf("the build does not say %q:\n%s%s", want, b.Stdout, b.Stderr)
	}
	file := filepath.Join(t.TempDir(), "r.json")
	clitest.Must(t, "tpch", "run", "--target", url, "--power", "--queries", "6", "--store", "", "--result", file)
	r, _ := clitest.ReadResult(t, file)
	if r.Status != "ok" || r.Environment == nil {
		t.Fatalf("the run on CockroachDB: %s %s", r.Status, r.Error)
	}
	if got, want := r.Environment.Settings["row_estimate"], "not collected: CockroachDB 23.1.11 keeps no row estimate in pg_catalog.pg_class"; !strings.HasPrefix(got, want) ||
		!strings.HasSuffix(got, "(CockroachDB's documentation; untested here)") {
		t.Errorf("row_estimate %q, want %q ... (CockroachDB's documentation; untested here)", got, want)
	}
}
