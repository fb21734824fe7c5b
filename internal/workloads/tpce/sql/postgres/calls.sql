-- PostgreSQL: each frame is a PL/pgSQL function of procs.sql, called in a SELECT that returns its outputs.
-- name: proc_bv1(b_lo, b_hi, sc_name)
SELECT * FROM dbdyno_tpce_bv1(:b_lo, :b_hi, :sc_name);
-- name: proc_cp1(by_tax, c_id, tax_id)
SELECT * FROM dbdyno_tpce_cp1(:by_tax, :c_id, :tax_id);
-- name: proc_cp2(ca_id)
SELECT * FROM dbdyno_tpce_cp2(:ca_id);
-- name: proc_mw1(kind, c_id, ca_id, in_name, co_lo, co_hi, day)
SELECT * FROM dbdyno_tpce_mw1(:kind, :c_id, :ca_id, :in_name, :co_lo, :co_hi, :day);
-- name: proc_sd1(symb, co_id, day, lob)
SELECT * FROM dbdyno_tpce_sd1(:symb, :co_id, :day, :lob);
-- name: proc_tl1(update, t_lo, t_hi)
SELECT * FROM dbdyno_tpce_tl1(:update, :t_lo, :t_hi);
-- name: proc_tl2(update, ca_id, start, end)
SELECT * FROM dbdyno_tpce_tl2(:update, :ca_id, :start, :end);
-- name: proc_tl3(update, symb, start, end)
SELECT * FROM dbdyno_tpce_tl3(:update, :symb, :start, :end);
-- name: proc_tl4(ca_id, start)
SELECT * FROM dbdyno_tpce_tl4(:ca_id, :start);
-- name: proc_ts1(ca_id)
SELECT * FROM dbdyno_tpce_ts1(:ca_id);
-- name: proc_to1(ca_id)
SELECT * FROM dbdyno_tpce_to1(:ca_id);
-- name: proc_to2(ca_id, tax_id)
SELECT * FROM dbdyno_tpce_to2(:ca_id, :tax_id);
-- name: proc_to3(by_name, symb, co_name, issue, ca_id, c_id, tier, tt_id, qty, tax, margin)
SELECT * FROM dbdyno_tpce_to3(:by_name, :symb, :co_name, :issue, :ca_id, :c_id, :tier, :tt_id, :qty, :tax, :margin);
-- name: proc_to4(t_id, dts, st_id, tt_id, is_cash, symb, qty, bid, ca_id, exec_name, chrg, comm, lifo, pending, b_id)
SELECT * FROM dbdyno_tpce_to4(:t_id, :dts, :st_id, :tt_id, :is_cash, :symb, :qty, :bid, :ca_id, :exec_name, :chrg, :comm, :lifo, :pending, :b_id);
-- name: proc_tr1(t_id)
SELECT * FROM dbdyno_tpce_tr1(:t_id);
-- name: proc_tr2(t_id, ca_id, symb, qty, sell, lifo, price, dts, hs_qty, has_hs)
SELECT * FROM dbdyno_tpce_tr2(:t_id, :ca_id, :symb, :qty, :sell, :lifo, :price, :dts, :hs_qty, :has_hs);
-- name: proc_tr3(t_id, c_id, gain)
SELECT * FROM dbdyno_tpce_tr3(:t_id, :c_id, :gain);
-- name: proc_tr4(tier, tt_id, ex_id, qty)
SELECT * FROM dbdyno_tpce_tr4(:tier, :tt_id, :ex_id, :qty);
-- name: proc_tr5(t_id, comm, dts, price, b_id)
SELECT * FROM dbdyno_tpce_tr5(:t_id, :comm, :dts, :price, :b_id);
-- name: proc_tr6(t_id, is_cash, due, amt, ca_id, dts, ct_name)
SELECT * FROM dbdyno_tpce_tr6(:t_id, :is_cash, :due, :amt, :ca_id, :dts, :ct_name);
-- name: proc_mf1(symb, price, qty, dts)
SELECT * FROM dbdyno_tpce_mf1(:symb, :price, :qty, :dts);
-- name: proc_dm1(tbl, id, key, txt, day, dts, vol)
SELECT * FROM dbdyno_tpce_dm1(:tbl, :id, :key, :txt, :day, :dts, :vol);
-- name: proc_tc1(dts, first, shards, residue)
SELECT * FROM dbdyno_tpce_tc1(:dts, :first, :shards, :residue);
