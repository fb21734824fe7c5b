package sqlfile

import (
	"strings"
	"testing"
	"testing/fstest"
)

const file = `-- a comment
-- name: pay(w_id, d_id, amount)
UPDATE district SET d_ytd = d_ytd + :amount
WHERE d_w_id = :w_id AND d_id = :d_id AND d_w_id = :w_id::int;
-- name: none()
SELECT 1
`

func TestCompileDollarAndQuestion(t *testing.T) {
	fs := fstest.MapFS{"x.sql": {Data: []byte(file)}}
	pg, err := Load(fs, "x.sql", Dollar)
	if err != nil {
		t.Fatal(err)
	}
	want := "UPDATE district SET d_ytd = d_ytd + $3\nWHERE d_w_id = $1 AND d_id = $2 AND d_w_id = $1::int"
	if got := pg["pay"].SQL; got != want {
		t.Fatalf("dollar form:\n%s\nwant\n%s", got, want)
	}
	if got := pg["pay"].Args([]any{1, 2, 3}); len(got) != 3 || got[0] != 1 {
		t.Fatalf("dollar args reordered: %v", got)
	}
	my, err := Load(fs, "x.sql", Question)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(my["pay"].SQL, "?") != 4 || strings.Contains(my["pay"].SQL, ":w_id") {
		t.Fatalf("question form: %s", my["pay"].SQL)
	}
	got := my["pay"].Args([]any{"w", "d", "a"})
	if strings.Join([]string{got[0].(string), got[1].(string), got[2].(string), got[3].(string)}, "") != "awdw" {
		t.Fatalf("question args %v, want [a w d w]", got)
	}
	ms, err := Load(fs, "x.sql", AtP)
	if err != nil {
		t.Fatal(err)
	}
	want = "UPDATE district SET d_ytd = d_ytd + @p3\nWHERE d_w_id = @p1 AND d_id = @p2 AND d_w_id = @p1::int"
	if got := ms["pay"].SQL; got != want {
		t.Fatalf("@p form:\n%s\nwant\n%s", got, want)
	}
	if got := ms["pay"].Args([]any{1, 2, 3}); len(got) != 3 || got[2] != 3 {
		t.Fatalf("@p args reordered: %v", got)
	}
	if my["none"].SQL != "SELECT 1" || len(my["none"].Params) != 0 {
		t.Fatalf("none: %+v", my["none"])
	}
}

func TestCompileRejectsUndeclaredAndUnused(t *testing.T) {
	for _, bad := range []string{"-- name: a(x)\nSELECT :y\n", "-- name: a(x, y)\nSELECT :x\n", "-- name: a()\nSELECT 1\n-- name: a()\nSELECT 2\n"} {
		if _, err := Load(fstest.MapFS{"b.sql": {Data: []byte(bad)}}, "b.sql", Question); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}

// The dialect's file overrides generic statements by name (in the generic order), removes them with an empty
// body, and adds its own after them; scripts keep their bodies as written.
func TestOverlayOverridesByName(t *testing.T) {
	fsys := fstest.MapFS{
		"sql/generic/s.sql": {Data: []byte("-- name: a\nCREATE TABLE a (x int);\n-- name: b\nCREATE TABLE b (y int);\n" +
			"-- name: c\nCREATE INDEX c ON a (x);\n-- name: q(k)\nSELECT v FROM a WHERE x = :k\n")},
		"sql/pg/s.sql": {Data: []byte("-- name: b\nCREATE TABLE b (y int) WITH (fillfactor = 10);\n-- name: c\n" +
			"-- name: f\nCREATE FUNCTION f() RETURNS int AS $$\nBEGIN\n  RETURN :x;\nEND $$ LANGUAGE plpgsql;\n")},
		"sql/only/o.sql": {Data: []byte("-- name: z()\nSELECT 1\n")},
	}
	f, err := Overlay(fsys, "pg", "s.sql", Dollar)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, st := range f.Statements {
		names = append(names, st.Name+"@"+st.From)
	}
	if got := strings.Join(names, " "); got != "a@sql/generic/s.sql b@sql/pg/s.sql q@sql/generic/s.sql f@sql/pg/s.sql" {
		t.Fatalf("order and sources: %s", got)
	}
	set := f.Set()
	if !strings.Contains(set["b"].SQL, "fillfactor") || !strings.Contains(set["f"].SQL, "RETURN :x;") || set["q"].SQL != "SELECT v FROM a WHERE x = $1" {
		t.Fatalf("bodies: %q %q %q", set["b"].SQL, set["f"].SQL, set["q"].SQL)
	}
	// a dialect without its own file takes the generic one; a file only a dialect has needs no generic one
	if g, err := Overlay(fsys, "other", "s.sql", Question); err != nil || len(g.Statements) != 4 {
		t.Fatalf("generic only: %v", err)
	}
	if o, err := Overlay(fsys, "only", "o.sql", Question); err != nil || len(o.Statements) != 1 {
		t.Fatalf("dialect only: %v", err)
	}
	if _, err := Overlay(fsys, "pg", "missing.sql", Dollar); err == nil {
		t.Fatal("a file neither has must be an error")
	}
	// an override must take the arguments the code passes
	fsys["sql/bad/s.sql"] = &fstest.MapFile{Data: []byte("-- name: q(j)\nSELECT :j\n")}
	if _, err := Overlay(fsys, "bad", "s.sql", Dollar); err == nil || !strings.Contains(err.Error(), "takes (j)") {
		t.Fatalf("override with other arguments: %v", err)
	}
}

type varchar string

func TestRegisterArgConverts(t *testing.T) {
	const ph = Placeholder(99)
	RegisterArg(ph, func(v any) any {
		if s, ok := v.(string); ok {
			return varchar(s)
		}
		return v
	})
	defer delete(converters, ph)
	set, err := Load(fstest.MapFS{"c.sql": {Data: []byte("-- name: c(a, b)\nSELECT :b, :a\n")}}, "c.sql", ph)
	if err != nil {
		t.Fatal(err)
	}
	got := set["c"].Args([]any{"x", 7})
	if len(got) != 2 || got[0] != varchar("x") || got[1] != 7 {
		t.Fatalf("args %#v", got)
	}
	q, _ := Load(fstest.MapFS{"c.sql": {Data: []byte("-- name: c(a)\nSELECT :a\n")}}, "c.sql", Question)
	if got := q["c"].Args([]any{"x"}); got[0] != "x" {
		t.Fatalf("another dialect's arguments converted: %#v", got)
	}
}

// A statement's {{key}} takes a plain identifier when it runs; anything else is refused.
func TestIdentFillsPlainIdentifiersOnly(t *testing.T) {
	st := &Statement{Name: "scan", SQL: "SELECT count(*) FROM {{part}} WHERE id < $1 -- {{part}}"}
	if !st.Templated("part") || st.Templated("meta") {
		t.Fatalf("Templated: part %v, meta %v", st.Templated("part"), st.Templated("meta"))
	}
	got := st.Ident("part", "dbdyno_probe_read_3")
	if got.SQL != "SELECT count(*) FROM dbdyno_probe_read_3 WHERE id < $1 -- dbdyno_probe_read_3" || st.SQL == got.SQL {
		t.Errorf("Ident: %q (the original %q must not change)", got.SQL, st.SQL)
	}
	for _, bad := range []string{"t; DROP TABLE x", "a b", "", "1t", "t\"x"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Ident took %q", bad)
				}
			}()
			st.Ident("part", bad)
		}()
	}
}
