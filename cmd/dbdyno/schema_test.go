package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	neturl "net/url"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// Several workloads in one database (--schema): TPC-C and the web store, whose tables share the name orders,
// built, run and checked side by side in one database of each server, and one dropped without touching the
// other. PostgreSQL works in the schema by search_path, MySQL's schema is a database of its own, and on SQL
// Server each schema is its user's default one (a login per schema, as a DBA would make them). Without
// --schema the two builds refuse each other (TestConflictNamesTheOwner).
func TestWorkloadsShareADatabaseBySchemas(t *testing.T) {
	t.Parallel()
	for _, server := range testsrv.Servers(t) {
		tg, err := engine.Parse(server)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tg.Engine.Name, func(t *testing.T) {
			t.Parallel()
			db := testsrv.Beside(t, server, "dbdyno_schemas")
			oltp, store := db, db
			if tg.Engine.Schemas == engine.SchemaDefault {
				oltp, store = schemaUser(t, db, "dbdyno_sch_tpcc"), schemaUser(t, db, "dbdyno_sch_store")
			}
			in := func(u, schema string, args ...string) []string {
				return append(args, "--target", u, "--schema", schema)
			}
			clitest.Must(t, in(oltp, "dbdyno_sch_tpcc", "tpcc", "build", "--warehouses", "1")...)
			clitest.Must(t, in(store, "dbdyno_sch_store", "webstore", "build", "--customers", "1000", "--products", "500", "--orders-per-month", "100")...)
			for _, r := range []clitest.Result{
				clitest.Must(t, in(oltp, "dbdyno_sch_tpcc", "tpcc", "run", "--vus", "1", "--duration", "2s", "--rampup", "0s", "--store", "")...),
				clitest.Must(t, in(store, "dbdyno_sch_store", "webstore", "run", "--vus", "1", "--duration", "2s", "--rampup", "0s", "--store", "")...),
			} {
				if !strings.Contains(r.Stdout, "(ok)") && !strings.Contains(r.Stdout, "OK after") {
					t.Errorf("a run in its schema did not end ok:\n%s", r.Stdout)
				}
			}
			clitest.Must(t, in(oltp, "dbdyno_sch_tpcc", "tpcc", "check")...)
			clitest.Must(t, in(oltp, "dbdyno_sch_tpcc", "tpcc", "drop")...)
			if r := clitest.Must(t, in(store, "dbdyno_sch_store", "webstore", "check")...); !strings.Contains(r.Stdout, "PASS") {
				t.Errorf("the web store's check after TPC-C's drop:\n%s", r.Stdout)
			}
			// a run names a schema that is not there (on MySQL a database), or (SQL Server) one its user does not
			// work in
			r := clitest.Run(context.Background(), in(store, "dbdyno_sch_none", "webstore", "run", "--vus", "1", "--duration", "1s", "--store", "")...)
			want := map[engine.SchemaWay]string{engine.SchemaSearchPath: "schema dbdyno_sch_none does not exist in database dbdyno_schemas",
				engine.SchemaDatabase: `database "dbdyno_sch_none" does not exist`, engine.SchemaDefault: "connect as a user whose default schema is dbdyno_sch_none"}[tg.Engine.Schemas]
			if r.Code == 0 || !strings.Contains(r.Stderr, want) {
				t.Errorf("a run in a schema that is not there: exit %d, %q, want %q", r.Code, r.Stderr, want)
			}
			clitest.NoPassword(t, db, r.Stdout, r.Stderr)
			clitest.Must(t, in(store, "dbdyno_sch_store", "webstore", "drop")...)
		})
	}
}

// schemaUser makes a SQL Server login and user whose default schema is name, owning that schema, in the
// database of url, and returns url as that user: a session works in its user's default schema.
func schemaUser(t *testing.T, url, name string) string {
	t.Helper()
	ctx := context.Background()
	tg, db := testsrv.Open(t, url)
	defer db.Close()
	b := make([]byte, 12)
	rand.Read(b)
	pw := "Pw_" + hex.EncodeToString(b)
	for _, q := range []string{
		fmt.Sprintf("IF NOT EXISTS (SELECT 1 FROM sys.server_principals WHERE name = '%s') CREATE LOGIN %s WITH PASSWORD = '%s'", name, name, pw),
		fmt.Sprintf("ALTER LOGIN %s WITH PASSWORD = '%s'", name, pw),
		fmt.Sprintf("IF NOT EXISTS (SELECT 1 FROM sys.database_principals WHERE name = '%s') CREATE USER %s FOR LOGIN %s WITH DEFAULT_SCHEMA = %s", name, name, name, name),
		fmt.Sprintf("IF NOT EXISTS (SELECT 1 FROM sys.schemas WHERE name = '%s') EXEC('CREATE SCHEMA %s AUTHORIZATION %s')", name, name, name),
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("making SQL Server user %s: %v", name, tg.Scrub(err.Error()))
		}
	}
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	u.User = neturl.UserPassword(name, pw)
	return u.String()
}
