package runner

// CountsAgree reports whether a workload's count of its key work kept by the client and the database's own
// count over the measured window agree, and the difference allowed: the key transactions in flight at the
// window's two edges (atEdges, Measurement.KeyAtEdges: each committed on one side of an edge's database read
// and counted on the other, as many as ran while an edge lasted, which a loaded machine stretches) and 1% for
// the edges' rounding against the counter's reads. A workload's database cross-check uses it.
func CountsAgree(client, db, atEdges int64) (bool, int64) {
	tol := atEdges + max(client, db)/100
	d := client - db
	if d < 0 {
		d = -d
	}
	return d <= tol && db >= 0, tol
}
