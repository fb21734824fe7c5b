package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/netproxy"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// measuredWork is the progress line of a measured interval that counted work ("  3s measure ... 120 tx").
var measuredWork = regexp.MustCompile(`^\s*[0-9.]+s\S* .*?\bmeasure \S+\s+[1-9]`)

// A server that dies mid-run and never comes back fails every workload's run, not only tpcc's: ping, script and
// tpce ended "ok" (exit 0) with zero calls per second for the rest of a window shorter than --reconnect-timeout
// (the users still reconnecting when it ended, none of them counted as work that did not complete). The
// server (behind a proxy the test owns) goes once the progress shows measured work.
func TestDeadServerFailsEveryWorkload(t *testing.T) {
	for _, env := range []string{"DBDYNO_TEST_PG", "DBDYNO_TEST_MSSQL"} {
		direct := testsrv.Beside(t, testsrv.URL(t, env), "dbdyno_gone_all")
		t.Run(env, func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "one.sql")
			if err := os.WriteFile(script, []byte("SELECT 1;\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			runs := map[string][]string{
				"ping":   {"ping"},
				"script": {"script", "run", script},
				"tpce":   {"tpce", "run"},
			}
			clitest.Must(t, "tpce", "build", "--target", direct, "--customers", "1000", "--trade-days", "1", "--drop")
			for name, args := range runs {
				t.Run(name, func(t *testing.T) {
					p := netproxy.Start(t, direct)
					file := filepath.Join(t.TempDir(), "r.json")
					var once sync.Once
					var gone time.Time
					fired := make(chan struct{})
					watch := func(line string) {
						if measuredWork.MatchString(line) {
							once.Do(func() { gone = time.Now(); p.Stop(); close(fired) })
						}
					}
					full := append(append([]string{}, args...), "--target", p.URL, "--vus", "2", "--rampup", "1s", "--duration", "8s",
						"--interval", "1s", "--result", file, "--store", "")
					r := clitest.RunWatching(context.Background(), watch, full...)
					select {
					case <-fired:
					default:
						t.Fatalf("the run ended before the server went: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
					}
					if r.Code == 0 || !strings.Contains(r.Stderr, "without a connection") {
						t.Fatalf("%s against a server gone for good: exit %d, %s after it went\n%s%s", name, r.Code, time.Since(gone), r.Stdout, r.Stderr)
					}
					res, raw := clitest.ReadResult(t, file)
					clitest.NoPassword(t, direct, r.Stdout, r.Stderr, raw)
					if res.Status != result.StatusFailed {
						t.Fatalf("status %s, want failed\n%s", res.Status, r.Stderr)
					}
				})
			}
		})
	}
}
