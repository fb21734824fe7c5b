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
		if m := sfDirRe.FindStringSubmatch(filepath.Base(filepath.Clean(answersDir))); m != nil {
			if want, _ := strconv.ParseFloat(m[1], 64); want != sf {
				return nil, fmt.Errorf("--answers %s holds answers for scale factor %s, but the target was built at %g: use the answers of scale %g or rebuild", answersDir, m[1], sf, sf)
			}
		}
		if _, err := os.Stat(AnswerFile(answersDir, 1)); err != nil {
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
			if against == nil && official(AnswerFile(answersDir, q), sf) {
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
