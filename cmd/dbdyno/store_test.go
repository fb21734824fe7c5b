package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A team's store on PostgreSQL: runs record into it, every command that reads a store takes its URL, runs are
// pushed to it and pulled from it under their run IDs (a second push copies nothing), and its password is in
// no output and no stored result.
func TestSharedPostgresStore(t *testing.T) {
	ctx := context.Background()
	st := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_cli_store")
	testsrv.Exec(t, st, "DROP TABLE IF EXISTS results, monitor_samples, store_meta, schema_version")
	dir := t.TempDir()
	target := "sqlite://" + filepath.Join(dir, "p.db")
	var outputs []string
	ping := func(store string, label string) string {
		r := clitest.Must(t, "ping", "--target", target, "--rampup", "0s", "--duration", "1s", "--interval", "1s", "--store", store, "--label", label)
		outputs = append(outputs, r.Stdout)
		m := regexp.MustCompile(`(?m)^run (\S+)`).FindStringSubmatch(r.Stdout)
		if m == nil {
			t.Fatalf("no run line:\n%s", r.Stdout)
		}
		return m[1]
	}
	must := func(args ...string) string {
		t.Helper()
		r := cli(ctx, args...)
		outputs = append(outputs, r.stdout, r.stderr)
		if r.code != 0 {
			t.Fatalf("dbdyno %s: exit %d: %s", strings.Join(args[:2], " "), r.code, r.stderr)
		}
		return r.stdout
	}
	a, b := ping(st, "who=a"), ping(st, "who=b")
	if !strings.Contains(outputs[0], "is stored in postgres://dbdyno:xxxxx@") {
		t.Errorf("the run does not name the store without its password:\n%s", outputs[0])
	}
	if l := must("results", "list", "--store", st, "--label", "who=b"); !strings.Contains(l, b) || strings.Contains(l, a) {
		t.Errorf("results list --label who=b:\n%s", l)
	}
	doc := must("results", "show", "--store", st, a)
	if !strings.Contains(doc, `"run_id": "`+a+`"`) {
		t.Errorf("results show: %.300s", doc)
	}
	must("compare", "--store", st, a, b)
	must("report", "--store", st, "-o", filepath.Join(dir, "r.html"), a, b)

	local := filepath.Join(dir, "mine.db")
	c := ping(local, "who=c")
	if out := must("results", "push", "--store", local, "--to", st, "--all"); !strings.Contains(out, "copied 1 run(s)") {
		t.Errorf("first push: %s", out)
	}
	if out := must("results", "push", "--store", local, "--to", st, c); !strings.Contains(out, "copied 0 run(s)") || !strings.Contains(out, "1 were there already") {
		t.Errorf("second push: %s", out)
	}
	other := filepath.Join(dir, "other.db")
	if out := must("results", "pull", "--store", other, "--from", st, "--all"); !strings.Contains(out, "copied 3 run(s)") {
		t.Errorf("pull: %s", out)
	}
	for _, id := range []string{a, b, c} {
		must("results", "show", "--store", other, id)
	}
	if r := cli(ctx, "results", "push", "--store", local, "--to", st); r.code == 0 || !strings.Contains(r.stderr, "--all") {
		t.Errorf("a push naming nothing: %d %s", r.code, r.stderr)
	}
	if r := cli(ctx, "ping", "--target", st, "--duration", "1s", "--store", st); r.code == 0 || !strings.Contains(r.stderr, "is the database of --target") {
		t.Errorf("a store that is the target's database: %d %s", r.code, r.stderr)
	}
	wrong := strings.Replace(st, clitest.PasswordOf(st), "wrong-"+clitest.PasswordOf(st), 1)
	r := cli(ctx, "results", "list", "--store", wrong)
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code == 0 || !strings.Contains(r.stderr, "authentication failed") {
		t.Errorf("a wrong password: %d %s", r.code, r.stderr)
	}
	stored, _ := os.ReadFile(other)
	clitest.NoPassword(t, st, append(outputs, string(stored))...)
}
