package dbgen

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) { testsrv.Main(m) }

type reference struct {
	rows        int64
	sha         string
	first, last string
}

// readReference reads ../shared/tpch/reference/sfX/checksums.tsv (from the steering repository, beside the
// project: never copied into it).
func readReference(t *testing.T, sf string) map[string]reference {
	t.Helper()
	path := filepath.Join(testsrv.Shared(t, "tpch", "reference", "sf"+sf), "checksums.tsv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("reference checksums: %v", err)
	}
	defer f.Close()
	out := map[string]reference{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	sc.Scan() // header
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		n, _ := strconv.ParseInt(p[1], 10, 64)
		out[p[0]] = reference{rows: n, sha: p[2], first: p[3], last: p[4]}
	}
	return out
}

func checkTable(t *testing.T, tb Table, sf float64, ref reference, data []byte) {
	t.Helper()
	sum := sha256.Sum256(data)
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if int64(len(lines)) != ref.rows {
		t.Errorf("%s: %d rows, want %d", tb, len(lines), ref.rows)
	}
	if string(lines[0]) != ref.first {
		t.Errorf("%s first line:\n got %s\nwant %s", tb, lines[0], ref.first)
	}
	if string(lines[len(lines)-1]) != ref.last {
		t.Errorf("%s last line:\n got %s\nwant %s", tb, lines[len(lines)-1], ref.last)
	}
	if hex.EncodeToString(sum[:]) != ref.sha {
		t.Errorf("%s: SHA-256 differs from the reference generator's", tb)
	}
}

func TestIdenticalToReferenceGenerator(t *testing.T) {
	for _, sfs := range []string{"0.01", "0.1"} {
		if sfs == "0.1" && testing.Short() {
			continue
		}
		refs := readReference(t, sfs)
		sf, _ := strconv.ParseFloat(sfs, 64)
		for _, tb := range Tables {
			var out bytes.Buffer
			if err := WriteTable(context.Background(), tb, sf, 0, BaseRows(tb, sf), 2, &out, nil); err != nil {
				t.Fatal(err)
			}
			checkTable(t, tb, sf, refs[tb.String()], out.Bytes())
		}
	}
}

func TestPartsConcatenateToTheWholeTable(t *testing.T) {
	refs := readReference(t, "0.01")
	for _, tb := range []Table{Supplier, PartSupp, Orders, LineItem} {
		for _, n := range []int{3, 7} {
			var all bytes.Buffer
			for k := 1; k <= n; k++ {
				s, c := Split(BaseRows(tb, 0.01), k, n)
				if err := WriteTable(context.Background(), tb, 0.01, s, c, 1, &all, nil); err != nil {
					t.Fatal(err)
				}
			}
			checkTable(t, tb, 0.01, refs[tb.String()], all.Bytes())
		}
	}
}

func TestDistributionSizes(t *testing.T) {
	for name, c := range map[string]struct {
		d    *distribution
		n, w int
	}{
		"colors": {distColors, 92, 92}, "p_types": {distPartTypes, 150, 150}, "p_cntr": {distPartContainers, 40, 40},
		"nouns": {distNouns, 45, 0}, "verbs": {distVerbs, 40, 0}, "adverbs": {distAdverbs, 28, 0},
		"prepositions": {distPrepositions, 47, 0}, "auxiliaries": {distAuxiliaries, 18, 18}, "adjectives": {distAdjectives, 29, 0},
	} {
		if len(c.d.values) != c.n || c.w > 0 && len(c.d.expand) != c.w {
			t.Errorf("%s: %d values (weight %d), want %d", name, len(c.d.values), len(c.d.expand), c.n)
		}
	}
	if DateString(0) != "1992-01-01" || DateString(currentDay) != "1995-06-17" || DateString(totalDays-1) != "1998-12-31" {
		t.Errorf("dates: %s %s %s", DateString(0), DateString(currentDay), DateString(totalDays-1))
	}
}
