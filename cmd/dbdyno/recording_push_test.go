package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A monitor recording, where dbdyno monitor writes it (a SQLite results store), pushed to a postgres:// store
// and pulled back into another SQLite store is the same recording: the same intervals at the same moments, each
// document byte for byte. Pushing again copies nothing; a recording that went on is completed by the next
// push; a recording that is not there is refused naming it.
func TestRecordingPushPullByteIdentical(t *testing.T) {
	if _, err := os.Stat("/proc/diskstats"); err != nil {
		t.Skip("no /proc/diskstats:", err)
	}
	pg := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_rec_store")
	testsrv.Exec(t, pg, "DROP SCHEMA IF EXISTS public CASCADE", "CREATE SCHEMA public")
	ctx := context.Background()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	must := func(want string, args ...string) string {
		t.Helper()
		r := cli(ctx, args...)
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Fatalf("dbdyno %s: %d %q %q, want %q", strings.Join(args, " "), r.code, r.stdout, r.stderr, want)
		}
		return r.stdout
	}
	must("3 intervals recorded", "monitor", "--name", "app", "--interval", "200ms", "--duration", "600ms", "--store", a)
	must("copied 1 monitor recording(s), 3 interval(s)", "results", "push", "--store", a, "--to", pg, "--recording", "app")
	must("0 interval(s), from", "results", "push", "--store", a, "--to", pg, "--recording", "app")
	must("2 intervals recorded", "monitor", "--name", "app", "--interval", "200ms", "--duration", "400ms", "--store", a)
	must("copied 1 monitor recording(s), 2 interval(s)", "results", "push", "--store", a, "--to", pg, "--recordings")
	must("copied 1 monitor recording(s), 5 interval(s)", "results", "pull", "--store", b, "--from", pg, "--recording", "app")
	if r := cli(ctx, "results", "pull", "--store", b, "--from", pg, "--recording", "db"); r.code == 0 || !strings.Contains(r.stderr, `no monitor recording "db"`) {
		t.Fatalf("a recording not there: %d %q", r.code, r.stderr)
	}

	read := func(path string) ([][]byte, store.Recording) {
		t.Helper()
		s, err := store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var docs [][]byte
		if err := s.Samples(ctx, "app", func(doc []byte) error { docs = append(docs, bytes.Clone(doc)); return nil }); err != nil {
			t.Fatal(err)
		}
		recs, err := s.Recordings(ctx)
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s holds recordings %v (%v)", path, recs, err)
		}
		return docs, recs[0]
	}
	da, ra := read(a)
	dp, rp := read(pg)
	db, rb := read(b)
	if len(da) != 5 || ra != rp || ra != rb {
		t.Fatalf("recordings: %d intervals; %+v, on PostgreSQL %+v, pulled back %+v", len(da), ra, rp, rb)
	}
	for i := range da {
		if !bytes.Equal(da[i], dp[i]) || !bytes.Equal(da[i], db[i]) {
			t.Fatalf("interval %d differs:\n%s\n%s\n%s", i, da[i], dp[i], db[i])
		}
	}
}
