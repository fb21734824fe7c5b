package tpcc_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/netproxy"
	"github.com/dbdyno/dbdyno/internal/testkit/pgproc"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// frozenRun runs `tpcc run` on pg, a private PostgreSQL instance holding a build, freezes the server (SIGSTOP)
// mid-run, and, when cancel is set, sends Ctrl-C a moment later. The command must end well before the server
// resumes (thawed 60 s later, so that a hung run fails the test instead of hanging it) with the partial result
// written.
func frozenRun(t *testing.T, pg *pgproc.Instance, mode string, cancel bool) (r clitest.Result, res *result.Result, ref, took time.Duration) {
	// the sessions an earlier run on the frozen server left (their client gone while the server was stopped) end
	// first: none of them holds a row this run waits for
	testsrv.Exec(t, pg.URL, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'")
	defer pg.Thaw() // should the test fail while the server is frozen: the next test runs on it
	file := filepath.Join(t.TempDir(), "r.json")
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	duration := "60s"
	if !cancel {
		duration = "6s"
	}
	done := make(chan clitest.Result, 1)
	go func() {
		done <- clitest.Run(ctx, "tpcc", "run", "--target", pg.URL, "--mode", mode, "--vus", "2", "--rampup", "0s",
			"--duration", duration, "--interval", "1s", "--check", "--result", file)
	}()
	waitForNewOrders(t, pg.URL, 10)
	first := time.Now()
	waitForNewOrders(t, pg.URL, 10)
	ref = time.Since(first) // the run's pace, unfrozen: 10 New-Orders once it has started
	time.Sleep(time.Second)
	pg.Freeze()
	time.Sleep(time.Second)
	from := time.Now()
	if cancel {
		stop()
	}
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		var b strings.Builder
		pprof.Lookup("goroutine").WriteTo(&b, 1)
		pg.Thaw()
		<-done
		t.Fatalf("the run hung on the frozen server until it resumed (60s):\n%s", b.String())
	}
	took = time.Since(from)
	pg.Thaw()
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no result after %s: exit %d\n%s%s", took.Round(time.Millisecond), r.Code, r.Stdout, r.Stderr)
	}
	res, _ = clitest.ReadResult(t, file)
	t.Logf("10 New-Orders in %s unfrozen; ended %s after the freeze", ref.Round(time.Millisecond), took.Round(time.Millisecond))
	return r, res, ref, took
}

// One private instance and one build for the frozen-server tests below, run one after the other (each freezes
// the whole server): an instance and a build each took most of these tests' time. The instance is a server of
// its own: the test runs beside the others.
func TestOnAFrozenServer(t *testing.T) {
	t.Parallel()
	pg := pgproc.Start(t)
	clitest.Must(t, "tpcc", "build", "--target", pg.URL, "--warehouses", "1")
	for _, mode := range []string{"procedures", "sql"} {
		t.Run("CtrlC/"+mode, func(t *testing.T) { ctrlCOnAFrozenServer(t, pg, mode) })
	}
	t.Run("RunEnds", func(t *testing.T) { runEndsOnAFrozenServer(t, pg) })
}

// A server that stops answering mid-run, then Ctrl-C: the run ends within seconds (it hung until the server
// resumed, 144 s in the report), exit status aborted, the partial result written and marked aborted.
func ctrlCOnAFrozenServer(t *testing.T, pg *pgproc.Instance, mode string) {
	r, res, ref, took := frozenRun(t, pg, mode, true)
	if r.Code != method.ExitAborted {
		t.Fatalf("exit %d, want %d\n%s%s", r.Code, method.ExitAborted, r.Stdout, r.Stderr)
	}
	// 15 s, and 3x the run's pace measured here unfrozen (a loaded machine ends more slowly); a run that
	// hung would wait for the thaw, 60 s
	if limit := 15*time.Second + 3*ref; took > limit {
		t.Fatalf("the run took %s after Ctrl-C to end, over %s (its pace unfrozen: 10 New-Orders in %s)", took.Round(time.Millisecond), limit, ref.Round(time.Millisecond))
	}
	if res.Status != result.StatusAborted || res.Measurement == nil || res.Measurement.Committed == 0 {
		t.Fatalf("result: status %s, measurement %+v", res.Status, res.Measurement)
	}
}

// A server that stops answering and a run that reaches its end: the in-flight transactions are cut a few seconds
// after the end and the run ends, rather than waiting on the server for as long as it stays frozen.
func runEndsOnAFrozenServer(t *testing.T, pg *pgproc.Instance) {
	_, res, ref, took := frozenRun(t, pg, "procedures", false)
	// 30 s, and 3x the run's pace measured here unfrozen (a loaded machine ends more slowly); a run that hung
	// would wait for the thaw, 60 s
	if limit := 30*time.Second + 3*ref; took > limit {
		t.Fatalf("the run took %s after the freeze to end, over %s (its pace unfrozen: 10 New-Orders in %s)", took.Round(time.Millisecond), limit, ref.Round(time.Millisecond))
	}
	if res.Measurement == nil || res.Measurement.Committed == 0 {
		t.Fatalf("result: status %s, measurement %+v", res.Status, res.Measurement)
	}
}

// waitForNewOrders waits until the run has committed n New-Orders (the run measures from its start: no ramp-up).
func waitForNewOrders(t *testing.T, url string, n int64) {
	_, db := testsrv.Open(t, url)
	defer db.Close()
	sum := func() (v int64) {
		if err := db.QueryRow("SELECT sum(d_next_o_id) FROM district").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	base := sum()
	for deadline := time.Now().Add(2 * time.Minute); sum() < base+n; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the run committed no New-Order within 2 minutes")
		}
	}
}

// frozenNetworkRun runs `tpcc run` on url through a toxiproxy proxy for duration, waits for the run's first
// New-Order and then 10 more (ref: how long those 10 took, unfrozen: the reference the bounds derive from), freezes the
// traffic both ways (nothing passes, no connection closes: a server that stopped answering, or a network that
// drops everything) and, when cancel is set, cancels the command as Ctrl-C does. It returns how long the command
// took to end after the freeze (the proxy thaws only after the command ended or 2 minutes passed, so a run that
// hangs fails the test rather than hanging it), with the result written.
func frozenNetworkRun(t *testing.T, url string, duration time.Duration, cancel bool) (r clitest.Result, res *result.Result, ref, took time.Duration) {
	p := netproxy.Start(t, url)
	file := filepath.Join(t.TempDir(), "r.json")
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan clitest.Result, 1)
	go func() {
		done <- clitest.Run(ctx, "tpcc", "run", "--target", p.URL, "--vus", "2", "--rampup", "0s", "--duration", duration.String(),
			"--interval", "1s", "--check", "--result", file)
	}()
	waitForNewOrders(t, url, 1)
	first := time.Now()
	waitForNewOrders(t, url, 10)
	ref = time.Since(first) // the run's pace, unfrozen: 10 New-Orders once it has started
	if err := p.Freeze(); err != nil {
		t.Fatal(err)
	}
	from := time.Now()
	if cancel {
		stop()
	}
	select {
	case r = <-done:
	case <-time.After(2 * time.Minute):
		var b strings.Builder
		pprof.Lookup("goroutine").WriteTo(&b, 1)
		p.Thaw()
		<-done
		t.Fatalf("the run hung on the frozen network for 2 minutes:\n%s", b.String())
	}
	took = time.Since(from)
	p.Thaw()
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no result after %s: exit %d\n%s%s", took.Round(time.Millisecond), r.Code, r.Stdout, r.Stderr)
	}
	res, _ = clitest.ReadResult(t, file)
	t.Logf("10 New-Orders in %s unfrozen; ended %s after the freeze", ref.Round(time.Millisecond), took.Round(time.Millisecond))
	return r, res, ref, took
}

// proxiedServers are the servers whose frozen network the tests make with the proxy: MariaDB (or MySQL), and
// SQL Server when testsrv.MSSQLEnv names one. (PostgreSQL's frozen server is a private instance stopped with
// SIGSTOP: TestCtrlCOnAFrozenServer.)
func proxiedServers(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, u := range testsrv.Servers(t) {
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		if tg.Engine.Wire != engine.WirePostgres {
			out[tg.Engine.Name] = testsrv.Beside(t, u, "dbdyno_frozen")
		}
	}
	if len(out) == 0 {
		t.Skip("no MySQL/MariaDB or SQL Server to freeze the network of")
	}
	return out
}

// The network to MariaDB or SQL Server freezes mid-run (they hung until the network came back). Ctrl-C then ends
// the run well within its duration (a quarter of it: a hung run would take all of it and more), with exit status
// aborted and the partial result marked aborted; and a run whose end passes while the network is frozen ends
// too, its in-flight work cut, within its duration, the runner's grace, its pace and the end-of-run queries' and
// checks' timeouts (each bounded by runner.EndTimeout), and is not ok. The servers run side by side (each its
// own proxy and database; they spend their time waiting on timeouts, not computing): one after the other they
// took 257 s of a loaded round, the sum of both.
func TestFrozenNetworkOnEveryServer(t *testing.T) {
	t.Parallel() // on databases of its own (dbdyno_frozen)
	for name, url := range proxiedServers(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // a server, a proxy and a database of its own
			clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--drop")
			t.Run("ctrl-c", func(t *testing.T) {
				const duration = 3 * time.Minute
				r, res, ref, took := frozenNetworkRun(t, url, duration, true)
				if limit := duration / 4; took > limit || ref > limit {
					t.Fatalf("the run took %s after Ctrl-C on the frozen network to end, over %s (its pace unfrozen: 10 New-Orders in %s)", took.Round(time.Millisecond), limit, ref.Round(time.Millisecond))
				}
				if r.Code != method.ExitAborted || res.Status != result.StatusAborted || res.Measurement == nil || res.Measurement.Committed == 0 {
					t.Fatalf("exit %d, status %s, measurement %+v\n%s%s", r.Code, res.Status, res.Measurement, r.Stdout, r.Stderr)
				}
			})
			t.Run("end", func(t *testing.T) {
				const duration = 20 * time.Second
				r, res, ref, took := frozenNetworkRun(t, url, duration, false)
				limit := duration + runner.InterruptGrace + 3*ref + 3*runner.EndTimeout
				if took > limit {
					t.Fatalf("the run took %s after the freeze to end, over %s (its duration, %s of grace, 3x its unfrozen pace %s, 3x the end queries' %s)", took.Round(time.Millisecond), limit, runner.InterruptGrace, ref.Round(time.Millisecond), runner.EndTimeout)
				}
				if r.Code == 0 || res.Measurement == nil || res.Measurement.Committed == 0 || res.Status == result.StatusOK {
					t.Fatalf("exit %d, status %s, measurement %+v: a run frozen for its last part is not ok", r.Code, res.Status, res.Measurement)
				}
			})
		})
	}
}
