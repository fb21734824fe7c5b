package method

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Targets run at once print their progress as it comes and their summaries in target order: [target 2]'s
// summary printed before [target 1]'s when target 2 ended first.
func TestTargetSummariesInOrder(t *testing.T) {
	var targets []*engine.Target
	for _, u := range []string{"sqlite:///x/1.db", "sqlite:///x/2.db"} {
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, tg)
	}
	var out bytes.Buffer
	onTargets(&out, targets, func(tg *engine.Target, w io.Writer) (*result.Result, error) {
		i := 1
		if tg == targets[1] {
			i = 2
		} else {
			time.Sleep(100 * time.Millisecond) // target 1 ends last
		}
		fmt.Fprintf(w, "progress %d\n", i)
		w.(interface{ Hold() }).Hold()
		fmt.Fprintf(w, "summary %d\nlast %d", i, i)
		return nil, nil
	})
	got := out.String()
	s1, s2 := strings.Index(got, "[target 1] summary 1"), strings.Index(got, "[target 2] summary 2")
	if s1 < 0 || s2 < 0 || s1 > s2 || !strings.Contains(got, "[target 2] progress 2") || !strings.Contains(got, "[target 2] last 2\n") {
		t.Errorf("output:\n%s", got)
	}
}
