package sizing

import (
	"encoding/json"
	"io"
	"math"
)

// PlanJSON is a plan as plain data (io size --output-format json): the need, and the candidates cheapest first.
type PlanJSON struct {
	Need       NeedJSON        `json:"need"`
	Catalog    string          `json:"catalog"`
	Candidates []CandidateJSON `json:"candidates"`
	More       int             `json:"more_candidates"` // left out by --top
	// Cheapest is the first candidate's name where it is priced ("" where no candidate is).
	Cheapest string `json:"cheapest"`
	// Notes say where the mixes' search was cut short and what that leaves unproven (Plan.Notes)
	Notes []string `json:"notes,omitempty"`
}

// NeedJSON is the need sized for; a figure of 0 is no requirement.
type NeedJSON struct {
	IOPS     float64 `json:"iops"`
	MBps     float64 `json:"mbps"`
	IOSizeKB float64 `json:"io_size_kb"`
	GiB      float64 `json:"gib"`
	ReadPct  float64 `json:"read_pct"`
	CacheHit float64 `json:"cache_hit"`
	From     string  `json:"from,omitempty"`
}

// CandidateJSON is one candidate: Disks names them as the table does ("3 x P30 + 1 x P20 + 2 x P10 placed"),
// Parts count them a size at a time (the largest first). A figure the catalogue leaves without a cap (a MB/s
// cap not stated) is null; costs are dollars a month, null where not priced.
type CandidateJSON struct {
	Name       string     `json:"name"`
	VM         string     `json:"vm"`
	Disks      string     `json:"disks"`
	Parts      []PartJSON `json:"parts"`
	Placed     bool       `json:"placed"` // a mix: each disk a volume of its own, not striped
	Cached     bool       `json:"cached"`
	IOPS       *float64   `json:"iops"`
	MBps       *float64   `json:"mbps"`
	GiB        float64    `json:"gib"`
	Limit      string     `json:"binding_limit"`
	CostMonth  *float64   `json:"cost_month"`
	VMMonth    *float64   `json:"vm_month"`
	DisksMonth *float64   `json:"disks_month"`
	// UnprovenBy: a mix whose search was cut short costs at most this many dollars a month more than the
	// cheapest possible (absent where the mix is proven the cheapest, or not a mix)
	UnprovenBy *float64 `json:"unproven_by,omitempty"`
}

// PartJSON is N disks of one size.
type PartJSON struct {
	Disk string `json:"disk"`
	N    int    `json:"n"`
}

func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

func dollars(m Money) *float64 {
	x := float64(m.Cents()) / 100
	return &x
}

// JSON is the plan as plain data, top candidates (0: all).
func (p *Plan) JSON(top int) PlanJSON {
	n := p.Need
	out := PlanJSON{Need: NeedJSON{n.IOPS, n.MBps, n.IOSizeKB, n.GiB, n.ReadPct, n.CacheHit, n.From}, Catalog: p.Catalog.File, Candidates: []CandidateJSON{}}
	list := p.Candidates
	if top > 0 && len(list) > top {
		list = list[:top]
	}
	out.More = len(p.Candidates) - len(list)
	for _, c := range list {
		j := CandidateJSON{Name: c.String(), VM: c.VM.Name, Disks: c.Disks(), Placed: len(c.Mix) > 0, Cached: c.Cached,
			IOPS: finite(c.IOPS), MBps: finite(c.MBps), GiB: c.GiB, Limit: c.Limit}
		for _, x := range c.parts() {
			j.Parts = append(j.Parts, PartJSON{x.Disk.Name, x.N})
		}
		if c.Priced {
			j.CostMonth, j.VMMonth, j.DisksMonth = dollars(c.Cost), dollars(c.VM.Price), dollars(c.DiskCost())
		}
		if c.Unproven {
			j.UnprovenBy = dollars(c.Gap)
		}
		out.Candidates = append(out.Candidates, j)
	}
	if len(p.Candidates) > 0 && p.Candidates[0].Priced {
		out.Cheapest = p.Candidates[0].String()
	}
	out.Notes = p.Notes
	return out
}

// WriteJSON prints the plan as one JSON object.
func (p *Plan) WriteJSON(w io.Writer, top int) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(p.JSON(top))
}
