package engine

import (
	"strings"
	"testing"
)

// Credentials are masked where they stand (a URL's password, a credential parameter's value, a known password
// as a whole token, raw or URL-escaped), and their text inside other words is left alone: a password "bench"
// does not turn "pgbench" into "pgxxxxx".
func TestRedactTextMasksCredentialsWhereTheyStand(t *testing.T) {
	for _, c := range []struct {
		secrets []string
		in      string
		want    string
	}{
		// the password's letters inside other words stay; the password itself goes
		{[]string{"bench"}, "pgbench run -c 4 postgres://u:bench@h/db", "pgbench run -c 4 postgres://u:xxxxx@h/db"},
		{[]string{"bench"}, "pgbench benchmarks bench_1 rebench", "pgbench benchmarks bench_1 rebench"},
		{[]string{"bench"}, `pq: password "bench" rejected for user bench.`, `pq: password "xxxxx" rejected for user xxxxx.`},
		{[]string{"bench"}, "bench", "xxxxx"},
		{[]string{"bench"}, "bench: no\nsee bench", "xxxxx: no\nsee xxxxx"},
		// special characters, raw and URL-escaped (any case of the hex digits)
		{[]string{"p@ss/w#rd"}, "error near p@ss/w#rd here", "error near xxxxx here"},
		{[]string{"p@ss/w#rd"}, "postgres://u:p%40ss%2Fw%23rd@h/db", "postgres://u:xxxxx@h/db"},
		{[]string{"p@ss/w#rd"}, "got p%40ss%2Fw%23rd and p%40ss%2fw%23rd", "got xxxxx and xxxxx"},
		{[]string{"p@ss/w#rd"}, "postgres://u:p@ss/w#rd@h/db", "postgres://u:xxxxx@h/db"},
		{[]string{"a:b%c?d e"}, "login a:b%c?d e failed; escaped a%3Ab%25c%3Fd+e, a:b%25c%3Fd%20e", "login xxxxx failed; escaped xxxxx, xxxxx"},
		{[]string{"#secret!"}, "id=#secret!", "id=xxxxx"},
		// no known password: URLs' user info and credential parameters
		{nil, "cold start: echo postgres://u:S3cretPW@127.0.0.1:1/x", "cold start: echo postgres://u:xxxxx@127.0.0.1:1/x"},
		{nil, "a postgres://u:S3cretPW@h/d, b mysql://v:Other9@h/e.", "a postgres://u:xxxxx@h/d, b mysql://v:xxxxx@h/e."},
		{nil, "host=h user=u password=S3cret dbname=d", "host=h user=u password=xxxxx dbname=d"},
		{nil, "sqlserver://u@h?database=d&password=S3cret&encrypt=true", "sqlserver://u@h?database=d&password=xxxxx&encrypt=true"},
		{nil, "Server=h;User Id=u;Password=S3cret;Database=d", "Server=h;User Id=u;Password=xxxxx;Database=d"},
		{nil, "PGPASSWORD=S3cret psql -h h; MYSQL_PWD='S 3' mysql; --password=\"S3 x\" ok", "PGPASSWORD=xxxxx psql -h h; MYSQL_PWD='xxxxx' mysql; --password=\"xxxxx\" ok"},
		// nothing to mask
		{nil, "postgres://u@h:5432/d?sslmode=require", "postgres://u@h:5432/d?sslmode=require"},
		{nil, "sqlite://dbdyno.db, see https://example.com/a and a@b.c", "sqlite://dbdyno.db, see https://example.com/a and a@b.c"},
		{nil, "password authentication failed for user \"u\"", "password authentication failed for user \"u\""},
		{[]string{"ab"}, "ab", "ab"}, // too short to tell from other text
	} {
		if got := RedactText(c.in, c.secrets...); got != c.want {
			t.Errorf("RedactText(%q, %q)\n got %q\nwant %q", c.in, c.secrets, got, c.want)
		}
	}
}

// A target's Scrub masks its password where it stands, not inside other words.
func TestScrubMasksThePasswordNotWordsHoldingIt(t *testing.T) {
	tg, err := Parse("postgres://u:bench@h:5432/pgbench")
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		`pgbench: password "bench" rejected`:       `pgbench: password "xxxxx" rejected`,
		"dial postgres://u:bench@h:5432/pgbench":   "dial postgres://u:xxxxx@h:5432/pgbench",
		"benchmarks on pgbench":                    "benchmarks on pgbench",
		"connect to u:bench@h failed: bench wrong": "connect to u:xxxxx@h failed: xxxxx wrong",
	} {
		if got := tg.Scrub(in); got != want {
			t.Errorf("Scrub(%q) = %q, want %q", in, got, want)
		}
	}
	sp, err := Parse("postgres://u@h/d?sslpassword=p%40ss%2Fw%23rd")
	if err != nil {
		t.Fatal(err)
	}
	if got := sp.Scrub("key p@ss/w#rd, escaped p%40ss%2Fw%23rd"); got != "key xxxxx, escaped xxxxx" {
		t.Errorf("Scrub of the sslpassword: %q", got)
	}
	var none *Target
	if got := none.Scrub("postgres://u:S3cretPW@h/d"); strings.Contains(got, "S3cretPW") {
		t.Errorf("a nil target's Scrub: %q", got)
	}
}

// A command line's arguments keep no password, a --cold-cmd's text included.
func TestRedactArgsMasksCommandText(t *testing.T) {
	args := RedactArgs([]string{"dbdyno", "--cold-cmd", "PGPASSWORD=S3cret pg_ctl restart; echo postgres://u:Other9@h/d ok",
		"--cold-cmd=echo postgres://u:Third7@h/d && mail a@b", "--target", "postgres://u:pw123@h/d?sslmode=require"})
	joined := strings.Join(args, " ")
	for _, s := range []string{"S3cret", "Other9", "Third7", "pw123"} {
		if strings.Contains(joined, s) {
			t.Fatalf("RedactArgs left %s: %s", s, joined)
		}
	}
	if !strings.Contains(joined, "pg_ctl restart; echo postgres://u:xxxxx@h/d ok") || !strings.Contains(joined, "postgres://u:xxxxx@h/d?sslmode=require") {
		t.Fatalf("RedactArgs: %s", joined)
	}
}

// The arguments' own URLs' passwords, and DBDYNO_PASSWORD's, are masked where another argument names them
// whole (a --cold-cmd echoing the target's password), not inside other words.
func TestRedactArgsMasksTheTargetsPasswordElsewhere(t *testing.T) {
	t.Setenv(PasswordEnv, "bench")
	args := RedactArgs([]string{"dbdyno", "--target", "postgres://u:Zq9secret@h/d", "--target=mysql://v@h/e?tls=preferred",
		"--cold-cmd", "echo password: Zq9secret; pgbench -i", "--label", "bench"})
	want := []string{"dbdyno", "--target", "postgres://u:xxxxx@h/d", "--target=mysql://v@h/e?tls=preferred",
		"--cold-cmd", "echo password: xxxxx; pgbench -i", "--label", "xxxxx"}
	if strings.Join(args, "\n") != strings.Join(want, "\n") {
		t.Fatalf("RedactArgs:\n got %q\nwant %q", args, want)
	}
}
