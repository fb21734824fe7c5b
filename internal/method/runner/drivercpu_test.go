package runner

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// The targets of a multi-target run share the process's GOMAXPROCS and GC setting: they are set for all the
// runs' virtual users together, and whatever order the runs end in, the settings from before are restored.
func TestDriverCPUIsSharedAndRestored(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	orig := runtime.GOMAXPROCS(0)
	if orig < 2 {
		runtime.GOMAXPROCS(2)
		defer runtime.GOMAXPROCS(orig)
		orig = 2
	}
	gc := debug.SetGCPercent(100)
	defer debug.SetGCPercent(gc)

	p1, release1 := HoldDriverCPU(false, 8)
	p2, release2 := HoldDriverCPU(false, 24) // 32 VUs together: two Ps
	if p1 != 1 || p2 != 2 || runtime.GOMAXPROCS(0) != 2 {
		t.Fatalf("procs %d then %d, GOMAXPROCS %d; want 1, then 2 for 32 VUs together", p1, p2, runtime.GOMAXPROCS(0))
	}
	release1() // the first to start ends first
	if runtime.GOMAXPROCS(0) != 2 {
		t.Fatalf("24 VUs left: GOMAXPROCS %d, want 2", runtime.GOMAXPROCS(0))
	}
	release2()
	release2() // twice is harmless
	if runtime.GOMAXPROCS(0) != orig || debug.SetGCPercent(100) != 100 {
		t.Fatalf("after the runs GOMAXPROCS is %d, want %d (and the GC setting restored)", runtime.GOMAXPROCS(0), orig)
	}
	if p, release := HoldDriverCPU(true, 1); p != orig {
		t.Fatalf("an embedded engine gets every CPU: %d, want %d", p, orig)
	} else {
		release()
	}
}
