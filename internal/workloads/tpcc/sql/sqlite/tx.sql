-- SQLite: write transactions start with BEGIN IMMEDIATE (writers queue for the database lock), so no row locks
-- (FOR UPDATE) are needed.
-- name: no_district(w_id, d_id)
SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = :w_id AND d_id = :d_id;
-- name: no_stock(w_id, i_id, d_id)
SELECT s_quantity, s_data,
       CASE :d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                  WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                  WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
FROM stock WHERE s_w_id = :w_id AND s_i_id = :i_id;
-- name: pay_customer(w_id, d_id, c_id)
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit,
       c_credit_lim, c_discount, c_balance
FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
-- name: dl_new_order(w_id, d_id)
SELECT no_o_id FROM new_order WHERE no_w_id = :w_id AND no_d_id = :d_id ORDER BY no_o_id LIMIT 1;
-- name: begin_write
BEGIN IMMEDIATE;
