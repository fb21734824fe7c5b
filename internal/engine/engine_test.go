package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestParse(t *testing.T) {
	e := func(name string) *Engine {
		x, ok := Lookup(name)
		if !ok {
			t.Fatalf("no engine %s", name)
		}
		return x
	}
	for raw, want := range map[string]Target{
		"sqlite:///tmp/x.db":                  {Engine: e("sqlite"), Path: "/tmp/x.db"},
		"sqlite://dbdyno.db":                  {Engine: e("sqlite"), Path: "dbdyno.db"},
		"duckdb://x.duckdb":                   {Engine: e("duckdb"), Path: "x.duckdb"},
		"postgres://u:p@db.example:6432/tpcc": {Engine: e("postgres"), Host: "db.example", Port: 6432, User: "u", password: "p", Database: "tpcc"},
		"postgresql://u@h/d":                  {Engine: e("postgres"), Host: "h", Port: 5432, User: "u", Database: "d"},
		"mysql://root:secret@127.0.0.1/d":     {Engine: e("mysql"), Host: "127.0.0.1", Port: 3306, User: "root", password: "secret", Database: "d"},
	} {
		got, err := Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got.Engine != want.Engine || got.Path != want.Path || got.Host != want.Host || got.Port != want.Port ||
			got.User != want.User || got.password != want.password || got.Database != want.Database {
			t.Errorf("%s: got %+v, want %+v", raw, *got, want)
		}
	}
}

func TestParseErrorsNameTheFix(t *testing.T) {
	for raw, want := range map[string]string{
		"oracle://x/y":             "unknown target scheme \"oracle\": use sqlite://, duckdb://, postgres://, mysql:// or sqlserver://",
		"just-a-file.db":           "is not a URL",
		"postgres://u:p@h:99999/d": "not a port number",
		"postgres://u:p@h:5432":    "no database name",
		"sqlite://":                "no file name",
	} {
		_, err := Parse(raw)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to say %q", raw, err, want)
		}
		if err != nil && strings.Contains(err.Error(), ":p@") {
			t.Errorf("%s: error shows the password: %v", raw, err)
		}
	}
}

func TestPasswordFromEnvironmentAndRedaction(t *testing.T) {
	t.Setenv(PasswordEnv, "from-env-secret")
	tg, err := Parse("postgres://alice@h:5432/d")
	if err != nil {
		t.Fatal(err)
	}
	if tg.password != "from-env-secret" {
		t.Fatalf("password %q not taken from %s", tg.password, PasswordEnv)
	}
	if s := tg.String(); strings.Contains(s, "from-env-secret") || !strings.Contains(s, "alice:xxxxx@h:5432/d") {
		t.Fatalf("String() = %s", s)
	}
	if s := tg.Scrub("failed: from-env-secret rejected"); strings.Contains(s, "from-env-secret") {
		t.Fatalf("Scrub left the password: %s", s)
	}
	args := RedactArgs([]string{"dbdyno", "--target=mysql://u:hunter22@h/d", "--target", "postgres://u:pw123@h/d", "--vus", "4"})
	joined := strings.Join(args, " ")
	if strings.Contains(joined, "hunter22") || strings.Contains(joined, "pw123") || !strings.Contains(joined, "--vus 4") {
		t.Fatalf("RedactArgs: %s", joined)
	}
}

// Each engine file classifies its driver's errors; what no engine knows, the network's errors, are classified
// alike for all.
func TestErrorClasses(t *testing.T) {
	e := func(name string) *Engine { x, _ := Lookup(name); return x }
	for _, c := range []struct {
		engine string
		err    error
		want   Class
	}{
		{"postgres", &pgconn.PgError{Code: "40001"}, Retryable},
		{"postgres", &pgconn.PgError{Code: "40P01"}, Retryable},
		{"postgres", &pgconn.PgError{Code: "57P01"}, ConnLost},
		{"postgres", &pgconn.PgError{Code: "08006"}, ConnLost},
		{"postgres", &pgconn.PgError{Code: "28P01"}, AuthFailed},
		{"postgres", &pgconn.PgError{Code: "3D000"}, NoDatabase},
		{"postgres", &pgconn.PgError{Code: "23505"}, Constraint},
		{"postgres", &pgconn.PgError{Code: "42P01"}, Schema},
		{"postgres", &pgconn.PgError{Code: "42703"}, Schema},
		{"postgres", &pgconn.PgError{Code: "0A000", Message: "cached plan must not change result type"}, Schema},
		{"postgres", &pgconn.PgError{Code: "0A000", Message: "something else"}, Other},
		{"postgres", &pgconn.PgError{Code: "25006"}, ReadOnly},
		{"postgres", &pgconn.PgError{Code: "XX001"}, Corrupt},
		{"postgres", &pgconn.PgError{Code: "42501"}, Permission},
		{"postgres", &pgconn.PgError{Code: "22012"}, Other},
		{"mysql", &mysql.MySQLError{Number: 1146}, Schema},
		{"mysql", &mysql.MySQLError{Number: 1054}, Schema},
		{"mysql", &mysql.MySQLError{Number: 1290}, ReadOnly},
		{"mysql", &mysql.MySQLError{Number: 1877}, Corrupt},
		{"mysql", &mysql.MySQLError{Number: 1142}, Permission},
		{"mysql", &mysql.MySQLError{Number: 1062}, Constraint},
		{"mysql", &mysql.MySQLError{Number: 1213}, Retryable},
		{"mysql", &mysql.MySQLError{Number: 2013}, ConnLost},
		{"mysql", &mysql.MySQLError{Number: 1045}, AuthFailed},
		{"mysql", &mysql.MySQLError{Number: 1049}, NoDatabase},
		{"mysql", mysql.ErrInvalidConn, ConnLost},
		{"sqlite", io.ErrUnexpectedEOF, ConnLost},
		{"sqlite", fmt.Errorf("login: %w", ErrClosed), ConnLost}, // a session whose reconnect failed
		{"duckdb", fmt.Errorf("wrapped: %w", syscall.ECONNRESET), ConnLost},
		{"duckdb", errors.New("syntax error"), Other},
	} {
		if got := e(c.engine).Classify(c.err); got != c.want {
			t.Errorf("%s: %v is class %d, want %d", c.engine, c.err, got, c.want)
		}
	}
	if msg, ok := e("postgres").Raised(&pgconn.PgError{Code: "DY001", Message: "dbdyno: item not found among {1}"}); !ok || msg != "dbdyno: item not found among {1}" {
		t.Errorf("raised %q %v", msg, ok)
	}
	if _, ok := e("postgres").Raised(&pgconn.PgError{Code: "23505"}); ok {
		t.Error("a constraint violation is not dbdyno's own error")
	}
}

// listen accepts connections on loopback and hands each to serve (which may do nothing: a server that never
// answers).
func listen(t *testing.T, serve func(net.Conn)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
			go serve(c)
		}
	}()
	return ln.Addr().String()
}

// A server that accepts and never answers cannot hang a command: every engine gives up after the connect
// timeout, with one line saying so.
func TestConnectTimeoutOnEveryServerEngine(t *testing.T) {
	addr := listen(t, func(net.Conn) {})
	for _, scheme := range []string{"postgres", "mysql"} {
		tg, err := Parse(scheme + "://u:secret-pw@" + addr + "/d")
		if err != nil {
			t.Fatal(err)
		}
		tg.ConnectTimeout = time.Second
		t0 := time.Now()
		_, err = tg.Open(context.Background())
		if err == nil || time.Since(t0) > 5*time.Second || !strings.Contains(err.Error(), "timed out") || strings.Contains(err.Error(), "secret-pw") {
			t.Errorf("%s: after %s: %v", scheme, time.Since(t0), err)
		}
	}
}

// A PostgreSQL URL that reaches another server says so, instead of a driver's garbled message.
func TestAnotherServersPortIsNamed(t *testing.T) {
	// a MySQL server's greeting: what a PostgreSQL client meets at port 3306
	greeting := []byte("\x4a\x00\x00\x00\x0a5.5.5-10.11.6-MariaDB\x00\x08\x00\x00\x00abcdefgh\x00\xfe\xf7\x2d\x02\x00\xff\x81\x15\x00\x00\x00\x00\x00\x00\x1d\x00\x00\x00ijklmnopqrst\x00mysql_native_password\x00")
	addr := listen(t, func(c net.Conn) { c.Write(greeting); time.Sleep(5 * time.Second) })
	tg, _ := Parse("postgres://u@" + addr + "/d")
	tg.ConnectTimeout = 3 * time.Second
	_, err := tg.Open(context.Background())
	if err == nil || !strings.Contains(err.Error(), "does not answer as PostgreSQL") || strings.Contains(err.Error(), "%!") {
		t.Fatalf("%v", err)
	}
}

// No credential is printed: not the password (wherever the URL puts it, even malformed), not a password=
// or sslpassword= parameter; parameters an engine does not take are refused rather than ignored.
func TestCredentialsNeverPrinted(t *testing.T) {
	for _, raw := range []string{
		"postgres://u:Sup3rS3cr3t@h:5432/d?sslmode=require&sslpassword=Sup3rS3cr3t",
		"postgres://u@h:5432/d?password=Sup3rS3cr3t",
		"mysql://u:Sup3rS3cr3t@h:3306/d?tls=preferred",
	} {
		tg, err := Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", Redact(raw), err)
		}
		for _, s := range []string{tg.String(), Redact(raw), strings.Join(RedactArgs([]string{"--target=" + raw, raw}), " "), tg.Scrub("error near Sup3rS3cr3t")} {
			if strings.Contains(s, "Sup3rS3cr3t") {
				t.Errorf("%q shows the secret", s)
			}
		}
		if tg.password != "Sup3rS3cr3t" {
			t.Errorf("%s: password %q not taken", Redact(raw), tg.password)
		}
	}
	// an unencoded # ? / in the password makes the URL malformed: the message names the fix, not the password
	for _, raw := range []string{"postgres://u:Sup#3rS3cr3t@h:5432/d", "postgres://u:Sup?3rS3cr3t@h/d", "mysql://u:Sup/3rS3cr3t@h/d", "postgres://u:12#3456@h/d"} {
		_, err := Parse(raw)
		if err == nil || strings.Contains(err.Error(), "3rS3cr3t") || strings.Contains(err.Error(), "3456") || !strings.Contains(err.Error(), "percent-encode") {
			t.Errorf("%s: %v", Redact(raw), err)
		}
		if strings.Contains(Redact(raw), "3rS3cr3t") || strings.Contains(Redact(raw), "3456") {
			t.Errorf("Redact(%q) = %q", raw, Redact(raw))
		}
	}
	for raw, want := range map[string]string{
		"postgres://u@h/d?sslmod=require": `take no URL parameter "sslmod": use sslcert, sslkey, sslmode, sslpassword, sslrootcert`,
		"mysql://u@h/d?ssl=true":          `take no URL parameter "ssl": use ssl-ca, ssl-mode, tls`,
		"sqlite://x.db?cache=shared":      `sqlite targets take no URL parameters`,
	} {
		if _, err := Parse(raw); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}
