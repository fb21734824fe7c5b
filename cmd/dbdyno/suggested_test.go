package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// words reads a suggested command line the way a shell does: its words, one each.
func words(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `for w in `+line+`; do printf '%s\n' "$w"; done`).Output()
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// The command monitor suggests pastes into a shell as the words it means: a recording named
// "m1';drop table results;--" was suggested unquoted (`monitor checklist m1';drop...`).
func TestMonitorSuggestsAQuotedCommand(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "my store.db")
	name := "m1';drop table results;--"
	r := cli(context.Background(), "monitor", "--name", name, "--interval", "200ms", "--duration", "400ms", "--store", st)
	if r.code != 0 {
		t.Fatalf("monitor: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var line string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "dbdyno monitor checklist") {
			line = strings.TrimSpace(l)
		}
	}
	if line == "" {
		t.Fatalf("no suggested checklist command:\n%s", r.stdout)
	}
	got := words(t, line)
	want := []string{"dbdyno", "monitor", "checklist", name, "--store", st}
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Fatalf("%s reads as %q, want %q", line, got, want)
	}
	if c := cli(context.Background(), append(got[1:], "--growth", "1")...); c.code != 0 {
		t.Fatalf("the suggested command as pasted: exit %d\n%s", c.code, c.stderr)
	}
}
