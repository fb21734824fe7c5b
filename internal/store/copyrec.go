package store

import (
	"context"
	"fmt"
	"slices"
)

// RecordingsCopied is what CopyRecordings did.
type RecordingsCopied struct {
	Recordings []string // the recordings copied (whole or in part)
	Intervals  int      // intervals added to the destination
	Present    int      // intervals the destination had already at the same moment (left as they are)
}

// CopyRecordings copies the monitor recordings names names (every one when all) to dst: each interval under
// the same name and moment, its document byte for byte. An interval dst already holds at that moment is left
// as it is, so copying twice copies nothing the second time and a recording that went on is completed. The
// intervals go in pages, each page one transaction: an interrupted copy keeps whole pages, and copying again
// finishes it.
func (s *Store) CopyRecordings(ctx context.Context, dst *Store, names []string, all bool) (RecordingsCopied, error) {
	var out RecordingsCopied
	if all == (len(names) > 0) {
		return out, fmt.Errorf("name the monitor recordings to copy (--recording NAME) or give --recordings, not both")
	}
	recs, err := s.Recordings(ctx)
	if err != nil {
		return out, err
	}
	if all {
		names = nil
		for _, r := range recs {
			names = append(names, r.Name)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(recs, func(r Recording) bool { return r.Name == n }) {
			return out, fmt.Errorf("no monitor recording %q in %s: `dbdyno monitor list --store ...` lists them", n, s.where)
		}
	}
	for _, n := range names {
		after := int64(-1 << 63)
		for {
			page, err := s.samplePage(ctx, n, after)
			if err != nil {
				return out, err
			}
			if len(page) == 0 {
				break
			}
			added, err := dst.putSamples(ctx, n, page)
			if err != nil {
				return out, err
			}
			out.Intervals += added
			out.Present += len(page) - added
			after = page[len(page)-1].at
		}
		out.Recordings = append(out.Recordings, n)
	}
	return out, nil
}

type sample struct {
	at  int64
	doc []byte
}

// samplePage reads a page of a recording's intervals after the moment after (ns), oldest first.
func (s *Store) samplePage(ctx context.Context, name string, after int64) ([]sample, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.query(ctx, s.db, "sample_page", name, after)
	if err != nil {
		return nil, fmt.Errorf("reading recording %s from %s: %w", name, s.where, s.scrub(err))
	}
	defer rows.Close()
	var out []sample
	for rows.Next() {
		var x sample
		if err := rows.Scan(&x.at, &x.doc); err != nil {
			return nil, s.scrub(err)
		}
		out = append(out, x)
	}
	return out, s.scrub(rows.Err())
}

// putSamples adds a page of a recording's intervals in one transaction, leaving those of a moment already
// there; it says how many it added.
func (s *Store) putSamples(ctx context.Context, name string, page []sample) (int, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("copying recording %s into %s: %w", name, s.where, s.scrub(err))
	}
	defer tx.Rollback()
	added := 0
	for _, x := range page {
		res, err := s.exec(ctx, tx, "add_sample", name, x.at, string(x.doc))
		if err != nil {
			return 0, fmt.Errorf("copying recording %s into %s: %w", name, s.where, s.scrub(err))
		}
		if n, err := res.RowsAffected(); err == nil && n == 1 {
			added++
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("copying recording %s into %s: %w", name, s.where, s.scrub(err))
	}
	return added, nil
}
