package tpcc_test

import (
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// Builds take most of this package's time. A test that runs on a TPC-C build without testing the build itself
// takes one made once: on SQLite a copy of one build file (builtSQLite), on a server the build an earlier test
// left intact (builtOn). The tests that test the build, or that need a database no run has touched, still
// build their own.

// builtSQLite copies the one TPC-C build into a SQLite file of the test's own and returns its path.
func builtSQLite(t *testing.T) string { return clitest.TPCCCopy(t) }

// intact holds, by URL, whether a server database holds a 1-warehouse TPC-C build as built, or as runs left it
// (runs keep its consistency conditions and row counts): *serverBuild values.
var intact sync.Map

type serverBuild struct {
	sync.Mutex
	ok bool
}

func buildOf(url string) *serverBuild {
	b, _ := intact.LoadOrStore(url, &serverBuild{})
	return b.(*serverBuild)
}

// builtOn makes sure url holds an intact 1-warehouse build, building it only when no earlier test left one. A
// test that fails on it leaves it spoilt (the next one builds anew).
func builtOn(t *testing.T, url string) {
	t.Helper()
	b := buildOf(url)
	b.Lock()
	defer b.Unlock()
	if !b.ok {
		clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--drop")
		b.ok = true
	}
	t.Cleanup(func() {
		if t.Failed() {
			spoilt(url)
		}
	})
}

// spoilt says url no longer holds an intact build: a test changed it (dropped, tampered with, rebuilt).
func spoilt(url string) { setIntact(url, false) }

// built says a test's own build of url is intact: the next test may run on it.
func built(url string) { setIntact(url, true) }

func setIntact(url string, ok bool) {
	b := buildOf(url)
	b.Lock()
	defer b.Unlock()
	b.ok = ok
}

// progress is a run's progress line: the elapsed seconds, the phase, the rate's name and the rate of the
// interval ("   12.0s/5m1s ETA 4m49s measure client TPM    26280 ...").
var progress = regexp.MustCompile(`^\s*([0-9.]+)s\S* .*?\b(ramp-up|measure) (\S+(?: TPM)?)\s+([0-9]+)`)

// measuring is a watch (clitest.RunWatching) that calls do once, on the writing goroutine, at the first
// progress line of the measured window that counts work: a test acts once the run is measuring, however slow
// the machine is, not after a sleep a loaded machine outlasts.
func measuring(do func()) func(string) {
	var once sync.Once
	return func(line string) {
		if m := progress.FindStringSubmatch(line); m != nil && m[2] == "measure" && m[4] != "0" {
			once.Do(do)
		}
	}
}

// windowOver is a watch that calls do once, on the writing goroutine, at the first progress line at or after
// the end of the measured window: the line "Ns ramp-up done, measuring" says when (since the run's start) the
// window began, the line "running ...: ramp-up R, measured D" how long it is (a ramp-up a loaded machine
// outlasts moves the window, not the progress lines' totals).
func windowOver(do func()) func(string) {
	var once sync.Once
	var window, began float64 = -1, -1
	return func(line string) {
		if m := measured.FindStringSubmatch(line); m != nil {
			if d, err := time.ParseDuration(m[1]); err == nil {
				window = d.Seconds()
			}
		}
		if m := windowBegan.FindStringSubmatch(line); m != nil {
			began, _ = strconv.ParseFloat(m[1], 64)
		}
		m := progress.FindStringSubmatch(line)
		if m == nil || window < 0 || began < 0 || m[2] != "measure" {
			return
		}
		if el, err := strconv.ParseFloat(m[1], 64); err == nil && el >= began+window {
			once.Do(do)
		}
	}
}

var (
	measured    = regexp.MustCompile(`^running .*, measured ([0-9a-zµ.]+)$`)
	windowBegan = regexp.MustCompile(`^\s*([0-9.]+)s ramp-up done, measuring`)
)

// watchAll hands each line to every watch (nil ones left out).
func watchAll(ws ...func(string)) func(string) {
	return func(line string) {
		for _, w := range ws {
			if w != nil {
				w(line)
			}
		}
	}
}

// event is work a watch starts in a goroutine of its own (so that the run's output goes on meanwhile): fire
// starts it once, wait waits for it after the run and says whether it was started.
type event struct {
	do    func()
	fired atomic.Bool
	done  sync.WaitGroup
}

func (e *event) fire() {
	if e.fired.CompareAndSwap(false, true) {
		e.done.Add(1)
		go func() { defer e.done.Done(); e.do() }()
	}
}

// wait is called once the run returned (every fire has then returned too).
func (e *event) wait() bool {
	e.done.Wait()
	return e.fired.Load()
}
