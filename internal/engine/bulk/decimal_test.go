package bulk

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// Every engine's bulk path loads decimals at their column's scale, whether the generator gives a whole number
// (Int, as TPC-H's l_quantity) or units of 10^-scale (Dec): SQL Server's bulk copy encoded a Go integer with
// scale 0, so 17 into a decimal(15,2) column arrived as 0.17.
func TestDecimalsLoadAtTheirColumnsScale(t *testing.T) {
	dir := t.TempDir()
	urls := []string{"sqlite://" + filepath.Join(dir, "d.db"), "duckdb://" + filepath.Join(dir, "d.duckdb")}
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
			db, err := tg.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, q := range []string{"DROP TABLE IF EXISTS dec_t",
				"CREATE TABLE dec_t (k bigint, q decimal(15,2), r decimal(4,4), m numeric(12,2), f float, g float)"} {
				if _, err := db.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			s, err := OpenSink(ctx, tg, db)
			if err != nil {
				t.Fatal(err)
			}
			n, err := Table(s, "dec_t", []string{"k", "q", "r", "m", "f", "g"}, func(r Row) error {
				for k := int64(1); k <= 1000; k++ {
					r.Int(k)
					r.Int(k)        // a whole number into decimal(15,2)
					r.Dec(k, 4)     // 0.0001 k
					r.Dec(150*k, 2) // 1.50 k
					r.Int(3 * k)    // a whole number into a float column
					r.Dec(25*k, 1)  // 2.5 k into a float column
					if err := r.EndRow(); err != nil {
						return err
					}
				}
				return nil
			})
			s.Close()
			if err != nil || n != 1000 {
				t.Fatalf("loaded %d rows: %v", n, err)
			}
			for _, c := range []struct {
				col  string
				want float64
			}{{"k", 500500}, {"q", 500500}, {"r", 50.05}, {"m", 750750}, {"f", 1501500}, {"g", 1251250}} {
				var got float64
				if err := db.QueryRowContext(ctx, "SELECT CAST(SUM("+c.col+") AS float) FROM dec_t").Scan(&got); err != nil {
					t.Fatal(err)
				}
				if d := got - c.want; d > 1e-6 || d < -1e-6 {
					t.Errorf("sum of %s: %v, want %v", c.col, got, c.want)
				}
			}
		})
	}
}
