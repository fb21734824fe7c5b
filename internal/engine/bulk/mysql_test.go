package bulk

import (
	"context"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A MySQL/MariaDB load whose server switches local_infile off after the load began (another session's SET
// GLOBAL: a test of the INSERT path did so while another package's build loaded, and the build failed on
// "Error 4166: ... disabled the local infile capability") goes on as INSERTs, every row there.
func TestLoadDataRefusedMidLoadFallsBackToInserts(t *testing.T) {
	url := testsrv.Beside(t, testsrv.URL(t, "DBDYNO_TEST_MYSQL"), "dbdyno_test_bulk_infile")
	tg, db := testsrv.Open(t, url)
	defer db.Close()
	ctx := context.Background()
	testsrv.Exec(t, url, "DROP TABLE IF EXISTS infile_t", "CREATE TABLE infile_t (k int, s varchar(30))", "SET GLOBAL local_infile = 1")
	s, err := OpenSink(ctx, tg, db) // the server takes LOAD DATA LOCAL INFILE now
	if err != nil {
		t.Fatal(err)
	}
	testsrv.Exec(t, url, "SET GLOBAL local_infile = 0")
	defer testsrv.Exec(t, url, "SET GLOBAL local_infile = 1")
	n, err := Table(s, "infile_t", []string{"k", "s"}, func(r Row) error {
		for i := 0; i < 1200; i++ {
			r.Int(int64(i))
			r.Str("row")
			if err := r.EndRow(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var rows int64
	if err := db.QueryRow("SELECT COUNT(*) FROM infile_t").Scan(&rows); err != nil || n != 1200 || rows != 1200 {
		t.Fatalf("wrote %d, the table holds %d (%v)", n, rows, err)
	}
}
