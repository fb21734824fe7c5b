package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testsrv"
)

func TestMain(m *testing.M) { testsrv.Main(m) }

// TLS settings mean what the clients' own documentation says: a mode that asks for TLS fails against a server
// without it (never a silent plaintext connection); prefer/preferred fall back to plaintext, as libpq and the
// MySQL client do. The test servers run without TLS.
func TestTLSModes(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		env, params string
		ok          bool
	}{
		{testsrv.PostgresEnv, "sslmode=prefer", true},
		{testsrv.PostgresEnv, "sslmode=require", false},
		{testsrv.MySQLEnv, "ssl-mode=PREFERRED", true},
		{testsrv.MySQLEnv, "tls=preferred", true},
		{testsrv.MySQLEnv, "ssl-mode=REQUIRED", false},
		{testsrv.MySQLEnv, "tls=true", false},
	} {
		tg, err := engine.Parse(testsrv.URL(t, c.env) + "?" + c.params)
		if err != nil {
			t.Fatal(err)
		}
		db, err := tg.Open(ctx)
		if db != nil {
			db.Close()
		}
		if (err == nil) != c.ok {
			t.Errorf("%s %s: %v, want connected %v", tg.Engine.Name, c.params, err, c.ok)
		}
		if err != nil && strings.Contains(err.Error(), "dbdyno-secret") {
			t.Errorf("the password in %v", err)
		}
	}
	if _, err := engine.Parse(testsrv.URL(t, testsrv.MySQLEnv) + "?tls=maybe"); err == nil || !strings.Contains(err.Error(), "tls=maybe is not known") {
		// refused when the target is opened at the latest
		tg, _ := engine.Parse(testsrv.URL(t, testsrv.MySQLEnv) + "?tls=maybe")
		if _, err := tg.Open(ctx); err == nil || !strings.Contains(err.Error(), "tls=maybe is not known") {
			t.Errorf("tls=maybe: %v", err)
		}
	}
}
