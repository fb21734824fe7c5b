package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// The transaction counters HammerDB's TPM is made of: an embedded engine has none (an error, not zero); a
// server's grow by the transactions run (PostgreSQL and MySQL: commits and rollbacks apart); Babelfish, which
// lacks SQL Server's performance counters, says so instead of answering zero.
func TestTxCountsOnEveryEngine(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"sqlite", "duckdb"} {
		e, _ := engine.Lookup(name)
		if _, err := e.ReadTxCounts(ctx, nil); err == nil || !strings.Contains(err.Error(), "embedded") {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for _, url := range testsrv.Servers(t) {
		tg, db := testsrv.Open(t, url)
		e := tg.Engine
		t.Run(e.Name, func(t *testing.T) {
			defer db.Close()
			c0, err := e.ReadTxCounts(ctx, db)
			if why := e.Unavailable(ctx, db, "tx_counts"); why != "" {
				if err == nil || err.Error() != why || !strings.Contains(why, "sys.dm_os_performance_counters") {
					t.Fatalf("%s lacks the counters (%s) but read them: %+v %v", e.Name, why, c0, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// on a pool of its own, closed after: PostgreSQL's backend reports its counts when it ends
			_, own := testsrv.Open(t, url)
			own.SetMaxOpenConns(1)
			begin := "START TRANSACTION"
			if _, err := own.ExecContext(ctx, begin); err != nil {
				begin = "BEGIN TRANSACTION" // SQL Server's
			} else if _, err := own.ExecContext(ctx, "COMMIT"); err != nil {
				t.Fatal(err)
			}
			for _, end := range []string{"COMMIT", "ROLLBACK", "COMMIT"} {
				for _, st := range []string{begin, "SELECT 1", end} {
					if _, err := own.ExecContext(ctx, st); err != nil {
						t.Fatalf("%s: %v", st, err)
					}
				}
			}
			own.Close()
			// poll until the counts show (a failure only when they never do)
			wait, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			var d engine.TxCounts
			for {
				c1, err := e.ReadTxCounts(ctx, db)
				if err != nil {
					t.Fatal(err)
				}
				d = c1.Sub(c0)
				if !d.Split || d.Commits >= 2 && d.Rollbacks >= 1 || wait.Err() != nil {
					break
				}
				if _, err := db.ExecContext(wait, "SELECT 1"); err != nil && wait.Err() == nil { // a round trip
					t.Fatal(err)
				}
			}
			if d.Split && (d.Commits < 2 || d.Rollbacks < 1) || !d.Split && d.Batches < 6 || d.Total() <= 0 {
				t.Fatalf("%s: counters did not count 2 commits and a rollback: %+v", e.Name, d)
			}
		})
	}
}

// A counters statement the server refuses (PostgreSQL before 17 has no pg_stat_checkpointer) runs once per
// connection pool, not at every read: each refusal is a failed transaction PostgreSQL counts as a rollback.
func TestRefusedCountersStatementRunsOnce(t *testing.T) {
	tg, db := testsrv.Open(t, testsrv.URL(t, "DBDYNO_TEST_PG"))
	defer db.Close()
	e, ctx := tg.Engine, context.Background()
	s0 := e.SideCounts(ctx)
	e.ReadCounters(ctx, db)
	s1 := e.SideCounts(ctx)
	e.ReadCounters(ctx, db)
	e.ReadCounters(ctx, db)
	s2 := e.SideCounts(ctx)
	if s1.Statements-s0.Statements < 3 {
		t.Fatalf("a read ran %d statements", s1.Statements-s0.Statements)
	}
	first := s1.Refused - s0.Refused
	if s2.Refused-s1.Refused != 0 || s2.Statements-s1.Statements != 2*(s1.Statements-s0.Statements-first) {
		t.Fatalf("refused %d at the first read, %d after; statements %d then %d", first, s2.Refused-s1.Refused,
			s1.Statements-s0.Statements, s2.Statements-s1.Statements)
	}
}

// tpcc reads sum(d_next_o_id) with the transaction counters, in one statement: read one after the other, the
// New-Orders committed between them counted on one side only (the cross-check saw 62 against the client's 57).
// ReadTxCountsWith gives the counters and the caller's rows from one statement (one side statement counted).
// The server's product (a distributed SQL database behind the wire?) is asked once per connection, not at each
// read: asked at the window's end, after the side statements were noted, its version() was one commit on the
// server's side that neither side accounted for (2 statements here before).
func TestTxCountsWithTheCallersRowsInOneStatement(t *testing.T) {
	ctx := context.Background()
	for _, url := range testsrv.Servers(t) {
		tg, db := testsrv.Open(t, url)
		e := tg.Engine
		t.Run(e.Name, func(t *testing.T) {
			defer db.Close()
			if why := e.Unavailable(ctx, db, "tx_counts"); why != "" {
				if _, _, err := e.ReadTxCountsWith(ctx, db, "SELECT 'answer', 42"); err == nil || err.Error() != why {
					t.Fatalf("%s lacks the counters (%s): %v", e.Name, why, err)
				}
				return
			}
			s0 := e.SideCounts(ctx)
			c, extra, err := e.ReadTxCountsWith(ctx, db, "SELECT 'answer', 42")
			if err != nil {
				t.Fatal(err)
			}
			if n := e.SideCounts(ctx).Statements - s0.Statements; n != 1 {
				t.Fatalf("%d statements for the counters and the caller's row, not one", n)
			}
			if extra["answer"] != 42 || len(extra) != 1 {
				t.Fatalf("the caller's rows: %v", extra)
			}
			if c.Total() <= 0 || c.Split == (c.Batches > 0) {
				t.Fatalf("counters read with the caller's rows: %+v", c)
			}
		})
	}
}

// A run's side statements are its own: two runs in one process (several targets at once, a test process's
// parallel runs) each count theirs, while the engine's count holds both. The HammerDB figure of a run once took
// out the other runs' statements too: "server 234 commits + 45 rollbacks, client 114 + 46 + 347 own statements".
func TestSideStatementsPerRun(t *testing.T) {
	tg, db := testsrv.Open(t, testsrv.URL(t, "DBDYNO_TEST_PG"))
	defer db.Close()
	e := tg.Engine
	a, b := engine.WithSideTally(context.Background()), engine.WithSideTally(context.Background())
	all0 := e.SideCounts(context.Background())
	e.ReadCounters(a, db)
	e.ReadCounters(a, db)
	e.ReadCounters(b, db)
	na, nb := e.SideCounts(a).Statements, e.SideCounts(b).Statements
	all := e.SideCounts(context.Background()).Statements - all0.Statements
	if nb < 1 || na < 2*nb-1 || na+nb != all {
		t.Fatalf("run a counted %d side statements, run b %d, the engine %d", na, nb, all)
	}
}
