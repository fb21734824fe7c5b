package ycsb

import (
	"fmt"

	"github.com/dbdyno/dbdyno/internal/workload"
)

// whole is a configuration's share of work before its shard narrowed it (--shard I/N): what the run's options
// record, so that every shard of one run records the same work and the merge takes them together.
type whole struct {
	on                                       bool
	insertStart, insertCount, operationCount int64
}

// narrow makes a configuration its shard's share of the work (--shard I/N): a load's records are the I-th of N
// even ranges of insertstart .. insertstart+insertcount (what YCSB's several loading drivers are given by hand,
// as insertstart and insertcount), a run's operations the I-th share of operationcount over all the records,
// from a random stream of the shard's own. A run whose workload inserts is refused: each process counts its own
// inserts on from the records loaded (YCSB's transactioninsertkeysequence), so the shards' inserts would take the
// same keys.
func (cfg *Config) narrow(phase string, sh workload.Shard) error {
	if !sh.On() {
		return nil
	}
	cfg.whole = whole{on: true, insertStart: cfg.InsertStart, insertCount: cfg.InsertCount, operationCount: cfg.OperationCount}
	switch phase {
	case "load":
		if err := sh.Check(int(cfg.InsertCount), "records"); err != nil {
			return err
		}
		lo, hi := sh.Range(int(cfg.InsertCount))
		cfg.InsertStart, cfg.InsertCount = cfg.InsertStart+int64(lo), int64(hi-lo)
	case "run":
		if cfg.Proportions[opInsert] > 0 {
			return fmt.Errorf("--shard %s: the workload inserts (insertproportion=%g), and each process would count its inserts on from the same key: run it from one process, or shard a workload without inserts (a, b, c, f)", sh, cfg.Proportions[opInsert])
		}
		if cfg.OperationCount > 0 {
			if err := sh.Check(int(cfg.OperationCount), "operations"); err != nil {
				return err
			}
			lo, hi := sh.Range(int(cfg.OperationCount))
			cfg.OperationCount = int64(hi - lo)
		}
	}
	return nil
}

// recordShard writes the shard's share into a run's options (Shard.Record) and the whole run's counts under
// YCSB's names.
func (cfg *Config) recordShard(o map[string]any, phase string, sh workload.Shard) {
	if !cfg.whole.on {
		return
	}
	o["insertstart"], o["insertcount"] = cfg.whole.insertStart, cfg.whole.insertCount
	if phase == "load" {
		sh.Record(o, "records", int(cfg.whole.insertCount), int(cfg.whole.insertStart))
		return
	}
	o["operationcount"] = cfg.whole.operationCount
	if cfg.whole.operationCount > 0 {
		sh.Record(o, "operations", int(cfg.whole.operationCount), 1)
	} else {
		sh.Record(o, "shares", sh.N, 1)
	}
}
