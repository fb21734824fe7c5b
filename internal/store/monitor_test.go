package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// A store made before monitor_samples existed (version 1 without it) gains the table when opened, keeping
// its results; samples come back in time order.
func TestMonitorSamplesMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open(engine.SQLiteDriver, "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE TABLE store_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`,
		`INSERT INTO store_meta VALUES ('schema_version', '1')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	for _, i := range []int{2, 0, 1} {
		if err := s.AddSample(ctx, "db1", t0.Add(time.Duration(i)*time.Second), []byte{byte('a' + i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddSample(ctx, "other", t0, []byte("x")); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := s.Samples(ctx, "db1", func(doc []byte) error { got += string(doc); return nil }); err != nil || got != "abc" {
		t.Errorf("samples %q, %v; want abc", got, err)
	}
	recs, err := s.Recordings(ctx)
	if err != nil || len(recs) != 2 || recs[0].Name != "db1" || recs[0].Intervals != 3 || !recs[0].To.Equal(t0.Add(2*time.Second)) {
		t.Errorf("recordings %+v, %v", recs, err)
	}
}
