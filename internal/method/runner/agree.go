package runner

// CountsAgree reports whether a workload's count of its key work kept by the client and the database's own
// count over the measured window agree, and the difference allowed: the units in flight at the window's two
// edges (at most one per virtual user at each, committed on one side of an edge and counted on the other) and
// 1% for the edges' rounding against the counter's reads. A workload's database cross-check uses it.
func CountsAgree(client, db int64, vus int) (bool, int64) {
	tol := 2*int64(vus) + max(client, db)/100
	d := client - db
	if d < 0 {
		d = -d
	}
	return d <= tol && db >= 0, tol
}
