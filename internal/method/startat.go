package method

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// startAt is a command's --start-at and --clock-ref: the instant its measured window starts, on the reference's
// clock (this host's without --clock-ref) and on this host's.
type startAt struct {
	at    time.Time     // as given (the reference's clock)
	local time.Time     // on this host's clock: at less the offset
	clock *agent.Offset // nil without --clock-ref
}

// maxStartAhead bounds the wait for --start-at: a time further ahead is a typing error (2099 for 2026, +99999h
// waited 631,873 hours), not a plan.
const maxStartAhead = 24 * time.Hour

// parseStartAt reads --start-at: RFC 3339, or +DURATION from now.
func parseStartAt(s string, now time.Time) (time.Time, error) {
	if d, ok := strings.CutPrefix(s, "+"); ok {
		dur, err := time.ParseDuration(d)
		if err != nil || dur <= 0 {
			return time.Time{}, fmt.Errorf("--start-at %s: give a time (RFC 3339, e.g. 2026-11-26T01:00:00Z) or a positive delay from now (+30s)", s)
		}
		return now.Add(dur), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--start-at %s: give a time (RFC 3339, e.g. 2026-11-26T01:00:00Z) or a positive delay from now (+30s)", s)
	}
	return t, nil
}

// settleStartAt reads --start-at and --clock-ref (nil without --start-at): the offset against the reference is
// measured now, and a time already past is refused.
func settleStartAt(ctx context.Context, o *workload.Measuring, s *settings) (*startAt, error) {
	if o.StartAt == "" {
		if o.ClockRef != "" {
			return nil, fmt.Errorf("--clock-ref %s reads --start-at's time on the reference's clock: give --start-at too", agent.Where(o.ClockRef))
		}
		return nil, nil
	}
	sa := &startAt{}
	var err error
	if sa.at, err = parseStartAt(o.StartAt, time.Now()); err != nil {
		return nil, err
	}
	sa.local = sa.at
	if o.ClockRef != "" {
		off, err := agent.ClockOffset(ctx, o.ClockRef, s.agentTLS, 8)
		if err != nil {
			return nil, err
		}
		sa.clock, sa.local = &off, sa.at.Add(-off.Offset)
	}
	if ahead := time.Until(sa.local); ahead > maxStartAhead {
		return nil, fmt.Errorf("--start-at %s is %s ahead, more than a day ahead: give a time within %s (shards are started minutes ahead, e.g. +2m)", o.StartAt, ahead.Round(time.Minute), maxStartAhead)
	}
	if late := time.Since(sa.local); late >= 0 {
		return nil, fmt.Errorf("--start-at %s is already past (by %s): give a later time, or a delay such as +30s", sa.at.UTC().Format(time.RFC3339Nano), late.Round(time.Millisecond))
	}
	return sa, nil
}

// record writes the start and the clock's offset into a run's options (the merge corrects the shards'
// measured windows by the offset).
func (sa *startAt) record(opts map[string]any) {
	if sa == nil || opts == nil {
		return
	}
	opts["start_at"] = sa.at.UTC().Format(time.RFC3339Nano)
	if c := sa.clock; c != nil {
		opts["clock"] = map[string]any{"ref": c.Ref, "offset_ms": float64(c.Offset.Microseconds()) / 1000, "round_trip_ms": float64(c.RoundTrip.Microseconds()) / 1000}
	}
}

// wait waits until the local start, for a run that does not start its window itself.
func (sa *startAt) wait(ctx context.Context, out io.Writer) error {
	d := time.Until(sa.local)
	if d <= 0 {
		return fmt.Errorf("--start-at %s had passed (by %s) when the run was set up: give a later time", sa.at.UTC().Format(time.RFC3339Nano), (-d).Round(time.Millisecond))
	}
	fmt.Fprintf(out, "waiting %s for --start-at %s\n", d.Round(time.Millisecond), sa.at.UTC().Format(time.RFC3339Nano))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("%w while waiting for --start-at", workload.ErrAborted)
	case <-t.C:
		return nil
	}
}
