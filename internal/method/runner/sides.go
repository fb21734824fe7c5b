package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Sided is a Session whose users are of several kinds that load the database differently (CH-benCHmark's
// transaction users and analytic streams). Before they all run together, each side runs alone with the run's
// ramp-up and measured time on the same database, so that what the sides cost each other is measured, not
// guessed: the result's Sides hold each side's measurement and figures, and its figures gain each side's
// headline figure alone (FIGURE_alone) and what of it was kept together (FIGURE_kept_pct).
type Sided interface {
	// Sides are the kinds of users, in the order they run alone (none: the run is all of them together only).
	Sides() []Side
}

// Side is one kind of a Sided session's users: its name ("transactions"), the users' indices among the run's
// (NewWorker's vu), the figure that is the side's own headline ("nopm"), and whether its users run the run's
// key transaction (Config.KeyTx): a side that does not is not judged by it alone (no NOPM of an analytic side).
type Side struct {
	Name   string
	Users  []int
	Figure string
	Key    bool
	// StallLimit, when positive, is the side's alone (Config.StallLimit): a side of long units of work.
	StallLimit time.Duration
}

// sideWorkload is a session's workload restricted to one side's users: its user i is the session's Users[i].
type sideWorkload struct {
	Session
	users []int
}

func (w sideWorkload) NewWorker(ctx context.Context, vu int) (Worker, error) {
	return w.Session.NewWorker(ctx, w.users[vu])
}

// runSides runs each side alone (cfg's timing, VUs the side's users, no edge reads, no latency log, no live
// series: those are the run's together) and returns the sides as the result records them. The error is the
// first side's that did not complete; the sides after it do not run.
func runSides(ctx context.Context, s Session, sides []Side, cfg Config) ([]result.Side, error) {
	if cfg.Rate > 0 { // a side alone is a closed loop of its users (a Sided workload refuses --rate, as ch does)
		return nil, errors.New("a run of sides alone is a closed loop: no open-loop --rate")
	}
	var out []result.Side
	for i, sd := range sides {
		c := cfg
		c.VUs, c.AtMeasureStart, c.AtMeasureEnd, c.LatencyLog, c.Live = len(sd.Users), nil, nil, "", nil
		if !sd.Key {
			c.KeyTx, c.KeyLabel = -1, ""
		}
		if sd.StallLimit > 0 {
			c.StallLimit = sd.StallLimit
		}
		fmt.Fprintf(cfg.Progress, "side %d of %d, alone: %s (%d users)\n", i+1, len(sides), sd.Name, len(sd.Users))
		started := time.Now()
		m, err := Run(ctx, sideWorkload{s, sd.Users}, c)
		side := result.Side{Name: sd.Name, Users: len(sd.Users), Status: result.StatusOK, StartedAt: started.UTC(), EndedAt: time.Now().UTC(), Measurement: m}
		if m != nil {
			side.Figures = s.Figures(m)
		}
		if err != nil {
			side.Status, side.Error = result.StatusFailed, err.Error()
			if errors.Is(err, ErrAborted) || ctx.Err() != nil {
				side.Status = result.StatusAborted
			}
		}
		out = append(out, side)
		if err != nil {
			return out, fmt.Errorf("%s alone: %w", sd.Name, err)
		}
	}
	fmt.Fprintf(cfg.Progress, "all sides together (%d users)\n", cfg.VUs)
	return out, nil
}

// sideFigures adds each side's headline figure alone and the share of it kept together to the run's figures.
func sideFigures(fig map[string]any, sides []Side, ran []result.Side) {
	for i, sd := range sides {
		if i >= len(ran) || sd.Figure == "" {
			continue
		}
		alone, ok1 := compare.Number(ran[i].Figures[sd.Figure])
		together, ok2 := compare.Number(fig[sd.Figure])
		if !ok1 {
			continue
		}
		fig[sd.Figure+"_alone"] = alone
		if ok2 && alone > 0 {
			fig[sd.Figure+"_kept_pct"] = Round(100*together/alone, 1)
		}
	}
}
