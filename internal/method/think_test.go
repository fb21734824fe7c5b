package method_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// An open-loop rate (--rate, or --steps/--find-peak --by rate) beside a workload's think or keying time is
// refused in one line naming both flags and the fix (a user thinking before each scheduled start would only
// show as schedule lag); without the think time the rate is not refused on that account.
func TestRateRefusedWithThinkTime(t *testing.T) {
	url := "sqlite://" + filepath.Join(t.TempDir(), "none.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tpcc", "run", "--rate", "10", "--keying-thinking"}, "--rate 10 (open loop) and --keying-thinking (think time) both pace the users"},
		{[]string{"tpcc", "run", "--find-peak", "--by", "rate", "--rate", "10", "--keying-thinking"}, "--rate 10 (open loop) and --keying-thinking (think time)"},
		{[]string{"webstore", "run", "--rate", "10", "--think", "1s"}, "--rate 10 (open loop) and --think (think time) both pace the users"},
		{[]string{"webstore", "run", "--steps", "10,20", "--by", "rate", "--think", "500ms"}, "--steps 10,20 --by rate (open loop) and --think (think time)"},
	} {
		r := clitest.Run(context.Background(), append(c.args, "--target", url, "--store", "")...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) || !strings.Contains(r.Stderr, "drop --") || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want one line saying %q and the fix", c.args, r.Code, r.Stderr, c.want)
		}
	}
	for _, args := range [][]string{
		{"tpcc", "run", "--rate", "10", "--keying-thinking=false"},
		{"webstore", "run", "--rate", "10", "--think", "0s"},
		{"tpcc", "run", "--keying-thinking", "--duration", "1s"},
	} {
		r := clitest.Run(context.Background(), append(args, "--target", url, "--store", "")...)
		if strings.Contains(r.Stderr, "think time") {
			t.Errorf("%v refused for a think time it does not have: %q", args, r.Stderr)
		}
	}
}
