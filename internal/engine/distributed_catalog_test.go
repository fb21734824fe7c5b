package engine_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// catalogFacts reads a table's catalog facts as a run's start check, a build's manifest and the check verbs do,
// under a run's context, then the run's settings.
func catalogFacts(t *testing.T, url, table string) (idx []string, idxOK bool, est int64, estOK bool, sum string, sumOK bool, settings map[string]string) {
	t.Helper()
	tg, db := testsrv.Open(t, url)
	defer db.Close()
	ctx := engine.WithSideTally(context.Background())
	var err error
	if idx, idxOK, err = tg.Engine.IndexNames(ctx, db, table); err != nil {
		t.Fatalf("%s: index_names: %v", tg.Database, err)
	}
	if est, estOK, err = tg.Engine.EstimateRows(ctx, db, table); err != nil {
		t.Fatalf("%s: row_estimate: %v", tg.Database, err)
	}
	if sum, sumOK, err = tg.Engine.TableChecksum(ctx, db, table); err != nil {
		t.Fatalf("%s: table_checksum: %v", tg.Database, err)
	}
	return idx, idxOK, est, estOK, sum, sumOK, tg.Engine.Settings(ctx, db)
}

// The catalog's facts (a table's indexes, its estimated rows, its checksum) on a distributed SQL product: one
// the product is documented not to answer (CockroachDB's row estimate) is not asked and is recorded in the
// run's settings as not collected, naming the product, version and source; one that fails there (a function
// the product lacks) fails nothing and is recorded as not collected with the server's error; what it answers is
// kept. A real PostgreSQL database poses as CockroachDB (version() and a hashtext() that refuses, as an
// unknown function, before pg_catalog's on the search_path). On PostgreSQL and MariaDB themselves every fact is
// read as before and nothing is marked.
func TestDistributedCatalogNotCollected(t *testing.T) {
	pg := os.Getenv(testsrv.PostgresEnv)
	if pg == "" {
		t.Skipf("%s not set", testsrv.PostgresEnv)
	}
	table := []string{"CREATE TABLE dcat (a int PRIMARY KEY, b varchar(20))", "CREATE INDEX dcat_b ON dcat (b)",
		"INSERT INTO dcat SELECT g, 'row ' || g FROM generate_series(1, 500) g", "ANALYZE dcat"}
	own := testsrv.Beside(t, pg, "dbdyno_catalog_own")
	testsrv.Exec(t, own, append([]string{"DROP TABLE IF EXISTS dcat"}, table...)...)
	crdb := testsrv.Beside(t, pg, "dbdyno_as_cockroach_cat")
	testsrv.Exec(t, crdb, append([]string{"DROP SCHEMA IF EXISTS public CASCADE", "CREATE SCHEMA public",
		`CREATE FUNCTION public.version() RETURNS text LANGUAGE sql AS $$ SELECT 'CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)'::text $$`,
		`CREATE FUNCTION public.hashtext(text) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'unknown function: hashtext()'; END $$`,
		"ALTER DATABASE dbdyno_as_cockroach_cat SET search_path = public, pg_catalog"}, table...)...)

	idx, idxOK, est, estOK, sum, sumOK, set := catalogFacts(t, own, "dcat")
	if !idxOK || strings.Join(idx, ",") != "dcat_b,dcat_pkey" && strings.Join(idx, ",") != "dcat_pkey,dcat_b" || !estOK || est != 500 || !sumOK || !strings.HasPrefix(sum, "500:") {
		t.Errorf("PostgreSQL: indexes %v %v, estimate %d %v, checksum %q %v", idx, idxOK, est, estOK, sum, sumOK)
	}
	for k, v := range set {
		if strings.HasPrefix(v, engine.NotCollected) && k != "counters_checkpoints" && k != "counters_checkpointer" {
			t.Errorf("PostgreSQL: %s %s", k, v)
		}
	}

	idx, idxOK, est, estOK, sum, sumOK, set = catalogFacts(t, crdb, "dcat")
	if !idxOK || len(idx) != 2 {
		t.Errorf("CockroachDB: the indexes it answers are not kept: %v %v", idx, idxOK)
	}
	if estOK || est != 0 || sumOK || sum != "" { // the server here would answer 500: not asked
		t.Errorf("CockroachDB: estimate %d %v, checksum %q %v: taken as facts", est, estOK, sum, sumOK)
	}
	if got, want := set["row_estimate"], "not collected: CockroachDB 23.1.11 keeps no row estimate in pg_catalog.pg_class"; !strings.HasPrefix(got, want) ||
		!strings.HasSuffix(got, "(CockroachDB's documentation; untested here)") {
		t.Errorf("CockroachDB: row_estimate %q, want %q ...", got, want)
	}
	if got, want := set["table_checksum"], "not collected: CockroachDB 23.1.11 could not answer it: ERROR: unknown function: hashtext()"; !strings.HasPrefix(got, want) {
		t.Errorf("CockroachDB: table_checksum %q, want %q", got, want)
	}
	if strings.HasPrefix(set["index_names"], engine.NotCollected) || strings.HasPrefix(set["work_mem"], engine.NotCollected) || set["work_mem"] == "" {
		t.Errorf("CockroachDB: index_names %q, work_mem %q: what it answers is marked", set["index_names"], set["work_mem"])
	}

	my := os.Getenv(testsrv.MySQLEnv)
	if my == "" {
		t.Logf("%s not set: MariaDB not checked", testsrv.MySQLEnv)
		return
	}
	myown := testsrv.Beside(t, my, "dbdyno_catalog_own")
	testsrv.Exec(t, myown, "DROP TABLE IF EXISTS dcat", "CREATE TABLE dcat (a int PRIMARY KEY, b varchar(20), KEY dcat_b (b))",
		"INSERT INTO dcat SELECT seq, CONCAT('row ', seq) FROM seq_1_to_500", "ANALYZE TABLE dcat")
	idx, idxOK, est, estOK, sum, sumOK, set = catalogFacts(t, myown, "dcat")
	if !idxOK || len(idx) != 2 || !estOK || est <= 0 || !sumOK || !strings.HasPrefix(sum, "500:") {
		t.Errorf("MariaDB: indexes %v %v, estimate %d %v, checksum %q %v", idx, idxOK, est, estOK, sum, sumOK)
	}
	for k, v := range set {
		if strings.HasPrefix(v, engine.NotCollected) {
			t.Errorf("MariaDB: %s %s", k, v)
		}
	}
}
