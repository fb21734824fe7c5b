package tpcc_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/pgproc"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// frozenRun runs `tpcc run` on a private PostgreSQL instance, freezes the server (SIGSTOP) mid-run, and, when
// cancel is set, sends Ctrl-C a moment later. The command must end well before the server resumes (thawed 60 s
// later, so that a hung run fails the test instead of hanging it) with the partial result written.
func frozenRun(t *testing.T, mode string, cancel bool) (clitest.Result, *result.Result, time.Duration) {
	pg := pgproc.Start(t)
	clitest.Must(t, "tpcc", "build", "--target", pg.URL, "--warehouses", "1")
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
	waitForNewOrders(t, pg.URL, 20)
	time.Sleep(time.Second)
	pg.Freeze()
	time.Sleep(time.Second)
	from := time.Now()
	if cancel {
		stop()
	}
	var r clitest.Result
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		var b strings.Builder
		pprof.Lookup("goroutine").WriteTo(&b, 1)
		pg.Thaw()
		<-done
		t.Fatalf("the run hung on the frozen server until it resumed (60s):\n%s", b.String())
	}
	took := time.Since(from)
	pg.Thaw()
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no result after %s: exit %d\n%s%s", took.Round(time.Millisecond), r.Code, r.Stdout, r.Stderr)
	}
	res, _ := clitest.ReadResult(t, file)
	return r, res, took
}

// A server that stops answering mid-run, then Ctrl-C: the run ends within seconds (it hung until the server
// resumed, 144 s in the report), exit status aborted, the partial result written and marked aborted.
func TestCtrlCOnAFrozenServer(t *testing.T) {
	for _, mode := range []string{"procedures", "sql"} {
		t.Run(mode, func(t *testing.T) {
			r, res, took := frozenRun(t, mode, true)
			if r.Code != method.ExitAborted {
				t.Fatalf("exit %d, want %d\n%s%s", r.Code, method.ExitAborted, r.Stdout, r.Stderr)
			}
			if took > 15*time.Second {
				t.Fatalf("the run took %s after Ctrl-C to end", took.Round(time.Millisecond))
			}
			if res.Status != result.StatusAborted || res.Measurement == nil || res.Measurement.Committed == 0 {
				t.Fatalf("result: status %s, measurement %+v", res.Status, res.Measurement)
			}
		})
	}
}

// A server that stops answering and a run that reaches its end: the in-flight transactions are cut a few seconds
// after the end and the run ends, rather than waiting on the server for as long as it stays frozen.
func TestRunEndsOnAFrozenServer(t *testing.T) {
	_, res, took := frozenRun(t, "procedures", false)
	if took > 30*time.Second {
		t.Fatalf("the run took %s after the freeze to end", took.Round(time.Millisecond))
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
