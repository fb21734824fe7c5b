// Package testsrv gives tests the database servers that .ci/services starts: their URLs from the environment
// (a test fails, rather than skips, in CI when one is missing), and databases of their own beside the test
// database, so that packages testing in parallel never meet each other's tables.
package testsrv

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// Env names the environment variables that hold the servers' URLs.
const (
	PostgresEnv = "DBDYNO_TEST_PG"
	MySQLEnv    = "DBDYNO_TEST_MYSQL"
	// MSSQLEnv names a SQL Server (or Azure SQL) the server-backed tests also run on when it is set. No SQL Server
	// can be installed on the project's machines, so CI does not require it: .ci/run reports those tests as not
	// run, with the reason.
	MSSQLEnv = "DBDYNO_TEST_MSSQL"
)

// Servers lists the URLs of the servers the engine-by-engine tests run on: PostgreSQL and MariaDB (required in
// CI, see URL), and SQL Server when MSSQLEnv names one.
func Servers(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, env := range []string{PostgresEnv, MySQLEnv} {
		if os.Getenv(env) != "" || os.Getenv("CI") == "true" {
			out = append(out, URL(t, env))
		}
	}
	if u := os.Getenv(MSSQLEnv); u != "" {
		out = append(out, u)
	}
	return out
}

// URL returns the server URL in env. Without it the test skips (counted, see Main), except in CI (CI=true),
// where the server-backed tests must run: there it fails.
func URL(t testing.TB, env string) string {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: in CI the server-backed tests must run (source .ci/services)", env)
		}
		skipped.servers.Add(1)
		t.Skipf("%s not set; run `source .ci/services` to start the servers", env)
	}
	return v
}

var skipped struct{ servers, shared atomic.Int64 }

// Main runs a package's tests and then says, in one line, how many were skipped for want of the servers or the
// shared reference data and how to include them. go test shows a passing package's output only with -v, so
// the line goes to the terminal when there is one.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run is Main that returns the exit status instead of exiting.
func Run(m *testing.M) int {
	code := m.Run()
	if line := SkipLine(skipped.servers.Load(), skipped.shared.Load()); line != "" {
		w := io.Writer(os.Stderr)
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
		fmt.Fprintln(w, line)
	}
	return code
}

// SkipLine words the skipped tests, "" when none were.
func SkipLine(servers, shared int64) string {
	var parts []string
	if servers > 0 {
		parts = append(parts, fmt.Sprintf("%d server-backed test(s) skipped: set %s and %s (source .ci/services) to run them", servers, PostgresEnv, MySQLEnv))
	}
	if shared > 0 {
		parts = append(parts, fmt.Sprintf("%d test(s) skipped without the reference data: put it at ../shared or set %s", shared, SharedEnv))
	}
	if len(parts) == 0 {
		return ""
	}
	pkg := ""
	if wd, err := os.Getwd(); err == nil {
		pkg = filepath.Base(wd) + ": "
	}
	return "dbdyno tests: " + pkg + strings.Join(parts, "; ")
}

// Beside returns the URL of database name on the server of url, creating the database if it is missing.
func Beside(t testing.TB, url, name string) string {
	t.Helper()
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tg.Beside(context.Background(), name); err != nil {
		t.Fatal(err)
	}
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	if q := u.Query(); q.Has("database") { // SQL Server's form: the database is a parameter
		q.Set("database", name)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return strings.TrimSuffix(url, "/"+tg.Database) + "/" + name
}

// SharedEnv names the environment variable that points at the shared reference data when it is not at
// ../shared beside the project.
const SharedEnv = "DBDYNO_SHARED"

// Shared returns a directory of the shared reference data (shared/tpch/answers, shared/tpch/reference): under
// $DBDYNO_SHARED when set, else under ../shared beside the project root, as CI lays it out. It is never copied
// into the project. When the directory is missing the test fails in CI and skips elsewhere, saying where it
// looked and how to point at the data (and Main counts it in its line).
func Shared(t testing.TB, parts ...string) string {
	t.Helper()
	base := os.Getenv(SharedEnv)
	if base == "" {
		dir, err := os.Getwd()
		for err == nil {
			if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				err = os.ErrNotExist
			}
			dir = parent
		}
		base = filepath.Join(filepath.Dir(dir), "shared")
	}
	path := filepath.Join(append([]string{base}, parts...)...)
	if _, err := os.Stat(path); err != nil {
		msg := fmt.Sprintf("reference data not found at %s: put the shared data beside the project (../shared) or set %s", path, SharedEnv)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		skipped.shared.Add(1)
		t.Skip(msg)
	}
	return path
}

// Open opens a test's own connection to a target, outside dbdyno's commands (to look at or tamper with what a
// command made); the caller closes it as soon as it is done (an embedded file held open would be held against
// the commands the test runs next).
func Open(t testing.TB, url string) (*engine.Target, *sql.DB) {
	t.Helper()
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	db, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tg, db
}

// Exec runs statements on a target outside dbdyno, as a careless user would.
func Exec(t testing.TB, url string, stmts ...string) {
	t.Helper()
	_, db := Open(t, url)
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// Tmpfs mounts a small tmpfs for the test (a real disk that fills), unmounted when it ends. Where mounting is
// not permitted the test is skipped, except in CI, which runs as root and must run it.
func Tmpfs(t testing.TB, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" && os.Geteuid() == 0 {
			t.Fatalf("mounting a tmpfs as root in CI: %v: %s", err, out)
		}
		t.Skipf("cannot mount a tmpfs here (%v: %s): needs root", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}
