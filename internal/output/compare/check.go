package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Options are the comparisons compare makes only when asked.
type Options struct {
	// IncludeFailed takes runs that failed or were aborted (their figures are what they did until they ended).
	IncludeFailed bool
	// AllowDifferentWork takes configurations that did different work (the workload's account of it: scale,
	// tests, queries, warehouses, mode ...) or measured different things (their headline metrics differ); only
	// the metrics they share are compared, and the legend says each one's work.
	AllowDifferentWork bool
}

// AllowDifferentWorkFlag is the flag that sets Options.AllowDifferentWork.
const AllowDifferentWorkFlag = "--allow-different-work"

// Check is compare's one rule for every workload: runs must have ended ok (or IncludeFailed), be of one
// workload, and the configurations must have done the same work and measured the same metrics (or
// AllowDifferentWork): the same headline metric (other metrics some lack, as a multi-target run's aggregate
// lacks its targets' latencies, are left out of the comparison and named). What is refused is named in one
// line with the flag that allows it.
func Check(sets [][]*result.Result, o Options) error {
	if err := checkDistinct(sets); err != nil {
		return err
	}
	var first *result.Result
	for _, set := range sets {
		for _, r := range set {
			if r.Status != result.StatusOK && !o.IncludeFailed {
				return fmt.Errorf("run %s ended %s (%s): compare only runs that ended ok, or give --include-failed", r.RunID, r.Status, r.Error)
			}
			if first == nil {
				first = r
				continue
			}
			if r.Workload != first.Workload {
				return fmt.Errorf("run %s is %s and run %s is %s: compare runs of one workload", first.RunID, first.Workload, r.RunID, r.Workload)
			}
		}
	}
	if o.AllowDifferentWork || first == nil {
		return nil
	}
	for _, set := range sets {
		for _, r := range set {
			if r.Published != nil && first.Published == nil || r.Published == nil && first.Published != nil {
				pub := r
				if first.Published != nil {
					pub = first
				}
				return fmt.Errorf("run %s is a published figure (%s), not a run dbdyno measured: rank them with dbdyno leaderboard, or give %s to compare the headline",
					pub.RunID, pub.Published.Source, AllowDifferentWorkFlag)
			}
		}
	}
	if err := checkLoops(sets); err != nil {
		return err
	}
	work := func(r *result.Result) string { return strings.TrimPrefix(result.WorkOf(r), r.Workload+": ") }
	fw := work(first)
	for _, set := range sets {
		for _, r := range set {
			if w := work(r); w != fw {
				return fmt.Errorf("run %s did other work than run %s (%s): compare runs of the same work, or give %s to compare what they share",
					r.RunID, first.RunID, Differs(fw, w), AllowDifferentWorkFlag)
			}
		}
	}
	head := func(set []*result.Result) string {
		for _, r := range set {
			if r.Group != nil && r.Group.Aggregate { // a multi-target configuration compares by its aggregate
				h, _ := r.Headline()
				return h.Name
			}
		}
		h, _ := set[0].Headline()
		return h.Name
	}
	h0 := head(sets[0])
	for _, set := range sets[1:] {
		if h := head(set); h != h0 {
			return fmt.Errorf("runs %s and %s measured different things (headline %s, not %s): compare runs of the same tests, or give %s to compare what they share",
				sets[0][0].RunID, set[0].RunID, orNone(h), orNone(h0), AllowDifferentWorkFlag)
		}
	}
	return nil
}

// checkDistinct refuses a configuration given twice: two configurations of the same runs (by run ID, else by
// digest), such as one result file twice or a file and a copy of it under another name. A run compared with
// itself is "the same" whatever it measured. (Configurations that share some runs, a sweep's group and one of
// its runs, are a study of their own.)
func checkDistinct(sets [][]*result.Result) error {
	seen := map[string]bool{}
	for _, set := range sets {
		var ids []string
		for _, r := range set {
			id := r.RunID
			if id == "" {
				id = r.Digest
			}
			if id == "" {
				ids = nil // a run nothing names: never taken for another
				break
			}
			ids = append(ids, id)
		}
		if len(ids) == 0 {
			continue
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		key := strings.Join(ids, "\x00")
		if seen[key] {
			if len(ids) == 1 {
				return fmt.Errorf("run %s is given twice (the same run, or a copy of its result file): a run compared with itself is always the same; compare two different runs", ids[0])
			}
			return fmt.Errorf("the same %d runs (%s ...) are given twice: runs compared with themselves are always the same; compare two different configurations", len(ids), ids[0])
		}
		seen[key] = true
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Differs words how the account of b's work differs from a's: the comma-separated settings b has that a does
// not, each with a's ("warehouses 2, not warehouses 1"), else both whole.
func Differs(a, b string) string {
	as, bs := strings.Split(a, ", "), strings.Split(b, ", ")
	if len(as) != len(bs) { // a part said only where it is on ("with refresh"): what each has that the other has not
		var onlyA, onlyB []string
		for _, p := range as {
			if !slices.Contains(bs, p) {
				onlyA = append(onlyA, p)
			}
		}
		for _, p := range bs {
			if !slices.Contains(as, p) {
				onlyB = append(onlyB, p)
			}
		}
		switch {
		case len(onlyB) == 0:
			return "not " + strings.Join(onlyA, ", not ")
		case len(onlyA) == 0:
			return "also " + strings.Join(onlyB, ", also ")
		}
		return fmt.Sprintf("%s, not %s", strings.Join(onlyB, " and "), strings.Join(onlyA, " and "))
	}
	var out []string
	for i := range as {
		if as[i] != bs[i] {
			out = append(out, fmt.Sprintf("%s, not %s", bs[i], as[i]))
		}
	}
	return strings.Join(out, "; ")
}
