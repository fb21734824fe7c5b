// Package results is the back end of the commands that work on stored results rather than run anything:
// results list/show/export/merge/copy, compare, report, leaderboard and monitor's views (its checklist and
// report), and what the run commands share with them (the output files' kinds and the check before writing
// one, labels, the aggregate of several targets' metrics). It reads and writes the results store
// (internal/store) and renders through internal/output; it imports no workload and no method: the
// method imports it.
package results
