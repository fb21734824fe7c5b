// Package tpcc is the TPC-C-derived OLTP workload: the specification's nine tables loaded by our own
// generator (its NURand constants, its 10% of item's original data), its five transactions as client-side SQL
// or one stored-procedure call each, terminals with the specification's keying and think times when asked
// (--keying-thinking) or back to back as HammerDB's TPROC-C drives them, the consistency conditions after a run
// (--check), and NOPM and TPM, the latter also as HammerDB reads it from the server's transaction counters.
// It is TPC-C-derived: not audited, and its figures are not TPC-C results.
package tpcc
