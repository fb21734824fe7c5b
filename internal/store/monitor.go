package store

import (
	"context"
	"fmt"
	"time"
)

// AddSample records one interval of a monitor recording in its own transaction: a crash loses at most the
// interval being written. An interval already recorded at the same moment is kept as it is.
func (s *Store) AddSample(ctx context.Context, name string, at time.Time, doc []byte) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	if _, err := s.exec(ctx, s.db, "add_sample", name, at.UnixNano(), string(doc)); err != nil {
		return fmt.Errorf("recording %s's interval in the results store: %w", name, s.scrub(err))
	}
	return nil
}

// Samples calls fn with each interval of a recording, oldest first, without holding them all.
func (s *Store) Samples(ctx context.Context, name string, fn func(doc []byte) error) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.query(ctx, s.db, "samples", name)
	if err != nil {
		return s.scrub(err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return s.scrub(err)
		}
		if err := fn(doc); err != nil {
			return err
		}
	}
	return s.scrub(rows.Err())
}

// Recording is one monitor recording's extent.
type Recording struct {
	Name      string
	Intervals int
	From, To  time.Time
}

// Recordings lists the monitor recordings.
func (s *Store) Recordings(ctx context.Context) ([]Recording, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.query(ctx, s.db, "recordings")
	if err != nil {
		return nil, s.scrub(err)
	}
	defer rows.Close()
	var out []Recording
	for rows.Next() {
		var r Recording
		var from, to int64
		if err := rows.Scan(&r.Name, &r.Intervals, &from, &to); err != nil {
			return nil, s.scrub(err)
		}
		r.From, r.To = time.Unix(0, from), time.Unix(0, to)
		out = append(out, r)
	}
	return out, s.scrub(rows.Err())
}
