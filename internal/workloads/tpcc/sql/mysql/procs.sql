-- dbdyno TPC-C-derived transactions as MySQL/MariaDB stored procedures (--mode procedures): one CALL per
-- transaction. Item lists arrive as comma-separated numbers.
-- Each procedure is dropped first, so a build can install it again.
-- name: drop_dbdyno_new_order
DROP PROCEDURE IF EXISTS dbdyno_new_order;
-- name: dbdyno_new_order
CREATE PROCEDURE dbdyno_new_order(p_w_id INT, p_d_id INT, p_c_id INT, p_ol_cnt INT, p_all_local INT,
    p_items VARCHAR(255), p_supply VARCHAR(255), p_qty VARCHAR(64))
proc: BEGIN
  DECLARE v_w_tax, v_d_tax, v_discount DECIMAL(4,4);
  DECLARE v_o_id, v_i, v_item, v_sw, v_q, v_squant INT;
  DECLARE v_price DECIMAL(5,2);
  DECLARE v_sum DECIMAL(12,2) DEFAULT 0;
  DECLARE v_last VARCHAR(16);
  DECLARE v_credit CHAR(2);
  DECLARE v_name VARCHAR(24);
  DECLARE v_idata, v_sdata VARCHAR(50);
  DECLARE v_dist CHAR(24);
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  SELECT d_tax, d_next_o_id INTO v_d_tax, v_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id FOR UPDATE;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT c_discount, c_last, c_credit INTO v_discount, v_last, v_credit
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
    VALUES (v_o_id, p_d_id, p_w_id, p_c_id, NOW(), NULL, p_ol_cnt, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);
  SET v_i = 1;
  WHILE v_i <= p_ol_cnt DO
    SET v_item = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_items, ',', v_i), ',', -1) AS UNSIGNED);
    SET v_sw = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_supply, ',', v_i), ',', -1) AS UNSIGNED);
    SET v_q = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_qty, ',', v_i), ',', -1) AS UNSIGNED);
    SET v_price = NULL;
    SELECT i_price, i_name, i_data INTO v_price, v_name, v_idata FROM item WHERE i_id = v_item;
    IF v_price IS NULL THEN
      -- the 1% of New-Orders with an unused item number: the whole transaction rolls back
      ROLLBACK;
      SELECT 0 AS total, 1 AS rolled_back;
      LEAVE proc;
    END IF;
    SELECT s_quantity, s_data,
           CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                       WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                       WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
      INTO v_squant, v_sdata, v_dist FROM stock WHERE s_w_id = v_sw AND s_i_id = v_item FOR UPDATE;
    UPDATE stock SET s_quantity = IF(v_squant >= v_q + 10, v_squant - v_q, v_squant - v_q + 91),
           s_ytd = s_ytd + v_q, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + IF(v_sw <> p_w_id, 1, 0)
     WHERE s_w_id = v_sw AND s_i_id = v_item;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
      VALUES (v_o_id, p_d_id, p_w_id, v_i, v_item, v_sw, NULL, v_q, v_q * v_price, v_dist);
    SET v_sum = v_sum + v_q * v_price;
    SET v_i = v_i + 1;
  END WHILE;
  COMMIT;
  SELECT v_sum * (1 - v_discount) * (1 + v_w_tax + v_d_tax) AS total, 0 AS rolled_back;
END;
-- name: drop_dbdyno_payment
DROP PROCEDURE IF EXISTS dbdyno_payment;
-- name: dbdyno_payment
CREATE PROCEDURE dbdyno_payment(p_w_id INT, p_d_id INT, p_c_w_id INT, p_c_d_id INT, p_c_id INT,
    p_byname BOOLEAN, p_c_last VARCHAR(16), p_amount DECIMAL(6,2))
BEGIN
  DECLARE v_w_name, v_d_name VARCHAR(10);
  DECLARE v_c_id, v_n, v_off INT;
  DECLARE v_credit CHAR(2);
  DECLARE v_balance DECIMAL(12,2);
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id;
  SELECT w_name INTO v_w_name FROM warehouse WHERE w_id = p_w_id;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT d_name INTO v_d_name FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  IF p_byname THEN
    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
    IF v_n = 0 THEN
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'dbdyno: no customer with that last name';
    END IF;
    SET v_off = (v_n + 1) DIV 2 - 1;
    SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last
      ORDER BY c_first LIMIT v_off, 1;
  ELSE
    SET v_c_id = p_c_id;
  END IF;
  SELECT c_credit INTO v_credit FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id FOR UPDATE;
  IF v_credit = 'BC' THEN
    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
           c_payment_cnt = c_payment_cnt + 1,
           c_data = LEFT(CONCAT(CONCAT_WS(' ', v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, ROUND(p_amount, 2)), '|', c_data), 500)
     WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  ELSE
    UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
           c_payment_cnt = c_payment_cnt + 1
     WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  END IF;
  SELECT c_balance INTO v_balance FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, NOW(), p_amount, CONCAT(v_w_name, '    ', v_d_name));
  COMMIT;
  SELECT v_c_id AS c_id, v_balance AS balance;
END;
-- name: drop_dbdyno_order_status
DROP PROCEDURE IF EXISTS dbdyno_order_status;
-- name: dbdyno_order_status
CREATE PROCEDURE dbdyno_order_status(p_w_id INT, p_d_id INT, p_c_id INT, p_byname BOOLEAN, p_c_last VARCHAR(16))
BEGIN
  DECLARE v_c_id, v_n, v_off, v_o_id, v_lines INT;
  DECLARE v_balance DECIMAL(12,2);
  DECLARE v_first VARCHAR(16);
  DECLARE v_middle CHAR(2);
  DECLARE v_last VARCHAR(16);
  DECLARE v_entry DATETIME;
  DECLARE v_carrier INT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  IF p_byname THEN
    SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
    IF v_n = 0 THEN
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'dbdyno: no customer with that last name';
    END IF;
    SET v_off = (v_n + 1) DIV 2 - 1;
    SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last
      ORDER BY c_first LIMIT v_off, 1;
  ELSE
    SET v_c_id = p_c_id;
  END IF;
  SELECT c_balance, c_first, c_middle, c_last INTO v_balance, v_first, v_middle, v_last
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
  SELECT o_id, o_entry_d, o_carrier_id INTO v_o_id, v_entry, v_carrier FROM orders
   WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id ORDER BY o_id DESC LIMIT 1;
  SELECT COUNT(*) INTO v_lines FROM (SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o_id) AS ol;
  COMMIT;
  SELECT v_c_id AS c_id, v_lines AS line_count;
END;
-- name: drop_dbdyno_delivery
DROP PROCEDURE IF EXISTS dbdyno_delivery;
-- name: dbdyno_delivery
CREATE PROCEDURE dbdyno_delivery(p_w_id INT, p_carrier_id INT)
BEGIN
  DECLARE v_d, v_o_id, v_c_id, v_delivered INT DEFAULT 0;
  DECLARE v_amount DECIMAL(12,2);
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  START TRANSACTION;
  SET v_d = 1;
  WHILE v_d <= 10 DO
    SET v_o_id = NULL;
    SELECT no_o_id INTO v_o_id FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    IF v_o_id IS NOT NULL THEN
      DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_o_id;
      SELECT o_c_id INTO v_c_id FROM orders WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id;
      UPDATE orders SET o_carrier_id = p_carrier_id WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id;
      UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
      SELECT COALESCE(SUM(ol_amount), 0) INTO v_amount FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
      UPDATE customer SET c_balance = c_balance + v_amount, c_delivery_cnt = c_delivery_cnt + 1
       WHERE c_w_id = p_w_id AND c_d_id = v_d AND c_id = v_c_id;
      SET v_delivered = v_delivered + 1;
    END IF;
    SET v_d = v_d + 1;
  END WHILE;
  COMMIT;
  SELECT v_delivered AS delivered;
END;
-- name: drop_dbdyno_stock_level
DROP PROCEDURE IF EXISTS dbdyno_stock_level;
-- name: dbdyno_stock_level
CREATE PROCEDURE dbdyno_stock_level(p_w_id INT, p_d_id INT, p_threshold INT)
BEGIN
  DECLARE v_next, v_low INT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  -- one transaction, as in --mode sql (and so one COMMIT in the server's Com_commit, HammerDB's count)
  START TRANSACTION;
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id < v_next AND ol_o_id >= v_next - 20
     AND s_w_id = p_w_id AND s_i_id = ol_i_id AND s_quantity < p_threshold;
  COMMIT;
  SELECT v_low AS low_stock;
END;
