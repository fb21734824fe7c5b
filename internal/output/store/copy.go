package store

import (
	"context"
	"fmt"
)

// Copied is what Copy did.
type Copied struct {
	Copied  []string // run IDs added to the destination
	Present []string // run IDs the destination had already (left as they are)
}

// Copy adds the runs refs name (run IDs or prefixes, store numbers, group IDs; every run when all is set) to
// dst under the same run IDs, with their documents byte for byte. A run dst already holds is left as it is, so
// copying twice copies nothing the second time. Each run is its own statement: an interrupted copy keeps what
// it copied, and copying again finishes it.
func (s *Store) Copy(ctx context.Context, dst *Store, refs []string, all bool) (Copied, error) {
	var out Copied
	if all == (len(refs) > 0) {
		return out, fmt.Errorf("name the runs to copy (run IDs, group IDs) or give --all, not both")
	}
	var rows []*row
	if all {
		octx, cancel := s.op(ctx)
		rs, err := s.scan(octx, "all_results")
		cancel()
		if err != nil {
			return out, err
		}
		rows = rs
	} else {
		seen := map[string]bool{}
		for _, ref := range refs {
			rs, err := s.rows(ctx, ref)
			if err != nil {
				return out, err
			}
			for _, r := range rs {
				if !seen[r.RunID] {
					seen[r.RunID] = true
					rows = append(rows, r)
				}
			}
		}
	}
	for _, r := range rows {
		added, err := dst.put(ctx, r)
		if err != nil {
			return out, err
		}
		if added {
			out.Copied = append(out.Copied, r.RunID)
		} else {
			out.Present = append(out.Present, r.RunID)
		}
	}
	return out, nil
}

// put adds a stored run unless a run of its ID is there; it says whether it added it.
func (s *Store) put(ctx context.Context, r *row) (bool, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	res, err := s.exec(ctx, s.db, "put_result", r.args()...)
	if err != nil {
		return false, fmt.Errorf("copying run %s into %s: %w", r.RunID, s.where, s.scrub(err))
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
