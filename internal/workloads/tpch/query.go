package tpch

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// QueryResult is a query's rows as text, normalised so engines compare: dates as YYYY-MM-DD, CHAR padding
// trimmed, decimals exact.
type QueryResult struct {
	Columns []string
	Rows    [][]string
}

// QueryName is "q1".."q22".
func QueryName(q int) string { return fmt.Sprintf("q%d", q) }

// Query runs query q with its parameters, fetches every row, and returns them with the elapsed time
// (monotonic clock, from sending the query to the last row). keep=false discards the rows (timed runs).
func (d *DB) Query(ctx context.Context, conn *sql.Conn, q int, p Params, keep bool) (*QueryResult, time.Duration, error) {
	st, ok := d.queries[QueryName(q)]
	if !ok {
		return nil, 0, fmt.Errorf("no query %d", q)
	}
	if len(p) != len(st.Params) {
		return nil, 0, fmt.Errorf("query %d takes %d parameters, got %d", q, len(st.Params), len(p))
	}
	args := st.Args([]any(p))
	query := st.SQL
	if d.hint != "" {
		query += "\n" + d.hint
	}
	t0 := time.Now()
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, time.Since(t0), err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, time.Since(t0), err
	}
	res := &QueryResult{Columns: cols}
	vals := make([]any, len(cols))
	dest := make([]any, len(cols))
	for i := range vals {
		dest[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, time.Since(t0), err
		}
		if keep {
			row := make([]string, len(cols))
			for i, v := range vals {
				row[i] = text(v)
			}
			res.Rows = append(res.Rows, row)
		} else {
			res.Rows = append(res.Rows, nil)
		}
	}
	err = rows.Err()
	return res, time.Since(t0), err
}

func text(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return strings.TrimRight(string(x), " ")
	case string:
		return strings.TrimRight(x, " ")
	case time.Time:
		return x.Format("2006-01-02")
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case duckdb.Decimal:
		return decimalText(x.Value, int(x.Scale))
	case *big.Int:
		return x.String()
	}
	return fmt.Sprint(v)
}

func decimalText(v *big.Int, scale int) string {
	if v == nil {
		return "NULL"
	}
	s := new(big.Int).Abs(v).String()
	if scale > 0 {
		for len(s) <= scale {
			s = "0" + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if v.Sign() < 0 {
		s = "-" + s
	}
	return s
}

// ReadAnswer reads an expected answer file (header line, then "|"-separated rows).
func ReadAnswer(path string) (*QueryResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	res := &QueryResult{}
	first := true
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "|")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if first {
			res.Columns, first = fields, false
			continue
		}
		res.Rows = append(res.Rows, fields)
	}
	return res, sc.Err()
}

// AnswerFile is where query q's expected answer lives in an answers directory (qNN.csv, or the official
// qN.out / qNN.out).
func AnswerFile(dir string, q int) string {
	for _, name := range []string{fmt.Sprintf("q%02d.csv", q), fmt.Sprintf("q%02d.out", q), fmt.Sprintf("q%d.out", q)} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return filepath.Join(dir, fmt.Sprintf("q%02d.csv", q))
}

// sameValue compares two fields by the reference answers' rule (shared/tpch/answers/README.md): integers
// (keys, counts, years) exactly; other numbers within 0.01 or one millionth of the expected value, whichever is
// larger (the official SF 1 answers round Q17's 348406.0542857 to 348406.02); strings exactly.
func sameValue(got, want string) bool {
	got, want = strings.TrimSpace(got), strings.TrimSpace(want)
	if got == want {
		return true
	}
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	if integer(got) && integer(want) {
		return g == w
	}
	return math.Abs(g-w) <= math.Max(0.01, 1e-6*math.Abs(w))
}

func integer(s string) bool { return !strings.ContainsAny(s, ".eE") }

// Compare reports how got differs from want, or "" when they match: the same number of rows, each field equal
// (numbers within tolerance). Rows are compared in order; rows that tie on the ORDER BY keys may come in
// another order, so a second pass compares them as sorted sets.
func Compare(got, want *QueryResult) string {
	return CompareWith(got, want, func(_ int, g, w string) bool { return sameValue(g, w) })
}

// CompareWith is Compare with a rule for equal fields of column j.
func CompareWith(got, want *QueryResult, same func(j int, got, want string) bool) string {
	if len(got.Rows) != len(want.Rows) {
		return fmt.Sprintf("%d rows, want %d", len(got.Rows), len(want.Rows))
	}
	if len(got.Rows) > 0 && len(got.Rows[0]) != len(want.Rows[0]) {
		return fmt.Sprintf("%d columns, want %d", len(got.Rows[0]), len(want.Rows[0]))
	}
	first := ""
	for i := range got.Rows {
		for j := range got.Rows[i] {
			if !same(j, got.Rows[i][j], want.Rows[i][j]) {
				first = fmt.Sprintf("row %d column %d (%s): got %q, want %q", i+1, j+1, colName(want, j), got.Rows[i][j], want.Rows[i][j])
				break
			}
		}
		if first != "" {
			break
		}
	}
	if first == "" {
		return ""
	}
	g, w := sortedRows(got.Rows), sortedRows(want.Rows)
	for i := range g {
		for j := range g[i] {
			if !same(j, g[i][j], w[i][j]) {
				return first
			}
		}
	}
	return ""
}

func colName(r *QueryResult, j int) string {
	if j < len(r.Columns) {
		return r.Columns[j]
	}
	return fmt.Sprint(j + 1)
}

func sortedRows(rows [][]string) [][]string {
	key := func(r []string) string {
		parts := make([]string, len(r))
		for i, v := range r {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				v = strconv.FormatFloat(math.Round(f*100)/100, 'f', 2, 64)
			}
			parts[i] = v
		}
		return strings.Join(parts, "|")
	}
	out := append([][]string(nil), rows...)
	sort.SliceStable(out, func(a, b int) bool { return key(out[a]) < key(out[b]) })
	return out
}

// specKinds classifies each query's output columns for the specification's comparison rule (clause 2.1.3.5),
// which the TPC's official answers at scale factor 1 are checked by: x exact (keys, counts, values that are
// not aggregated), s a SUM (within 100), a an AVG or a ratio (within 1% once rounded to 1/100).
var specKinds = map[int]string{
	1: "xxssssaaax", 2: "xxxxxxxx", 3: "xsxx", 4: "xx", 5: "xs", 6: "s", 7: "xxxs", 8: "xa", 9: "xxs", 10: "xxsxxxxx",
	11: "xs", 12: "xss", 13: "xx", 14: "a", 15: "xxxxs", 16: "xxxx", 17: "s", 18: "xxxxxs", 19: "s", 20: "xx", 21: "xx",
	22: "xxs",
}

// specRule is clause 2.1.3.5's comparison of query q's column j.
func specRule(q int) func(j int, got, want string) bool {
	kinds := specKinds[q]
	return func(j int, got, want string) bool {
		got, want = strings.TrimSpace(got), strings.TrimSpace(want)
		if got == want {
			return true
		}
		g, err1 := strconv.ParseFloat(got, 64)
		w, err2 := strconv.ParseFloat(want, 64)
		if err1 != nil || err2 != nil || j >= len(kinds) {
			return false
		}
		switch kinds[j] {
		case 's':
			return math.Abs(g-w) <= 100
		case 'a':
			r := math.Round(g*100) / 100
			return r >= 0.99*w-1e-9 && r <= 1.01*w+1e-9 || w < 0 && r <= 0.99*w+1e-9 && r >= 1.01*w-1e-9
		}
		return g == w
	}
}
