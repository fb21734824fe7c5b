-- SQLite: a transaction takes the write lock at its start, so writers queue for it instead of deadlocking.
-- name: begin_write
BEGIN IMMEDIATE;
-- The write lock is the transaction's from its start, so Trade-Result reads the position without FOR UPDATE.
-- name: tr_hs(ca_id, symb)
SELECT hs_qty FROM holding_summary WHERE hs_ca_id = :ca_id AND hs_s_symb = :symb;
-- name: tr_lots_lifo(ca_id, symb)
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = :ca_id AND h_s_symb = :symb ORDER BY h_dts DESC, h_t_id DESC;
-- name: tr_lots_fifo(ca_id, symb)
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = :ca_id AND h_s_symb = :symb ORDER BY h_dts, h_t_id;
