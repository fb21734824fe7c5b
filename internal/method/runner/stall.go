package runner

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// StallLimit is how long virtual users' work may be in flight with none of it completing before the run is
// stalled: the progress interval (the run's own unit of "nothing happened"), at most a quarter of the measured
// time (a window frozen for its second half must show), at least a second (no OLTP unit of work takes that
// long on a server that answers).
func StallLimit(interval, duration time.Duration) time.Duration {
	limit := interval
	if q := duration / 4; q > 0 && q < limit {
		limit = q
	}
	return max(limit, time.Second)
}

// stallWatch sees the work in flight: each virtual user's slot holds when its unit of work began (unix
// nanoseconds; 0 while it keys, thinks or reconnects). A measured progress interval is idle when no work
// completed in it although some was in flight for all of it. When the measured window ends after more than the
// limit without a completion, the work in flight for longer than the limit never completed. Work that waits
// its turn while other work completes (many users queued for one writer's lock) is slow, not stalled.
type stallWatch struct {
	limit       time.Duration
	progress    io.Writer    // where a stalled interval is reported as it happens
	completions atomic.Int64 // units of work finished since the last progress interval
	last        atomic.Int64 // when the last unit of work finished (unix ns; the run's start before the first)

	mu       sync.Mutex
	slots    []*atomic.Int64
	offline  []*atomic.Int64 // per user, since when (unix ns) it is without a connection; 0 while it has one
	idle     int
	inFlight int
	lost     int // users without a connection for longer than the limit when the measured window ended
	longest  time.Duration
}

// slot is one virtual user's record of its work in flight, and of the time since it lost its connection (a
// user reconnecting is work that does not complete, whichever workload it runs: ping, script and tpce ended a
// window the server had left "ok", their users reconnecting until it ended).
func (s *stallWatch) slot() (inFlight, offline *atomic.Int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, o := new(atomic.Int64), new(atomic.Int64)
	s.slots = append(s.slots, v)
	s.offline = append(s.offline, o)
	return v, o
}

// oldestOffline is since when the user longest without a connection has been so, and how many are (0, 0: none).
func (s *stallWatch) oldestOffline() (int64, int) {
	var o int64
	n := 0
	for _, v := range s.offline {
		if t := v.Load(); t != 0 {
			n++
			if o == 0 || t < o {
				o = t
			}
		}
	}
	return o, n
}

func (s *stallWatch) completed() {
	s.completions.Add(1)
	s.last.Store(time.Now().UnixNano())
}

// oldest is when the oldest unit of work in flight began (0: none in flight).
func (s *stallWatch) oldest() int64 {
	var o int64
	for _, v := range s.slots {
		if t := v.Load(); t != 0 && (o == 0 || t < o) {
			o = t
		}
	}
	return o
}

// tick closes the progress interval that began at from and ends at now, and tells a stalled one.
func (s *stallWatch) tick(from, now time.Time, measured bool) {
	if msg := s.judge(from, now, measured); msg != "" && s.progress != nil {
		fmt.Fprint(s.progress, msg)
	}
}

// judge closes the progress interval that began at from and ends at now: the line telling it stalled, "" when
// it is not.
func (s *stallWatch) judge(from, now time.Time, measured bool) string {
	n := s.completions.Swap(0)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !measured || n > 0 {
		return ""
	}
	// a unit in flight all of the interval and for longer than the limit: a shorter wait (a lock held 0.9 s on a
	// loaded machine, in a 0.5 s interval) is slow, not stalled
	if o := s.oldest(); o != 0 && o <= from.UnixNano() && now.Sub(time.Unix(0, o)) > s.limit {
		s.idle++
		d := now.Sub(time.Unix(0, o))
		s.longest = max(s.longest, d)
		return fmt.Sprintf("STALLED: nothing completed in the last %.1fs; work in flight for %.1fs\n", now.Sub(from).Seconds(), d.Seconds())
	}
	if o, n := s.oldestOffline(); o != 0 && o <= from.UnixNano() && now.Sub(time.Unix(0, o)) > s.limit {
		s.idle++
		d := now.Sub(time.Unix(0, o))
		s.longest = max(s.longest, d)
		return fmt.Sprintf("STALLED: nothing completed in the last %.1fs; %d of %d virtual user(s) without a connection, the longest for %.1fs\n",
			now.Sub(from).Seconds(), n, len(s.offline), d.Seconds())
	}
	return ""
}

// windowEnd counts the work in flight for longer than the limit when the measured window ended at end.
func (s *stallWatch) windowEnd(end time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if end.Sub(time.Unix(0, s.last.Load())) <= s.limit {
		return // work was completing: what is in flight is queued or slow, not stalled
	}
	for _, v := range s.slots {
		if t := v.Load(); t != 0 {
			if d := end.Sub(time.Unix(0, t)); d > s.limit {
				s.inFlight++
				s.longest = max(s.longest, d)
			}
		}
	}
	for _, v := range s.offline {
		if t := v.Load(); t != 0 {
			if d := end.Sub(time.Unix(0, t)); d > s.limit {
				s.lost++
				s.longest = max(s.longest, d)
			}
		}
	}
}

// result is the stall for the measurement, nil when the run did not stall.
func (s *stallWatch) result() *result.Stall {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idle == 0 && s.inFlight == 0 && s.lost == 0 {
		return nil
	}
	return &result.Stall{LimitS: s.limit.Seconds(), IdleIntervals: s.idle, InFlight: s.inFlight, Disconnected: s.lost, LongestS: round1(s.longest.Seconds())}
}
