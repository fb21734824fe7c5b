package runner

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// loggedStarts are a latency log's intended starts (µs since the epoch), sorted, and how many each user took.
func loggedStarts(t *testing.T, path string) (starts []int64, perUser map[int]int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	perUser = map[int]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		vu, err0 := strconv.Atoi(fs[0])
		s, err1 := strconv.ParseInt(fs[5], 10, 64)
		us, err2 := strconv.ParseInt(fs[6], 10, 64)
		if len(fs) != 7 || err0 != nil || err1 != nil || err2 != nil {
			t.Fatalf("latency log line %q", sc.Text())
		}
		starts = append(starts, s*1e6+us)
		perUser[vu]++
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	return starts, perUser
}

// One schedule per run, as pgbench -j 1: the intended starts of all virtual users together are ONE Poisson
// process at the whole rate, each arrival taken by whichever user is free (not a schedule per user at the
// rate, which would be users x the rate; nor one per user at rate/users, whose union is Poisson too but whose
// arrivals are not the run's one seeded schedule). Checked on a real run of 4 users on SQLite:
//   - the gaps between the users' intended starts, merged, have the mean 1/rate and the coefficient of
//     variation of an exponential (1) within five standard errors computed from their count (the mean's
//     1/sqrt(n) of it, the squared CV's 2/sqrt(n));
//   - every logged intended start is an arrival of the single schedule drawn from the run's seed, and all of
//     that schedule's arrivals between the first and the last logged one were taken (but for the few taken in
//     the ramp-up's last instant, before the window counted them), each by one user.
//
// Intended starts are the schedule's whatever the machine's speed (a slow machine only lags behind them),
// and the window is a count of transactions, so nothing here depends on how fast the machine is.
func TestOneScheduleForAllUsers(t *testing.T) {
	target, _ := openStallTarget(t)
	const vus, rate, n, seed = 4, 400.0, 1200, 77
	log := filepath.Join(t.TempDir(), "lat.log")
	m, err := Run(context.Background(), target, Config{VUs: vus, Duration: time.Hour, Interval: time.Second, Rate: rate, Seed: seed,
		Transactions: n, LatencyLog: log})
	if err != nil {
		t.Fatal(err)
	}
	starts, perUser := loggedStarts(t, log)
	if len(starts) != n || m.OpenLoop == nil || m.OpenLoop.Started != n {
		t.Fatalf("%d intended starts logged, open loop %+v: want %d", len(starts), m.OpenLoop, n)
	}
	if len(perUser) != vus {
		t.Fatalf("users that took arrivals: %v, want all %d", perUser, vus)
	}

	// the merged arrival process: Poisson at the whole rate
	var sum, sum2 float64
	for i := 1; i < len(starts); i++ {
		g := float64(starts[i]-starts[i-1]) / 1e6
		sum, sum2 = sum+g, sum2+g*g
	}
	k := float64(len(starts) - 1)
	mean := sum / k
	cv2 := (sum2/k - mean*mean) / (mean * mean)
	t.Logf("%d arrivals over %d users (%v): mean gap %.3f ms (1/rate %.3f ms), CV² %.3f", len(starts), vus, perUser, mean*1e3, 1e3/rate, cv2)
	if se := 1 / rate / math.Sqrt(k); math.Abs(mean-1/rate) > 5*se {
		t.Errorf("mean gap between all users' intended starts %.4f ms, want 1/rate = %.4f ms (± %.4f)", mean*1e3, 1e3/rate, 5*se*1e3)
	}
	if se := 2 / math.Sqrt(k); math.Abs(cv2-1) > 5*se {
		t.Errorf("squared coefficient of variation of the gaps %.3f, want 1 (± %.3f): exponential gaps", cv2, 5*se)
	}

	// the arrivals are the seeded schedule's: align the log's middle on the schedule, then find every logged
	// start among its arrivals (µs in the log: within 2 µs)
	ref := newSchedule(time.Unix(0, 0), rate, seed, 0)
	var at []int64 // the schedule's arrivals, ns from its start
	for range 4 * n {
		a, _ := ref.take(time.Unix(0, 0))
		at = append(at, a.UnixNano())
	}
	mid := len(starts) / 2
	near := func(ns int64) int { // the arrival nearest ns, or -1 if none is within 2 µs
		i := sort.Search(len(at), func(i int) bool { return at[i] >= ns })
		for _, j := range []int{i - 1, i} {
			if j >= 0 && j < len(at) && abs64(at[j]-ns) <= 2000 {
				return j
			}
		}
		return -1
	}
	base := int64(-1) // the logged middle start's arrival, ns from the schedule's start
	for a := range at {
		ok := true
		for j := mid + 1; j < mid+8 && ok; j++ {
			ok = near(at[a]+(starts[j]-starts[mid])*1000) >= 0
		}
		if ok {
			base = at[a]
			break
		}
	}
	if base < 0 {
		t.Fatal("the logged intended starts are not arrivals of the run's seeded schedule")
	}
	first, last := -1, -1
	for j, s := range starts {
		i := near(base + (s-starts[mid])*1000)
		if i < 0 {
			t.Fatalf("intended start %d of %d (%d µs from the middle one) is no arrival of the run's one schedule", j, len(starts), s-starts[mid])
		}
		if j == 0 {
			first = i
		}
		last = i
	}
	if missed := last - first + 1 - len(starts); missed < 0 || missed > vus {
		t.Errorf("the schedule had %d arrivals from the first logged start to the last, the users took %d: want each once, but for at most %d taken before the window counted", last-first+1, len(starts), vus)
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
