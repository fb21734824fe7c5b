package tpch_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// gen never overwrites a file it did not write: a user's own lineitem.tbl in --out was replaced. It replaces
// its own files, as it wrote them, on a second gen into the same directory.
func TestGenKeepsTheUsersFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mine := filepath.Join(dir, "lineitem.tbl")
	os.WriteFile(mine, []byte("the user's own\n"), 0o644)
	r := clitest.Run(context.Background(), "tpch", "gen", "--scale", "0.001", "--out", dir)
	if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, "already holds lineitem.tbl, which dbdyno tpch gen did not write") {
		t.Fatalf("gen over the user's lineitem.tbl: exit %d, %q", r.Code, r.Stderr)
	}
	if b, _ := os.ReadFile(mine); string(b) != "the user's own\n" {
		t.Fatalf("the user's file now holds %d bytes", len(b))
	}
	if _, err := os.Stat(filepath.Join(dir, "nation.tbl")); err == nil {
		t.Fatal("the refused gen wrote nation.tbl")
	}

	own := t.TempDir()
	clitest.Must(t, "tpch", "gen", "--scale", "0.001", "--out", own)
	clitest.Must(t, "tpch", "gen", "--scale", "0.001", "--out", own) // its own files, as it wrote them
	orders := filepath.Join(own, "orders.tbl")
	f, _ := os.OpenFile(orders, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("1|2|3|\n")
	f.Close()
	if r := clitest.Run(context.Background(), "tpch", "gen", "--scale", "0.001", "--out", own); r.Code == 0 || !strings.Contains(r.Stderr, "orders.tbl") {
		t.Fatalf("gen over its file changed since: exit %d, %q", r.Code, r.Stderr)
	}
}
