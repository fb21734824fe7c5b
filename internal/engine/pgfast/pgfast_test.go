package pgfast_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/pgfast"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) { testsrv.Main(m) }

const statements = `
-- name: begin_write
BEGIN;
-- name: commit
COMMIT;
-- name: rollback
ROLLBACK;
-- name: put(k, v, note)
INSERT INTO pgfast_t (k, v, note) VALUES (:k, :v, :note);
-- name: take(k, n)
UPDATE pgfast_t SET v = v - :n WHERE k = :k AND v >= :n;
-- name: get(k)
SELECT v, note, price, flag, big FROM pgfast_t WHERE k = :k;
-- name: some(ks)
SELECT k, v FROM pgfast_t WHERE k = ANY(:ks) ORDER BY k;
-- name: count()
SELECT count(*) FROM pgfast_t;
-- name: slow()
SELECT pg_sleep(5);
`

// session opens a pgfast session on a table of its own, in a database of this package's own.
func session(t *testing.T) (*pgfast.Session, func(string) int64) {
	t.Helper()
	url := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_test_pgfast")
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{"DROP TABLE IF EXISTS pgfast_t",
		"CREATE TABLE pgfast_t (k int PRIMARY KEY, v int NOT NULL, note text, price numeric(8,2) DEFAULT 12.5, flag boolean DEFAULT true, big bigint DEFAULT 9007199254740993)"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	set, err := sqlfile.Load(fstest.MapFS{"t.sql": {Data: []byte(statements)}}, "t.sql", sqlfile.Dollar)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pgfast.New(conn, set)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	count := func(where string) int64 {
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pgfast_t "+where).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	return s, count
}

func TestSessionStatements(t *testing.T) {
	s, count := session(t)
	ctx := context.Background()

	// a transaction: BEGIN travels with the first statements, COMMIT with the last
	s.Begin()
	if err := s.Send(ctx, false, pgfast.Op{Name: "put", Args: []any{1, int64(10), "one"}}, pgfast.Op{Name: "put", Args: []any{2, 5, struct{}{}}}); err == nil {
		t.Fatal("a value pgfast cannot encode was sent")
	} else if !strings.Contains(err.Error(), "put: cannot send a struct {}") {
		t.Fatalf("error %q does not name the statement and the value", err)
	}
	if err := s.Rollback(ctx); err != nil { // nothing was sent: the pending BEGIN is dropped
		t.Fatal(err)
	}
	if count("") != 0 {
		t.Fatal("a statement of a batch that failed to encode was sent")
	}
	s.Begin()
	var affected int64 = -1
	if err := s.Send(ctx, true,
		pgfast.Op{Name: "put", Args: []any{1, int64(10), "one"}},
		pgfast.Op{Name: "put", Args: []any{2, 5, "two, \"quoted\""}},
		pgfast.Op{Name: "take", Args: []any{1, 4}, Affected: &affected}); err != nil {
		t.Fatal(err)
	}
	if affected != 1 || count("WHERE k IN (1, 2)") != 2 {
		t.Fatalf("affected %d, rows %d: want 1 and 2", affected, count("WHERE k IN (1, 2)"))
	}

	// a single-row query: every destination type, NULL as zero or nil
	var v int
	var note string
	var price float64
	var flag bool
	var big int64
	if err := s.Send(ctx, false, pgfast.Op{Name: "get", Args: []any{2}, Dest: []any{&v, &note, &price, &flag, &big}}); err != nil {
		t.Fatal(err)
	}
	if v != 5 || note != `two, "quoted"` || price != 12.5 || !flag || big != 9007199254740993 {
		t.Fatalf("read %d %q %g %v %d", v, note, price, flag, big)
	}
	var anyNote any = "x"
	if _, err := s.Exec(ctx, "put", 3, 1, nil); err != nil { // nil is NULL
		t.Fatal(err)
	}
	if err := s.Send(ctx, false, pgfast.Op{Name: "get", Args: []any{3}, Dest: []any{&v, &anyNote, &price, &flag, &big}}); err != nil || anyNote != nil {
		t.Fatalf("a NULL note read as %#v (%v), want nil", anyNote, err)
	}
	if n, err := s.Exec(ctx, "take", 1, 100); err != nil || n != 0 {
		t.Fatalf("short take: %d rows, %v; want 0 rows", n, err)
	}

	// a missing row: Found, else ErrNoRow naming the statement
	found := true
	if err := s.Send(ctx, false, pgfast.Op{Name: "get", Args: []any{99}, Dest: []any{&v, &anyNote, &price, &flag, &big}, Found: &found}); err != nil || found {
		t.Fatalf("missing row: found %v, %v", found, err)
	}
	err := s.Send(ctx, false, pgfast.Op{Name: "get", Args: []any{99}, Dest: []any{&v, &anyNote, &price, &flag, &big}})
	if !errors.Is(err, pgfast.ErrNoRow) || !strings.HasPrefix(err.Error(), "get: ") {
		t.Fatalf("missing row without Found: %v", err)
	}

	// rows of an array parameter, in a transaction whose BEGIN goes ahead of the query
	s.Begin()
	var k, kv int64
	var got []int64
	if err := s.Query(ctx, "some", []any{[]int64{2, 1, 7}}, []any{&k, &kv}, func() error { got = append(got, k, kv); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[0] != 1 || got[1] != 6 || got[2] != 2 || got[3] != 5 {
		t.Fatalf("rows %v, want [1 6 2 5]", got)
	}
	if _, err := s.Exec(ctx, "take", 2, 5); err != nil {
		t.Fatal(err)
	}
	if err := s.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if count("WHERE k = 2 AND v = 5") != 1 {
		t.Fatal("the rolled back take is in the table")
	}

	// QueryText: every value as text, NULL as nil, the pending BEGIN sent with the query; a query that fails
	// after it leaves a transaction that Rollback ends
	s.Begin()
	var texts []string
	if err := s.QueryText(ctx, "get", []any{3}, func(vals [][]byte) error {
		for _, v := range vals {
			if v == nil {
				texts = append(texts, "NULL")
			} else {
				texts = append(texts, string(v))
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(texts, " "); got != "1 NULL 12.50 t 9007199254740993" {
		t.Fatalf("QueryText read %q", got)
	}
	if _, err := s.Exec(ctx, "take", 3, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if count("WHERE k = 3 AND v = 1") != 1 {
		t.Fatal("the take after a query that began the transaction was not rolled back")
	}
	s.Begin()
	if err := s.QueryText(ctx, "some", []any{"not an array"}, func([][]byte) error { return nil }); err == nil || !strings.HasPrefix(err.Error(), "some: ") {
		t.Fatalf("a query refused after the pending BEGIN: %v", err)
	}
	if err := s.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, false, pgfast.Op{Name: "get", Args: []any{3}, Dest: []any{&v, &anyNote, &price, &flag, &big}}); err != nil || v != 1 {
		t.Fatalf("after the rollback: %d, %v", v, err)
	}

	// a failed statement in a pipeline: the error names it, the later statements do not run, the
	// transaction is rolled back
	s.Begin()
	err = s.Send(ctx, true, pgfast.Op{Name: "put", Args: []any{4, 1, "four"}}, pgfast.Op{Name: "put", Args: []any{1, 1, "dup"}}, pgfast.Op{Name: "put", Args: []any{5, 1, "five"}})
	if err == nil || !strings.HasPrefix(err.Error(), "put: ") || !strings.Contains(err.Error(), "23505") {
		t.Fatalf("duplicate key in a pipeline: %v", err)
	}
	if err := s.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if count("WHERE k IN (4, 5)") != 0 {
		t.Fatal("rows of a failed pipeline were committed")
	}
}

func TestSessionEndsACallWhenItsContextEnds(t *testing.T) {
	s, _ := session(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	var x string
	err := s.Send(ctx, false, pgfast.Op{Name: "slow", Dest: []any{&x}})
	if err == nil || time.Since(start) > 3*time.Second {
		t.Fatalf("a 5 s statement under a 300 ms context: %v after %v", err, time.Since(start))
	}
}

// A context that ends after its call leaves nothing behind: the next call, on another context or through
// database/sql (SQL), runs. The deadline the ended context puts on the socket is set from a goroutine of its
// own; the session waits for it before clearing it, where it once could clear it first and have the next call
// time out (a Trade-Order after Trade-Order's intentional rollback, whose context ends as it returns).
func TestACallAfterAnEndedContextRuns(t *testing.T) {
	s, _ := session(t)
	if _, err := s.Exec(context.Background(), "put", 1, 1, "one"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		if _, err := s.Exec(ctx, "take", 1, 0); err != nil {
			t.Fatal(err)
		}
		cancel()
		var err error
		if i%2 == 0 {
			_, err = s.Exec(context.Background(), "take", 1, 0)
		} else {
			var n int64
			err = s.SQL().QueryRowContext(context.Background(), "SELECT count(*) FROM pgfast_t").Scan(&n)
		}
		if err != nil {
			t.Fatalf("call %d after an ended context: %v", i, err)
		}
	}
}
