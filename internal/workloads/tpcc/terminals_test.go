package tpcc_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/dbdyno/dbdyno/internal/workloads/tpcc"
)

// terminalsRun runs `tpcc run` with terminals (keying and think times at a tenth of the specification's or
// less) and returns its result.
func terminalsRun(t *testing.T, url string, args ...string) *result.Result {
	t.Helper()
	path := filepath.Join(t.TempDir(), "result.json")
	r := clitest.Run(context.Background(), append([]string{"tpcc", "run", "--target", url, "--keying-thinking", "--interval", "1s",
		"--result", path, "--store", ""}, args...)...)
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	res, err := result.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Stdout, "wait for a connection") || !strings.Contains(r.Stdout, "the specification's checks of the run") {
		t.Fatalf("the summary does not say the wait or the specification's checks:\n%s", r.Stdout)
	}
	return res
}

// 20 terminals share 2 connections on SQLite: the result says so, holds their wait for a connection and their
// keying and think times, and the specification's checks of the run.
func TestTerminalsOnSQLite(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + builtSQLite(t)
	res := terminalsRun(t, url, "--terminals", "20", "--connections", "2", "--pace-scale", "0.01", "--rampup", "1s", "--duration", "3s")
	m := res.Measurement
	if m.VUs != 2 || m.Terminals == nil || m.Terminals.Terminals != 20 || m.Terminals.Connections != 2 {
		t.Fatalf("vus %d, terminals %+v", m.VUs, m.Terminals)
	}
	if res.Options["terminals"] != 20.0 || res.Options["connections"] != 2.0 || res.Options["vus"] != 2.0 || res.Options["pace_scale"] != 0.01 {
		t.Fatalf("options: terminals %v connections %v vus %v pace_scale %v", res.Options["terminals"], res.Options["connections"], res.Options["vus"], res.Options["pace_scale"])
	}
	no := m.Transactions[tpcc.TxNames[tpcc.NewOrder]]
	p := m.Terminals.Pacing[tpcc.TxNames[tpcc.NewOrder]]
	if no.Count == 0 || p.Count != no.Count+no.Rollbacks || p.KeyingMeanS != 0.18 || m.Terminals.ConnectionWait.Max == 0 {
		t.Fatalf("new orders %+v, their pacing %+v, wait %+v", no, p, m.Terminals.ConnectionWait)
	}
	checks := map[string]result.Check{}
	for _, c := range res.Checks {
		checks[c.Name] = c
	}
	// the keying times are fixed: their checks pass whatever the machine; the others are recorded (a p90 limit
	// or a think time's mean is the machine's and chance's)
	for _, name := range []string{"spec_nopm_ceiling", "spec_new_order_p90", "spec_payment_p90", "spec_new_order_think", "spec_new_order_keying", "spec_payment_keying"} {
		c, ok := checks[name]
		if !ok || strings.HasSuffix(name, "_keying") && !c.Passed {
			t.Fatalf("check %s: %+v (recorded %v) among %+v", name, c, ok, res.Checks)
		}
	}
}

// The options of a run of terminals are refused, each with one line naming the fix, where they cannot run.
func TestTerminalsRefused(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + filepath.Join(t.TempDir(), "none.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--terminals", "100"}, "add --keying-thinking"},
		{[]string{"--terminals", "100", "--keying-thinking", "--vus", "4"}, "--terminals 100 and --vus 4"},
		{[]string{"--terminals", "100", "--keying-thinking", "--rate", "5"}, "drop --rate"},
		{[]string{"--connections", "10"}, "give --terminals N too"},
		{[]string{"--terminals", "5", "--connections", "10", "--keying-thinking"}, "at most --connections 5"},
		{[]string{"--terminals", "100", "--connections", "1001", "--keying-thinking"}, "--connections must be at most 1000"},
		{[]string{"--terminals", "1000001", "--keying-thinking"}, "--terminals must be at most 1000000"},
	} {
		r := clitest.Run(context.Background(), append([]string{"tpcc", "run", "--target", url, "--store", ""}, c.args...)...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: exit %d, want %q in:\n%s", c.args, r.Code, c.want, r.Stderr)
		}
	}
}

// On PostgreSQL (CI): 10 warehouses, 100 terminals over 10 connections: never more than 10 sessions run the
// terminals' transactions, and the run holds no more than its fixed side sessions besides (sideSessions).
func TestTerminalsPostgresSessions(t *testing.T) {
	base := testsrv.URL(t, testsrv.PostgresEnv)
	url := testsrv.Beside(t, base, "dbdyno_terminals")
	clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "10", "--threads", "2", "--drop")
	_, db := testsrv.Open(t, base) // on another database: the samples are not among the run's sessions
	defer db.Close()
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var most, mostTx int
	txPids := map[int]bool{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			n, tx, err := sessions(db, "dbdyno_terminals", txPids)
			if err != nil {
				t.Error(err)
				return
			}
			most, mostTx = max(most, n), max(mostTx, tx)
			time.Sleep(100 * time.Millisecond)
		}
	}()
	res := terminalsRun(t, url, "--terminals", "100", "--connections", "10", "--pace-scale", "0.1", "--rampup", "3s", "--duration", "6s")
	stop()
	wg.Wait()
	m := res.Measurement
	if m.Terminals == nil || m.Terminals.Connections != 10 || m.Committed == 0 {
		t.Fatalf("terminals %+v, committed %d", m.Terminals, m.Committed)
	}
	if mostTx == 0 || mostTx > 10 || len(txPids) > 10 {
		t.Fatalf("%d sessions ran the terminals' transactions at once, %d in all: want at most the 10 connections", mostTx, len(txPids))
	}
	if most > 10+sideSessions {
		t.Fatalf("%d sessions on the database during the run: want at most the 10 connections and the run's %d of its own", most, sideSessions)
	}
	t.Logf("at most %d sessions at once, %d of them running the terminals' transactions (%d in all)", most, mostTx, len(txPids))
}

// sideSessions are the sessions a tpcc run holds on PostgreSQL besides its virtual users' or terminals'
// connections, whatever their number: the shared lock that keeps a build or a drop away, the method's samplers
// of the database's counters and wait events, and tpcc's two readers at the window's edges (sum(d_next_o_id),
// and the server's transaction counters for HammerDB's TPM).
const sideSessions = 5

// sessions counts the client sessions on database name, and those running one of the terminals' transactions
// (procedures mode: a call of dbdyno_new_order, ...), adding the latter's pids to pids.
func sessions(db *sql.DB, name string, pids map[int]bool) (all, tx int, err error) {
	rows, err := db.Query(`SELECT pid, query FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`, name)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var pid int
		var q string
		if err := rows.Scan(&pid, &q); err != nil {
			return 0, 0, err
		}
		all++
		for _, p := range tpcc.TxNames {
			if strings.Contains(q, fmt.Sprintf("dbdyno_%s(", p)) {
				tx++
				pids[pid] = true
				break
			}
		}
	}
	return all, tx, rows.Err()
}
