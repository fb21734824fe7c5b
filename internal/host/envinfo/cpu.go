package envinfo

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/shirou/gopsutil/v4/cpu"
)

// sysCPU is where Linux describes the processors (a variable for tests).
var sysCPU = "/sys/devices/system/cpu"

// CPU fingerprints this machine's processor: model, sockets, physical cores, threads per core (the most
// logical processors any one core has, as lscpu counts them), base and maximum clock.
func CPU(ctx context.Context) *result.CPU {
	c := &result.CPU{}
	infos, _ := cpu.InfoWithContext(ctx)
	c.PhysicalCores, _ = cpu.CountsWithContext(ctx, false)
	threads, _ := cpu.CountsWithContext(ctx, true)
	if len(infos) > 0 {
		c.Model = strings.TrimSpace(infos[0].ModelName)
		sockets, perCore := map[string]bool{}, map[string]int{}
		for _, i := range infos {
			sockets[i.PhysicalID] = true
			if i.CoreID != "" {
				perCore[i.PhysicalID+"/"+i.CoreID]++
			}
		}
		c.Sockets = len(sockets)
		// one entry per logical processor (Linux): the most siblings any core has
		if len(infos) == threads {
			for _, n := range perCore {
				c.ThreadsPerCore = max(c.ThreadsPerCore, n)
			}
		}
	}
	if c.ThreadsPerCore == 0 && c.PhysicalCores > 0 && threads > 0 {
		c.ThreadsPerCore = (threads + c.PhysicalCores - 1) / c.PhysicalCores
	}
	var reported float64
	if len(infos) > 0 {
		reported = infos[0].Mhz
	}
	c.BaseMHz, c.MaxMHz, c.MHzSource = frequencies(c.Model, reported)
	return c
}

// atGHz is the nominal clock some model names carry ("Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz").
var atGHz = regexp.MustCompile(`@\s*([0-9]+(?:\.[0-9]+)?)\s*GHz`)

// frequencies are the base and maximum clock in MHz and where they were read. On Linux: cpufreq's
// base_frequency and cpuinfo_max_freq; else the base from the model name; on a host without cpufreq (most
// virtual machines) the kernel's cpu MHz, the fixed clock it was given, is the base and the maximum is unknown.
// Elsewhere the clock the OS reports (gopsutil's) is the base.
func frequencies(model string, reported float64) (base, maxMHz float64, source string) {
	var from []string
	if runtime.GOOS == "linux" {
		dir := filepath.Join(sysCPU, "cpu0", "cpufreq")
		if v := kHz(filepath.Join(dir, "cpuinfo_max_freq")); v > 0 {
			maxMHz = v
			from = append(from, "max from cpufreq cpuinfo_max_freq")
		}
		if v := kHz(filepath.Join(dir, "base_frequency")); v > 0 {
			base = v
			from = append(from, "base from cpufreq base_frequency")
		}
		_, err := os.Stat(dir)
		switch {
		case base > 0:
		case modelGHz(model) > 0:
			base = modelGHz(model)
			from = append(from, "base from the model name")
		case err != nil && reported > 0:
			base = reported
			from = append(from, "base from /proc/cpuinfo cpu MHz (no cpufreq: the clock the kernel was given)")
		}
		return base, maxMHz, strings.Join(from, "; ")
	}
	if base = modelGHz(model); base > 0 {
		from = append(from, "base from the model name")
	} else if reported > 0 {
		base = reported
		from = append(from, "base as the OS reports it")
	}
	return base, maxMHz, strings.Join(from, "; ")
}

func modelGHz(model string) float64 {
	if m := atGHz.FindStringSubmatch(model); m != nil {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil {
			return v * 1000
		}
	}
	return 0
}

// kHz reads a cpufreq file (kHz) as MHz; 0 when absent.
func kHz(path string) float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil || v <= 0 {
		return 0
	}
	return v / 1000
}
