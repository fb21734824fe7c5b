package compare

import (
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// ConfigurationLabel is the label a plan's configuration gives each of its runs (its name): a study's
// configurations are told apart by it.
const ConfigurationLabel = "configuration"

// StudyNames names configurations that may each be a whole sweep: Names of their runs as if they swept
// nothing (the sweep's values are the study's rows, not part of a configuration's name).
func StudyNames(confs [][]*result.Result) []string {
	stripped := make([][]*result.Result, len(confs))
	for i, c := range confs {
		for _, r := range c {
			cp := *r
			if r.Group != nil {
				g := *r.Group
				g.Sweep, g.Value = "", 0
				cp.Group = &g
			}
			stripped[i] = append(stripped[i], &cp)
		}
	}
	return Names(stripped)
}

// Name labels a run: its "configuration" label (a plan's configuration), else its "system" label if any, else the engine and its version, with its sweep value, its
// target among several, or "aggregate of N targets".
func Name(r *result.Result) string {
	n := r.Target.Engine
	if n == "" {
		n = r.Workload // a workload without a database
	}
	if s, ok := r.Labels[ConfigurationLabel]; ok {
		n = fmt.Sprint(s)
	} else if s, ok := r.Labels["system"]; ok {
		n = fmt.Sprint(s)
	} else if r.Target.ServerVersion != "" && r.Target.ServerVersion != result.Several {
		n = r.Target.ServerVersion
	}
	if g := r.Group; g != nil {
		if g.Sweep != "" {
			n += fmt.Sprintf(" %s=%g", g.Sweep, g.Value)
		}
		switch {
		case g.Aggregate:
			n += fmt.Sprintf(" aggregate of %d targets", g.Targets)
		case g.Targets > 1:
			n += fmt.Sprintf(" target %d", g.Target)
		}
	}
	return n
}

// Names names configurations (each the runs of one setting) for a comparison, so that no two read alike:
// names that would collide get the labels in which their runs differ, else the target, else the group, else
// the run (or the count of runs); only what tells them apart is added. The same runs named twice are numbered.
func Names(confs [][]*result.Result) []string {
	names := make([]string, len(confs))
	reps := make([]*result.Result, len(confs))
	for i, c := range confs {
		reps[i] = c[0]
		for _, r := range c {
			if r.Group != nil && r.Group.Aggregate { // a multi-target run is named, and compared, by its aggregate
				reps[i] = r
				break
			}
		}
		names[i] = Name(reps[i])
	}
	byRun := func(i int, _ []string) string {
		if len(confs[i]) == 1 {
			return "run " + confs[i][0].RunID
		}
		return fmt.Sprintf("%d runs", len(confs[i]))
	}
	var dupRuns []*result.Result // the runs of the names being told apart
	at := func(tell func(*result.Result, []string) string) func(int, []string) string {
		return func(i int, keys []string) string { return tell(reps[i], keys) }
	}
	for _, tell := range []func(i int, keys []string) string{at(byLabels), at(byTarget), at(byDescribe), at(func(r *result.Result, _ []string) string { return byOptions(dupRuns, r) }), at(byGroup), byRun} {
		for _, dup := range collisions(names) {
			var rs []*result.Result
			for _, i := range dup {
				rs = append(rs, reps[i])
			}
			keys := differingLabels(rs)
			dupRuns = rs
			tags, distinct := make([]string, len(dup)), map[string]bool{}
			for j, i := range dup {
				tags[j] = tell(i, keys)
				distinct[tags[j]] = true
			}
			if len(distinct) < 2 {
				continue // this does not tell them apart
			}
			for j, i := range dup {
				if tags[j] != "" {
					names[i] += " (" + tags[j] + ")"
				}
			}
		}
	}
	for _, dup := range collisions(names) {
		for j, i := range dup {
			names[i] += fmt.Sprintf(" #%d", j+1)
		}
	}
	return names
}

// collisions lists the index sets of equal names.
func collisions(names []string) [][]int {
	at := map[string][]int{}
	var order []string
	for i, n := range names {
		if _, ok := at[n]; !ok {
			order = append(order, n)
		}
		at[n] = append(at[n], i)
	}
	var out [][]int
	for _, n := range order {
		if len(at[n]) > 1 {
			out = append(out, at[n])
		}
	}
	return out
}

func differingLabels(rs []*result.Result) []string {
	keys := map[string]bool{}
	for _, r := range rs {
		for k := range r.Labels {
			keys[k] = true
		}
	}
	var out []string
	for k := range keys {
		first := fmt.Sprint(rs[0].Labels[k])
		for _, r := range rs[1:] {
			if fmt.Sprint(r.Labels[k]) != first {
				out = append(out, k)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

func byLabels(r *result.Result, keys []string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := r.Labels[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	return strings.Join(parts, ", ")
}

// byTarget names the database: the file of an embedded one, host and database of a server.
func byTarget(r *result.Result, _ []string) string {
	u, err := url.Parse(r.Target.URL)
	if err != nil || u.Scheme == "" {
		return r.Target.URL
	}
	if u.Host == "" || u.User == nil && !strings.Contains(u.Host, ":") {
		return filepath.Base(strings.TrimPrefix(r.Target.URL, u.Scheme+"://"))
	}
	return u.Host + u.Path
}

// byDescribe names a run by its workload's words for its settings ("randread 8k Q32T2").
func byDescribe(r *result.Result, _ []string) string {
	if k, ok := result.KindOf(r.Workload); ok && k.Describe != nil {
		return k.Describe(r)
	}
	return ""
}

// byOptions names a run by the options it was given that differ among those of all (vus=16), at most three;
// "" where more differ, which a name would not hold.
func byOptions(all []*result.Result, r *result.Result) string {
	var keys []string
	for k, v := range r.Options {
		for _, o := range all {
			if fmt.Sprint(o.Options[k]) != fmt.Sprint(v) {
				keys = append(keys, k)
				break
			}
		}
	}
	if len(keys) == 0 || len(keys) > 3 {
		return ""
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, r.Options[k])
	}
	return strings.Join(parts, ", ")
}

func byGroup(r *result.Result, _ []string) string {
	if g := r.Group; g != nil {
		return "group " + g.ID
	}
	return ""
}

// CommonStart is the start all names share up to a word's end, and what is left of each (without the brackets
// around it); "" and the names as they are when they share none, or when one would be left empty.
func CommonStart(names []string) (string, []string) {
	if len(names) < 2 {
		return "", names
	}
	p := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, p) {
			p = p[:len(p)-1]
		}
	}
	i := len(p) // p ends a word in every name, or is cut back to the last word it ends
	for _, n := range names {
		if len(n) > i && n[i] != ' ' {
			i = strings.LastIndex(p, " ")
			break
		}
	}
	for i > 0 && strings.Count(p[:i], "(") != strings.Count(p[:i], ")") { // never inside brackets
		i = strings.LastIndex(p[:i], " ")
	}
	if i <= 0 {
		return "", names
	}
	p = strings.TrimSpace(names[0][:i])
	rest := make([]string, len(names))
	for j, n := range names {
		r := strings.TrimSpace(strings.TrimPrefix(n, p))
		if r == "" {
			return "", names
		}
		if strings.HasPrefix(r, "(") && strings.HasSuffix(r, ")") && strings.Count(r, "(") == 1 {
			r = r[1 : len(r)-1]
		}
		rest[j] = r
	}
	return p, rest
}
