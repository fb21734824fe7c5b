package sizing

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/abort"
	"github.com/dbdyno/dbdyno/internal/lib/units"
)

// Need is what the storage must deliver: the checklist's figures at the chosen percentile (scaled for growth
// when the checklist was).
type Need struct {
	IOPS     float64 // IO operations a second (0: no requirement)
	MBps     float64 // throughput, MiB/s (0: no requirement)
	IOSizeKB float64 // the average request size, KiB: caps are converted at it (0: not known)
	GiB      float64 // capacity (0: no requirement)
	From     string  // where the figures come from, for the output
	// ReadPct is the share of operations that read (the checklist's average); CacheHit the share of reads the
	// user expects a host read cache to serve (0: none counted). Together they let a VM's ReadOnly host cache
	// carry IOPS x ReadPct x CacheHit against its own caps instead of the disks' and the VM's uncached ones.
	ReadPct  float64
	CacheHit float64
	// Asked is where each figure came from, for the HTML page's "what was asked".
	Asked Asked
}

// Asked is where a need's figures came from: inline figures (--need iops=16000,...) or a checklist file.
type Asked struct {
	Inline     string // --need as given; "" for a checklist
	File       string // the checklist's file
	Name       string // the recording the checklist is of
	Percentile string // the checklist's percentile sized for (p99)
	Period     string // --period; "" where each figure is the largest of every period's
	Periods    int    // the checklist's periods
	Growth     float64
	// Of is, by the checklist's row key (iops, mbps, io_size_kb, read_pct), the period whose figure the need
	// took ("peak (Mon-Fri 11:00-14:00)"); Scaled says which of them the checklist multiplied by its growth.
	Of     map[string]string
	Scaled map[string]bool
}

// AtIOSize is what a device with these caps delivers at one request size (KiB), as the premium-storage guide
// computes it: IOPS is the IOPS cap or the MB/s cap over the size (1 MB = 1,024 KB), whichever is lower;
// throughput is IOPS times the size (1 MB = 1,000 KB, as the guide prints it), at most the MB/s cap. A P30
// (5,000 IOPS, 200 MB/s): 8 KB 5,000 IOPS 40 MB/s; 64 KB 3,200 IOPS 200 MB/s. A cap of 0 is no limit.
func AtIOSize(iops, mbps, kb float64) (float64, float64) {
	n := iops
	if n == 0 {
		n = math.Inf(1)
	}
	if mbps > 0 && kb > 0 {
		n = math.Min(n, mbps*1024/kb)
	}
	if kb == 0 { // no request size: the caps stand as they are
		if mbps == 0 {
			return n, math.Inf(1)
		}
		return n, mbps
	}
	t := n * kb / 1000
	if mbps > 0 {
		t = math.Min(t, mbps)
	}
	return n, t
}

// Part is N disks of one offering.
type Part struct {
	Disk Disk
	N    int
}

// Candidate is one VM with N identical disks, or with a mix: N of Disk and each of Mix beside them, the largest
// size first (see Size for the rule a mix is sized by).
type Candidate struct {
	VM     VM
	Disk   Disk
	N      int
	Mix    []Part  // the other disk sizes beside Disk: each disk a volume of its own (placed, not striped)
	IOPS   float64 // what the set delivers at the need's IO size, every cap applied
	MBps   float64
	GiB    float64
	Limit  string // the cap that binds: with the least headroom over the need ("VM MB/s cap", "disk IOPS")
	Cost   Money
	Priced bool
	// Cached: the disks use the VM's ReadOnly host cache, which serves the need's cached reads (CacheIOPS and
	// CacheMBps of them) within its own caps; IOPS and MBps are then the uncached caps plus the cache's.
	Cached               bool
	CacheIOPS, CacheMBps float64
	// Unproven: a mix whose search was cut short (mixBudget): it costs at most Gap more than the cheapest
	// mix of its sizes on its VM (the plan's Notes say so)
	Unproven bool
	Gap      Money
	// the binding limit's headroom: what it delivers over what is needed of it (got and want, in unit)
	headroom, got, want float64
	unit                string
}

// parts are the candidate's disks.
func (c Candidate) parts() []Part {
	return append([]Part{{c.Disk, c.N}}, c.Mix...)
}

// Parts are its disks, a size at a time (the largest first in a mix).
func (c Candidate) Parts() []Part { return c.parts() }

// DiskCost is what its disks cost a month.
func (c Candidate) DiskCost() Money {
	var m Money
	for _, p := range c.parts() {
		m += Money(p.N) * p.Disk.Price
	}
	return m
}

// Disks names its disks: "4 x P30", or "1 x P40 + 2 x P30 + 3 x P10 placed" for a mix (the largest size
// first).
func (c Candidate) Disks() string {
	var s []string
	for _, p := range c.parts() {
		s = append(s, fmt.Sprintf("%d x %s", p.N, p.Disk.Name))
	}
	if len(c.Mix) > 0 {
		return strings.Join(s, " + ") + " placed"
	}
	return s[0]
}

// byLargest orders a mix's parts: the largest disk first (then the most IOPS, then the name).
func byLargest(parts []Part) {
	sort.SliceStable(parts, func(i, j int) bool {
		a, b := parts[i].Disk, parts[j].Disk
		if a.SizeGiB != b.SizeGiB {
			return a.SizeGiB > b.SizeGiB
		}
		if a.IOPS != b.IOPS {
			return a.IOPS > b.IOPS
		}
		return a.Name < b.Name
	})
}

// row is a candidate's figures as the text table and the HTML page print them (one source for both).
type row struct {
	Name, IOPS, MBps, GiB, Limit string
	Cost, VMCost, DiskCost       string // "not priced" where the candidate is not
}

func (c Candidate) row() row {
	r := row{Name: c.String(), IOPS: num(c.IOPS), MBps: num(c.MBps), GiB: num(c.GiB), Limit: c.Limit,
		Cost: "not priced", VMCost: "not priced", DiskCost: "not priced"}
	if c.Priced {
		r.Cost, r.VMCost, r.DiskCost = c.Cost.String(), c.VM.Price.String(), c.DiskCost().String()
	}
	return r
}

func (c Candidate) String() string {
	s := c.VM.Name + " + " + c.Disks()
	if c.Cached {
		s += " cached"
	}
	return s
}

// caches says whether a VM's ReadOnly host cache can carry some of the need: the need says how much of it
// the cache serves, and the VM offers ReadOnly caching with a stated cache cap.
func caches(v VM, need Need) bool {
	return need.CacheHit > 0 && need.ReadPct > 0 && (v.CacheIOPS > 0 || v.CacheMBps > 0) && containsFold(v.Caching, "readonly")
}

// containsFold says whether s holds the lower-case ASCII word sub in any case (without allocating: caches is
// asked for every VM and disk at every rate hostCache tries).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// limits is the set's delivered IOPS and MB/s with the cap that gives each: the sum over its disks of each
// disk's at the request size ("disk MB/s" when a disk's MB/s cap holds its IOPS under its IOPS cap), within the
// VM's caps.
func limits(v VM, parts []Part, kb float64) (iops float64, iopsBy string, mbps float64, mbpsBy string) {
	iopsBy, mbpsBy = "disk IOPS", "disk MB/s"
	for _, p := range parts {
		d := p.Disk
		di, dm := AtIOSize(d.IOPS, d.MBps, kb)
		iops += float64(p.N) * di
		if d.MBps > 0 && kb > 0 && d.MBps*1024/kb < d.IOPS {
			iopsBy = "disk MB/s"
		}
		mbps += float64(p.N) * dm
		if d.MBps == 0 {
			mbps = math.Inf(1)
		}
	}
	if v.IOPS > 0 && v.IOPS < iops {
		iops, iopsBy = v.IOPS, "VM IOPS cap"
	}
	if v.MBps > 0 && kb > 0 && v.MBps*1024/kb < iops {
		iops, iopsBy = v.MBps*1024/kb, "VM MB/s cap"
	}
	if v.MBps > 0 && v.MBps < mbps {
		mbps, mbpsBy = v.MBps, "VM MB/s cap"
	}
	return
}

// evaluate fills a candidate of n disks and says whether it meets the need; cached, the VM's ReadOnly host
// cache serves the need's cached reads within its own caps and the disks and uncached caps the rest.
func evaluate(v VM, parts []Part, need Need, cached bool) (Candidate, bool) {
	iops, iopsBy, mbps, mbpsBy := limits(v, parts, need.IOSizeKB)
	c := Candidate{VM: v, Disk: parts[0].Disk, N: parts[0].N, IOPS: iops, MBps: mbps, Priced: v.Priced}
	if len(parts) > 1 {
		c.Mix = append([]Part(nil), parts[1:]...)
	}
	c.Cost = v.Price
	for _, p := range parts {
		c.GiB += float64(p.N) * p.Disk.SizeGiB
		c.Cost += Money(p.N) * p.Disk.Price
		c.Priced = c.Priced && p.Disk.Priced
	}
	needIOPS, needMBps := need.IOPS, need.MBps
	var cacheIOPS, cacheMBps float64 // what the cache delivers at the request size
	if cached {
		f := need.ReadPct / 100 * need.CacheHit
		c.Cached, c.CacheIOPS, c.CacheMBps = true, need.IOPS*f, need.MBps*f
		needIOPS, needMBps = need.IOPS-c.CacheIOPS, need.MBps-c.CacheMBps
		cacheIOPS, cacheMBps = AtIOSize(v.CacheIOPS, v.CacheMBps, need.IOSizeKB)
		if v.CacheMBps == 0 {
			cacheMBps = math.Inf(1)
		}
		c.IOPS, c.MBps = iops+cacheIOPS, mbps+cacheMBps
	}
	ok := iops >= needIOPS && mbps >= needMBps && c.GiB >= need.GiB && cacheIOPS >= c.CacheIOPS && cacheMBps >= c.CacheMBps
	// the binding limit: the requirement with the least headroom, and the cap that gives it
	type h struct {
		ratio     float64
		by        string
		got, want float64
		unit      string
	}
	var hs [5]h // no slice, no sort: hostCache judges every VM and disk at every rate
	nh := 0
	add := func(x h) { hs[nh] = x; nh++ }
	if needIOPS > 0 {
		add(h{iops / needIOPS, iopsBy, iops, needIOPS, "IOPS"})
	}
	if needMBps > 0 {
		add(h{mbps / needMBps, mbpsBy, mbps, needMBps, "MB/s"})
	}
	if c.CacheIOPS > 0 {
		add(h{cacheIOPS / c.CacheIOPS, "VM cache IOPS cap", cacheIOPS, c.CacheIOPS, "cached IOPS"})
	}
	if c.CacheMBps > 0 {
		add(h{cacheMBps / c.CacheMBps, "VM cache MB/s cap", cacheMBps, c.CacheMBps, "cached MB/s"})
	}
	if need.GiB > 0 {
		add(h{c.GiB / need.GiB, "capacity", c.GiB, need.GiB, "GiB"})
	}
	if nh > 0 { // the least headroom, the first of equal ones (as a stable sort's first)
		b := hs[0]
		for _, x := range hs[1:nh] {
			if x.ratio < b.ratio {
				b = x
			}
		}
		c.Limit = b.by
		c.headroom, c.got, c.want, c.unit = b.ratio, b.got, b.want, b.unit
	}
	if need.MBps > 0 && math.IsInf(mbps, 1) {
		c.Limit = "MB/s cap not stated"
	}
	return c, ok
}

// Plan is the answer: the candidates that meet the need, cheapest first (unpriced ones last).
type Plan struct {
	Need       Need
	Catalog    *Catalog
	Candidates []Candidate
	// Unmet says, where no candidate meets the need (Candidates empty), which requirement is out of reach and by
	// how much: the error Size returns with the plan.
	Unmet *UnmetError
	// Notes say where the mixes' search was cut short (mixBudget), and what that leaves unproven
	Notes  []string
	states int // the branches the mixes' searches explored (their work, for the tests)
}

// UnmetError says which requirement no VM and disks of the catalogue meet, and by how much.
type UnmetError struct {
	Lines []string // a line per requirement out of reach (the uncached caps)
	// Cache says whether a ReadOnly host cache (--cache-hit) would have made a VM meet the need, at which
	// rate; or, where none would, the limit that still fails.
	Cache string
}

func (e *UnmetError) Error() string {
	if e.Cache == "" {
		return strings.Join(e.Lines, "; ")
	}
	return strings.Join(e.Lines, "; ") + "; " + e.Cache
}

// Size finds, for every VM and every disk it attaches, the fewest disks that meet the need, and returns them
// cheapest first. When none does it says which requirement is out of reach and by how much: the error, an
// *UnmetError, also in the plan it returns beside it (its Unmet; the HTML page shows it).
//
// Mixes of disk sizes: beside N identical disks, each VM is sized with the cheapest mix of any number of its
// tier's priced disk sizes (3 x P30 + 1 x P20 + 2 x P10, within its data disk slots), found exactly
// (cheapestMix, solveMix), listed when it is cheaper than every set of identical disks on that VM. The rule a mix is sized by is per-volume placement: each disk is a volume of its own (or
// the disks are concatenated, never striped), and the database's files are placed so that each disk carries
// IO within its own caps and data within its size (hot files on the disks with IOPS to spare, cold ones on the
// large ones); the set then delivers the sum of its disks' IOPS and MB/s at the request size and the sum of
// their sizes, within the VM's caps, as N identical striped disks do. A stripe of unequal disks is bounded by
// its smallest member x its count (every stripe touches every member), which is never cheaper than that many
// of the smallest; so a mix is offered only as placed volumes, marked "placed".
func Size(c *Catalog, need Need) (*Plan, error) { return SizeContext(context.Background(), c, need) }

// SizeContext is Size ending, when ctx is cancelled (Ctrl-C), with an error that wraps abort.ErrAborted and
// ctx's error and says how far it got (no plan). Its work is bounded whatever the catalogue: each mixes' search
// takes at most maxMixSizes disk sizes (after dropping those that cannot be in a cheaper mix: selectTypes) and
// mixBudget branches, and all of them together at most sizeBudget branches; what is cut short is said in the
// plan's notes.
func SizeContext(ctx context.Context, c *Catalog, need Need) (*Plan, error) {
	if need.IOPS <= 0 && need.MBps <= 0 && need.GiB <= 0 {
		return nil, fmt.Errorf("the need states no IOPS, MB/s or capacity: nothing to size")
	}
	s := newSizer(ctx)
	p, err := s.candidates(c, need)
	if err != nil {
		return nil, err
	}
	if len(p.Candidates) == 0 {
		if p.Unmet, err = s.unmet(c, need); err != nil {
			return nil, err
		}
		return p, p.Unmet
	}
	return p, nil
}

// sizeBudget is how many branches the mixes' searches of one Size may explore in all (every VM's, tier's,
// cached and not, and those of the host cache's rates for a need no VM meets): about 15 s at 0.7 µs a branch.
// What is not searched once it is spent is said in the plan's notes.
var sizeBudget = 20_000_000

// maxMixSizes is the most disk sizes one mixes' search takes: its linear bound's vertices cost the cube of the
// sizes to find, and its branches grow with them. A real tier has 10 to 20; a catalogue with more keeps, for
// each VM, the sizes that can be part of a mix cheaper than its identical disks (selectTypes), and where more
// than this many can, the ones closest to the linear bound, and says so in the plan's notes.
var maxMixSizes = 32

// sizer is one Size call's search: its context, the branches left of sizeBudget, each tier's sizes as the
// need reduces them (by tier and need), and what its notes will say of the searches it cut or skipped.
type sizer struct {
	ctx         context.Context
	left        int
	memo        map[string]*tierTypes
	preps       map[string]*mixPrep  // by need and sizes: a search's preparation (search)
	tiers       map[string][]mixType // by tier: its priced sizes (tierSizes)
	skipped     []string             // the VMs whose mixes were not searched, sizeBudget spent
	floor       Money                // what no mix on them costs less than (the least of their mixFloor)
	capped      map[string][]string  // by "tier (cached)": the VMs whose search took maxMixSizes of more sizes
	cappedFloor map[string]Money     // by the same key: what no mix on them costs less than
	sizes       map[string]int       // by the same key: the tier's priced sizes
	order       []string             // the keys of capped in the order met
	rate        string               // the host cache's rate being tried for a need no VM meets (hostCache), for aborted
}

func newSizer(ctx context.Context) *sizer {
	return &sizer{ctx: ctx, left: sizeBudget, memo: map[string]*tierTypes{}, preps: map[string]*mixPrep{}, tiers: map[string][]mixType{}, capped: map[string][]string{}, cappedFloor: map[string]Money{}, sizes: map[string]int{}}
}

// aborted is the error of a search stopped by its context: it says how far it got.
func (s *sizer) aborted(c *Catalog, done int) error {
	if s.rate != "" {
		return fmt.Errorf("%w: io size was stopped while finding what a host cache would do for the need no VM meets (at --cache-hit %s, %d of the %d VMs of %s): %w",
			abort.ErrAborted, s.rate, done, len(c.VMs), c.File, s.ctx.Err())
	}
	return fmt.Errorf("%w: io size was stopped after sizing %d of the %d VMs of %s: %w", abort.ErrAborted, done, len(c.VMs), c.File, s.ctx.Err())
}

// candidates is Size's list of candidates, cheapest first; empty where none meets the need.
func candidates(c *Catalog, need Need) *Plan {
	p, _ := newSizer(context.Background()).candidates(c, need)
	return p
}

// candidates is the list of candidates, cheapest first; an error (aborted) only where the context is cancelled.
// Every VM's identical sets first, then its mixes, the VMs in the order of what a mix on them costs at least
// (mixFloor), so that a budget spent leaves unsearched the VMs least likely to hold the cheapest; the list and
// its notes are in the catalogue's order whatever the search's.
func (s *sizer) candidates(c *Catalog, need Need) (*Plan, error) {
	p := &Plan{Need: need, Catalog: c}
	type vmPlan struct {
		cands []Candidate
		best  *Candidate // the cheapest priced identical set on this VM
		mix   *Candidate
		notes []string
		floor Money
	}
	per := make([]vmPlan, len(c.VMs))
	for i, v := range c.VMs {
		if s.ctx.Err() != nil {
			return nil, s.aborted(c, i)
		}
		for _, d := range c.Disks {
			if !v.Attaches(d) {
				continue
			}
			// uncached, and with the VM's ReadOnly host cache where it carries some of the need: the cheaper
			// of the two (a disk's cache setting is the user's choice)
			var best *Candidate
			for _, cached := range []bool{false, true} {
				if cached && !caches(v, need) {
					continue
				}
				if !meetsParts(v, []Part{{d, v.MaxDisks}}, need, cached) {
					continue
				}
				lo, hi := 1, v.MaxDisks // the fewest that meet (meeting is monotone in n)
				for lo < hi {
					if mid := (lo + hi) / 2; meetsParts(v, []Part{{d, mid}}, need, cached) {
						hi = mid
					} else {
						lo = mid + 1
					}
				}
				if cand, ok := evaluate(v, []Part{{d, hi}}, need, cached); ok {
					if best == nil || cand.Cost < best.Cost || cand.Cost == best.Cost && cand.N < best.N {
						best = &cand
					}
				}
			}
			if best != nil {
				per[i].cands = append(per[i].cands, *best)
				if best.Priced && (per[i].best == nil || best.Cost < per[i].best.Cost) {
					per[i].best = best
				}
			}
		}
	}
	order := make([]int, len(c.VMs))
	for i, v := range c.VMs {
		order[i] = i
		var err error
		if per[i].floor, err = s.mixFloor(v, c.Disks, need); err != nil {
			return nil, s.aborted(c, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return per[order[a]].floor < per[order[b]].floor })
	for done, i := range order {
		v := c.VMs[i]
		m, n, notes, err := s.cheapestMix(v, c.Disks, need, per[i].best)
		if err != nil {
			return nil, s.aborted(c, done)
		}
		p.states += n
		per[i].mix, per[i].notes = m, notes
	}
	s.floor = Money(math.MaxInt64)
	for i, x := range per {
		if contains(s.skipped, c.VMs[i].Name) {
			s.floor = min(s.floor, x.floor)
		}
		p.Candidates = append(p.Candidates, x.cands...)
		if x.mix != nil {
			p.Candidates = append(p.Candidates, *x.mix)
		}
		p.Notes = append(p.Notes, x.notes...)
	}
	sort.SliceStable(p.Candidates, func(i, j int) bool {
		a, b := p.Candidates[i], p.Candidates[j]
		if a.Priced != b.Priced {
			return a.Priced
		}
		return a.Cost < b.Cost
	})
	p.Notes = append(p.Notes, s.notes(p)...)
	return p, nil
}

// notes are what the plan says of the searches this sizer cut to maxMixSizes or skipped (sizeBudget spent),
// one line each, and forgets them (the host cache's rates search again).
func (s *sizer) notes(p *Plan) []string {
	var out []string
	cheapest := Money(math.MaxInt64)
	if len(p.Candidates) > 0 && p.Candidates[0].Priced {
		cheapest = p.Candidates[0].Cost
	}
	floor := func(f Money) string { // what a note says of a floor: the cheapest is proven where it is below
		if f >= cheapest && cheapest < Money(math.MaxInt64) {
			return fmt.Sprintf("; none costs less than %s a month (the VM's price and the linear bound at its slots), no less than the cheapest above", f)
		}
		return fmt.Sprintf("; none costs less than %s a month (the VM's price and the linear bound at its slots)", f)
	}
	inOrder := func(names []string) []string { // the catalogue's order, whatever the search's
		var out []string
		for _, v := range p.Catalog.VMs {
			if contains(names, v.Name) {
				out = append(out, v.Name)
			}
		}
		return out
	}
	for _, k := range s.order {
		f := ""
		if s.cappedFloor[k] > 0 && s.cappedFloor[k] < Money(math.MaxInt64) {
			f = floor(s.cappedFloor[k])
		}
		out = append(out, fmt.Sprintf("mixes of %s disks on %s: more of the tier's %d priced sizes than the %d one search takes could be part of a mix cheaper than the VM's identical disks; each search took the %d closest to the linear bound (the least reduced cost), so a mix of the others may be cheaper%s",
			k, someOf(inOrder(s.capped[k]), "VM"), s.sizes[k], maxMixSizes, maxMixSizes, f))
	}
	if len(s.skipped) > 0 {
		out = append(out, fmt.Sprintf("the mixes' searches stopped after %s branches in all (the most one io size explores): the mixes of %s were not searched (their identical disks were)%s",
			group(int64(sizeBudget)), someOf(inOrder(s.skipped), "VM"), floor(s.floor)))
	}
	s.capped, s.cappedFloor, s.sizes, s.order, s.skipped, s.floor = map[string][]string{}, map[string]Money{}, map[string]int{}, nil, nil, 0
	return out
}

// someOf names a list for a note: "V1", "3 VMs (V1, V2, V3)", "40 VMs (V1, V2, V3, ...)".
func someOf(names []string, what string) string {
	if len(names) == 1 {
		return names[0]
	}
	shown := names
	if len(shown) > 3 {
		shown = append(shown[:3:3], "...")
	}
	return fmt.Sprintf("%d %ss (%s)", len(names), what, strings.Join(shown, ", "))
}

// meetsParts is evaluate's verdict, without the candidate.
func meetsParts(v VM, parts []Part, need Need, cached bool) bool {
	iops, _, mbps, _ := limits(v, parts, need.IOSizeKB)
	gib := 0.0
	for _, p := range parts {
		gib += float64(p.N) * p.Disk.SizeGiB
	}
	if gib < need.GiB {
		return false
	}
	needIOPS, needMBps := need.IOPS, need.MBps
	if cached {
		f := need.ReadPct / 100 * need.CacheHit
		cacheIOPS, cacheMBps := AtIOSize(v.CacheIOPS, v.CacheMBps, need.IOSizeKB)
		if v.CacheMBps == 0 {
			cacheMBps = math.Inf(1)
		}
		if cacheIOPS < need.IOPS*f || cacheMBps < need.MBps*f {
			return false
		}
		needIOPS, needMBps = need.IOPS-need.IOPS*f, need.MBps-need.MBps*f
	}
	return iops >= needIOPS && mbps >= needMBps
}

// unmet explains a need no combination meets: per requirement, the most any VM with its full slots delivers
// (an error only where the context is cancelled).
func (s *sizer) unmet(c *Catalog, need Need) (*UnmetError, error) {
	type best struct {
		val  float64
		what string
	}
	var bi, bm, bg best
	for i, v := range c.VMs {
		if s.ctx.Err() != nil {
			return nil, s.aborted(c, i)
		}
		for _, d := range c.Disks {
			if !v.Attaches(d) {
				continue
			}
			iops, iopsBy, mbps, mbpsBy := limits(v, []Part{{d, v.MaxDisks}}, need.IOSizeKB)
			name := fmt.Sprintf("%s + %d x %s", v.Name, v.MaxDisks, d.Name)
			if iops > bi.val {
				bi = best{iops, name + ", " + iopsBy}
			}
			if mbps > bm.val {
				bm = best{mbps, name + ", " + mbpsBy}
			}
			if g := float64(v.MaxDisks) * d.SizeGiB; g > bg.val {
				bg = best{g, name}
			}
		}
	}
	e := &UnmetError{}
	short := func(what string, need, got float64, unit string, b best) {
		e.Lines = append(e.Lines, fmt.Sprintf("no VM and disks in %s meet %s %s: the most is %s (%s), short by %s (%.0f%%)",
			c.File, num(need), what, num(got), b.what, num(need-got)+unit, 100*(need-got)/need))
	}
	if need.IOPS > bi.val {
		short("IOPS", need.IOPS, bi.val, "", bi)
	}
	if need.MBps > bm.val {
		short("MB/s", need.MBps, bm.val, " MB/s", bm)
	}
	if need.GiB > bg.val {
		short("GiB", need.GiB, bg.val, " GiB", bg)
	}
	if len(e.Lines) == 0 {
		e.Lines = append(e.Lines, fmt.Sprintf("no VM and disks in %s meet every requirement at once (each alone is met by some): %s", c.File, needString(need)))
	}
	var err error
	if e.Cache, err = s.hostCache(c, need); err != nil {
		return nil, err
	}
	return e, nil
}

// hostCache says, for a need no VM meets, whether a ReadOnly host cache (--cache-hit) would have made one meet
// it: at the lowest hit rate that does (1% steps, and each VM's rate that fills its cache), the cheapest
// candidate then; or, where none does at any rate, the closest cached candidate (every slot filled, at the
// rate that brings it closest) and the limit that still fails, with what it delivers of what is needed.
func (s *sizer) hostCache(c *Catalog, need Need) (string, error) {
	offered := false
	for _, v := range c.VMs {
		offered = offered || caches(v, Need{CacheHit: 1, ReadPct: 1}) // a VM with ReadOnly caching and a cache cap
	}
	switch {
	case !offered:
		return fmt.Sprintf("host read caching would not help: no VM in %s offers ReadOnly caching with a stated cache cap (cache_iops, cache_mbps)", c.File), nil
	case need.ReadPct <= 0:
		return "host read caching was not counted: the need states no read share (a checklist's, or read=90 in --need), so --cache-hit cannot apply", nil
	}
	given := ""
	if need.CacheHit > 0 {
		given = fmt.Sprintf(" (this need counted --cache-hit %s)", hitPct(need.CacheHit))
	}
	// the rates tried: every 1%, and each caching VM's rate that fills its cache to its cap (the one that
	// takes the most off its disks), to 0.1% below
	var rates []float64
	for pct := 1; pct <= 100; pct++ {
		rates = append(rates, float64(pct)/100)
	}
	for _, v := range c.VMs {
		if !caches(v, Need{CacheHit: 1, ReadPct: 1}) {
			continue
		}
		ci, cm := AtIOSize(v.CacheIOPS, v.CacheMBps, need.IOSizeKB)
		h := 1.0
		if need.IOPS > 0 {
			h = min(h, ci/(need.IOPS*need.ReadPct/100))
		}
		if need.MBps > 0 && v.CacheMBps > 0 {
			h = min(h, cm/(need.MBps*need.ReadPct/100))
		}
		if h = math.Floor(h*1000) / 1000; h > 0 {
			rates = append(rates, h)
		}
	}
	sort.Float64s(rates)
	rates = slices.Compact(rates) // VMs of the same cache caps fill them at the same rate
	defer func() { s.rate = "" }()
	for _, h := range rates {
		n := need
		n.CacheHit = h
		s.rate = hitPct(h)
		p, err := s.candidates(c, n)
		if err != nil {
			return "", err
		}
		if len(p.Candidates) > 0 {
			b := p.Candidates[0]
			cost := "not priced"
			if b.Priced {
				cost = b.Cost.String() + " a month"
			}
			return fmt.Sprintf("a ReadOnly host cache serving %s%% of the %s%% reads (--cache-hit %s) would: %s, %s%s", hit(100*h), num(need.ReadPct), hitPct(h), b, cost, given), nil
		}
	}
	var closest *Candidate
	closestHit := 0.0
	for _, h := range rates {
		n := need
		n.CacheHit = h
		s.rate = hitPct(h)
		for i, v := range c.VMs {
			if s.ctx.Err() != nil {
				return "", s.aborted(c, i)
			}
			if !caches(v, n) {
				continue
			}
			for _, d := range c.Disks {
				if !v.Attaches(d) {
					continue
				}
				cand, _ := evaluate(v, []Part{{d, v.MaxDisks}}, n, true)
				if ci, cm := AtIOSize(v.CacheIOPS, v.CacheMBps, need.IOSizeKB); ci < cand.CacheIOPS || v.CacheMBps > 0 && cm < cand.CacheMBps {
					continue // beyond the cache's own cap: not a way to meet the need
				}
				if closest == nil || cand.headroom > closest.headroom {
					cp := cand // a copy only where it is closer: not one allocation per VM, disk and rate
					closest, closestHit = &cp, h
				}
			}
		}
	}
	if closest == nil {
		return fmt.Sprintf("host read caching would not help: no VM in %s with a host cache attaches one of its disks", c.File), nil
	}
	return fmt.Sprintf("a ReadOnly host cache would not: at any hit rate within the caches' caps the closest, %s at --cache-hit %s (its cache serving %s IOPS), is still held by its %s (%s of the %s %s needed of it)%s",
		closest, hitPct(closestHit), num(closest.CacheIOPS), closest.Limit, num(closest.got), num(closest.want), closest.unit, given), nil
}

func hit(h float64) string { return strconv.FormatFloat(math.Round(h*1000)/1000, 'f', -1, 64) }

// hitPct is a hit rate (a share of the reads, 0 to 1) as --cache-hit takes it: a percentage (0.034 is 3.4%).
func hitPct(h float64) string { return units.Percent(100 * h).String() }

func num(x float64) string {
	if math.IsInf(x, 1) {
		return "not stated"
	}
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return group(int64(x))
	}
	if math.IsNaN(x) || math.Abs(x) >= 1e15 { // beyond int64's exact grouping: never a wrapped negative
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	if math.Abs(x) >= 100 {
		return group(int64(math.Round(x)))
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

func needString(n Need) string {
	var p []string
	if n.IOPS > 0 {
		p = append(p, num(n.IOPS)+" IOPS")
	}
	if n.MBps > 0 {
		p = append(p, num(n.MBps)+" MB/s")
	}
	if n.IOSizeKB > 0 {
		p = append(p, "at "+num(n.IOSizeKB)+" KB requests")
	}
	if n.GiB > 0 {
		p = append(p, num(n.GiB)+" GiB")
	}
	return strings.Join(p, ", ")
}

// Write prints the plan: the need, each candidate with what it delivers, its binding limit and its monthly
// cost, and the cheapest. top limits the candidates listed (0: all).
func (p *Plan) Write(w io.Writer, top int) {
	fmt.Fprintf(w, "need: %s", needString(p.Need))
	if p.Need.From != "" {
		fmt.Fprintf(w, " (%s)", p.Need.From)
	}
	if p.Need.CacheHit > 0 {
		fmt.Fprintf(w, "\ncatalogue: %s (caps as advertised; \"cached\": a ReadOnly host cache serves %s of the %.0f%% reads, within the VM's cache caps)\n",
			p.Catalog.File, hitPct(p.Need.CacheHit), p.Need.ReadPct)
	} else {
		fmt.Fprintf(w, "\ncatalogue: %s (caps as advertised; reads served by a host cache are not counted: --cache-hit counts them)\n", p.Catalog.File)
	}
	list := p.Candidates
	if top > 0 && len(list) > top {
		list = list[:top]
	}
	width := 44 // the candidate column: wider where a mix of several sizes names more disks
	for _, c := range list {
		width = max(width, len(c.String()))
	}
	fmt.Fprintf(w, "%-*s %12s %10s %9s  %-20s %12s  %s\n", width, "candidate", "IOPS", "MB/s", "GiB", "binding limit", "$/month", "VM + disks")
	for _, c := range list {
		r := c.row()
		split := ""
		if c.Priced {
			split = r.VMCost + " + " + r.DiskCost
		}
		fmt.Fprintf(w, "%-*s %12s %10s %9s  %-20s %12s  %s\n", width, r.Name, r.IOPS, r.MBps, r.GiB, r.Limit, r.Cost, split)
	}
	if n := len(p.Candidates) - len(list); n > 0 {
		fmt.Fprintf(w, "(%d more candidates: --top 0 lists them all)\n", n)
	}
	if b := p.Candidates[0]; b.Priced {
		fmt.Fprintf(w, "cheapest: %s, %s a month (VM %s + %s %s)\n", b, b.Cost, b.VM.Price, b.Disks(), b.DiskCost())
		if len(b.Mix) > 0 {
			fmt.Fprintf(w, "placed: each disk a volume of its own, the files placed so that each carries IO within its caps and data within its size (a stripe of unequal disks is held to its smallest member x its count)\n")
		}
	} else {
		fmt.Fprintf(w, "no candidate is priced: add price_month to the catalogue's VMs and disks to choose the cheapest\n")
	}
	for _, n := range p.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}
