package sizing

import (
	"fmt"
	"math"
	"sort"
)

// The mixes' search: on one VM, for one tier, the cheapest counts n_d >= 0 of the tier's priced disks, at most
// the VM's data disk slots in all, whose summed IOPS, MB/s (at the need's request size) and GiB cover what the
// disks must carry. It is exact: a depth-first branch and bound over the disk sizes (dearest first), each
// level choosing how many of one size, the last level's count computed (the fewest that cover what is left).
// A branch is cut when
//   - the slots left cannot cover what is left even with the largest contribution per disk still to come, or
//   - its cost plus a lower bound of what is left costs as much as the best found (or the bound given): the
//     cheapest fractional cover of what is left by the sizes still to come (the linear relaxation, slots
//     aside), computed exactly from its dual's vertices, found once per suffix of the sizes (dualVertices).
// A size is never taken more times than covers every remaining requirement alone: in a cheapest set that is
// minimal (no disk can go), one fewer of a size leaves some requirement uncovered, so n_d - 1 copies carry
// less than it; counts beyond that are never explored.
//
// Its work is bounded (mixBudget branches a search). On a real catalogue it stays far below (38,167 at most
// over TestMixSearchStaysSmall's sweep), but sizes priced exactly in proportion to the requirement that binds
// (a tier priced per GiB, a need of capacity) leave the linear bound no room to cut: every set of them whose
// capacity falls short of the need by less than a disk costs what the bound says, and a need of 777,777 GiB
// over eleven such sizes and 64 slots took 87,679,598 branches (a minute). A search cut short keeps the
// cheapest set found and says how far it may be from the cheapest (its cost less the bound at the root: no
// set costs less than that), or, having found none, that none costs less than the bound.

// mixDim is a disk's contribution (or a need) in IOPS, MB/s and GiB.
type mixDim [3]float64

type mixType struct {
	disk  Disk
	a     mixDim
	price Money
}

type mixSearch struct {
	types []mixType // dearest first
	slots int
	dual  [][]mixDim // dual[i]: the vertices of the linear relaxation's dual for types[i:] (dualVertices)
	sufA  []mixDim   // sufA[i][dim]: max over types[i:] of a[dim]
	// the answer
	bound    Money // only a set costing less than this counts (where hasBound)
	hasBound bool
	best     Money
	counts   []int
	found    bool
	cur      []int
	states   int // the branches explored (nodes of the search), a measure of its work
	budget   int // the branches it may explore
	cut      bool
}

// mixBudget is how many branches one search may explore: about a second at this machine's 0.7 µs a branch.
var mixBudget = 1_000_000

// mixCut says how a search cut short (mixBudget) ended: Floor is what no set can cost less than (the linear
// bound at the root); Found whether it holds a set, whose cost is then at most Gap above the cheapest.
type mixCut struct {
	Floor Money
	Found bool
	Gap   Money
}

// solveMix is the cheapest count of each of types (any number of them, 1 to slots disks in all) covering need,
// costing less than bound (where bound is not nil); ok false where none does. states counts the branches
// explored.
func solveMix(types []mixType, slots int, need mixDim, bound *Money) (counts []int, cost Money, states int, ok bool) {
	counts, cost, states, ok, _ = solveMixCut(types, slots, need, bound)
	return counts, cost, states, ok
}

// solveMixCut is solveMix saying, where the search was cut short (mixBudget), how (nil: it was not).
func solveMixCut(types []mixType, slots int, need mixDim, bound *Money) (counts []int, cost Money, states int, ok bool, cut *mixCut) {
	s := &mixSearch{slots: slots, budget: mixBudget}
	if bound != nil {
		s.bound, s.hasBound = *bound, true
	}
	s.types = append(s.types, types...)
	order := make([]int, len(types))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return types[order[i]].price > types[order[j]].price })
	for i, o := range order {
		s.types[i] = types[o]
	}
	n := len(s.types)
	s.dual = make([][]mixDim, n+1)
	s.sufA = make([]mixDim, n+1)
	for i := n - 1; i >= 0; i-- {
		s.dual[i] = dualVertices(s.types[i:])
		for d, x := range s.types[i].a {
			s.sufA[i][d] = math.Max(s.sufA[i+1][d], x)
		}
	}
	s.cur = make([]int, n)
	if n > 0 {
		s.dfs(0, need, 0, 0)
	}
	if s.cut {
		lb := s.lower(0, need)
		cut = &mixCut{Floor: Money(math.Ceil(lb - 1e-6*math.Max(1, lb))), Found: s.found}
		if s.found {
			cut.Gap = max(s.best-cut.Floor, 0)
		}
	}
	if !s.found {
		return nil, 0, s.states, false, cut
	}
	counts = make([]int, len(types))
	for i, o := range order {
		counts[o] = s.counts[i]
	}
	return counts, s.best, s.states, true, cut
}

func dot(w, a mixDim) float64 {
	x := 0.0
	for k := range w {
		if w[k] != 0 {
			x += w[k] * a[k]
		}
	}
	return x
}

// less is the need left after n copies of a: each requirement less what they carry, at least 0. (The set found
// is judged again by evaluate, with limits' sums.)
func (r mixDim) less(a mixDim, n int) mixDim {
	for k := range r {
		if r[k] > 0 && n > 0 {
			r[k] -= float64(n) * a[k]
			if r[k] < 0 || math.IsNaN(r[k]) {
				r[k] = 0
			}
		}
	}
	return r
}

// copies is the fewest copies of a contribution x that carry r (x > 0, r > 0).
func copies(x, r float64) int {
	if math.IsInf(x, 1) {
		return 1
	}
	c := int(math.Ceil(r / x))
	// float division can round a whole quotient up a step: take the fewest that really carry it
	for c > 0 && float64(c-1)*x >= r {
		c--
	}
	for float64(c)*x < r {
		c++
	}
	return c
}

// fewest is the fewest copies of a that cover r alone (-1: none do).
func fewest(a, r mixDim) int {
	n := 0
	for k := range r {
		if r[k] <= 0 {
			continue
		}
		if a[k] <= 0 {
			return -1
		}
		n = max(n, copies(a[k], r[k]))
	}
	return n
}

// useful is the most copies of a a cheapest minimal set holds where r is left to cover: one fewer must leave a
// requirement it carries uncovered, so n - 1 copies carry less than r there; the largest such n over the
// requirements a carries (0: it carries none left).
func useful(a, r mixDim) int {
	n := 0
	for k := range r {
		if r[k] > 0 && a[k] > 0 {
			n = max(n, copies(a[k], r[k]))
		}
	}
	return n
}

// limit is the cost a set must stay under to count.
func (s *mixSearch) limit() (Money, bool) {
	switch {
	case s.found:
		return s.best, true
	case s.hasBound:
		return s.bound, true
	}
	return 0, false
}

// lower is a lower bound on what covering r with types[i:] costs (Money units, as a float): the linear
// relaxation's optimum, the largest y.r over the vertices y of its dual.
func (s *mixSearch) lower(i int, r mixDim) float64 {
	lb := 0.0
	for _, y := range s.dual[i] {
		lb = math.Max(lb, dot(y, r))
	}
	return lb
}

// dualVertices are the vertices of the polytope {y >= 0 : y.a_t <= price_t for every t}, the dual of covering
// a need with the types (min price.x with sum x_t a_t >= r, x >= 0): by duality, the cheapest fractional cover
// of r costs max over them of y.r. A type carrying a requirement without limit (an unstated MB/s cap) pins
// that y to 0, and so does a requirement no type carries (the search never asks the bound for it: the slots
// check cuts it first). Three requirements: each vertex is where three of the planes meet.
func dualVertices(types []mixType) []mixDim {
	type plane struct {
		n mixDim
		b float64
	}
	var planes []plane
	var carried mixDim
	for k := range carried {
		var e mixDim
		e[k] = -1
		planes = append(planes, plane{e, 0})
	}
	for _, t := range types {
		a := t.a
		for k, x := range a {
			if math.IsInf(x, 1) {
				var e mixDim
				e[k] = 1
				planes = append(planes, plane{e, 0})
				a[k] = 0
			}
			if x > 0 {
				carried[k] = 1
			}
		}
		planes = append(planes, plane{a, float64(t.price)})
	}
	for k, c := range carried {
		if c == 0 {
			var e mixDim
			e[k] = 1
			planes = append(planes, plane{e, 0})
		}
	}
	var out []mixDim
	for i := 0; i < len(planes); i++ {
		for j := i + 1; j < len(planes); j++ {
			for l := j + 1; l < len(planes); l++ {
				p, q, u := planes[i], planes[j], planes[l]
				det := det3(p.n, q.n, u.n)
				scale := norm(p.n) * norm(q.n) * norm(u.n)
				if math.Abs(det) <= 1e-12*scale {
					continue
				}
				var y mixDim
				for k := range y { // Cramer's rule: column k replaced by the right-hand sides
					m := [3]mixDim{p.n, q.n, u.n}
					m[0][k], m[1][k], m[2][k] = p.b, q.b, u.b
					y[k] = det3(m[0], m[1], m[2]) / det
				}
				ok := true
				for _, c := range planes {
					if dot(c.n, y) > c.b+1e-9*(math.Abs(c.b)+norm(c.n)*norm(y)) {
						ok = false
						break
					}
				}
				if ok {
					out = append(out, y)
				}
			}
		}
	}
	return out
}

func det3(a, b, c mixDim) float64 {
	return a[0]*(b[1]*c[2]-b[2]*c[1]) - a[1]*(b[0]*c[2]-b[2]*c[0]) + a[2]*(b[0]*c[1]-b[1]*c[0])
}

func norm(a mixDim) float64 { return math.Sqrt(dot(a, a)) }

func (s *mixSearch) dfs(i int, r mixDim, used int, cost Money) {
	if s.states >= s.budget {
		s.cut = true
		return
	}
	s.states++
	left := s.slots - used
	for k := range r {
		if r[k] > 0 && (left == 0 || float64(left)*s.sufA[i][k] < r[k]) {
			return // the slots left cannot cover it
		}
	}
	if lim, ok := s.limit(); ok {
		// a completion costs a whole number of units, at least the bound (less a hair for float rounding)
		if lb := s.lower(i, r); cost+Money(math.Ceil(lb-1e-6*math.Max(1, lb))) >= lim {
			return
		}
	}
	t := s.types[i]
	if i == len(s.types)-1 { // the last size: the fewest that cover what is left
		n := fewest(t.a, r)
		if n == 0 && used == 0 {
			n = 1 // nothing left to cover, but a set has a disk: one of the cheapest
		}
		if n < 0 || n > left {
			return
		}
		c := cost + Money(n)*t.price
		if lim, ok := s.limit(); ok && c >= lim {
			return
		}
		s.cur[i] = n
		s.best, s.found = c, true
		s.counts = append(s.counts[:0], s.cur...)
		s.cur[i] = 0
		return
	}
	hi := min(useful(t.a, r), left)
	for n := hi; n >= 0; n-- {
		c := cost + Money(n)*t.price
		if lim, ok := s.limit(); ok && c >= lim {
			continue
		}
		s.cur[i] = n
		s.dfs(i+1, r.less(t.a, n), used+n, c)
		s.cur[i] = 0
	}
}

// cheapestMix is the cheapest mix of two or more priced disk sizes of one tier on v that meets the need and
// costs less than than (the VM's cheapest identical set; nil: none meets), or nil. It is exact over every
// count of every size (solveMix); states counts the branches its searches explored.
//
// A search cut short (mixBudget) is said in notes, one line each: how far the mix it found may be from the
// cheapest (the candidate's Gap), or that it found none cheaper than than and what none costs less than.
func cheapestMix(v VM, disks []Disk, need Need, than *Candidate) (best *Candidate, states int, notes []string) {
	if v.MaxDisks < 2 || !v.Priced {
		return nil, 0, nil
	}
	var tiers []string // the tiers of the priced disks v attaches, in the catalogue's order
	for _, d := range disks {
		if d.Priced && v.Attaches(d) && !contains(tiers, d.Tier) {
			tiers = append(tiers, d.Tier)
		}
	}
	for _, tier := range tiers {
		var types []mixType
		for _, d := range disks {
			if !d.Priced || d.Tier != tier || !v.Attaches(d) {
				continue
			}
			iops, mbps := AtIOSize(d.IOPS, d.MBps, need.IOSizeKB)
			if d.MBps == 0 { // a disk whose MB/s cap is not stated is no MB/s limit (as limits counts it)
				mbps = math.Inf(1)
			}
			types = append(types, mixType{disk: d, a: mixDim{iops, mbps, d.SizeGiB}, price: d.Price})
		}
		if len(types) < 2 {
			continue
		}
		for _, cached := range []bool{false, true} {
			if cached && !caches(v, need) {
				continue
			}
			r, ok := disksNeed(v, need, cached)
			if !ok {
				continue
			}
			var bound *Money // the disks must cost less than this for the set to beat the best so far
			for _, b := range []*Candidate{than, best} {
				if b != nil && (bound == nil || b.Cost-v.Price < *bound) {
					x := b.Cost - v.Price
					bound = &x
				}
			}
			counts, _, n, ok, cut := solveMixCut(types, v.MaxDisks, r, bound)
			states += n
			where := fmt.Sprintf("mixes of %s disks on %s", tier, v.Name)
			if cached {
				where += " (cached)"
			}
			if cut != nil && !ok {
				notes = append(notes, fmt.Sprintf("%s: the search stopped after %s branches without a mix cheaper than the VM's identical disks; none costs less than %s a month (VM %s + disks %s)",
					where, group(int64(n)), v.Price+cut.Floor, v.Price, cut.Floor))
			}
			if !ok {
				continue
			}
			var parts []Part
			for i, c := range counts {
				if c > 0 {
					parts = append(parts, Part{types[i].disk, c})
				}
			}
			if len(parts) < 2 { // one size: an identical set, listed as such (never cheaper than than)
				continue
			}
			byLargest(parts)
			if cand, ok := evaluate(v, parts, need, cached); ok && (best == nil || cand.Cost < best.Cost) {
				if cut != nil {
					cand.Unproven, cand.Gap = true, cut.Gap
					notes = append(notes, fmt.Sprintf("%s: the search stopped after %s branches; the mix it found, %s a month, costs at most %s more than the cheapest possible (no set of them costs less than %s)",
						where, group(int64(n)), cand.Cost, cut.Gap, v.Price+cut.Floor))
				}
				best = &cand
			}
		}
	}
	return best, states, notes
}

// disksNeed is what v's disks must carry of the need (IOPS, MB/s, GiB), the cached reads served by its host
// cache where cached; ok false where the VM's own caps (uncached, or its cache's) cannot carry it whatever
// its disks.
func disksNeed(v VM, need Need, cached bool) (mixDim, bool) {
	needIOPS, needMBps := need.IOPS, need.MBps
	if cached {
		f := need.ReadPct / 100 * need.CacheHit
		cacheIOPS, cacheMBps := AtIOSize(v.CacheIOPS, v.CacheMBps, need.IOSizeKB)
		if v.CacheMBps == 0 {
			cacheMBps = math.Inf(1)
		}
		if cacheIOPS < need.IOPS*f || cacheMBps < need.MBps*f {
			return mixDim{}, false
		}
		needIOPS, needMBps = need.IOPS-need.IOPS*f, need.MBps-need.MBps*f
	}
	// the VM's caps apply to the set whatever its disks (limits): they must carry the need themselves
	capIOPS, _, capMBps, _ := limits(v, []Part{{Disk{IOPS: math.Inf(1)}, 1}}, need.IOSizeKB)
	if capIOPS < needIOPS || capMBps < needMBps {
		return mixDim{}, false
	}
	return mixDim{needIOPS, needMBps, need.GiB}, true
}
