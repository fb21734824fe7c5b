-- SQL Server: no FOR UPDATE, and no reliance on table hints (UPDLOCK) or on UPDATE ... SET @v = col returning
-- the old value, which SQL Server-compatible servers (Babelfish) do not honour: a row is locked by writing it
-- first and read after, in the same batch (one round trip); the first row is taken with TOP 1.
-- New-Order takes the district's next order number in one batch: the increment, then its own write read back.
-- name: no_district_next(w_id, d_id)
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = :w_id AND d_id = :d_id;
SELECT d_tax, d_next_o_id - 1 FROM district WHERE d_w_id = :w_id AND d_id = :d_id;
-- Not run here (no_district_next takes its and no_district_update's place): the generic one's FOR UPDATE is
-- not T-SQL.
-- name: no_district(w_id, d_id)
SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = :w_id AND d_id = :d_id;
-- name: no_stock(w_id, i_id, d_id)
UPDATE stock SET s_quantity = s_quantity WHERE s_w_id = :w_id AND s_i_id = :i_id;
SELECT s_quantity, s_data,
       CASE :d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                  WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                  WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
FROM stock WHERE s_w_id = :w_id AND s_i_id = :i_id;
-- name: pay_customer(w_id, d_id, c_id)
UPDATE customer SET c_balance = c_balance WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit,
       c_credit_lim, c_discount, c_balance
FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
-- name: os_last_order(w_id, d_id, c_id)
SELECT TOP 1 o_id, o_entry_d, o_carrier_id FROM orders
WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_c_id = :c_id ORDER BY o_id DESC;
-- Delivery takes the district's oldest new order by deleting it: of two terminals after the same order, the
-- second deletes nothing once the first commits, so finds no row and skips the district instead of delivering
-- the order twice (dl_delete_new_order then deletes nothing).
-- name: dl_new_order(w_id, d_id)
DELETE FROM new_order OUTPUT deleted.no_o_id
WHERE no_w_id = :w_id AND no_d_id = :d_id
  AND no_o_id = (SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = :w_id AND no_d_id = :d_id);
-- name: begin_write
BEGIN TRANSACTION;
-- name: begin_read
BEGIN TRANSACTION;
-- name: commit
COMMIT TRANSACTION;
-- name: rollback
IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION;
