package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Copied is what Copy did.
type Copied struct {
	Copied  []string // run IDs added to the destination
	Present []string // run IDs the destination had already (left as they are)
	Corrupt []string // run IDs whose stored documents are corrupt (not copied)
}

// CorruptError names the stored runs a copy left out because their documents are corrupt: not JSON, not a
// result of the schema, their digest not matching their content (changed after the run wrote them), or another
// run ID than their row's. Every other run named was copied.
type CorruptError struct {
	Store string
	Runs  []string // each "RUN_ID (what is wrong)"
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("%d stored run(s) in %s are corrupt and were not copied (the others were): %s; copy the rest again after removing or restoring them",
		len(e.Runs), e.Store, strings.Join(e.Runs, "; "))
}

// verify says what is wrong with a stored run's document ("" when nothing): it must parse as a result of the
// schema, match its digest, and be of its row's run ID.
func verify(r *row) string {
	doc, err := result.Parse([]byte(r.Document))
	switch {
	case errors.Is(err, result.ErrChanged):
		return "its digest does not match: changed after the run wrote it"
	case err != nil:
		return err.Error()
	case doc.RunID != r.RunID:
		return fmt.Sprintf("its document is run %q's", doc.RunID)
	}
	return ""
}

// Copy adds the runs refs name (run IDs or prefixes, store numbers, group IDs; every run when all is set) to
// dst under the same run IDs, with their documents byte for byte. A run dst already holds is left as it is, so
// copying twice copies nothing the second time. Each run is its own statement: an interrupted copy keeps what
// it copied, and copying again finishes it. Each document is verified first (verify): a corrupt one is not
// copied, the others are, and the copy then fails with a CorruptError naming the corrupt runs.
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
	var corrupt []string
	for _, r := range rows {
		if why := verify(r); why != "" {
			out.Corrupt = append(out.Corrupt, r.RunID)
			corrupt = append(corrupt, fmt.Sprintf("%s (%s)", r.RunID, why))
			continue
		}
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
	if len(corrupt) > 0 {
		return out, &CorruptError{Store: s.where, Runs: corrupt}
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
