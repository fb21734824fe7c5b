-- Calls of the stored procedures (--mode procedures, on engines that have them): one round trip per transaction.
-- name: proc_new_order(w_id, d_id, c_id, ol_cnt, all_local, items, supply, qty)
CALL dbdyno_new_order(:w_id, :d_id, :c_id, :ol_cnt, :all_local, :items, :supply, :qty);
-- name: proc_payment(w_id, d_id, c_w_id, c_d_id, c_id, byname, c_last, amount)
CALL dbdyno_payment(:w_id, :d_id, :c_w_id, :c_d_id, :c_id, :byname, :c_last, :amount);
-- name: proc_order_status(w_id, d_id, c_id, byname, c_last)
CALL dbdyno_order_status(:w_id, :d_id, :c_id, :byname, :c_last);
-- name: proc_delivery(w_id, carrier_id)
CALL dbdyno_delivery(:w_id, :carrier_id);
-- name: proc_stock_level(w_id, d_id, threshold)
CALL dbdyno_stock_level(:w_id, :d_id, :threshold);
