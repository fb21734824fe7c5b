package result

import (
	"os/exec"
	"strings"
	"testing"
)

// The output layer is the ground floor: result, compare and report read and render results without a database
// driver, the engine layer or a workload (those fill the output layer's registries from above).
func TestOutputLayerDependsOnNoDriver(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool:", err)
	}
	const mod = "github.com/dbdyno/dbdyno/"
	pkgs := []string{mod + "internal/output/result", mod + "internal/output/compare", mod + "internal/output/report", mod + "internal/output/leaderboard"}
	out, err := exec.Command(gobin, append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	drivers := []string{"github.com/jackc/", "github.com/go-sql-driver/", "github.com/microsoft/go-mssqldb", "github.com/duckdb/",
		"modernc.org/sqlite", "github.com/mattn/go-sqlite3", "github.com/lib/pq"}
	deps := strings.Fields(string(out))
	if len(deps) < len(pkgs) {
		t.Fatalf("go list named %d packages: %q", len(deps), out)
	}
	for _, d := range deps {
		for _, drv := range drivers {
			if strings.HasPrefix(d, drv) {
				t.Errorf("the output layer depends on the database driver %s", d)
			}
		}
		if strings.HasPrefix(d, mod) && !strings.HasPrefix(d, mod+"internal/output/") && !strings.HasPrefix(d, mod+"internal/lib/") {
			t.Errorf("the output layer depends on %s, a layer above it", d)
		}
	}
}
