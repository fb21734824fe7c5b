package sizing

import (
	"context"
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
//     cheapest fractional cover of what is left by the sizes still to come in the slots left (the linear
//     relaxation, the slots included), computed exactly from its dual's vertices, found per suffix of the
//     sizes (dualVerticesCtx, prepMix).
// A size is never taken more times than covers every remaining requirement alone: in a cheapest set that is
// minimal (no disk can go), one fewer of a size leaves some requirement uncovered, so n_d - 1 copies carry
// less than it; counts beyond that are never explored.
//
// Its work is bounded (mixBudget branches a search; sizeBudget all of one Size's; maxMixSizes sizes a search,
// selectTypes). On a real catalogue it stays far below (37,803 at most over TestMixSearchStaysSmall's sweep), but sizes priced exactly in proportion to the requirement that binds
// (a tier priced per GiB, a need of capacity) leave the linear bound no room to cut: every set of them whose
// capacity falls short of the need by less than a disk costs what the bound says, and a need of 777,777 GiB
// over eleven such sizes and 64 slots took 87,679,598 branches (a minute, the bound then leaving the slots
// aside). A search cut short keeps the
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
	dual  [][]dualPt // dual[i]: the vertices of the linear relaxation's dual for types[i:] (dualVerticesCtx)
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
	ctx      context.Context // checked every ctxEvery branches: a cancelled search ends at once (aborted)
	aborted  bool
}

// ctxEvery is how often (in branches) a search checks its context.
const ctxEvery = 1024

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
	counts, cost, states, ok, cut, _ = solveMixCtx(context.Background(), types, slots, need, bound, mixBudget)
	return
}

// solveMixCtx is solveMixCut within budget branches, ending with ctx's error (and nothing found) when ctx is
// cancelled.
func solveMixCtx(ctx context.Context, types []mixType, slots int, need mixDim, bound *Money, budget int) (counts []int, cost Money, states int, ok bool, cut *mixCut, err error) {
	prep, err := prepMix(ctx, types, need)
	if err != nil {
		return nil, 0, 0, false, nil, err
	}
	return prep.solve(ctx, slots, need, bound, budget)
}

// mixPrep is what a search over some types for a need (whatever the VM: its slots and bound aside) works
// from: the types dearest first, the vertices of each suffix's dual and each suffix's largest contribution.
type mixPrep struct {
	n     int // the types given
	types []mixType
	order []int      // types[i] is the given types[order[i]]
	dual  [][]dualPt // dual[i]: the vertices of the linear relaxation's dual for types[i:] (dualVerticesCtx)
	sufA  []mixDim   // sufA[i][dim]: max over types[i:] of a[dim]
}

func prepMix(ctx context.Context, types []mixType, need mixDim) (*mixPrep, error) {
	p, _, err := prepMixWork(ctx, types, need)
	return p, err
}

// exactSuffixes is the longest suffix of the types whose dual is always found; above it, only every
// sparseSuffix-th suffix's is, and the others take the next longer one's: a vertex of that dual is one of a
// polyhedron within theirs (more planes), so its bound holds for them, only less tight. The work is that of
// the longest suffixes (as the (d + 1)th power of their types), cut by sparseSuffix.
const (
	exactSuffixes = 12
	sparseSuffix  = 4
)

// prepMixWork is prepMix saying its work: the plane subsets its duals solved.
func prepMixWork(ctx context.Context, types []mixType, need mixDim) (*mixPrep, int, error) {
	p := &mixPrep{n: len(types), types: append([]mixType(nil), types...), order: make([]int, len(types))}
	for i := range p.order {
		p.order[i] = i
	}
	sort.SliceStable(p.order, func(i, j int) bool { return types[p.order[i]].price > types[p.order[j]].price })
	for i, o := range p.order {
		p.types[i] = types[o]
	}
	n := len(p.types)
	p.dual = make([][]dualPt, n+1)
	p.sufA = make([]mixDim, n+1)
	work := 0
	for i := n - 1; i >= 0; i-- {
		for d, x := range p.types[i].a {
			p.sufA[i][d] = math.Max(p.sufA[i+1][d], x)
		}
		if n-i > exactSuffixes && i%sparseSuffix != 0 {
			continue
		}
		var err error
		var w int
		p.dual[i], w, err = dualVerticesCtx(ctx, p.types[i:], need, true)
		work += w
		if err != nil {
			return nil, work, err
		}
	}
	for i := 1; i < n; i++ { // a suffix skipped takes the longer one's before it
		if p.dual[i] == nil {
			p.dual[i] = p.dual[i-1]
		}
	}
	return p, work, nil
}

// solve is the search on a VM of slots, for need (the one prepared for, or within it), costing less than
// bound where it is not nil.
func (p *mixPrep) solve(ctx context.Context, slots int, need mixDim, bound *Money, budget int) (counts []int, cost Money, states int, ok bool, cut *mixCut, err error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, 0, false, nil, err
	}
	s := &mixSearch{slots: slots, budget: budget, ctx: ctx, types: p.types, dual: p.dual, sufA: p.sufA}
	if bound != nil {
		s.bound, s.hasBound = *bound, true
	}
	n := len(s.types)
	s.cur = make([]int, n)
	if n > 0 {
		s.dfs(0, need, 0, 0)
	}
	if s.aborted {
		return nil, 0, s.states, false, nil, ctx.Err()
	}
	if s.cut {
		lb := s.lower(0, need, slots)
		cut = &mixCut{Floor: Money(math.Ceil(lb - 1e-6*math.Max(1, lb))), Found: s.found}
		if s.found {
			cut.Gap = max(s.best-cut.Floor, 0)
		}
	}
	if !s.found {
		return nil, 0, s.states, false, cut, nil
	}
	counts = make([]int, p.n)
	for i, o := range p.order {
		counts[o] = s.counts[i]
	}
	return counts, s.best, s.states, true, cut, nil
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

// lower is a lower bound on what covering r with types[i:] in at most left disks costs (Money units, as a
// float): the linear relaxation's optimum, the largest y.r - z.left over the vertices (y, z) of its dual.
func (s *mixSearch) lower(i int, r mixDim, left int) float64 {
	lb := 0.0
	for _, p := range s.dual[i] {
		lb = math.Max(lb, p.bound(r, left))
	}
	return lb
}

// dualPt is a vertex of the linear relaxation's dual: y a price per unit of each requirement, z per slot.
type dualPt struct {
	y mixDim
	z float64
}

// bound is what the vertex says covering r in at most slots disks costs at least.
func (p dualPt) bound(r mixDim, slots int) float64 { return dot(p.y, r) - p.z*float64(slots) }

// dualVerticesCtx is the vertices of the polyhedron {y >= 0, z >= 0 : y.a_t - z <= price_t for every t}, the dual
// of covering a need with the types in at most S disks (min price.x with sum x_t a_t >= r, sum x_t <= S,
// x >= 0): by duality, the cheapest fractional cover of r in S disks costs max over them of y.r - z.S (each a
// lower bound whatever r and S, so one set of vertices serves every node of the search). Without the slots
// (z = 0) the bound is far weaker where the slots bind: 16,000 IOPS in 24 slots cannot be had from the cheapest
// IOPS of a 120-IOPS disk. Only the requirements need states count (every need the search asks the bound
// about is within it, 0 where it is 0), so the others' y is 0; so is that of a requirement a type carries
// without limit (an unstated MB/s cap) and of one no type carries (the search never asks the bound for it: the
// slots check cuts it first). With d requirements left, each vertex is where d + 1 of the planes meet: the work
// grows as the (d + 1)th power of the types, so the search takes at most maxMixSizes of them (selectTypes).
//
// Without the slots' z where slots is false; ending with ctx's error when it is cancelled; work is the plane
// subsets it solved.
func dualVerticesCtx(ctx context.Context, types []mixType, need mixDim, slots bool) (out []dualPt, work int, err error) {
	var dims []int // the requirements whose y may be more than 0
	for k := range need {
		if !(need[k] > 0) {
			continue
		}
		carried, unlimited := false, false
		for _, t := range types {
			unlimited = unlimited || math.IsInf(t.a[k], 1)
			carried = carried || t.a[k] > 0
		}
		if carried && !unlimited {
			dims = append(dims, k)
		}
	}
	d := len(dims)
	if d == 0 {
		return []dualPt{{}}, 0, nil
	}
	nv := d // the variables: y over dims, then z
	if slots {
		nv++
	}
	type plane struct {
		n [4]float64
		b float64
	}
	var planes []plane
	for i := 0; i < nv; i++ {
		var e [4]float64
		e[i] = -1
		planes = append(planes, plane{e, 0})
	}
	for _, t := range types {
		var n [4]float64
		for i, k := range dims {
			n[i] = t.a[k]
		}
		if slots {
			n[d] = -1
		}
		if n != ([4]float64{}) {
			planes = append(planes, plane{n, float64(t.price)})
		}
	}
	dot4 := func(a, b [4]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] }
	norm4 := func(a [4]float64) float64 { return math.Sqrt(dot4(a, a)) }
	idx := make([]int, nv)
	checked, last := 0, 0
	var rec func(at, from int) error
	rec = func(at, from int) error {
		if at < nv {
			for i := from; i < len(planes); i++ {
				idx[at] = i
				if err := rec(at+1, i+1); err != nil {
					return err
				}
			}
			return nil
		}
		if checked++; checked%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		// the point where the nv planes meet: Gaussian elimination with partial pivoting; a pivot below 1e-12
		// of the rows' norms is a singular system (parallel planes, no vertex)
		var m [4][5]float64
		for r, i := range idx {
			sc := norm4(planes[i].n)
			for c := 0; c < nv; c++ {
				m[r][c] = planes[i].n[c] / sc
			}
			m[r][nv] = planes[i].b / sc
		}
		for c := 0; c < nv; c++ {
			piv := c
			for r := c + 1; r < nv; r++ {
				if math.Abs(m[r][c]) > math.Abs(m[piv][c]) {
					piv = r
				}
			}
			if math.Abs(m[piv][c]) <= 1e-12 {
				return nil
			}
			m[c], m[piv] = m[piv], m[c]
			for r := c + 1; r < nv; r++ {
				f := m[r][c] / m[c][c]
				for k := c; k <= nv; k++ {
					m[r][k] -= f * m[c][k]
				}
			}
		}
		var v [4]float64
		for c := nv - 1; c >= 0; c-- {
			x := m[c][nv]
			for k := c + 1; k < nv; k++ {
				x -= m[c][k] * v[k]
			}
			v[c] = x / m[c][c]
		}
		nv4 := norm4(v)
		if c := planes[last]; dot4(c.n, v) > c.b+1e-9*(math.Abs(c.b)+norm4(c.n)*nv4) {
			return nil // the plane that cut the point before most often cuts this one
		}
		for j, c := range planes {
			if dot4(c.n, v) > c.b+1e-9*(math.Abs(c.b)+norm4(c.n)*nv4) {
				last = j
				return nil
			}
		}
		var p dualPt
		for i, k := range dims {
			p.y[k] = v[i]
		}
		if slots {
			p.z = v[d]
		}
		out = append(out, p)
		return nil
	}
	if err := rec(0, 0); err != nil {
		return nil, checked, err
	}
	return out, checked, nil
}

func (s *mixSearch) dfs(i int, r mixDim, used int, cost Money) {
	if s.aborted {
		return
	}
	if s.states >= s.budget {
		s.cut = true
		return
	}
	if s.states%ctxEvery == 0 && s.ctx.Err() != nil {
		s.aborted = true
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
		if lb := s.lower(i, r, left); cost+Money(math.Ceil(lb-1e-6*math.Max(1, lb))) >= lim {
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
// count of every size (solveMix) where its notes do not say otherwise; states counts the branches its searches
// explored. It keeps within the sizer's budget, its sizes cut to maxMixSizes (selectTypes), and ends with the
// context's error when it is cancelled.
//
// A search cut short (mixBudget) is said in notes, one line each: how far the mix it found may be from the
// cheapest (the candidate's Gap), or that it found none cheaper than than and what none costs less than.
func (s *sizer) cheapestMix(v VM, disks []Disk, need Need, than *Candidate) (best *Candidate, states int, notes []string, err error) {
	if v.MaxDisks < 2 || !v.Priced {
		return nil, 0, nil, nil
	}
	tiers, sizes := s.tierSizes(v, disks, need)
	for ti, tier := range tiers {
		all := sizes[ti]
		if len(all) < 2 {
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
			where := fmt.Sprintf("mixes of %s disks on %s", tier, v.Name)
			key := tier
			if cached {
				where += " (cached)"
				key += " (cached)"
			}
			if s.left <= 0 {
				if !contains(s.skipped, v.Name) {
					s.skipped = append(s.skipped, v.Name)
				}
				continue
			}
			types, prep, capped, err := s.selectTypes(tier, all, r, v.MaxDisks, bound)
			if err != nil {
				return nil, states, notes, err
			}
			if len(types) < 2 { // at most one size can be in a cheaper set: an identical one, listed as such
				continue
			}
			counts, cost, n, ok, cut, err := s.search(types, prep, v.MaxDisks, r, bound)
			states += n
			if err != nil {
				return nil, states, notes, err
			}
			if capped && ok && cut == nil {
				// a second round, exact: with the mix found as the bound, the sizes that can be part of a
				// cheaper one; where they are few enough, a search over them settles it
				again, _, still, err := s.selectTypes(tier, all, r, v.MaxDisks, &cost)
				if err != nil {
					return nil, states, notes, err
				}
				if !still {
					settled := true
					if !subsetOf(again, types) && len(again) >= 2 {
						c2, _, n2, ok2, cut2, err := s.search(again, nil, v.MaxDisks, r, &cost)
						states += n2
						if err != nil {
							return nil, states, notes, err
						}
						if ok2 {
							counts, types, cut = c2, again, cut2
						}
						settled = ok2 || cut2 == nil
					}
					capped = !settled
				}
			}
			if capped {
				if s.capped[key] == nil {
					s.order = append(s.order, key)
					s.cappedFloor[key] = Money(math.MaxInt64)
				}
				s.capped[key], s.sizes[key] = append(s.capped[key], v.Name), len(all)
				if tt, err := s.tier(tier, all, r); err == nil {
					lp, _ := tt.lp(r, v.MaxDisks)
					s.cappedFloor[key] = min(s.cappedFloor[key], v.Price+Money(math.Ceil(lp-1e-6*math.Max(1, lp))))
				}
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
	return best, states, notes, nil
}

// tierSizes are, for each tier of the priced disks v attaches (in the catalogue's order), its priced sizes as
// a mixes' search takes them: what each carries at the need's request size (an unstated MB/s cap no limit,
// as limits counts it) and its price. A VM attaches a tier's disks or none, so they are the same on every VM.
func (s *sizer) tierSizes(v VM, disks []Disk, need Need) (tiers []string, sizes [][]mixType) {
	for _, d := range disks {
		if d.Priced && v.Attaches(d) && !contains(tiers, d.Tier) {
			tiers = append(tiers, d.Tier)
		}
	}
	for _, tier := range tiers {
		all, ok := s.tiers[tier]
		if !ok {
			for _, d := range disks {
				if !d.Priced || d.Tier != tier || !v.Attaches(d) {
					continue
				}
				iops, mbps := AtIOSize(d.IOPS, d.MBps, need.IOSizeKB)
				if d.MBps == 0 {
					mbps = math.Inf(1)
				}
				all = append(all, mixType{disk: d, a: mixDim{iops, mbps, d.SizeGiB}, price: d.Price})
			}
			s.tiers[tier] = all
		}
		sizes = append(sizes, all)
	}
	return tiers, sizes
}

// search is one mixes' search within what is left of the sizer's budget (prep: the types' preparation, nil
// to prepare them).
func (s *sizer) search(types []mixType, prep *mixPrep, slots int, r mixDim, bound *Money) (counts []int, cost Money, states int, ok bool, cut *mixCut, err error) {
	if prep == nil {
		key := fmt.Sprint(r)
		for _, t := range types {
			key += "|" + t.disk.Name
		}
		if prep = s.preps[key]; prep == nil {
			var work int
			prep, work, err = prepMixWork(s.ctx, types, r)
			s.left -= work / dualPerBranch
			if err != nil {
				return nil, 0, 0, false, nil, err
			}
			s.preps[key] = prep
		}
	}
	counts, cost, states, ok, cut, err = prep.solve(s.ctx, slots, r, bound, max(min(mixBudget, s.left), 0))
	s.left -= states
	return
}

// dualPerBranch is how many plane subsets of a dual (dualVerticesCtx) count as one branch of sizeBudget (about
// the time each takes).
const dualPerBranch = 8

// subsetOf says whether every size of a is in b.
func subsetOf(a, b []mixType) bool {
	for _, t := range a {
		in := false
		for _, u := range b {
			in = in || u.disk.Name == t.disk.Name
		}
		if !in {
			return false
		}
	}
	return true
}

// tierTypes are a tier's sizes for one need (what the disks must carry): each contribution capped at the
// need (a disk that carries a requirement alone carries it whatever its excess), those another size matches
// or beats in every requirement at no more cost dropped; the search's preparation of them (for a tier of at
// most maxMixSizes, the same on every VM); and the vertices of their linear relaxation's dual (dualVerticesCtx;
// without the slots' z where that is too much work, none where even that is).
type tierTypes struct {
	types  []mixType
	prep   *mixPrep
	dual   []dualPt
	solved bool
}

// dualWork is the most plane subsets a tier's dual is solved over (a few seconds' work at most).
const dualWork = 10_000_000

// subsets is C(n, k), saturating at dualWork+1.
func subsets(n, k int) int {
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
		if c > dualWork {
			return dualWork + 1
		}
	}
	return c
}

// tier is the tier's sizes reduced for r, with the vertices of their dual, found once per Size.
func (s *sizer) tier(tier string, all []mixType, r mixDim) (*tierTypes, error) {
	key := fmt.Sprintf("%s|%v", tier, r)
	tt := s.memo[key]
	if tt == nil {
		tt = &tierTypes{types: reduceTypes(all, r)}
		s.memo[key] = tt
	}
	if tt.solved {
		return tt, nil
	}
	var err error
	if len(tt.types) <= maxMixSizes {
		if tt.prep, err = prepMix(s.ctx, tt.types, r); err != nil {
			return nil, err
		}
		tt.dual = tt.prep.dual[0]
	} else {
		d := 0
		for k := range r {
			if r[k] > 0 {
				d++
			}
		}
		var work int
		switch n := len(tt.types) + d + 1; {
		case subsets(n, d+1) <= dualWork:
			tt.dual, work, err = dualVerticesCtx(s.ctx, tt.types, r, true)
		case subsets(n-1, d) <= dualWork:
			tt.dual, work, err = dualVerticesCtx(s.ctx, tt.types, r, false)
		}
		s.left -= work / dualPerBranch
		if err != nil {
			return nil, err
		}
	}
	tt.solved = true
	return tt, nil
}

// lp is the linear bound on what covering r in slots disks of the tier's sizes costs, and its dual vertex.
func (tt *tierTypes) lp(r mixDim, slots int) (float64, dualPt) {
	var best dualPt
	lp := 0.0
	for _, p := range tt.dual {
		if x := p.bound(r, slots); x > lp {
			best, lp = p, x
		}
	}
	return lp, best
}

// mixFloor is what no mix on v can cost less than (the VM's price and the linear bound at its slots, over its
// tiers, cached and not; +Inf where no mix is searched on it): the mixes' searches go in its order, so that the
// budget is spent where the cheapest may be, and what is left unsearched has a floor to say.
func (s *sizer) mixFloor(v VM, disks []Disk, need Need) (Money, error) {
	floor := Money(math.MaxInt64)
	if v.MaxDisks < 2 || !v.Priced {
		return floor, nil
	}
	tiers, sizes := s.tierSizes(v, disks, need)
	for ti, tier := range tiers {
		if len(sizes[ti]) < 2 {
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
			tt, err := s.tier(tier, sizes[ti], r)
			if err != nil {
				return 0, err
			}
			lp, _ := tt.lp(r, v.MaxDisks)
			floor = min(floor, v.Price+Money(math.Ceil(lp-1e-6*math.Max(1, lp))))
		}
	}
	return floor, nil
}

// selectTypes is the sizes a search for r on a VM of slots takes: the tier's sizes reduced for r (tierTypes,
// with their preparation: prep); where more than maxMixSizes are left, those that can be part of a set
// cheaper than bound (reduced-cost fixing: a set of at most slots disks holding a size t costs at least lp +
// t's reduced cost, lp the linear bound and the reduced cost t's price less y.a_t - z, (y, z) the bound's dual
// vertex), and where more than maxMixSizes are still left, the maxMixSizes of least reduced cost (capped true:
// the search is then not exact, and the plan's notes say so). The first two steps are exact: each drops only
// sizes no cheaper set holds. prep is nil where the sizes are this VM's own (the caller prepares them).
func (s *sizer) selectTypes(tier string, all []mixType, r mixDim, slots int, bound *Money) ([]mixType, *mixPrep, bool, error) {
	tt, err := s.tier(tier, all, r)
	if err != nil {
		return nil, nil, false, err
	}
	if len(tt.types) <= maxMixSizes {
		return tt.types, tt.prep, false, nil
	}
	lp, best := tt.lp(r, slots)
	type ranked struct {
		t  mixType
		rc float64
		i  int
	}
	var keep []ranked
	for i, t := range tt.types {
		rc := float64(t.price) - dot(best.y, t.a) + best.z
		if lp == 0 { // no dual to rank by: the cost of covering r with the size alone
			rc = float64(t.price) * float64(fewest(t.a, r))
			if fewest(t.a, r) < 0 {
				rc = math.Inf(1)
			}
		} else if bound != nil {
			lb := lp + rc // what any set holding t costs at least (a whole number of units, less a hair)
			if Money(math.Ceil(lb-1e-6*math.Max(1, lb))) >= *bound {
				continue
			}
		}
		keep = append(keep, ranked{t, rc, i})
	}
	capped := len(keep) > maxMixSizes
	if capped {
		sort.SliceStable(keep, func(i, j int) bool { return keep[i].rc < keep[j].rc })
		keep = keep[:maxMixSizes]
		sort.Slice(keep, func(i, j int) bool { return keep[i].i < keep[j].i })
	}
	out := make([]mixType, len(keep))
	for i, k := range keep {
		out[i] = k.t
	}
	return out, nil, capped, nil
}

// reduceTypes caps each size's contributions at r (0 where r asks nothing) and drops every size another
// matches or beats in each requirement at no more cost (of equal ones, the first is kept): replacing each disk
// of the one dropped by one of the other keeps any set covering r, within its slots, at no more cost.
func reduceTypes(all []mixType, r mixDim) []mixType {
	capd := make([]mixType, len(all))
	for i, t := range all {
		capd[i] = t
		for k := range r {
			if r[k] > 0 {
				capd[i].a[k] = math.Min(t.a[k], r[k])
			} else {
				capd[i].a[k] = 0
			}
		}
	}
	var out []mixType
	for i, t := range capd {
		dominated := false
		for j, u := range capd {
			if i == j || u.price > t.price || u.a[0] < t.a[0] || u.a[1] < t.a[1] || u.a[2] < t.a[2] {
				continue
			}
			if u.price < t.price || u.a != t.a || j < i { // better somewhere, or equal and first
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, t)
		}
	}
	return out
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
