package plan_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The report a plan suggests is written where the command runs, under a file name made of the plan's, and the
// line pastes as the words it means: a plan named "../../escape" suggested -o ../../escape.html, two folders
// up, and its line was quoted within quotes (a name holding a quote broke it).
func TestPlanSuggestsAReportHere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := filepath.Join(dir, "st.db")
	for _, name := range []string{"../../escape", "it's; rm -rf x"} {
		text := "name: \"" + name + "\"\nstore: " + st + "\ntargets: [sqlite://" + dir + "/p.db]\nsteps:\n  - run: {workload: ping, vus: 1, rampup: 0s, duration: 1s, interval: 1s}\n"
		path := filepath.Join(dir, "p.yaml")
		os.WriteFile(path, []byte(text), 0o644)
		out := runPlan(t, path)
		var line string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "dbdyno report --label") {
				line = strings.TrimSpace(l)
			}
		}
		if line == "" {
			t.Fatalf("plan %q suggests no report:\n%s", name, out)
		}
		b, err := exec.Command("sh", "-c", `for w in `+line+`; do printf '%s\n' "$w"; done`).Output()
		if err != nil {
			t.Fatal(err)
		}
		w := strings.Split(strings.TrimSpace(string(b)), "\n")
		if n := len(w); n != 8 || w[3] != "plan="+name || w[n-2] != "-o" || strings.ContainsAny(w[n-1], "/'; ") || strings.HasPrefix(w[n-1], "-") || !strings.HasSuffix(w[n-1], ".html") {
			t.Fatalf("plan %q: %s reads as %q", name, line, w)
		}
	}
}
