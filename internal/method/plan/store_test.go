package plan_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/method/plan"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A plan whose store is on a PostgreSQL server resumes: its journal is this machine's (in dbdyno's data
// directory, named after the store without its password), the finished step is skipped and its runs are found
// in the server's store.
func TestPlanResumeWithAServerStore(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	st := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_plan_store")
	testsrv.Exec(t, st, "DROP TABLE IF EXISTS results, monitor_samples, store_meta, schema_version")
	dir := t.TempDir()
	path := filepath.Join(dir, "two.yaml")
	text := "name: two\nstore: " + st + "\ntargets: [sqlite://" + filepath.Join(dir, "p.db") + "]\nsteps:\n" +
		"  - run: {workload: ping, rampup: 0s, duration: 1s, interval: 1s}\n" +
		"  - run: {workload: ping, rampup: 0s, duration: 1s, interval: 1s, vus: 2}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := plan.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	j := p.Journal()
	if !strings.HasPrefix(j, store.LocalDir()+string(filepath.Separator)) || strings.Contains(j, clitest.PasswordOf(st)) {
		t.Errorf("the journal of a server's store is %s, want a file in %s without the password", j, store.LocalDir())
	}
	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err = p.Run(ctx, &out, func(args []string) error {
		if n++; n == 2 {
			cancel()
		}
		return method.Invoke(ctx, args, &out, "test")
	})
	if err == nil || !strings.Contains(err.Error(), "stopped at step 2") {
		t.Fatalf("interrupted plan: %v\n%s", err, out.String())
	}
	var ran [][]string
	if err := p.RunResuming(context.Background(), &out, func(args []string) error {
		ran = append(ran, args)
		return method.Invoke(context.Background(), args, &out, "test")
	}, true); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(ran) != 1 || !strings.Contains(strings.Join(ran[0], " "), "--vus 2") {
		t.Fatalf("resumed plan ran %v\n%s", ran, out.String())
	}
	clitest.NoPassword(t, st, out.String())
}
