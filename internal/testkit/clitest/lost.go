package clitest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// LostConnections runs `WORKLOAD run --check` on url, whose dataset is built, with three virtual users for 6 s
// and terminates every dbdyno server session (TerminateSessions) at the first progress line of the measured
// window (an event of the run, not a time a loaded machine outlasts). The run must reconnect and go on:
// exit 0, status ok, reconnects and errors counted, time without a connection recorded, and keyTx completed in
// the last whole interval. It returns the result and the run's output for the workload's own checks.
func LostConnections(t *testing.T, workload, url, keyTx string) (*result.Result, Result) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "r.json")
	var n int
	var err error
	terminated := false
	on := &On{After: "ramp-up done, measuring", Text: " measure ", Do: func() { terminated = true; n, err = TerminateSessions(url) }}
	// the lost connections' errors are this test's doing, one a virtual user: however few units of work a loaded
	// machine fits in the window (3 of 197 were 1.5%, over the default --max-error-rate 1%), they do not fail the run
	r := RunOn(context.Background(), on, workload, "run", "--target", url, "--vus", "3", "--rampup", "1s", "--duration", "6s",
		"--interval", "1s", "--check", "--max-error-rate", "100", "--result", file)
	if err != nil {
		t.Fatal(err)
	}
	if !terminated {
		t.Fatalf("the run printed no progress line of its measured window: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if n < 3 {
		t.Fatalf("terminated only %d sessions", n)
	}
	if r.Code != 0 {
		t.Fatalf("the run did not survive lost connections: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	res, _ := ReadResult(t, file)
	m := res.Measurement
	// The terminated sessions include the run's own administrative connections (replaced without a reconnect
	// being counted), so not every one of them is a virtual user's: at least one virtual user must have lost its
	// connection, counted the error and reconnected.
	if res.Status != result.StatusOK || m.Reconnects < 1 || m.Errors < 1 || m.DisconnectedSecs <= 0 {
		t.Fatalf("status %s reconnects %d errors %d disconnected %.1fs (%d sessions terminated)\n%s", res.Status, m.Reconnects, m.Errors, m.DisconnectedSecs, n, r.Stdout)
	}
	if last := m.Intervals[len(m.Intervals)-2]; last.Transactions[keyTx].Count == 0 {
		t.Fatalf("no %s after reconnecting: %+v", keyTx, last)
	}
	return res, r
}

// TerminateSessions ends dbdyno's sessions on url's database (PostgreSQL, or MySQL and MariaDB), all but its
// own, and says how many it ended.
func TerminateSessions(url string) (int, error) {
	ctx := context.Background()
	tg, err := engine.Parse(url)
	if err != nil {
		return 0, err
	}
	db, err := tg.Open(ctx)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	if tg.Engine.Wire == engine.WirePostgres {
		err = db.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = 'dbdyno' AND pid <> pg_backend_pid() AND datname = current_database()`).Scan(&n)
		return n, err
	}
	rows, err := db.QueryContext(ctx, "SELECT id FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()")
	if err != nil {
		return 0, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		if _, err := db.ExecContext(ctx, fmt.Sprintf("KILL CONNECTION %d", id)); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}
