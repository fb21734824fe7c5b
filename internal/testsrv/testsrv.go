// Package testsrv gives tests the database servers that .ci/services starts: their URLs from the environment
// (a test fails, rather than skips, in CI when one is missing), and databases of their own beside the test
// database, so that packages testing in parallel never meet each other's tables.
package testsrv

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// Env names the environment variables that hold the servers' URLs.
const (
	PostgresEnv = "DBDYNO_TEST_PG"
	MySQLEnv    = "DBDYNO_TEST_MYSQL"
)

// URL returns the server URL in env. Without it the test skips, except in CI (CI=true), where the server-backed
// tests must run: there it fails.
func URL(t testing.TB, env string) string {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: in CI the server-backed tests must run (source .ci/services)", env)
		}
		t.Skipf("%s not set; run `source .ci/services` to start the servers", env)
	}
	return v
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
	return strings.TrimSuffix(url, "/"+tg.Database) + "/" + name
}
