package probe

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/go-sql-driver/mysql"
)

// A build whose parallel load meets a deadlock (MariaDB's parallel LOAD DATA into one table did, in CI) is
// dropped and built again, and ends with every row once; another error is not retried.
func TestBuildRetriedAfterADeadlock(t *testing.T) {
	u := testsrv.Beside(t, testsrv.URL(t, testsrv.MySQLEnv), "dbdyno_probe_retry")
	tg, err := engine.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		fail     error
		attempts int32
		ok       bool
	}{{&mysql.MySQLError{Number: 1213, Message: "Deadlock found when trying to get lock"}, 2, true}, {fmt.Errorf("a disk error"), 1, false}} {
		var calls atomic.Int32
		rows := int64(3000)
		db, err := ensure(ctx, cpuSet, tg, built{"rows": fmt.Sprint(rows + int64(c.attempts))}, 1, true, 2, rows*CPURowBytes,
			func(n adder) []bulk.Work {
				w := cpuWork(rows, n)
				if calls.Add(1) == 1 {
					do := w[0].Do
					w[0].Do = func(ctx context.Context, s bulk.Sink) error {
						if err := do(ctx, s); err != nil {
							return err
						}
						return fmt.Errorf("LOAD DATA: %w", c.fail)
					}
				}
				return w
			}, io.Discard)
		if got := calls.Load(); got != c.attempts || (err == nil) != c.ok {
			t.Fatalf("%v: %d attempt(s), error %v; want %d attempt(s), ok %v", c.fail, got, err, c.attempts, c.ok)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "a disk error") {
				t.Errorf("the error lost its cause: %v", err)
			}
			continue
		}
		var n int64
		if err := db.SQL.QueryRow("SELECT count(*) FROM " + cpuTable).Scan(&n); err != nil || n != rows {
			t.Errorf("after the retry: %d rows (%v), want %d", n, err, rows)
		}
		db.Close()
	}
}
