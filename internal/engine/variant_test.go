package engine_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A SQL Server target tells, at connect, whether it is SQL Server or Babelfish for PostgreSQL: Babelfish's
// version names both products, what it lacks of SQL Server's views and commands is in the settings as "not
// collected: REASON" (never silently left out), and columnstore indexes are refused with the reason. On a real
// SQL Server nothing is marked so.
func TestSQLServerVariantAtConnect(t *testing.T) {
	url := os.Getenv(testsrv.MSSQLEnv)
	if url == "" {
		t.Skipf("%s not set: no SQL Server (or Babelfish) to ask", testsrv.MSSQLEnv)
	}
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var bf *string
	if err := db.QueryRowContext(ctx, "SELECT CAST(SERVERPROPERTY('BabelfishVersion') AS nvarchar(128))").Scan(&bf); err != nil {
		t.Fatal(err)
	}
	version, settings := tg.Engine.ServerVersion(ctx, db), tg.Engine.Settings(ctx, db)
	why := tg.Engine.Lacks(ctx, db, engine.Columnstore)
	if bf == nil {
		if !strings.HasPrefix(version, "SQL Server ") || why != "" {
			t.Fatalf("SQL Server: version %q, columnstore refused %q", version, why)
		}
		for k, v := range settings {
			if strings.HasPrefix(v, engine.NotCollected) {
				t.Errorf("SQL Server: %s %s", k, v)
			}
		}
		return
	}
	if !strings.HasPrefix(version, "Babelfish "+*bf+" on PostgreSQL ") {
		t.Fatalf("Babelfish %s recorded as %q", *bf, version)
	}
	if !strings.Contains(why, "columnstore") {
		t.Fatalf("Babelfish: --columnstore not refused (%q)", why)
	}
	for _, want := range []struct{ name, view string }{
		{"cpu_count", "sys.dm_os_sys_info"}, {"counters", "sys.dm_os_performance_counters"},
		{"counters_wait_stats", "sys.dm_os_wait_stats"}, {"counters_file_io", "sys.dm_io_virtual_file_stats"},
		{"waits", "sys.dm_exec_requests"}, {"counters_azure_resource", "sys.dm_db_resource_stats"},
		{"database_maxdop", "sys.database_scoped_configurations"}, {"trace_flags", "DBCC TRACESTATUS"},
		{"columnstore_indexes", "columnstore"},
	} {
		if v := settings[want.name]; !strings.HasPrefix(v, engine.NotCollected) || !strings.Contains(v, want.view) {
			t.Errorf("Babelfish: setting %s is %q, want it not collected for want of %s", want.name, v, want.view)
		}
	}
	if settings["compatibility_level"] == "" || strings.HasPrefix(settings["compatibility_level"], engine.NotCollected) {
		t.Errorf("Babelfish: a setting it has was not read: %v", settings)
	}
	if err := tg.Engine.WaitsReady(ctx, db); err == nil || !strings.Contains(err.Error(), "sys.dm_exec_requests") {
		t.Errorf("Babelfish: waits ready: %v", err)
	}
}
