package engine_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) { testsrv.Main(m) }

// encrypted reports whether the target's connection runs over TLS, as the server sees it.
func encrypted(t *testing.T, tg *engine.Target) (bool, error) {
	db, err := tg.Open(context.Background())
	if err != nil {
		return false, err
	}
	defer db.Close()
	var on bool
	if tg.Engine.Wire == engine.WirePostgres {
		err = db.QueryRow("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").Scan(&on)
	} else {
		var name, cipher string
		err = db.QueryRow("SHOW SESSION STATUS LIKE 'Ssl_cipher'").Scan(&name, &cipher)
		on = cipher != ""
	}
	return on, err
}

// TLS settings mean what the clients' own documentation says, and the server confirms the connection is
// encrypted; verification against the wrong CA fails. The test servers speak TLS with a certificate of the
// test CA ($DBDYNO_TEST_CA) for 127.0.0.1.
func TestTLSModes(t *testing.T) {
	ca := os.Getenv("DBDYNO_TEST_CA")
	pg, my := testsrv.URL(t, testsrv.PostgresEnv), testsrv.URL(t, testsrv.MySQLEnv)
	if ca == "" {
		t.Fatal("DBDYNO_TEST_CA is not set: source .ci/services")
	}
	// another CA, which did not sign the servers' certificate
	other := filepath.Join(t.TempDir(), "other-ca.crt")
	if out, err := exec.Command("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=other",
		"-keyout", filepath.Join(t.TempDir(), "k"), "-out", other).CombinedOutput(); err != nil {
		t.Fatalf("openssl: %v %s", err, out)
	}
	for _, c := range []struct {
		url, params string
		tls, ok     bool
	}{
		{pg, "", false, true}, // dbdyno's default: no TLS unless asked
		{pg, "sslmode=disable", false, true},
		{pg, "sslmode=prefer", true, true},
		{pg, "sslmode=require", true, true},
		{pg, "sslmode=verify-ca&sslrootcert=" + ca, true, true},
		{pg, "sslmode=verify-full&sslrootcert=" + ca, true, true},
		{pg, "sslmode=verify-full&sslrootcert=" + other, false, false},
		{my, "", false, true},
		{my, "ssl-mode=PREFERRED", true, true},
		{my, "ssl-mode=REQUIRED", true, true},
		{my, "ssl-mode=VERIFY_CA&ssl-ca=" + ca, true, true},
		{my, "ssl-mode=VERIFY_IDENTITY&ssl-ca=" + ca, true, true},
		{my, "ssl-mode=VERIFY_CA&ssl-ca=" + other, false, false},
		{my, "tls=true", false, false}, // verified against the system's CAs, which do not know the test CA
		{my, "tls=skip-verify", true, true},
	} {
		raw := c.url
		if c.params != "" {
			raw += "?" + c.params
		}
		tg, err := engine.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		on, err := encrypted(t, tg)
		if (err == nil) != c.ok || err == nil && on != c.tls {
			t.Errorf("%s %s: encrypted %v, error %v; want TLS %v, connected %v", tg.Engine.Name, c.params, on, err, c.tls, c.ok)
		}
		if err != nil && strings.Contains(err.Error(), "dbdyno-secret") {
			t.Errorf("the password in %v", err)
		}
	}
	tg, _ := engine.Parse(my + "?tls=maybe")
	if _, err := tg.Open(context.Background()); err == nil || !strings.Contains(err.Error(), "tls=maybe is not known") {
		t.Errorf("tls=maybe: %v", err)
	}
}
