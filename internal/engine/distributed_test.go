package engine

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// The distributed SQL databases behind PostgreSQL's and MySQL's wire are told from their version() strings as
// their documentation and drivers show them, with what each cannot do of its engine's; PostgreSQL, MySQL and
// MariaDB themselves are no variant.
func TestDistributedVariantsFromVersionStrings(t *testing.T) {
	pg, _ := Lookup("postgres")
	my, _ := Lookup("mysql")
	for _, c := range []struct {
		e             *Engine
		version, want string
		procedures    bool
		bulk          BulkPath
	}{
		{pg, "CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)", "CockroachDB 23.1.11", false, BulkInsert},
		{pg, "CockroachDB OSS v20.1.8 (x86_64-unknown-linux-gnu, built 2020/10/21 15:46:38, go1.13.9)", "CockroachDB 20.1.8", false, BulkInsert},
		{pg, "CockroachDB CCL v24.3.0-beta.1 (aarch64-unknown-linux-gnu, built 2024/10/21 00:00:00, go1.22.5 X:nocoverageredesign)", "CockroachDB 24.3.0-beta.1", false, BulkInsert},
		{pg, "PostgreSQL 11.2-YB-2.18.2.1-b0 on x86_64-pc-linux-gnu, compiled by clang version 15.0.3 (https://github.com/yugabyte/llvm-project.git 0b8d1183745fd3998d8beffeec8cbe99c1b20529), 64-bit", "YugabyteDB 2.18.2.1-b0", false, BulkCopy},
		{pg, "PostgreSQL 15.2-YB-2.25.0.0-b0 on x86_64-pc-linux-gnu, compiled by clang version 17.0.6, 64-bit", "YugabyteDB 2.25.0.0-b0", false, BulkCopy},
		{pg, "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit", "", true, BulkCopy},
		{my, "8.0.11-TiDB-v7.5.0", "TiDB 7.5.0", false, BulkLoadData},
		{my, "5.7.25-TiDB-v6.5.0", "TiDB 6.5.0", false, BulkLoadData},
		{my, "8.0.11-TiDB-v8.5.0-serverless", "TiDB 8.5.0-serverless", false, BulkLoadData},
		{my, "10.11.6-MariaDB-0+deb12u1", "", true, BulkLoadData},
		{my, "8.0.36", "", true, BulkLoadData},
	} {
		v := distributedOf(c.e, c.version)
		got := ""
		if v != nil {
			got = v.version
		}
		if got != c.want {
			t.Errorf("%s: variant %q, want %q", c.version, got, c.want)
			continue
		}
		// the capabilities a target on that server reports, told as at its first connection
		tg := &Target{Engine: c.e, server: &server{known: true, variant: v}}
		ctx := context.Background()
		if p := tg.Procedures(ctx); p != c.procedures || p != (tg.NoProcedures(ctx) == "") {
			t.Errorf("%s: procedures %v (%q), want %v", c.version, p, tg.NoProcedures(ctx), c.procedures)
		}
		if b := tg.BulkPath(ctx); b != c.bulk {
			t.Errorf("%s: bulk path %q, want %q", c.version, b, c.bulk)
		}
		if p := tg.Product(ctx); p != c.want {
			t.Errorf("%s: product %q, want %q", c.version, p, c.want)
		}
	}
	if distributedOf(pg, "8.0.11-TiDB-v7.5.0") != nil || distributedOf(my, "CockroachDB CCL v23.1.11") != nil {
		t.Error("a product was taken behind the other engine's wire")
	}
}

// server_version() names the product from the same strings (the SQL each engine runs, evaluated by the test
// servers on the documented strings in place of their own version()), and PostgreSQL and MariaDB themselves
// connect as themselves: no variant, their procedures and bulk paths kept.
func TestDistributedServerVersionSQL(t *testing.T) {
	ctx := context.Background()
	for env, cases := range map[string]map[string]string{
		"DBDYNO_TEST_PG": {
			"CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)":                  "CockroachDB 23.1.11",
			"PostgreSQL 11.2-YB-2.18.2.1-b0 on x86_64-pc-linux-gnu, compiled by clang version 15.0.3 (...), 64-bit": "YugabyteDB 2.18.2.1-b0",
		},
		"DBDYNO_TEST_MYSQL": {"8.0.11-TiDB-v7.5.0": "TiDB 7.5.0"},
	} {
		url := os.Getenv(env)
		if url == "" {
			t.Logf("%s not set: not checked on its engine", env)
			continue
		}
		tg, err := Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		db, err := tg.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if tg.Product(ctx) != "" || !tg.Procedures(ctx) || tg.BulkPath(ctx) != tg.Engine.Bulk {
			t.Errorf("%s: product %q, procedures %v, bulk %q", tg.Engine.Title, tg.Product(ctx), tg.Procedures(ctx), tg.BulkPath(ctx))
		}
		own := tg.Engine.ServerVersion(ctx, db)
		if !strings.HasPrefix(own, "PostgreSQL ") && !strings.HasPrefix(own, "MariaDB ") && !strings.HasPrefix(own, "MySQL ") {
			t.Errorf("%s's own version: %q", tg.Engine.Title, own)
		}
		for version, want := range cases {
			q := strings.ReplaceAll(tg.Engine.stmt("server_version").SQL, "version()", "CAST(? AS CHAR(400))")
			q = strings.ReplaceAll(q, "VERSION()", "CAST(? AS CHAR(400))")
			var args []any
			for range strings.Count(q, "?") {
				args = append(args, version)
			}
			if tg.Engine.Placeholder == sqlfile.Dollar { // $1: one argument however often used
				q = strings.ReplaceAll(strings.ReplaceAll(q, "CAST(? AS CHAR(400))", "$1::text"), "current_setting('server_version')", "$1::text")
				args = args[:1]
			}
			var got string
			if err := db.QueryRowContext(ctx, q, args...).Scan(&got); err != nil {
				t.Fatalf("%s: %v\n%s", tg.Engine.Title, err, q)
			}
			if got != want {
				t.Errorf("%s on %q: %q, want %q", tg.Engine.Title, version, got, want)
			}
		}
	}
}

// What each distributed SQL product is documented not to answer of its engine's statements (settings, counters,
// and the catalog's: CockroachDB's pg_class keeps no row estimate) is marked from its documented version
// strings, naming the product, its version and the source; every name marked is a statement the engine runs
// (a misspelt one would mark nothing); and the engine's own products carry no variant, so nothing is marked.
func TestDistributedCatalogNotCollectedMarkers(t *testing.T) {
	pg, _ := Lookup("postgres")
	my, _ := Lookup("mysql")
	for _, c := range []struct {
		e       *Engine
		version string
		want    map[string]string // statement: what its marker says after the product and version
	}{
		{pg, "CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)", map[string]string{
			"row_estimate":      "CockroachDB 23.1.11 keeps no row estimate in pg_catalog.pg_class",
			"counters_bgwriter": "CockroachDB 23.1.11 has no background writer",
		}},
		{pg, "CockroachDB CCL v24.3.0-beta.1 (aarch64-unknown-linux-gnu, built 2024/10/21 00:00:00, go1.22.5 X:nocoverageredesign)", map[string]string{
			"row_estimate": "CockroachDB 24.3.0-beta.1 keeps no row estimate in pg_catalog.pg_class",
		}},
		// YugabyteDB's pg_class and TiDB's information_schema.tables answer them (documented, untested)
		{pg, "PostgreSQL 11.2-YB-2.18.2.1-b0 on x86_64-pc-linux-gnu, compiled by clang version 15.0.3, 64-bit", nil},
		{my, "8.0.11-TiDB-v7.5.0", nil},
	} {
		v := distributedOf(c.e, c.version)
		if v == nil {
			t.Fatalf("%s: no variant", c.version)
		}
		for st, want := range c.want {
			why := v.missing[st]
			if !strings.HasPrefix(why, want) || !strings.HasSuffix(why, "(CockroachDB's documentation; untested here)") {
				t.Errorf("%s: %s marked %q, want %q ... (CockroachDB's documentation; untested here)", c.version, st, why, want)
			}
		}
		if c.want == nil {
			for _, st := range []string{"row_estimate", "index_names", "table_checksum", "column_names"} {
				if why, ok := v.missing[st]; ok {
					t.Errorf("%s: %s marked %q", c.version, st, why)
				}
			}
		}
		out := map[string]string{}
		v.notCollected(out)
		if got := out["row_estimate"]; (c.want["row_estimate"] != "") != strings.HasPrefix(got, NotCollected+c.want["row_estimate"]) || (got != "") != (c.want["row_estimate"] != "") {
			t.Errorf("%s: the result's settings record row_estimate as %q", c.version, got)
		}
	}
	for _, d := range distributedProducts {
		e, _ := Lookup(d.engine)
		for st := range d.missing {
			if e.settings.Set()[st] == nil && e.counters.Set()[st] == nil && e.catalog.Set()[st] == nil {
				t.Errorf("%s marks %s, which %s does not run", d.product, st, e.Title)
			}
		}
	}
	for _, own := range []struct {
		e       *Engine
		version string
	}{{pg, "PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu"}, {my, "10.11.6-MariaDB-0+deb12u1"}, {my, "8.0.36"}} {
		if v := distributedOf(own.e, own.version); v != nil {
			t.Errorf("%s taken for %s", own.version, v.version)
		}
	}
}

// The bulk path's switch is read as each server answers it: MySQL and MariaDB give @@local_infile as 1 or 0,
// TiDB its boolean system variables as ON or OFF (pingcap/tidb's sysvar table: local_infile, global, default
// ON). Before, an ON failed the integer scan and TiDB was loaded with INSERTs, about half as fast.
func TestBulkSwitchReadBothWays(t *testing.T) {
	for v, want := range map[string]bool{"1": true, "ON": true, "on": true, "0": false, "OFF": false, "": false, "2": false} {
		if got := switchOn(v); got != want {
			t.Errorf("switchOn(%q) = %v, want %v", v, got, want)
		}
	}
}
