package tpch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/outfile"
)

var sfDirRe = regexp.MustCompile(`^sf([0-9.]+)$`)

// Validation is one query's outcome.
type Validation struct {
	Query   int
	Passed  bool
	Detail  string
	Seconds float64
}

// Validate runs the 22 queries with the validation parameters and compares each answer with the file in
// answersDir, or, when against is set, with the same query's answer from that other target.
func (d *DB) Validate(ctx context.Context, answersDir string, against *DB, out io.Writer) ([]Validation, error) {
	return d.validate(ctx, answersDir, against, false, out)
}

// ValidateShapes checks the answers' shapes against the answers of another scale in answersDir: the scales
// without reference answers (SF 10 and up) can check no values, but each query's columns (count and names) and,
// where the specification fixes it whatever the scale, its row count.
func (d *DB) ValidateShapes(ctx context.Context, answersDir string, out io.Writer) ([]Validation, error) {
	return d.validate(ctx, answersDir, nil, true, out)
}

// scaleFreeRows are the queries whose answers have the same number of rows at every scale factor from 1 up
// (groups over fixed domains, or a LIMIT the data always fills).
var scaleFreeRows = map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true, 10: true,
	12: true, 14: true, 17: true, 19: true, 21: true, 22: true}

// compareShape says how got's shape differs from want's ("" when it does not).
func compareShape(q int, sf float64, got, want *QueryResult) string {
	if len(got.Columns) != len(want.Columns) {
		return fmt.Sprintf("%d columns, want %d", len(got.Columns), len(want.Columns))
	}
	for j := range got.Columns {
		if !sameColumn(got.Columns[j], want.Columns[j]) {
			return fmt.Sprintf("column %d is %q, want %q", j+1, got.Columns[j], want.Columns[j])
		}
	}
	if sf >= 1 && scaleFreeRows[q] && len(got.Rows) != len(want.Rows) {
		return fmt.Sprintf("%d rows, want %d at every scale factor", len(got.Rows), len(want.Rows))
	}
	if sf >= 1 && len(got.Rows) == 0 && len(want.Rows) > 0 {
		return "no rows" // every query answers with rows from scale factor 1 up (Q11's threshold empties it below)
	}
	return ""
}

var genericColumn = regexp.MustCompile(`^col[0-9]+$`)

// sameColumn compares a column name with an answer file's, whose names the official answers cut to the column's
// width ("o_orderdat") or leave generic ("col6").
func sameColumn(got, want string) bool {
	got, want = strings.ToLower(strings.TrimSpace(got)), strings.ToLower(strings.TrimSpace(want))
	return got == want || genericColumn.MatchString(want) || want != "" && strings.HasPrefix(got, want)
}

func (d *DB) validate(ctx context.Context, answersDir string, against *DB, shapes bool, out io.Writer) ([]Validation, error) {
	if against != nil && sameDatabase(d.T, against.T) {
		return nil, fmt.Errorf("--against %s is the --target database itself: its answers would agree with themselves whatever they are; give a second database built at the same scale, or --answers DIR", against.T)
	}
	sf, err := d.Scale(ctx)
	if err != nil {
		return nil, err
	}
	for _, db := range []*DB{d, against} {
		if db == nil {
			continue
		}
		if s, err := db.appliedSets(ctx); err != nil {
			return nil, err
		} else if s.lo != 0 {
			return nil, fmt.Errorf("%s: %w (%s, by a run with --no-restore or an interrupted one), and the expected answers are the loaded data's: run `dbdyno tpch restore` on it first", db.T, ErrRefreshed, s)
		}
	}
	if against != nil {
		sf2, err := against.Scale(ctx)
		if err != nil {
			return nil, fmt.Errorf("--against: %w", err)
		}
		if sf2 != sf {
			return nil, fmt.Errorf("--against target is built at scale %g, this one at %g: cross-checks need the same scale", sf2, sf)
		}
	} else {
		if answersDir == "" {
			return nil, errors.New("validate needs --answers DIR (expected answers for the scale built) or --against URL (a second target)")
		}
		if m := sfDirRe.FindStringSubmatch(filepath.Base(filepath.Clean(answersDir))); m != nil && !shapes {
			if want, _ := strconv.ParseFloat(m[1], 64); want != sf {
				return nil, fmt.Errorf("--answers %s holds answers for scale factor %s, but the target was built at %g: use the answers of scale %g or rebuild", answersDir, m[1], sf, sf)
			}
		}
		if _, err := os.Stat(AnswerFile(answersDir, 1)); err != nil {
			if shapes {
				return nil, fmt.Errorf("no answers in %s (looked for %s): point --answers at the answers of any scale (their shapes are compared)", answersDir, AnswerFile(answersDir, 1))
			}
			return nil, fmt.Errorf("no expected answers in %s (looked for %s): point --answers at the answers for scale %g", answersDir, AnswerFile(answersDir, 1), sf)
		}
	}
	conn, err := d.data.SQL.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var out2 []Validation
	for q := 1; q <= 22; q++ {
		p := ValidationParams(q, sf)
		got, el, err := d.Query(ctx, conn, q, p, true)
		v := Validation{Query: q, Seconds: el.Seconds()}
		switch {
		case err != nil:
			v.Detail = "error: " + err.Error()
		default:
			var want *QueryResult
			if against != nil {
				c2, err2 := against.data.SQL.Conn(ctx)
				if err2 != nil {
					return nil, err2
				}
				want, _, err = against.Query(ctx, c2, q, p, true)
				c2.Close()
				if err != nil {
					v.Detail = "error on --against target: " + err.Error()
					break
				}
			} else if want, err = ReadAnswer(AnswerFile(answersDir, q)); err != nil {
				return nil, err
			}
			if shapes {
				v.Detail = compareShape(q, sf, got, want)
			} else if against == nil && official(AnswerFile(answersDir, q), sf) {
				v.Detail = CompareWith(got, want, specRule(q))
			} else {
				v.Detail = Compare(got, want)
			}
			v.Passed = v.Detail == ""
		}
		state := "PASS"
		if !v.Passed {
			state = "FAIL"
		}
		fmt.Fprintf(out, "Q%-2d %s %8.3fs  %s\n", q, state, v.Seconds, v.Detail)
		out2 = append(out2, v)
		if ctx.Err() != nil {
			return out2, ctx.Err()
		}
	}
	return out2, nil
}

// official reports whether an answer file is one of the TPC's official answers (qN.out at scale factor 1),
// checked by the specification's rule rather than the reference answers' tighter one.
func official(path string, sf float64) bool { return sf == 1 && strings.HasSuffix(path, ".out") }

// sameDatabase says whether two targets are one database: one file (whatever path or link names it), or one
// server (its host's name folded, the loopback names one) and one database on it.
func sameDatabase(a, b *engine.Target) bool {
	if a.Engine.Embedded || b.Engine.Embedded {
		return a.Engine.Embedded && b.Engine.Embedded && outfile.SameFile(a.Path, b.Path)
	}
	host := func(t *engine.Target) string {
		h := strings.ToLower(strings.Trim(t.Host, "[]"))
		if h == "localhost" || h == "::1" || strings.HasPrefix(h, "127.") {
			return "loopback"
		}
		return h
	}
	return a.Engine == b.Engine && host(a) == host(b) && a.Port == b.Port && a.Database == b.Database &&
		strings.EqualFold(a.Instance, b.Instance)
}
