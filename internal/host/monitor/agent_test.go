package monitor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/store"
)

// startAgent runs a dbdyno agent on 127.0.0.1 (a port of its own) with a token, until the test ends.
func startAgent(t *testing.T, token string) string {
	url, _ := startAgentAt(t, token, "127.0.0.1:0")
	return url
}

// startAgentAt runs an agent listening on addr until stop is called or the test ends.
func startAgentAt(t *testing.T, token, listen string) (url string, stop func()) {
	tf := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tf, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := agent.New(context.Background(), agent.Options{Listen: listen, TokenFile: tf, Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr, done := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(done)
		if err := s.Serve(ctx, os.Stderr, func(a string) { addr <- a }); err != nil {
			t.Error(err)
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return "http://" + <-addr, stop
}

// dbdyno monitor --agent records the agent host's raw counters: the same whole disks as its /proc/diskstats,
// its memory, intervals of about --interval by the agent's clock, the random share said not measured (the
// trace is the host's own); a wrong token is refused in one line that does not hold it.
func TestMonitorThroughAgent(t *testing.T) {
	if _, err := os.Stat("/proc/diskstats"); err != nil {
		t.Skip("no /proc/diskstats:", err)
	}
	const token = "monitor-agent-t0ken-never-shown"
	url := startAgent(t, token)
	c, err := agent.NewClient(url, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var got []Sample
	n, err := Record(ctx, st, Options{Name: "remote", Interval: 200 * time.Millisecond, Duration: 600 * time.Millisecond, Agent: c, Stored: func(s Sample) { got = append(got, s) }})
	if err != nil || n != 3 {
		t.Fatalf("%d intervals: %v", n, err)
	}
	local, _ := os.ReadFile("/proc/diskstats")
	disks, _ := ParseDiskstats(strings.NewReader(string(local)))
	_, memTotal, _ := func() (uint64, uint64, error) { b, _ := os.ReadFile("/proc/meminfo"); return memory(string(b)) }()
	for i, s := range got {
		for d := range disks {
			if _, ok := s.Devices[d]; WholeDisk(d) && !ok {
				t.Errorf("interval %d lacks the agent host's disk %s", i, d)
			}
		}
		if s.MemTotal != memTotal || s.CPU < 0 || s.CPU > 100 || s.Seconds < 0.1 || s.Seconds > 5 {
			t.Errorf("interval %d: mem total %d (want %d), CPU %g, %g s", i, s.MemTotal, memTotal, s.CPU, s.Seconds)
		}
	}
	if !got[0].First || !strings.Contains(got[0].NoTrace, "through its agent") {
		t.Errorf("first interval: first %v, no trace %q", got[0].First, got[0].NoTrace)
	}
	cl, err := ChecklistOf(ctx, st, "remote", nil, nil, 1, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := cl.Periods[0].Row(KeyRandomPct); !strings.Contains(r.NotMeasured, "through its agent") {
		t.Errorf("random row: %q", r.NotMeasured)
	}
	if r, _ := cl.Periods[0].Row(KeyIOPS); r.Stat == nil {
		t.Errorf("no IOPS through the agent: %s", r.NotMeasured)
	}
	// a wrong token
	bad, _ := agent.NewClient(url, "wrong-token-also-never-shown", nil)
	_, err = Record(ctx, st, Options{Name: "bad", Interval: 200 * time.Millisecond, Duration: 200 * time.Millisecond, Agent: bad})
	if err == nil || !strings.Contains(err.Error(), "refused the token") || strings.Contains(err.Error(), "never-shown") || strings.Contains(err.Error(), "\n") {
		t.Errorf("wrong token: %v", err)
	}
	_, err = Record(ctx, st, Options{Name: "bad", Interval: 200 * time.Millisecond, Duration: 200 * time.Millisecond, Agent: c, Trace: "on"})
	if err == nil || !strings.Contains(err.Error(), "--block-trace on: the block layer is traced on the host itself") {
		t.Errorf("--block-trace on through an agent: %v", err)
	}
}

// signal is a status writer that says when a text has been written.
type signal struct {
	mu   sync.Mutex
	text string
	seen chan struct{}
	all  strings.Builder
}

func (s *signal) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.all.Write(b)
	if s.seen != nil && strings.Contains(s.all.String(), s.text) {
		close(s.seen)
		s.seen = nil
	}
	return len(b), nil
}

// An agent that goes away mid-recording leaves a gap: the monitor says so, keeps asking, and when an agent
// answers again at the address it resumes; the intervals before and after are kept, the first after the gap
// marked first, none spanning it.
func TestMonitorAgentGap(t *testing.T) {
	if _, err := os.Stat("/proc/diskstats"); err != nil {
		t.Skip("no /proc/diskstats:", err)
	}
	const token = "monitor-agent-t0ken-never-shown"
	url, stop := startAgentAt(t, token, "127.0.0.1:0")
	c, _ := agent.NewClient(url, token, nil)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	status := &signal{text: "recording resumes when it answers", seen: make(chan struct{})}
	seen := status.seen
	var got []Sample
	o := Options{Name: "gap", Interval: 200 * time.Millisecond, Duration: 5 * 200 * time.Millisecond, Agent: c, Status: status,
		Stored: func(s Sample) {
			got = append(got, s)
			if len(got) == 2 {
				stop() // the agent goes away
			}
		}}
	back := make(chan struct{})
	go func() { // when the monitor has noticed, an agent answers again at the same address
		defer close(back)
		<-seen
		startAgentAt(t, token, strings.TrimPrefix(url, "http://"))
	}()
	n, err := Record(ctx, st, o)
	<-back
	if err != nil || n != 5 {
		t.Fatalf("%d intervals: %v\n%s", n, err, status.all.String())
	}
	if !strings.Contains(status.all.String(), "agent "+url+" is back") {
		t.Errorf("status: %s", status.all.String())
	}
	firsts := 0
	for i, s := range got {
		if s.First {
			firsts++
		}
		if i > 0 && s.At.Add(-dur(s.Seconds)).Before(got[i-1].At.Add(-time.Millisecond)) {
			t.Errorf("interval %d starts before the previous one ended", i)
		}
	}
	// the time the agent was away is in no interval: the first after the gap starts at least an interval
	// after the last before it ended
	if len(got) > 2 && got[2].At.Add(-dur(got[2].Seconds)).Sub(got[1].At) < 200*time.Millisecond {
		t.Errorf("the interval after the gap (%g s, ending %v) covers the gap after %v", got[2].Seconds, got[2].At, got[1].At)
	}
	if !got[0].First || !got[2].First || firsts != 2 {
		t.Errorf("first marks: %v %v, %d in all; want the first interval and the first after the gap", got[0].First, got[2].First, firsts)
	}
}
