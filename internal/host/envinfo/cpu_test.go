package envinfo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// lscpu reads lscpu's "Key: value" lines.
func lscpu(t *testing.T) map[string]string {
	out, err := exec.Command("lscpu").Output()
	if err != nil {
		t.Skipf("no lscpu: %v", err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok {
			m[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return m
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("lscpu: %q: %v", s, err)
	}
	return n
}

// This machine's fingerprint agrees with lscpu's (model, sockets, cores, threads per core, max clock) and,
// without cpufreq, the base clock is /proc/cpuinfo's cpu MHz.
func TestCPUAgreesWithLscpu(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("lscpu and /proc/cpuinfo are Linux's")
	}
	l := lscpu(t)
	c := CPU(context.Background())
	sockets := atoi(t, l["Socket(s)"])
	if c.Model != l["Model name"] || c.Sockets != sockets || c.ThreadsPerCore != atoi(t, l["Thread(s) per core"]) ||
		c.PhysicalCores != sockets*atoi(t, l["Core(s) per socket"]) {
		t.Fatalf("fingerprint %+v, lscpu: model %q, sockets %s, cores per socket %s, threads per core %s", c, l["Model name"],
			l["Socket(s)"], l["Core(s) per socket"], l["Thread(s) per core"])
	}
	if v, ok := l["CPU max MHz"]; ok {
		want, _ := strconv.ParseFloat(v, 64)
		if c.MaxMHz != want {
			t.Fatalf("max MHz %g, lscpu %g", c.MaxMHz, want)
		}
	} else if c.MaxMHz != 0 {
		t.Fatalf("max MHz %g where lscpu shows none", c.MaxMHz)
	}
	if _, err := os.Stat("/sys/devices/system/cpu/cpu0/cpufreq"); err != nil && modelGHz(c.Model) == 0 {
		info, _ := os.ReadFile("/proc/cpuinfo")
		var first string
		for _, l := range strings.Split(string(info), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "cpu MHz" {
				first = strings.TrimSpace(v)
				break
			}
		}
		if want, _ := strconv.ParseFloat(first, 64); c.BaseMHz != want || !strings.Contains(c.MHzSource, "cpu MHz") {
			t.Fatalf("base %g MHz (%s), /proc/cpuinfo cpu MHz %s", c.BaseMHz, c.MHzSource, first)
		}
	}
	if c.BaseMHz <= 0 {
		t.Fatalf("no base clock: %+v", c)
	}
}

// With cpufreq, its base_frequency and cpuinfo_max_freq (kHz) are the clocks; without base_frequency the model
// name's "@ 2.90GHz" is the base.
func TestFrequenciesFromCpufreq(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("cpufreq is Linux's")
	}
	dir := t.TempDir()
	old := sysCPU
	sysCPU = dir
	t.Cleanup(func() { sysCPU = old })
	f := filepath.Join(dir, "cpu0", "cpufreq")
	os.MkdirAll(f, 0o755)
	os.WriteFile(filepath.Join(f, "cpuinfo_max_freq"), []byte("3800000\n"), 0o644)
	base, maxMHz, src := frequencies("Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz", 1200)
	if base != 2900 || maxMHz != 3800 || !strings.Contains(src, "model name") {
		t.Fatalf("base %g max %g (%s)", base, maxMHz, src)
	}
	os.WriteFile(filepath.Join(f, "base_frequency"), []byte("2600000\n"), 0o644)
	if base, maxMHz, src = frequencies("AMD EPYC", 1200); base != 2600 || maxMHz != 3800 || !strings.Contains(src, "base_frequency") {
		t.Fatalf("base %g max %g (%s)", base, maxMHz, src)
	}
	// cpufreq without base_frequency and a model name without a clock: the current clock is no base
	os.Remove(filepath.Join(f, "base_frequency"))
	if base, _, _ = frequencies("AMD EPYC", 1200); base != 0 {
		t.Fatalf("base %g from a scaled current clock", base)
	}
}
