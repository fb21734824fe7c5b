package runner_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// halfTx's first unit of work leaves a transaction open (BEGIN, one UPDATE) and reports its connection lost,
// as an error taken for a lost connection would, the connection alive; the later ones commit whole.
type halfTx struct {
	db *sql.DB
	runner.Cut
	conn *sql.Conn
	n    int
}

func (h *halfTx) Transactions() []string { return []string{"tx"} }
func (h *halfTx) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	return h, h.Reconnect(ctx)
}
func (h *halfTx) Next() (int, time.Duration, time.Duration) { return 0, 0, 0 }
func (h *halfTx) Do(ctx context.Context, tx int) runner.Outcome {
	h.n++
	if h.n == 1 {
		for _, q := range []string{"BEGIN", "UPDATE dbdyno_half SET lost = lost + 1"} {
			if _, err := h.conn.ExecContext(ctx, q); err != nil {
				return runner.Outcome{Err: err}
			}
		}
		return runner.Outcome{Err: errors.New("taken for a lost connection"), ConnLost: true}
	}
	for _, q := range []string{"BEGIN", "UPDATE dbdyno_half SET whole = whole + 1", "COMMIT"} {
		if _, err := h.conn.ExecContext(ctx, q); err != nil {
			return runner.Outcome{Err: err}
		}
	}
	time.Sleep(time.Millisecond)
	return runner.Outcome{}
}
func (h *halfTx) Reconnect(ctx context.Context) error {
	if h.conn != nil {
		h.conn.Close() // back to the pool, as the workloads' Reconnect does
	}
	c, err := h.db.Conn(ctx)
	if err != nil {
		return err
	}
	h.conn = c
	h.Set(engine.Interrupter(c))
	return nil
}
func (h *halfTx) Close() {
	if h.conn != nil {
		h.conn.Close()
	}
}

// A connection that reported itself lost never carries its open transaction back to the pool: before
// reconnecting, the runner closes it under the worker. Without that, a pool of one connection handed the same
// connection back, and MariaDB's BEGIN committed the half transaction (the lost unit's UPDATE counted).
func TestALostConnectionsTransactionIsNeverCommitted(t *testing.T) {
	url := testsrv.Beside(t, testsrv.URL(t, "DBDYNO_TEST_MYSQL"), "dbdyno_runner_lost")
	_, db := testsrv.Open(t, url)
	defer db.Close()
	for _, q := range []string{"DROP TABLE IF EXISTS dbdyno_half", "CREATE TABLE dbdyno_half (id int PRIMARY KEY, lost int, whole int)",
		"INSERT INTO dbdyno_half VALUES (1, 0, 0)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	defer db.Exec("DROP TABLE dbdyno_half")
	db.SetMaxOpenConns(1) // the pool's one connection: a reconnect gets it back, were it not closed
	w := &halfTx{db: db}
	m, err := runner.Run(context.Background(), w, runner.Config{VUs: 1, Duration: 300 * time.Millisecond, Interval: time.Second,
		Progress: &bytes.Buffer{}, ReconnectTimeout: 10 * time.Second, MaxErrorRate: 100})
	if err != nil {
		t.Fatal(err)
	}
	var lost, whole int
	if err := db.QueryRow("SELECT lost, whole FROM dbdyno_half").Scan(&lost, &whole); err != nil {
		t.Fatal(err)
	}
	if lost != 0 || whole == 0 || m.Reconnects != 1 {
		t.Fatalf("the lost unit's UPDATE committed %d times (whole units %d, reconnects %d)", lost, whole, m.Reconnects)
	}
}
