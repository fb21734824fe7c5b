package method_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// SQLGlotVersion is the sqlglot release .ci/run installs for the offline parse check.
const SQLGlotVersion = "30.30.0"

// The statement files of an engine no test server runs (engine.ParseDialect: SQL Server's T-SQL) are parsed
// offline by sqlglot, every statement of every workload and the engine's own, and a statement that does not
// parse fails the test. Without python3 and sqlglot the test skips, except in CI, where it fails.
func TestSQLParsesOffline(t *testing.T) {
	for _, e := range engine.All() {
		if e.ParseDialect == "" {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			files := e.Files()
			for _, m := range workload.All() {
				if m.SQL == nil || m.Supports != nil && m.Supports(e) != nil {
					continue
				}
				f, err := m.SQL(e)
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, f...)
			}
			errs, n := parseOffline(t, e.ParseDialect, e.Name, files)
			for _, msg := range errs {
				t.Error(msg)
			}
			if n < 60 {
				t.Errorf("only %d statements checked", n)
			}
		})
	}
}

// A statement with an error in it fails the check: the check can fail.
func TestSQLParseCheckFindsErrors(t *testing.T) {
	bad := &sqlfile.File{Name: "bad.sql", Statements: []*sqlfile.Statement{
		{Name: "missing_paren", SQL: "SELECT a FROM t WHERE (b = 1"},
		{Name: "proc_body", SQL: "CREATE OR ALTER PROCEDURE p @a int AS BEGIN UPDATE t SET x = ( WHERE y = @a; END"},
		{Name: "good", SQL: "SELECT TOP 1 a FROM t WITH (UPDLOCK) ORDER BY a"},
	}}
	bad.Statements = append(bad.Statements, &sqlfile.Statement{Name: "other_dialect", SQL: "SELECT a FROM t ORDER BY a LIMIT 1 FOR UPDATE"})
	errs, _ := parseOffline(t, "tsql", "sqlserver", []*sqlfile.File{bad})
	all := strings.Join(errs, "\n")
	if len(errs) != 4 || strings.Contains(all, "good") || !strings.Contains(all, `other_dialect () uses "LIMIT 1"`) ||
		!strings.Contains(all, "missing_paren () does not parse") || !strings.Contains(all, "proc_body () does not parse") {
		t.Fatalf("errors found: %q", errs)
	}
}

// fragments are statement texts that are not whole statements: a hint added to queries.
func fragment(st *sqlfile.Statement) bool { return strings.HasSuffix(st.Name, "_hint") }

// beyondParser are statements in syntax sqlglot does not know (it would parse them only as opaque commands),
// each with the words it must start with and the reason; they are checked for those words only.
var beyondParser = map[string]struct{ prefix, why string }{
	"analyze_table": {"UPDATE STATISTICS ", "UPDATE STATISTICS is parsed only as a command"},
	"trace_flags":   {"SET NOCOUNT ON;\nDECLARE @flags TABLE", "INSERT ... EXEC (DBCC TRACESTATUS into a table variable) is unknown to sqlglot"},
	"dl_new_order":  {"DELETE FROM new_order OUTPUT deleted.no_o_id\n", "DELETE ... OUTPUT is unknown to sqlglot (Babelfish runs it in the tests)"},
	"restock":       {"CREATE TRIGGER dbdyno_ws_restock ON inventory AFTER UPDATE", "CREATE TRIGGER is parsed only as a command (Babelfish runs it in the web store's tests)"},
}

// foreign are other dialects' constructs that a lenient parser takes but the engine refuses, per dialect.
var foreign = map[string]*regexp.Regexp{
	"tsql": regexp.MustCompile(`(?i)\bLIMIT\s+[0-9:@]|\bFOR\s+UPDATE\b|::|\|\||\binterval\s+'|\bextract\s*\(|\bRETURNING\b|\bON\s+CONFLICT\b|^\s*CALL\s|\bcurrent_date\b|\bBOOLEAN\b|\bSTART\s+TRANSACTION\b|^BEGIN;?$`),
}

func parseOffline(t *testing.T, dialect, dir string, files []*sqlfile.File) ([]string, int) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err == nil {
		err = exec.Command(py, "-c", "import sqlglot").Run()
	}
	if err != nil {
		msg := "python3 with sqlglot is needed to parse the " + dialect + " statement files: python3 -m pip install --user sqlglot==" + SQLGlotVersion
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	var in []map[string]string
	fill := strings.NewReplacer("{{part}}", "probe_t", "{{meta}}", "probe_meta", "{{chunk}}", "probe_chunk", "{table}", "t", "{name}", "d", "{n}", "2", "{workers}", "1")
	for _, f := range files {
		for _, st := range f.Statements {
			if fragment(st) {
				continue
			}
			if b, ok := beyondParser[st.Name]; ok && strings.HasSuffix(st.From, "/"+dir+"/"+f.Name) {
				if !strings.HasPrefix(st.SQL, b.prefix) {
					t.Errorf("%s: %s (%s) should start with %q: %s", f.Name, st.Name, st.From, b.prefix, st.SQL)
				}
				t.Logf("%s: %s not parsed: %s", f.Name, st.Name, b.why)
				continue
			}
			in = append(in, map[string]string{"id": fmt.Sprintf("%s: %s (%s)", f.Name, st.Name, st.From), "sql": fill.Replace(st.SQL)})
		}
	}
	var errs []string
	for _, f := range files {
		for _, st := range f.Statements {
			if re := foreign[dialect]; re != nil && re.MatchString(st.SQL) {
				errs = append(errs, fmt.Sprintf("%s: %s (%s) uses %q, which %s does not have", f.Name, st.Name, st.From, re.FindString(st.SQL), dialect))
			}
		}
	}
	body, _ := json.Marshal(in)
	cmd := exec.Command(py, "testdata/sqlparse.py", dialect)
	cmd.Stdin = bytes.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sqlparse.py: %v\n%s", err, stderr.String())
	}
	var got struct {
		SQLGlot string
		Errors  []struct{ ID, Error string }
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("sqlparse.py answered %q: %v", out, err)
	}
	for _, e := range got.Errors {
		errs = append(errs, fmt.Sprintf("%s does not parse as %s (sqlglot %s): %s", e.ID, dialect, got.SQLGlot, e.Error))
	}
	return errs, len(in)
}
