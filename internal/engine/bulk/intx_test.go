package bulk

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) { testsrv.Main(m) }

// InTx writes through each engine's bulk path inside one transaction: what fn wrote stays when it returns nil
// and nothing of it stays when it fails (rows still held by the sink included), with the statements fn ran on
// tx alike; the engine's load settings are not applied (DuckDB's memory limit is its instance's).
func TestInTxCommitsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	urls := []string{"sqlite://" + filepath.Join(dir, "t.db"), "duckdb://" + filepath.Join(dir, "t.duckdb")}
	for _, u := range testsrv.Servers(t) {
		urls = append(urls, testsrv.Beside(t, u, "dbdyno_test_bulk"))
	}
	for _, url := range urls {
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tg.Engine.Name, func(t *testing.T) {
			ctx := context.Background()
			sdb, err := tg.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer sdb.Close()
			for _, q := range []string{"DROP TABLE IF EXISTS intx_t", "CREATE TABLE intx_t (k int, s varchar(30), d date)",
				"DROP TABLE IF EXISTS intx_u", "CREATE TABLE intx_u (k int)", "INSERT INTO intx_u (k) VALUES (1)"} {
				if _, err := sdb.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			setting := func() string { return fmt.Sprint(tg.Engine.Settings(ctx, sdb)["memory_limit"]) }
			before := setting()
			db := &DB{T: tg, SQL: sdb}
			count := func() (n int64) {
				if err := sdb.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM intx_t) * 10 + (SELECT count(*) FROM intx_u)").Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			write := func(rows int, fail error) error {
				return db.InTx(ctx, func(tx *sql.Tx, s Sink) error {
					if _, err := tx.ExecContext(ctx, "DELETE FROM intx_u"); err != nil {
						return err
					}
					_, err := Table(s, "intx_t", []string{"k", "s", "d"}, func(r Row) error {
						for k := 1; k <= rows; k++ {
							r.Int(int64(k))
							r.Str(fmt.Sprintf("row %d", k))
							r.Date(int32(9000 + k%365))
							if err := r.EndRow(); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil {
						return err
					}
					return fail
				})
			}
			failed := errors.New("failed on purpose")
			if err := write(3000, failed); !errors.Is(err, failed) {
				t.Fatalf("InTx returned %v, want fn's error", err)
			}
			if n := count(); n != 1 {
				t.Fatalf("after a failed InTx: %d rows and %d kept, want none written and the deleted row back", n/10, n%10)
			}
			if err := write(3000, nil); err != nil {
				t.Fatal(err)
			}
			if n := count(); n != 30000 {
				t.Fatalf("after InTx: %d rows and %d kept, want 3000 written and the row deleted", n/10, n%10)
			}
			if got := setting(); got != before {
				t.Fatalf("memory_limit %s after InTx, %s before: the load settings were applied", got, before)
			}
		})
	}
}
