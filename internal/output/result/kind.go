package result

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/enginenames"
)

// Kind is what the result layer knows of one workload's results: the sections every run of it holds, how its
// metrics are derived from them, how an older document of it is brought up to date, the work a run did, and
// how a sweep over one of its flags is worded. The workload registry fills it when a workload registers
// (workload.Register); results of a workload no Kind names are read, compared and reported by their own parts.
type Kind struct {
	Workload string
	// Sections are the parts every run's result holds, by their JSON keys ("measurement", "analytic"): a result
	// without them is refused when read (an aggregate holds its metrics and parts instead).
	Sections []string
	// Derive computes a result's metrics from its own sections: the workload's runs, and results written before
	// results carried their metrics.
	Derive func(r *Result) []Metric
	// Upgrade, when set, fills what a version-1 result of the workload lacks besides its metrics.
	Upgrade func(r *Result)
	// Work describes the settings of a run that change the work it does (scale, refresh, warehouses, mode):
	// runs whose work differs are not compared.
	Work func(r *Result) string
	// Describe names a run's own settings in a few words ("randread 8k Q32T2"), or is nil.
	Describe func(r *Result) string
	// SweepTitles word a sweep over each of the workload's flags ("N concurrent streams"), by flag name.
	SweepTitles map[string]string
}

var kinds = map[string]*Kind{}

// RegisterKind adds a workload's Kind; the workload registry calls it from the workload's init.
func RegisterKind(k *Kind) {
	if _, dup := kinds[k.Workload]; dup {
		panic("result kind " + k.Workload + " registered twice")
	}
	kinds[k.Workload] = k
}

// KindOf finds the Kind of a workload's results.
func KindOf(workload string) (*Kind, bool) {
	k, ok := kinds[workload]
	return k, ok
}

// Has says whether the result holds the section of that JSON key ("measurement", "analytic").
func (r *Result) Has(section string) bool {
	v := reflect.ValueOf(r).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == section {
			switch f := v.Field(i); f.Kind() {
			case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
				return !f.IsNil()
			default:
				return !f.IsZero()
			}
		}
	}
	return false
}

// upgradeKind brings an older result of a known workload up to date: what its workload records since, then
// its metrics.
func upgradeKind(r *Result) {
	k, ok := KindOf(r.Workload)
	if !ok {
		return
	}
	if k.Upgrade != nil {
		k.Upgrade(r)
	}
	if len(r.Metrics) == 0 && k.Derive != nil {
		r.Metrics = k.Derive(r)
	}
}

// check refuses a result of a known workload that lacks a section its runs always have.
func check(r *Result) error {
	k, ok := KindOf(r.Workload)
	if !ok || r.Group != nil && r.Group.Aggregate || r.Published != nil { // a published figure has only its metric
		return nil
	}
	for _, sec := range k.Sections {
		if !r.Has(sec) {
			return fmt.Errorf("result %s (%s) has no %s section: the document is damaged or not dbdyno's", r.RunID, r.Workload, sec)
		}
	}
	return nil
}

// WorkOf is a run's workload and work, the key under which runs compare.
func WorkOf(r *Result) string {
	if w := work(r); w != "" {
		return r.Workload + ": " + w
	}
	return r.Workload
}

// work is the workload's account of the work a run did ("" when it gives none).
func work(r *Result) string {
	if k, ok := KindOf(r.Workload); ok && k.Work != nil {
		return k.Work(r)
	}
	return ""
}

// Comparable says why runs cannot be compared, or nil: every run must have ended ok, be of one workload, and
// have done the same work (the workload's Work: scale, refresh, warehouses, mode ...).
func Comparable(runs []*Result) error { return ComparableWith(runs, false) }

// ComparableWith is Comparable that, with includeFailed, also takes runs that failed or were aborted (their
// figures are what they did until they ended); the caller says so beside the comparison.
func ComparableWith(runs []*Result, includeFailed bool) error {
	var first *Result
	firstWork := ""
	for _, r := range runs {
		if r.Status != StatusOK && !includeFailed {
			return fmt.Errorf("run %s ended %s (%s): compare only runs that ended ok, or give --include-failed", r.RunID, r.Status, r.Error)
		}
		did := work(r)
		if first == nil {
			first, firstWork = r, did
			continue
		}
		if r.Workload != first.Workload {
			return fmt.Errorf("run %s is %s and run %s is %s: compare runs of one workload", first.RunID, first.Workload, r.RunID, r.Workload)
		}
		if did != firstWork {
			return fmt.Errorf("run %s did other work (%s) than run %s (%s): compare runs of the same work", r.RunID, did, first.RunID, firstWork)
		}
	}
	return nil
}

// Unchanged refuses runs whose start check found their database changed since its build (DatabaseChanges):
// their figures are not those of the data the build made. compare leaves them out unless asked.
func Unchanged(runs []*Result) error {
	for _, r := range runs {
		if len(r.DatabaseChanges) > 0 {
			return fmt.Errorf("run %s started on a database changed since its build (%s): compare it only with --allow-changed",
				r.RunID, strings.Join(r.DatabaseChanges, "; "))
		}
	}
	return nil
}

// SweepTitle words a sweep over a workload's flag ("N concurrent streams", "by vus"), from the flag's metadata.
func SweepTitle(workload, flag string) string {
	if k, ok := KindOf(workload); ok {
		if t, ok := k.SweepTitles[flag]; ok {
			return t
		}
	}
	return "by " + flag
}

// KnownEngine says whether dbdyno drives an engine of this name (its own name, not another scheme of it): the
// engine layer adds each engine's name to internal/lib/enginenames as it registers it (a program without the
// engine layer knows none). A test may set its own.
var KnownEngine = enginenames.Known
