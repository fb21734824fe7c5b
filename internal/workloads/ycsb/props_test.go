package ycsb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Java's properties format, as YCSB reads its -P files: the three separators, comments, escapes, continued
// lines, spaces around.
func TestParsePropertiesJavaFormat(t *testing.T) {
	text := "# a comment\n! another\n\nrecordcount=1000\n  operationcount : 2000\nworkload site.ycsb.workloads.CoreWorkload\n" +
		"table=user\\\n    table\nexportfile=/tmp/a\\tb\nkey\\=with\\:seps=v\nunicode=\\u0041\\u00e9\nempty=\nsep==x\n"
	got, err := ParseProperties(text, "f")
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"recordcount", "1000"}, {"operationcount", "2000"}, {"workload", "site.ycsb.workloads.CoreWorkload"},
		{"table", "usertable"}, {"exportfile", "/tmp/a\tb"}, {"key=with:seps", "v"}, {"unicode", "Aé"}, {"empty", ""}, {"sep", "=x"}}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pair %d: %q, want %q", i, got[i], want[i])
		}
	}
	if _, err := ParseProperties("bad=\\u12", "f.properties"); err == nil || !strings.Contains(err.Error(), "f.properties line 1") {
		t.Fatalf("a malformed escape: %v", err)
	}
}

// Files in order, a later one over an earlier one; the command line's properties (-p, -threads, -target) over
// every file's, whatever their order; YCSB's -P workloads/workloada is dbdyno's copy when there is no such file,
// said in a note.
func TestResolveOrderAndPresets(t *testing.T) {
	dir := t.TempDir()
	f1, f2 := filepath.Join(dir, "one"), filepath.Join(dir, "two")
	os.WriteFile(f1, []byte("recordcount=10\nfieldcount=3\nreadproportion=0.1\n"), 0o644)
	os.WriteFile(f2, []byte("recordcount=20\n"), 0o644)
	r, err := Resolve(Sources{Workload: "b", Files: []string{f1}, Set: []string{"fieldcount=4"},
		Args: []string{"run", "jdbc", "-P", f2, "-threads", "6", "-target", "500", "-s", "-t", "-p", "table=t2"}, Phase: "run"})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"recordcount": "20", "fieldcount": "4", "readproportion": "0.1", "updateproportion": "0.05",
		"threadcount": "6", "target": "500", "table": "t2", "requestdistribution": "zipfian"} {
		if got, _ := r.Props.Get(k); got != want {
			t.Errorf("%s = %q (from %s), want %q", k, got, r.Props.From(k), want)
		}
	}
	if r.Props.From("recordcount") != f2 || r.Props.From("fieldcount") != "-p" || r.Props.From("updateproportion") != "dbdyno's workloads/workloadb" {
		t.Errorf("sources: %s, %s, %s", r.Props.From("recordcount"), r.Props.From("fieldcount"), r.Props.From("updateproportion"))
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], `binding "jdbc"`) {
		t.Errorf("notes %q", r.Notes)
	}
	// the preset by YCSB's path, where there is no such file
	t.Chdir(dir)
	r, err = Resolve(Sources{Files: []string{"workloads/workloade"}})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Props.Get("scanproportion"); v != "0.95" || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "embedded copy of YCSB's workloads/workloade") {
		t.Fatalf("workloads/workloade: scanproportion %q, notes %q", v, r.Notes)
	}
	// a file of that name that exists is read, not the preset
	own := filepath.Join(dir, "workloada")
	os.WriteFile(own, []byte("readproportion=0.7\n"), 0o644)
	r, _ = Resolve(Sources{Files: []string{own}})
	if v, _ := r.Props.Get("readproportion"); v != "0.7" || len(r.Notes) != 0 {
		t.Fatalf("an existing workloada: readproportion %q, notes %q", v, r.Notes)
	}
}

// Each preset holds the facts of YCSB's core workload: its proportions and distributions.
func TestPresetsAreYCSBsCoreWorkloads(t *testing.T) {
	want := map[string]map[string]string{
		"a": {"readproportion": "0.5", "updateproportion": "0.5", "requestdistribution": "zipfian"},
		"b": {"readproportion": "0.95", "updateproportion": "0.05", "requestdistribution": "zipfian"},
		"c": {"readproportion": "1", "requestdistribution": "zipfian"},
		"d": {"readproportion": "0.95", "insertproportion": "0.05", "requestdistribution": "latest"},
		"e": {"scanproportion": "0.95", "insertproportion": "0.05", "requestdistribution": "zipfian", "maxscanlength": "100", "scanlengthdistribution": "uniform"},
		"f": {"readproportion": "0.5", "readmodifywriteproportion": "0.5", "requestdistribution": "zipfian"},
	}
	for l, props := range want {
		r, err := Resolve(Sources{Workload: l})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := Parse(r.Props, "run")
		if err != nil {
			t.Fatalf("workload %s: %v", l, err)
		}
		for k, v := range props {
			if got, _ := r.Props.Get(k); got != v {
				t.Errorf("workload %s: %s = %q, want %q", l, k, got, v)
			}
		}
		if cfg.RecordCount != 1000 || cfg.OperationCount != 1000 || !cfg.ReadAll {
			t.Errorf("workload %s: %+v", l, cfg)
		}
	}
	if _, err := Resolve(Sources{Workload: "g"}); err == nil || !strings.Contains(err.Error(), "give a, b, c, d, e or f") {
		t.Fatalf("--workload g: %v", err)
	}
}

func parse(t *testing.T, phase string, kv ...string) (*Config, error) {
	t.Helper()
	r, err := Resolve(Sources{Workload: "a", Set: kv})
	if err != nil {
		return nil, err
	}
	return Parse(r.Props, phase)
}

// What dbdyno reads but cannot honour is refused in one line naming the property, where it came from and the
// fix; a value that is not what the property takes too. A connection property's value is never repeated.
func TestParseRefusesWhatItCannotHonour(t *testing.T) {
	for _, c := range []struct {
		kv   []string
		want string
	}{
		{[]string{"dataintegrity=true"}, "dataintegrity (from -p): checking every value"},
		{[]string{"fieldlengthdistribution=histogram"}, "histogram (field lengths read from fieldlengthhistogram's file) is not supported"},
		{[]string{"measurementtype=timeseries"}, "measurementtype (from -p): timeseries is not supported"},
		{[]string{"measurement.interval=both"}, "measurement.interval (from -p): both is not supported"},
		{[]string{"measurement.interval=op", "target=100"}, "op with a target is not supported"},
		{[]string{"exporter=site.ycsb.measurements.exporter.JSONMeasurementsExporter"}, "exporter (from -p)"},
		{[]string{"db.passwd=s3cret"}, "db.passwd (from -p): the JDBC binding's connection is not read: give the database as --target URL"},
		{[]string{"db.url=jdbc:postgresql://h/db?password=s3cret"}, "db.url (from -p)"},
		{[]string{"jdbc.autocommit=false"}, "jdbc.autocommit (from -p)"},
		{[]string{"db.batchsize=100"}, "inserts are not batched"},
		{[]string{"core_workload_insertion_retry_limit=3"}, "core_workload_insertion_retry_limit (from -p)"},
		{[]string{"workload=site.ycsb.workloads.TimeSeriesWorkload"}, "not YCSB's CoreWorkload"},
		{[]string{"fieldcount=ten"}, "fieldcount=ten (from -p) is not a whole number of at least 1"},
		{[]string{"readallfields=yes"}, "readallfields=yes (from -p) is not true or false"},
		{[]string{"requestdistribution=pareto"}, "requestdistribution=pareto (from -p) is not one of uniform, zipfian, latest, hotspot, sequential, exponential"},
		{[]string{"insertstart=900", "insertcount=200"}, "reach past recordcount=1000"},
		{[]string{"recordcount=0"}, "recordcount is 0 or not given"},
		{[]string{"table=user table"}, "table=user table (from -p) is not a plain table name"},
		{[]string{"readproportion=0", "updateproportion=0"}, "every operation's proportion is 0"},
		{[]string{"requestdistribution=hotspot", "hotspotdatafraction=0.0001"}, "leaves the hot or the cold set empty"},
		{[]string{"dotransactions=false"}, "asks for YCSB's load phase, but this is dbdyno ycsb run"},
	} {
		_, err := parse(t, "run", c.kv...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want one line with %q", c.kv, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%v: the refusal repeats a connection property's value: %v", c.kv, err)
		}
	}
	if _, err := Parse(newProps(), "run"); err == nil || !strings.Contains(err.Error(), "no YCSB workload given") {
		t.Fatalf("no workload: %v", err)
	}
	for _, args := range [][]string{{"-threads"}, {"-x"}, {"load"}} {
		if _, err := Resolve(Sources{Workload: "a", Args: args, Phase: "run"}); err == nil {
			t.Errorf("YCSB's command line %q taken", args)
		}
	}
	if _, err := Resolve(Sources{Set: []string{"recordcount"}}); err == nil || !strings.Contains(err.Error(), "give NAME=VALUE") {
		t.Fatalf("-p without =: %v", err)
	}
}

// The properties honoured read as YCSB's defaults when absent and as given when present.
func TestParseDefaultsAndValues(t *testing.T) {
	cfg, err := parse(t, "run")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Table != "usertable" || cfg.FieldCount != 10 || cfg.FieldLength != 100 || cfg.FieldLengthDist != "constant" || cfg.Ordered ||
		cfg.ZeroPadding != 1 || cfg.MaxScan != 1000 || cfg.InsertCount != 1000 || cfg.HotData != 0.2 || cfg.HotOpn != 0.8 ||
		len(cfg.Percentiles) != 3 || cfg.Percentiles[1] != 95 || cfg.WriteAll || !cfg.ReadAll || cfg.Threads != 0 {
		t.Fatalf("defaults: %+v", cfg)
	}
	cfg, err = parse(t, "run", "fieldcount=3", "fieldnameprefix=f", "insertorder=ordered", "zeropadding=6", "threadcount=4", "target=250",
		"maxexecutiontime=30", "status.interval=2", "hdrhistogram.percentiles=90,99.9", "insertstart=100", "insertcount=500", "writeallfields=true")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.Columns(), ","); got != "F0,F1,F2" || !cfg.Ordered || cfg.ZeroPadding != 6 || cfg.Threads != 4 || cfg.Target != 250 ||
		cfg.MaxExecution.Seconds() != 30 || cfg.StatusInterval.Seconds() != 2 || cfg.Percentiles[1] != 99.9 || cfg.InsertStart != 100 ||
		cfg.InsertCount != 500 || !cfg.WriteAll {
		t.Fatalf("given: %+v, columns %s", cfg, got)
	}
	if ordinal(99.9) != "99.9" || ordinal(95) != "95th" || ordinal(1) != "1st" || ordinal(12) != "12th" || ordinal(50) != "50th" {
		t.Fatalf("ordinals %s %s %s %s", ordinal(99.9), ordinal(95), ordinal(1), ordinal(12))
	}
}

// A property neither YCSB's core nor dbdyno knows is listed once, with where it came from; YCSB's own that mean
// nothing here are said apart.
func TestUnknownPropertiesAreListed(t *testing.T) {
	r, _ := Resolve(Sources{Workload: "a", Set: []string{"mongodb.url=x", "pg.host=h", "status=true"}})
	u, q := unknown(r.Props)
	if len(u) != 2 || u[0] != "mongodb.url (from -p)" || u[1] != "pg.host (from -p)" {
		t.Fatalf("unknown %q", u)
	}
	if len(q) != 1 || !strings.HasPrefix(q[0], "status (") {
		t.Fatalf("quiet %q", q)
	}
}

// The statement files expand for a layout: the table's name, its columns, one statement per field.
func TestStatementFilesExpandForTheLayout(t *testing.T) {
	l := Layout{Table: "kv", Columns: []string{"F0", "F1", "F2"}}
	text := l.expand("-- name: t\nCREATE TABLE {{table}} (K int, {{columns TEXT}});\n-- name: ins(k, {{params}})\nINSERT INTO {{table}} (K, {{columns}}) VALUES (:k, {{values}});\n" +
		"-- name: up_{{n}}(k, v)\nUPDATE {{table}} SET {{column}} = :v;\n-- name: u(k, {{params}})\nUPDATE {{table}} SET {{sets}} WHERE {{any_null}};\n")
	for _, want := range []string{"CREATE TABLE kv (K int, F0 TEXT, F1 TEXT, F2 TEXT);", "-- name: ins(k, f0, f1, f2)", "VALUES (:k, :f0, :f1, :f2)",
		"-- name: up_2(k, v)\nUPDATE kv SET F2 = :v;", "SET F0 = :f0, F1 = :f1, F2 = :f2 WHERE F0 IS NULL OR F1 IS NULL OR F2 IS NULL"} {
		if !strings.Contains(text, want) {
			t.Errorf("expanded files lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "{{") || strings.Count(text, "-- name: up_") != 3 {
		t.Fatalf("templates left:\n%s", text)
	}
}
