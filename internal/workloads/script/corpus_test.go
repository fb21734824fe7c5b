package script_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// pgbench's corpus: testdata/pgbench/expressions.sql is dbdyno's own script over what pgbench's expression test
// covers (its operators, functions, NULL logic, -D values, :scale and :client_id, the integers' ends, permute,
// \gset and \aset over compound statements, \sleep with its unit joined), run with that test's -D values; each
// debug() line must say what pgbench's says for the same expression (testdata/pgbench/expressions.want), on
// every engine and in both query modes. Before, the script was refused at its first != ("unexpected character
// '!'"), then at 1.0/0, -Df=of, exp(NULL), -9223372036854775808, \;, \aset and \sleep 2ms, and -M prepared on
// PostgreSQL could not bind an integer where the server inferred text.
func TestPgbenchExpressionCorpus(t *testing.T) {
	want := strings.Split(strings.TrimSpace(readFile(t, "testdata/pgbench/expressions.want")), "\n")
	line := regexp.MustCompile(`(?m)^debug\(script=0,command=(\d+)\): (.*)$`)
	for _, e := range engines(t) {
		clitest.Must(t, "script", "init", "--target", e.URL, "--drop") // pgbench's tables: :scale is their 1
		for _, mode := range []string{"simple", "prepared"} {
			t.Run(e.Name+"/"+mode, func(t *testing.T) {
				out := clitest.Must(t, "script", "run", "testdata/pgbench/expressions.sql", "--target", e.URL, "-M", mode, "--vus", "1", "--transactions", "1",
					"-Dfoo=-10.1", "-Dbla=false", "-Di=+3", "-Dn=null", "-Dt=t", "-Df=of", "-Dd=1.0", "--seed", "5432", "--store", "")
				var got []string
				last := 0
				for _, m := range line.FindAllStringSubmatch(out.Stdout, -1) {
					n, _ := strconv.Atoi(m[1])
					if n <= last {
						t.Errorf("command %d after command %d", n, last)
					}
					last = n
					got = append(got, m[2])
				}
				if len(got) != len(want) {
					t.Fatalf("%d debug lines, want %d:\n%s", len(got), len(want), out.Stdout)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("debug line %d: %q, want %q", i+1, got[i], want[i])
					}
				}
			})
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
