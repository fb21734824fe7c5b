package method_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// --find-peak --sla naming a transaction the workload has not is refused before any run measures: it was
// refused only after a whole first run. A step past --vus's 1,000-user cap is refused too, before any user
// connects (it had added 99,999).
func TestSearchAndStepsRefusedBeforeMeasuring(t *testing.T) {
	t.Parallel()
	target := "sqlite://" + filepath.Join(t.TempDir(), "p.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ping", "--find-peak", "--sla", "nosuch.p95<5ms", "--duration", "30s"}, `--sla nosuch.p95<5ms names transaction "nosuch"`},
		{[]string{"ping", "--steps", "1,100000"}, "a step is at most 1000 users"},
	} {
		r := clitest.Run(context.Background(), append(c.args, "--target", target, "--store", "")...)
		if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want one line saying %q", c.args, r.Code, r.Stderr, c.want)
		}
		if strings.Contains(r.Stdout, "measure") || strings.Contains(r.Stdout, "adding") {
			t.Errorf("%v: it ran before refusing:\n%s", c.args, r.Stdout)
		}
	}
}
