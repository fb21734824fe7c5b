package engine

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	mssql "github.com/microsoft/go-mssqldb"
)

func TestSQLServerURLForms(t *testing.T) {
	t.Setenv(PasswordEnv, "")
	for _, c := range []struct {
		raw, host, instance, db, user string
		port                          int
		str                           string
	}{
		{"sqlserver://sa@127.0.0.1:1433?database=bench", "127.0.0.1", "", "bench", "sa", 1433, "sqlserver://sa@127.0.0.1:1433?database=bench"},
		{"sqlserver://127.0.0.1?database=bench", "127.0.0.1", "", "bench", "sa", 1433, "sqlserver://sa@127.0.0.1:1433?database=bench"},
		{"mssql://bob@localhost/SQLEXPRESS?database=d", "localhost", "SQLEXPRESS", "d", "bob", 0, "sqlserver://bob@localhost/SQLEXPRESS?database=d"},
		{"sqlserver://bob@localhost:14330/INST?database=d", "localhost", "INST", "d", "bob", 14330, "sqlserver://bob@localhost:14330/INST?database=d"},
	} {
		tg, err := Parse(c.raw)
		if err != nil {
			t.Fatalf("%s: %v", c.raw, err)
		}
		if tg.Engine.Name != "sqlserver" || tg.Host != c.host || tg.Instance != c.instance || tg.Database != c.db || tg.User != c.user || tg.Port != c.port {
			t.Errorf("%s: got host %q instance %q db %q user %q port %d", c.raw, tg.Host, tg.Instance, tg.Database, tg.User, tg.Port)
		}
		if tg.String() != c.str {
			t.Errorf("%s: String() = %s, want %s", c.raw, tg.String(), c.str)
		}
		again, err := Parse(tg.String())
		if err != nil || again.Database != tg.Database || again.Instance != tg.Instance {
			t.Errorf("%s: String() does not parse back to the same target: %v", c.raw, err)
		}
	}
}

func TestSQLServerParamsPassedAsGiven(t *testing.T) {
	tg, err := Parse("sqlserver://sa:s3cret-pw@127.0.0.1:1433?database=b&Encrypt=true&TrustServerCertificate=false&HostNameInCertificate=db.example")
	if err != nil {
		t.Fatal(err)
	}
	dsn := sqlserverDSN(tg)
	for _, want := range []string{"encrypt=true", "trustservercertificate=false", "hostnameincertificate=db.example", "database=b", "app+name=dbdyno"} {
		if !strings.Contains(dsn, want) {
			t.Errorf("driver URL lacks %s: %s", want, tg.Scrub(dsn))
		}
	}
	if strings.Contains(dsn, "trustservercertificate=true") {
		t.Error("certificate checks weakened")
	}
	if s := tg.String(); strings.Contains(s, "s3cret-pw") || !strings.Contains(s, "xxxxx") {
		t.Errorf("password not redacted: %s", s)
	}
	// a parameter the engine does not take is refused, not ignored
	if _, err := Parse("sqlserver://sa@127.0.0.1?database=b&encrpyt=true"); err == nil || !strings.Contains(err.Error(), "encrpyt") {
		t.Errorf("misspelt parameter: %v", err)
	}
	if _, err := Parse("sqlserver://sa@127.0.0.1:1433"); err == nil || !strings.Contains(err.Error(), "?database=") {
		t.Errorf("no database: %v", err)
	}
	// the password as a parameter is taken and kept out of what is printed
	tg, err = Parse("sqlserver://sa@127.0.0.1?database=b&password=an0ther-pw")
	if err != nil || tg.password != "an0ther-pw" || strings.Contains(tg.String(), "an0ther") {
		t.Errorf("password parameter: %v %s", err, tg)
	}
}

func TestSQLServerErrorClasses(t *testing.T) {
	e, _ := Lookup("sqlserver")
	for n, want := range map[int32]Class{1205: Retryable, 1222: Retryable, 18456: AuthFailed, 4060: NoDatabase, 208: Schema, 2812: Schema, 207: Schema, 3906: ReadOnly, 824: Corrupt, 229: Permission, 2627: Constraint, 596: ConnLost, 40613: ConnLost, 8134: Other} {
		err := fmt.Errorf("exec: %w", mssql.Error{Number: n, Message: "x"})
		if got := e.Classify(err); got != want {
			t.Errorf("error %d: class %d, want %d", n, got, want)
		}
	}
	if msg, ok := e.Raised(mssql.Error{Number: 50001, Message: "dbdyno: no customer with that last name"}); !ok || !strings.Contains(msg, "no customer") {
		t.Errorf("raised: %q %v", msg, ok)
	}
	if _, ok := e.Raised(mssql.Error{Number: 1205}); ok {
		t.Error("a deadlock is not dbdyno's own error")
	}
}

// A listener that is not SQL Server: the connection fails in one line, within the connect timeout, and the
// password is not in it.
func TestSQLServerConnectFailsClearly(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("HTTP/1.0 400 Bad Request\r\n\r\n"))
			c.Close()
		}
	}()
	tg, err := Parse(fmt.Sprintf("sqlserver://sa:Pa55word-x@%s?database=d", ln.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	tg.ConnectTimeout = 3 * time.Second
	start := time.Now()
	_, err = tg.Open(context.Background())
	if err == nil {
		t.Fatal("opened a connection to a listener that is not SQL Server")
	}
	if time.Since(start) > 10*time.Second || strings.Contains(err.Error(), "Pa55word") || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("took %s: %v", time.Since(start), err)
	}
	if !strings.Contains(err.Error(), "sqlserver at 127.0.0.1") {
		t.Errorf("error does not say where: %v", err)
	}
}

func TestParallelismTheEnginesWay(t *testing.T) {
	ms, _ := Lookup("sqlserver")
	if s, h, err := ms.Parallelism(4); err != nil || len(s) != 0 || h != "OPTION (MAXDOP 4)" {
		t.Errorf("sqlserver: %q %q %v", s, h, err)
	}
	pg, _ := Lookup("postgres")
	if s, h, err := pg.Parallelism(4); err != nil || h != "" || len(s) != 1 || s[0] != "SET max_parallel_workers_per_gather = 3" {
		t.Errorf("postgres: %q %q %v", s, h, err)
	}
	lite, _ := Lookup("sqlite")
	if _, _, err := lite.Parallelism(2); err == nil || !strings.Contains(err.Error(), "sqlserver://") {
		t.Errorf("sqlite: %v", err)
	}
}

// Strings go to SQL Server as varchar, so that a varchar column compared with one keeps its index seek.
func TestSQLServerStringsTravelAsVarchar(t *testing.T) {
	e, _ := Lookup("sqlserver")
	st := e.stmt("table_exists")
	if got := st.Args([]any{"orders"}); got[0] != mssql.VarChar("orders") {
		t.Fatalf("args %#v", got)
	}
	if !strings.Contains(st.SQL, "TABLE_NAME = @p1") {
		t.Fatalf("placeholder: %s", st.SQL)
	}
}
