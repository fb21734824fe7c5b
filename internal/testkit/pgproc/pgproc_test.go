package pgproc_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/testkit/pgproc"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// The instance answers, stops answering while frozen (a query on an open connection waits), and answers again
// once thawed.
func TestFreezeAndThaw(t *testing.T) {
	pg := pgproc.Start(t)
	db, err := sql.Open("pgx", pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	one := func(d time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		var v int
		return conn.QueryRowContext(ctx, "SELECT 1").Scan(&v)
	}
	if err := one(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	pg.Freeze()
	if err := one(time.Second); err == nil {
		t.Fatal("a frozen server answered")
	}
	pg.Thaw()
	var v int
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := db.QueryRowContext(ctx, "SELECT 2").Scan(&v); err != nil || v != 2 {
		t.Fatalf("after thawing: %v %d", err, v)
	}
}
