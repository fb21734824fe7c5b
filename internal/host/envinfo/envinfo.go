// Package envinfo records the environment of a run: the machine (CPU model, sockets, cores, threads, NUMA
// nodes, memory, OS and kernel), the storage under an embedded database's file, the engine's version and the
// settings that matter for performance, and database-side counters read at the start and end of a run.
package envinfo

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// Scope is the system metrics' scope for a target.
func Scope(t *engine.Target) string {
	if t.Local() {
		return "database and client (the database runs on this machine)"
	}
	return "client only (the database runs on another machine)"
}

// Machine fingerprints this machine.
func Machine(ctx context.Context) *result.Environment {
	e := &result.Environment{Settings: map[string]string{}}
	if h, err := host.InfoWithContext(ctx); err == nil {
		e.Host, e.OS, e.Kernel = h.Hostname, h.OS, h.KernelVersion
		e.Platform = strings.TrimSpace(h.Platform + " " + h.PlatformVersion)
		e.Virtualization = strings.TrimSpace(h.VirtualizationSystem + " " + h.VirtualizationRole)
	}
	e.CPU = CPU(ctx)
	e.CPU.Host, e.CPU.Source = e.Host, "this machine"
	e.CPUModel, e.Sockets, e.Cores = e.CPU.Model, e.CPU.Sockets, e.CPU.PhysicalCores
	e.Threads, _ = cpu.CountsWithContext(ctx, true)
	if m, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		e.MemoryBytes = m.Total
	}
	if nodes, err := filepath.Glob("/sys/devices/system/node/node[0-9]*"); err == nil {
		e.NUMANodes = len(nodes)
	}
	return e
}

// storage finds the filesystem and device holding path.
func storage(ctx context.Context, path string) *result.Storage {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	parts, err := disk.PartitionsWithContext(ctx, true)
	if err != nil {
		return nil
	}
	var best disk.PartitionStat
	for _, p := range parts {
		if (abs == p.Mountpoint || strings.HasPrefix(abs, strings.TrimSuffix(p.Mountpoint, "/")+"/")) && len(p.Mountpoint) > len(best.Mountpoint) {
			best = p
		}
	}
	if best.Mountpoint == "" {
		return &result.Storage{Path: abs}
	}
	return &result.Storage{Path: abs, Mount: best.Mountpoint, Filesystem: best.Fstype, Device: best.Device}
}

// LocalHost is the database host fingerprint's source when the database runs on this machine.
const LocalHost = "this machine (the database runs here)"

// Collect fingerprints the machine and the target. db may be nil (the engine part is then left empty).
func Collect(ctx context.Context, t *engine.Target, db *sql.DB, engineVersion string) *result.Environment {
	e := Machine(ctx)
	e.Engine, e.EngineVersion = t.Engine.Name, engineVersion
	e.DatabaseLocal = t.Local()
	if e.DatabaseLocal && e.CPU != nil {
		h := *e.CPU
		h.Source = LocalHost
		e.DBHost = &h
	}
	if t.Engine.Embedded {
		e.Storage = storage(ctx, t.Path)
	}
	if db != nil {
		e.Settings = t.Engine.Settings(ctx, db)
	}
	return e
}

// Delta builds the start/end/change record.
func Delta(start, end map[string]float64) *result.DBCounters {
	if start == nil || end == nil {
		return nil
	}
	d := &result.DBCounters{Start: start, End: end, Delta: map[string]float64{}}
	for k, v := range end {
		if s, ok := start[k]; ok && !engine.Gauge(k) { // a level's change says nothing
			d.Delta[k] = v - s
		}
	}
	return d
}
