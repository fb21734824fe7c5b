package bulk

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// The insert sink (multi-row INSERTs) loads every row once, in order of no importance, across full statements,
// a last partial one and its own commits every insertTx rows, with NULLs, on every engine's placeholders
// (? on SQLite, $n on PostgreSQL and MariaDB's ?, @pN on SQL Server), and inside a caller's transaction.
func TestInsertSinkLoadsEveryRow(t *testing.T) {
	urls := []string{"sqlite://" + filepath.Join(t.TempDir(), "ins.db")}
	for _, u := range testsrv.Servers(t) {
		urls = append(urls, testsrv.Beside(t, u, "dbdyno_insert_sink"))
	}
	for _, u := range urls {
		tg, db := testsrv.Open(t, u)
		t.Run(tg.Engine.Name, func(t *testing.T) {
			defer db.Close()
			ctx := context.Background()
			db.Exec("DROP TABLE dbdyno_ins")
			if _, err := db.Exec("CREATE TABLE dbdyno_ins (id int PRIMARY KEY, grp int NOT NULL, note varchar(20))"); err != nil {
				t.Fatal(err)
			}
			defer db.Exec("DROP TABLE dbdyno_ins")
			// Babelfish refuses an untyped NULL parameter (TDS type 0x1F) whatever the statement; SQL Server's
			// builds load through bcp, not this sink
			nulls := tg.Engine.Name != "sqlserver"
			load := func(from, n int, outer bool) {
				t.Helper()
				conn, err := db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				s := newInsertSink(ctx, tg, conn, nil)
				if outer {
					otx, err := conn.BeginTx(ctx, nil)
					if err != nil {
						t.Fatal(err)
					}
					s = newInsertSink(ctx, tg, conn, otx)
					defer func() {
						if err := otx.Commit(); err != nil {
							t.Fatal(err)
						}
						conn.Close()
					}()
				}
				got, err := Table(s, "dbdyno_ins", []string{"id", "grp", "note"}, func(r Row) error {
					for i := from; i < from+n; i++ {
						r.Int(int64(i))
						r.Int(int64(i % 7))
						if nulls && i%5 == 0 {
							r.Null()
						} else {
							r.Str(fmt.Sprint("n", i))
						}
						if err := r.EndRow(); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil || got != int64(n) {
					t.Fatalf("loaded %d of %d: %v", got, n, err)
				}
			}
			n := insertTx + 2*insertBatchRows + 7 // a commit of its own, full statements, and a last partial one
			if tg.Engine.Name != "sqlite" {
				n = 3*insertBatchRows + 7
			}
			load(0, n, false)
			load(n, 13, true) // fewer than a statement, inside the caller's transaction
			var count, nullRows, sum int64
			if err := db.QueryRow("SELECT count(*), sum(CASE WHEN note IS NULL THEN 1 ELSE 0 END), sum(id) FROM dbdyno_ins").Scan(&count, &nullRows, &sum); err != nil {
				t.Fatal(err)
			}
			all := int64(n + 13)
			var wantNulls int64
			if nulls {
				wantNulls = (all + 4) / 5
			}
			if count != all || nullRows != wantNulls || sum != all*(all-1)/2 {
				t.Fatalf("%d rows (%d NULL, ids sum %d), want %d (%d, %d)", count, nullRows, sum, all, wantNulls, all*(all-1)/2)
			}
			var note string
			if err := db.QueryRow("SELECT note FROM dbdyno_ins WHERE id = 123").Scan(&note); err != nil || note != "n123" {
				t.Fatalf("row 123: %q %v", note, err)
			}
		})
	}
}
