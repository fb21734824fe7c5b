package tpcc

import (
	"fmt"

	"github.com/dbdyno/dbdyno/internal/method/runner"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// CrossCheck fails a run whose new orders counted by the client disagree with the database's own count, the
// change in sum(d_next_o_id) over the measured window (new_orders_db). They may differ by the New-Orders in
// flight at the window's two edges as the runner counted them (committed on one side of an edge's read and
// counted on the other: as many as ran while an edge lasted, more than one per virtual user on a loaded
// machine), and by a 1% margin for the rounding of the window's edges against the counter's
// reads; anything beyond is another writer, a rebuilt or tampered table, or transactions the client counted
// that the database did not keep.
func (s *runSession) CrossCheck(m *result.Measurement, fig map[string]any) error {
	db, ok := fig["new_orders_db"].(int64)
	if !ok {
		return nil
	}
	client := m.Transactions[TxNames[NewOrder]].Count
	if s.wl.Options().Shard.On() {
		// a shard's database count holds the other shards' new orders too: it holds at least this shard's
		if tol := m.KeyAtEdges; db+tol < client {
			return fmt.Errorf("the database counted %d new orders in the measured window and this shard's client %d: fewer than the shard's own (by more than the %d in flight at the window's edges): lost commits or a rebuilt table", db, client, tol)
		}
		return nil
	}
	if ok, tol := runner.CountsAgree(client, db, m.KeyAtEdges); !ok {
		return fmt.Errorf("the database counted %d new orders in the measured window and the client %d: they differ by more than %d (the %d in flight at the window's edges and 1%%): another writer, a rebuilt or changed table, or lost commits", db, client, tol, m.KeyAtEdges)
	}
	return nil
}
