package ping_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A TLS file named in the target URL that is not there is named in one line, with what to give instead: the
// error of a missing sslrootcert ended "...: no such file or directory)", naming no file. The password stays out.
func TestPingNamesAMissingTLSFile(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "nowhere", "ca.crt")
	pg, my := testsrv.URL(t, testsrv.PostgresEnv), testsrv.URL(t, testsrv.MySQLEnv)
	for _, c := range []struct{ url, want string }{
		{pg + "?sslmode=verify-full&sslrootcert=" + missing, "dbdyno: sslrootcert " + missing + ": no such file: give the CA certificate's path\n"},
		{pg + "?sslmode=require&sslcert=" + missing + "&sslkey=" + missing, "dbdyno: sslcert " + missing + ": no such file: give the client certificate's path\n"},
		{my + "?ssl-mode=VERIFY_CA&ssl-ca=" + missing, "dbdyno: ssl-ca " + missing + ": no such file: give the CA certificate's path\n"},
	} {
		r := clitest.Run(context.Background(), "ping", "--target", c.url, "--duration", "1s")
		if r.Code == 0 || r.Stderr != c.want {
			t.Errorf("exit %d, stderr %q; want a non-zero exit and %q", r.Code, r.Stderr, c.want)
		}
		if strings.Contains(r.Stdout, "round trips") {
			t.Errorf("a ping ran: %s", r.Stdout)
		}
		clitest.NoPassword(t, c.url, r.Stdout, r.Stderr)
	}
}
