package ioprobe_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// oneLine says whether a refusal is one line on standard error, "dbdyno: ...", with nothing on standard output.
func oneLine(r clitest.Result) bool {
	return r.Code != 0 && r.Stdout == "" && strings.HasPrefix(r.Stderr, "dbdyno: ") && strings.Count(r.Stderr, "\n") == 1
}

// io size refuses a need that is not figures or not a checklist in one line naming it, never sizing it: an
// IOPS figure that overflowed to "-9,223,372,036,854,775,808 IOPS", 1e300 MB/s met by one 500-IOPS disk with
// exit 0, NaN, a stored result given as the checklist ("...: <nil>"), a file that is not there.
func TestSizeRefusesABadNeedInOneLine(t *testing.T) {
	dir := t.TempDir()
	cat := copyCatalog(t, dir)
	before, _ := os.ReadFile(cat)
	result := filepath.Join(dir, "pg1.json")
	if err := os.WriteFile(result, []byte(`{"schema_version": 1, "workload": "tpcc", "status": "ok", "figures": {"tpm": 1000}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ need, want string }{
		{"iops=99999999999999999999", "--need iops=99999999999999999999: more than 1,000,000,000 IOPS"},
		{"mbps=1e300", "--need mbps=1e300: more than 1,000,000,000 MB/s"},
		{"iops=NaN", "--need iops=NaN: not a non-negative figure"},
		{"iops=Inf", "--need iops=Inf: not a non-negative figure"},
		{result, "--need " + result + " is not a checklist: it is a dbdyno result (a tpcc run)"},
		{filepath.Join(dir, "missing.json"), "missing.json: no such file: it takes a checklist file"},
	} {
		r := clitest.Run(context.Background(), "io", "size", "--need", c.need, "--catalog", cat)
		if !oneLine(r) || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stderr, "<nil>") || strings.Contains(r.Stderr, "-9,223") {
			t.Errorf("--need %s: exit %d, stdout %q, stderr %q; want one line with %q", c.need, r.Code, r.Stdout, r.Stderr, c.want)
		}
	}
	if after, _ := os.ReadFile(cat); string(after) != string(before) {
		t.Error("the catalogue changed")
	}
}

// --cache-hit takes a percentage as every percentage option does (60% or 60), the same share of reads as
// before; 0.6 is refused as ambiguous, in one line.
func TestSizeCacheHitIsAPercentage(t *testing.T) {
	dir := t.TempDir()
	cat := copyCatalog(t, dir)
	args := func(hit string) []string {
		return []string{"io", "size", "--need", "iops=16000,io-size=8k,read=90", "--catalog", cat, "--cache-hit", hit}
	}
	r := clitest.Run(context.Background(), args("0.6")...)
	if !oneLine(r) || !strings.Contains(r.Stderr, "--cache-hit 0.6 is ambiguous: write 0.6% or 60%") {
		t.Errorf("--cache-hit 0.6: exit %d, stderr %q", r.Code, r.Stderr)
	}
	if r := clitest.Run(context.Background(), args("150%")...); !oneLine(r) || !strings.Contains(r.Stderr, "outside 0% to 100%") {
		t.Errorf("--cache-hit 150%%: exit %d, stderr %q", r.Code, r.Stderr)
	}
	pct := clitest.Must(t, args("60%")...)
	bare := clitest.Must(t, args("60")...)
	if pct.Stdout != bare.Stdout || !strings.Contains(pct.Stdout, `"cached": a ReadOnly host cache serves 60% of the 90% reads`) {
		t.Errorf("--cache-hit 60%% and 60 differ or do not count 60%%:\n%s\n%s", pct.Stdout, bare.Stdout)
	}
	none := clitest.Must(t, args("0")...)
	if strings.Contains(none.Stdout, `"cached"`) {
		t.Errorf("--cache-hit 0 counts a host cache:\n%s", none.Stdout)
	}
	page := filepath.Join(dir, "plan.html")
	clitest.Must(t, append(args("60%"), "--html", page)...)
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), "--cache-hit 60%: they count against the VM") {
		t.Error("the page does not say --cache-hit 60%")
	}
}

// io size runs under the command's context (cancelled on Ctrl-C and SIGTERM): cancelled, it ends aborted (exit
// 130) with one line saying so, and prints no plan.
func TestSizeEndsAbortedWhenCancelled(t *testing.T) {
	cat := copyCatalog(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := clitest.Run(ctx, "io", "size", "--need", "iops=16000", "--catalog", cat)
	if r.Code != 130 || r.Stdout != "" || !strings.Contains(r.Stderr, "dbdyno: run aborted: io size was stopped after sizing 0 of the 6 VMs") || strings.Count(r.Stderr, "\n") != 1 {
		t.Errorf("cancelled: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
}

// --matrix refuses an empty value in one line naming it, as --vus 1,,2 is refused, rather than running one
// test fewer; nothing is written.
func TestMatrixRefusesAnEmptyValue(t *testing.T) {
	for _, c := range []struct{ matrix, want string }{
		{"bs=4k,,8k", "--matrix bs=4k,,8k: value 2 of 3 of bs is empty: give each value once, comma-separated (bs=4k,8k)"},
		{"iodepth=1,32, rw=randread", "--matrix iodepth=1,32,: value 3 of 3 of iodepth is empty"},
		{"bs=4k rw=,randwrite", "--matrix rw=,randwrite: value 1 of 2 of rw is empty"},
	} {
		dir := t.TempDir()
		r := clitest.Run(context.Background(), "io", "run", "--directory", dir, "--runtime", "0.2", "--matrix", c.matrix,
			"--store", filepath.Join(dir, "s.db"), "--result", filepath.Join(dir, "r.json"))
		if !oneLine(r) || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("--matrix %q: exit %d, stdout %q, stderr %q; want one line with %q", c.matrix, r.Code, r.Stdout, r.Stderr, c.want)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("--matrix %q left %v", c.matrix, left)
		}
	}
}
