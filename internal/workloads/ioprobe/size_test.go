package ioprobe_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

var exampleCatalog = filepath.Join("..", "..", "..", "examples", "catalogs", "azure-2015.yaml")

// copyCatalog is the example catalogue in dir (a test's own copy, so that a refusal is seen to leave it alone).
func copyCatalog(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(exampleCatalog)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// io size --html writes the plan's page beside the table, and says where; beside --output-format json the
// standard output holds the JSON alone.
func TestSizeWritesTheHTMLPage(t *testing.T) {
	dir := t.TempDir()
	cat, page := copyCatalog(t, dir), filepath.Join(dir, "plan.html")
	r := clitest.Must(t, "io", "size", "--need", "iops=16000", "--catalog", cat, "--html", page)
	if !strings.Contains(r.Stdout, "cheapest: Standard_DS13 + 4 x P30, $1,548.00 a month") || !strings.HasSuffix(r.Stdout, "plan page: "+page+"\n") {
		t.Errorf("the output:\n%s", r.Stdout)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", "<title>Storage plan: 16,000 IOPS</title>", "$3,208.98", "$1,548.00 (cheapest)", cat} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// the page is the only file left in its directory beside the inputs: no temporary file
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("the directory holds %d files: %v", len(ents), ents)
	}
	r = clitest.Must(t, "io", "size", "--need", "iops=16000", "--catalog", cat, "--html", page, "--output-format", "json")
	var js map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &js); err != nil || js["cheapest"] != "Standard_DS13 + 4 x P30" {
		t.Errorf("--output-format json with --html: stdout is not the plan's JSON alone (%v):\n%s", err, r.Stdout)
	}
	// a need no candidate meets: the page says which and by how much, and the command fails with the same line
	r = clitest.Run(t.Context(), "io", "size", "--need", "iops=100000,mbps=100", "--catalog", cat, "--html", page)
	b, _ = os.ReadFile(page)
	if r.Code == 0 || !strings.Contains(r.Stderr, "short by 20,000 (20%)") || !strings.Contains(string(b), "short by 20,000 (20%)") {
		t.Errorf("an unmet need: exit %d, %s; the page has the line: %v", r.Code, r.Stderr, strings.Contains(string(b), "short by 20,000"))
	}
}

// The page replaces the one before it by a rename: a reader holding the old page reads it whole, and the path
// is a new file.
func TestSizeWritesThePageAtomically(t *testing.T) {
	dir := t.TempDir()
	cat, page := copyCatalog(t, dir), filepath.Join(dir, "plan.html")
	clitest.Must(t, "io", "size", "--need", "iops=16000", "--catalog", cat, "--html", page)
	old, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	before, _ := old.Stat()
	clitest.Must(t, "io", "size", "--need", "iops=8000", "--catalog", cat, "--html", page)
	after, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Errorf("the page was rewritten in place, not replaced by a rename")
	}
	held := make([]byte, before.Size()+1)
	n, _ := old.ReadAt(held, 0)
	if int64(n) != before.Size() || !strings.Contains(string(held[:n]), "16,000 IOPS") {
		t.Errorf("the old page read %d of its %d bytes", n, before.Size())
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), "Storage plan: 8,000 IOPS") {
		t.Errorf("the new page is not the new plan")
	}
}

// The output path is checked before any work, and refused with one line: one of the inputs (the catalogue, the
// checklist), a directory, a missing or unwritable directory, a file that is not a dbdyno page. The refusals come
// before the catalogue is read (a broken catalogue is not what they report) and leave the files as they were.
func TestSizeRefusesABadPagePath(t *testing.T) {
	dir := t.TempDir()
	cat := copyCatalog(t, dir)
	checklist := filepath.Join(dir, "erp.json")
	cl := monitor.Checklist{Name: "erp", Growth: 1, Periods: []monitor.Period{{Name: "all", Rows: []monitor.Row{{Key: monitor.KeyIOPS, Stat: &monitor.Stat{P99: 16000}}}}}}
	b, _ := json.Marshal(cl)
	if err := os.WriteFile(checklist, b, 0o644); err != nil {
		t.Fatal(err)
	}
	clitest.Must(t, "io", "size", "--need", checklist, "--catalog", cat) // the checklist is a need io size reads
	broken := filepath.Join(dir, "broken.yaml")
	os.WriteFile(broken, []byte("disks: [\n"), 0o644)
	other := filepath.Join(dir, "notes.html")
	os.WriteFile(other, []byte("<html>my own notes</html>\n"), 0o644)
	catBefore, _ := os.ReadFile(cat)
	for _, c := range []struct {
		name, catalog, need, html, want string
	}{
		{"the catalogue", cat, "iops=16000", cat, "--html " + cat + " is also an input of this command (" + cat + "): choose another file"},
		{"the catalogue by another path", cat, "iops=16000", filepath.Join(dir, ".", "x", "..", "catalog.yaml"), "is also an input of this command"},
		{"the checklist", cat, checklist, checklist, "--html " + checklist + " is also an input of this command (" + checklist + ")"},
		{"a directory", broken, "iops=16000", dir, "--html " + dir + " is a directory: give a file name"},
		{"a missing directory", broken, "iops=16000", filepath.Join(dir, "nowhere", "plan.html"), "cannot write --html " + filepath.Join(dir, "nowhere", "plan.html")},
		{"an unwritable directory", broken, "iops=16000", "/proc/dbdyno-plan.html", "cannot write --html /proc/dbdyno-plan.html"},
		{"a file not of dbdyno's", broken, "iops=16000", other, "--html " + other + " exists and is not a dbdyno HTML page: refusing to replace it"},
	} {
		r := clitest.Run(t.Context(), "io", "size", "--need", c.need, "--catalog", c.catalog, "--html", c.html)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) || strings.Count(r.Stderr, "\n") != 1 || r.Stdout != "" {
			t.Errorf("%s: exit %d, %q, stdout %q; want one line with %q", c.name, r.Code, r.Stderr, r.Stdout, c.want)
		}
	}
	if after, _ := os.ReadFile(cat); string(after) != string(catBefore) {
		t.Errorf("the catalogue was changed")
	}
	if after, _ := os.ReadFile(checklist); string(after) != string(b) {
		t.Errorf("the checklist was changed")
	}
	if after, _ := os.ReadFile(other); string(after) != "<html>my own notes</html>\n" {
		t.Errorf("a file not of dbdyno's was replaced")
	}
}
