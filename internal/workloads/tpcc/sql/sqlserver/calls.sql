-- SQL Server: the stored procedures of procs.sql, each returning its outputs as one row.
-- name: proc_new_order(w_id, d_id, c_id, ol_cnt, all_local, items, supply, qty)
EXEC dbdyno_new_order :w_id, :d_id, :c_id, :ol_cnt, :all_local, :items, :supply, :qty;
-- name: proc_payment(w_id, d_id, c_w_id, c_d_id, c_id, byname, c_last, amount)
EXEC dbdyno_payment :w_id, :d_id, :c_w_id, :c_d_id, :c_id, :byname, :c_last, :amount;
-- name: proc_order_status(w_id, d_id, c_id, byname, c_last)
EXEC dbdyno_order_status :w_id, :d_id, :c_id, :byname, :c_last;
-- name: proc_delivery(w_id, carrier_id)
EXEC dbdyno_delivery :w_id, :carrier_id;
-- name: proc_stock_level(w_id, d_id, threshold)
EXEC dbdyno_stock_level :w_id, :d_id, :threshold;
