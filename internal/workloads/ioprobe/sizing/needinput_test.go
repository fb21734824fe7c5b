package sizing

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
)

// Inline figures out of range or not figures at all are refused in one line naming the figure and the fix,
// never sized: 99999999999999999999 IOPS printed as -9,223,372,036,854,775,808, 1e300 MB/s met by one 500-IOPS
// disk, NaN accepted with a garbled message.
func TestInlineNeedRefusesWhatIsNotAFigure(t *testing.T) {
	for _, c := range []struct{ need, want string }{
		{"iops=99999999999999999999", "--need iops=99999999999999999999: more than 1,000,000,000 IOPS"},
		{"iops=1e400", "--need iops=1e400: more than 1,000,000,000 IOPS"},
		{"mbps=1e300", "--need mbps=1e300: more than 1,000,000,000 MB/s"},
		{"gib=1e13", "--need gib=1e13: more than 1,000,000,000,000 GiB"},
		{"iops=NaN", "--need iops=NaN: not a non-negative figure (e.g. iops=16000)"},
		{"iops=nan", "--need iops=nan: not a non-negative figure"},
		{"iops=Inf", "--need iops=Inf: not a non-negative figure"},
		{"mbps=+Inf", "--need mbps=+Inf: not a non-negative figure"},
		{"iops=-Inf", "--need iops=-Inf: not a non-negative figure"},
		{"iops=-5", "--need iops=-5: not a non-negative figure"},
		{"read=NaN", "--need read=NaN: not a non-negative figure"},
		{"io-size=99999999999p", "--need io-size=99999999999p: not a non-negative figure"},
		{"io-size=2g", "--need io-size=2g: more than 1,048,576 KiB (1 GiB) a request"},
		{"iops=1,iops=2", "--need iops=1,iops=2: iops is given twice"},
	} {
		n, err := ReadNeed(c.need, "p99", "")
		if err == nil {
			t.Errorf("--need %s accepted: %+v", c.need, n)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || strings.Contains(msg, "<nil>") || strings.Contains(msg, "-9,223") || strings.HasSuffix(msg, ": ;") {
			t.Errorf("--need %s: %q, want one line with %q", c.need, msg, c.want)
		}
	}
	// the largest figures taken are printed as they are, never wrapped
	n, err := ReadNeed("iops=1000000000,gib=1000000000000", "p99", "")
	if err != nil || needString(n) != "1,000,000,000 IOPS, 1,000,000,000,000 GiB" {
		t.Errorf("the largest figures: %q, %v", needString(n), err)
	}
	if s := num(1e20); strings.HasPrefix(s, "-") {
		t.Errorf("num(1e20) = %s", s)
	}
}

// --need FILE is a checklist (dbdyno monitor checklist NAME --output-format json): a file missing, unreadable
// or of another kind (a run's result, JSON without periods, not JSON) is one line naming the file and saying
// how to write a checklist, never "...: <nil>".
func TestNeedFileRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	result := write("pg1.json", `{"schema_version": 1, "tool": {"name": "dbdyno"}, "workload": "tpcc", "status": "ok"}`)
	noPeriods := write("other.json", `{"name": "erp", "periods": []}`)
	notObject := write("list.json", `[1, 2]`)
	notJSON := write("notes.txt", "p99 16000 IOPS\n")
	empty := write("empty.json", "")
	sub := filepath.Join(dir, "adir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.json"), ": no such file: it takes a checklist file"},
		{sub, ": cannot read it (is a directory)"},
		{result, " is not a checklist: it is a dbdyno result (a tpcc run), which io size does not read"},
		{noPeriods, " is not a checklist: its periods are empty"},
		{notObject, " is not a checklist: it is JSON but not an object"},
		{notJSON, " is not a checklist: it is not JSON"},
		{empty, " is not a checklist: it is not JSON"},
	} {
		_, err := ReadNeed(c.file, "p99", "")
		if err == nil {
			t.Errorf("--need %s accepted", c.file)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "--need "+c.file+c.want) || !strings.Contains(msg, "dbdyno monitor checklist NAME --output-format json") ||
			strings.Contains(msg, "\n") || strings.Contains(msg, "<nil>") {
			t.Errorf("--need %s: %q, want one line with %q and how to write a checklist", c.file, msg, c.want)
		}
	}
	// a checklist is read
	c := monitor.Checklist{Name: "erp", Growth: 1, From: time.Unix(0, 0), To: time.Unix(3600, 0),
		Periods: []monitor.Period{{Name: "all", Rows: []monitor.Row{{Key: monitor.KeyIOPS, Stat: &monitor.Stat{P99: 16000}}}}}}
	b, _ := json.Marshal(c)
	if n, err := ReadNeed(write("erp.json", string(b)), "p99", ""); err != nil || n.IOPS != 16000 {
		t.Errorf("a checklist: %+v, %v", n, err)
	}
}
