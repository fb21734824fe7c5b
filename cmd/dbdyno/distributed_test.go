package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A distributed SQL database behind PostgreSQL's wire is told from its version() at connect, and the workloads
// follow what it can do. No CockroachDB runs here: a real PostgreSQL database whose search_path puts a
// version() answering CockroachDB's documented string before pg_catalog's stands in for the version string
// alone (everything else is PostgreSQL). The tpcc build installs no procedures, the run's mode default is
// sql, --mode procedures is refused naming why, and the result records the product.
func TestDistributedSQLVariantDrivesTheWorkload(t *testing.T) {
	// on a database of its own: its build (prepared INSERTs, CockroachDB's bulk path: most of its time, waiting on
	// the server) overlaps the other parallel tests
	t.Parallel()
	pg := testsrv.URL(t, testsrv.PostgresEnv)
	url := testsrv.Beside(t, pg, "dbdyno_as_cockroach")
	testsrv.Exec(t, url,
		"DROP SCHEMA IF EXISTS public CASCADE", "CREATE SCHEMA public",
		`CREATE FUNCTION public.version() RETURNS text LANGUAGE sql AS $$ SELECT 'CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)'::text $$`,
		"ALTER DATABASE dbdyno_as_cockroach SET search_path = public, pg_catalog")
	clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "1")
	_, db := testsrv.Open(t, url)
	var procs int
	if err := db.QueryRow(`SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' AND p.proname <> 'version'`).Scan(&procs); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if procs != 0 {
		t.Errorf("the build installed %d procedures on CockroachDB", procs)
	}
	file := filepath.Join(t.TempDir(), "r.json")
	clitest.Must(t, "tpcc", "run", "--target", url, "--vus", "1", "--rampup", "0s", "--transactions", "100", "--store", "", "--result", file)
	r, _ := clitest.ReadResult(t, file)
	if r.Options["mode"] != "sql" || r.Target.ServerVersion != "CockroachDB 23.1.11" {
		t.Errorf("on CockroachDB: mode %v, server version %q", r.Options["mode"], r.Target.ServerVersion)
	}
	res := cli(context.Background(), "tpcc", "run", "--target", url, "--mode", "procedures", "--duration", "1s", "--store", "")
	if res.code == 0 || !strings.Contains(res.stderr, "CockroachDB") {
		t.Errorf("--mode procedures on CockroachDB: %d %s", res.code, res.stderr)
	}
}
