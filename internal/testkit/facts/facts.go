// Package facts reads the seed studies' tables from the shared folder (../shared/studies/FACTS.md) for the
// tests of the study examples and of the study tables: they are checked against the studies' own figures,
// read where they are kept, never copied into the project.
package facts

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// Table is one Markdown table of FACTS.md: its header and its rows of cells, an empty cell filled from the
// row above (the studies' tables leave a repeated group cell empty).
type Table struct {
	Head []string
	Rows [][]string
}

// Read is the tables under the FACTS.md heading that starts with heading, in order.
func Read(t testing.TB, heading string) []Table {
	t.Helper()
	b, err := os.ReadFile(testsrv.Shared(t, "studies", "FACTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Table
	in := false
	var cur *Table
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(strings.TrimPrefix(line, "## "), heading)
			cur = nil
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			cur = nil
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case cur == nil:
			out = append(out, Table{Head: cells})
			cur = &out[len(out)-1]
		case strings.HasPrefix(cells[0], "---"):
		default:
			if n := len(cur.Rows); n > 0 {
				for i, c := range cells {
					if c == "" && i < len(cur.Rows[n-1]) {
						cells[i] = cur.Rows[n-1][i]
					}
				}
			}
			cur.Rows = append(cur.Rows, cells)
		}
	}
	if len(out) == 0 {
		t.Fatalf("FACTS.md has no table under a heading starting %q", heading)
	}
	return out
}

// Number reads a cell's figure: "1,638.40", "$1,570.58", "32.14%", "381.311 [93,093.6]" (the first figure).
func Number(t testing.TB, cell string) float64 {
	t.Helper()
	s := strings.TrimSpace(cell)
	if i := strings.IndexAny(s, " ["); i > 0 {
		s = s[:i]
	}
	s = strings.NewReplacer(",", "", "$", "", "%", "").Replace(s)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("FACTS.md: %q is not a figure", cell)
	}
	return v
}
