-- PostgreSQL: the transactions are PL/pgSQL functions (procs.sql), called in a SELECT that returns their outputs.
-- name: proc_new_order(w_id, d_id, c_id, ol_cnt, all_local, items, supply, qty)
SELECT out_total, out_rolled_back FROM dbdyno_new_order(:w_id, :d_id, :c_id, :ol_cnt, :all_local, :items, :supply, :qty);
-- name: proc_payment(w_id, d_id, c_w_id, c_d_id, c_id, byname, c_last, amount)
SELECT out_c_id, out_balance FROM dbdyno_payment(:w_id, :d_id, :c_w_id, :c_d_id, :c_id, :byname, :c_last, :amount);
-- name: proc_order_status(w_id, d_id, c_id, byname, c_last)
SELECT out_c_id, out_lines FROM dbdyno_order_status(:w_id, :d_id, :c_id, :byname, :c_last);
-- name: proc_delivery(w_id, carrier_id)
SELECT out_delivered FROM dbdyno_delivery(:w_id, :carrier_id);
-- name: proc_stock_level(w_id, d_id, threshold)
SELECT out_low_stock FROM dbdyno_stock_level(:w_id, :d_id, :threshold);
