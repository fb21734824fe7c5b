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

func TestScriptSplitsBodies(t *testing.T) {
	src := "-- c\nCREATE TABLE a (x int);\nCREATE FUNCTION f() RETURNS int AS $$\nBEGIN\n  RETURN 1;\nEND $$ LANGUAGE plpgsql;\n" +
		"DROP PROCEDURE IF EXISTS p;\nCREATE PROCEDURE p()\nBEGIN\n  SELECT 1;\n  SELECT 2;\nEND\n//\nCREATE INDEX i ON a (x);\n"
	got, err := Script(fstest.MapFS{"s.sql": {Data: []byte(src)}}, "s.sql")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("%d statements: %q", len(got), got)
	}
	if !strings.HasSuffix(got[1], "LANGUAGE plpgsql") || !strings.HasSuffix(got[3], "END") || got[4] != "CREATE INDEX i ON a (x)" {
		t.Fatalf("split wrong: %q", got)
	}
}
