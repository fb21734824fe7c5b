package script

import (
	"strings"
	"testing"
)

// Bad input is refused before anything runs, in one line naming the file and line.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"\\set a 1\n\\bogus 3\n", "f.sql:2: unknown meta-command \\bogus"},
		{"\\set a 1 +\n", "f.sql:1: \\set: bad expression: unexpected end of expression"},
		{"\\set a random(1,\n", "f.sql:1: \\set: bad expression"},
		{"SELECT 1;\n\\set\n", "f.sql:2: \\set needs a variable"},
		{"\\sleep 10 hours\n", "f.sql:1: \\sleep: unknown unit"},
		{"\\sleep ten\n", "f.sql:1: \\sleep: \"ten\" is not"},
		{"\\if 1\nSELECT 1;\n", "f.sql:1: \\if without \\endif"},
		{"\\else\n", "f.sql:1: \\else without \\if"},
		{"\\endif\n", "f.sql:1: \\endif without \\if"},
		{"\\if 1\n\\else\n\\elif 2\n\\endif\n", "f.sql:3: \\elif after \\else"},
		{"SELECT 1\n\\set a 1\n", "f.sql:1: statement not ended by a semicolon"},
		{"\n\nSELECT 1\n", "f.sql:3: statement not ended by a semicolon at the end of the file"},
		{"\\startpipeline\n", "f.sql:1: \\startpipeline is a pgbench meta-command dbdyno does not run"},
		{"\\shell\n", "f.sql:1: \\shell needs a command"},
		{"\\setshell v\n", "f.sql:1: \\setshell needs a variable and a command"},
		{"\\setshell 9-v echo 1\n", "f.sql:1: \\setshell: \"9-v\" is not a valid variable name"},
		{"\\shell echo :a-b\n", "f.sql:1: \\shell: \":a-b\" is not a variable"},
		{"-- nothing\n", "f.sql:1: the script has no command"},
	} {
		_, err := Parse("f.sql", c.text)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line starting %q", c.text, err, c.want)
		}
	}
}

func TestUndefinedVariable(t *testing.T) {
	s, err := Parse("f.sql", "\\set a 1\n\n-- a comment\nSELECT :a, :b\n  FROM t;\n")
	if err != nil {
		t.Fatal(err)
	}
	err = s.checkVars(nil)
	if err == nil || err.Error() != "f.sql:4: undefined variable :b (set it with \\set b ..., -D b=VALUE or a \\gset)" {
		t.Fatalf("got %v", err)
	}
	if err := s.checkVars(map[string]value{"b": intv(1)}); err != nil {
		t.Fatalf("-D b=1 defines it: %v", err)
	}
	s, _ = Parse("f.sql", "\\set a :nope + 1\nSELECT :client_id, :scale;\n")
	if err := s.checkVars(nil); err == nil || !strings.HasPrefix(err.Error(), "f.sql:1: undefined variable :nope") {
		t.Fatalf("got %v", err)
	}
}

// Statements: split at semicolons outside quotes and comments, over several lines; variables as pgbench finds
// them (:: is a cast); transaction statements recognised; \gset at a query's end.
func TestParseStatements(t *testing.T) {
	s, err := Parse("f.sql", `\set id 5
BEGIN;
SELECT ';:not', "a;b", x::text
  FROM t -- a ; comment
  WHERE id = :id AND y = :id;
/* block ; comment */ UPDATE t SET v = :id;
SELECT 1 AS one \gset p_
END;
`)
	if err != nil {
		t.Fatal(err)
	}
	var sqls []command
	for _, c := range s.cmds {
		if c.kind == opSQL {
			sqls = append(sqls, c)
		}
	}
	if len(sqls) != 5 {
		t.Fatalf("%d statements, want 5: %+v", len(sqls), sqls)
	}
	if sqls[0].tx != txBegin || sqls[4].tx != txCommit {
		t.Errorf("BEGIN and END not recognised: %v %v", sqls[0].tx, sqls[4].tx)
	}
	if q := sqls[1]; len(q.refs) != 2 || q.line != 3 || !q.returns || q.sql[q.refs[0].start:q.refs[0].end] != ":id" {
		t.Errorf("the query: line %d, refs %+v, returns %v", q.line, q.refs, q.returns)
	}
	if u := sqls[2]; len(u.refs) != 1 || u.returns || u.line != 6 {
		t.Errorf("the update: line %d refs %+v", u.line, u.refs)
	}
	if g := sqls[3]; !g.gset || g.prefix != "p_" || g.sql != "SELECT 1 AS one" {
		t.Errorf("the \\gset query: %+v", g)
	}
}

// \shell's and \setshell's words: a :variable is replaced at run time (and must be set), ::word is the literal
// :word, the rest as written; \setshell sets its variable.
func TestParseShell(t *testing.T) {
	s, err := Parse("f.sql", "\\setshell n echo :client_id ::x y\n\\shell true :n\nSELECT :n;\n")
	if err != nil {
		t.Fatal(err)
	}
	c := s.cmds[0]
	want := []shellWord{{text: "echo"}, {variable: "client_id"}, {text: ":x"}, {text: "y"}}
	if c.kind != opShell || c.name != "n" || len(c.words) != len(want) {
		t.Fatalf("\\setshell parsed as %+v", c)
	}
	for i := range want {
		if c.words[i] != want[i] {
			t.Fatalf("word %d: %+v, want %+v", i, c.words[i], want[i])
		}
	}
	if !s.sets["n"] || s.cmds[1].kind != opShell || s.cmds[1].name != "" {
		t.Fatalf("\\setshell does not set its variable, or \\shell is not a shell command: %+v", s.cmds[1])
	}
	if err := s.checkVars(nil); err != nil {
		t.Fatalf("the variable \\setshell sets is undefined: %v", err)
	}
	u, _ := Parse("u.sql", "\\shell echo :nowhere\n")
	if err := u.checkVars(nil); err == nil || !strings.Contains(err.Error(), "u.sql:1: undefined variable :nowhere") {
		t.Fatalf("a \\shell reading an unset variable: %v", err)
	}
}
