-- dbdyno web store steps as MySQL/MariaDB stored procedures (--mode procedures): one CALL per login or
-- purchase. Product lists arrive as comma-separated numbers. Each procedure is dropped first. Low stock is
-- restocked by the inventory's trigger (indexes.sql).
-- name: drop_dbdyno_ws_login
DROP PROCEDURE IF EXISTS dbdyno_ws_login;
-- name: dbdyno_ws_login
CREATE PROCEDURE dbdyno_ws_login(p_username VARCHAR(50), p_password VARCHAR(50))
BEGIN
  DECLARE v_c INT DEFAULT NULL;
  DECLARE v_n INT DEFAULT 0;
  SELECT customerid INTO v_c FROM customers WHERE username = p_username AND password = p_password;
  IF v_c IS NULL THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'dbdyno: no such customer';
  END IF;
  SELECT COUNT(*) INTO v_n FROM (SELECT p.title, p.actor FROM cust_hist h JOIN products p ON p.prod_id = h.prod_id
    WHERE h.customerid = v_c ORDER BY h.orderid DESC LIMIT 10) AS t;
  SELECT v_c AS customerid, v_n AS titles;
END;
-- name: drop_dbdyno_ws_purchase
DROP PROCEDURE IF EXISTS dbdyno_ws_purchase;
-- name: dbdyno_ws_purchase
CREATE PROCEDURE dbdyno_ws_purchase(p_customerid INT, p_orderid INT, p_orderdate DATE, p_prods VARCHAR(100),
    p_qtys VARCHAR(40))
proc: BEGIN
  DECLARE v_i, v_n, v_prod, v_q INT;
  DECLARE v_net DECIMAL(12,2) DEFAULT 0;
  DECLARE v_price DECIMAL(12,2);
  DECLARE v_tax DECIMAL(12,2);
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  SET v_n = 1 + LENGTH(p_prods) - LENGTH(REPLACE(p_prods, ',', ''));
  START TRANSACTION;
  SET v_i = 1;
  WHILE v_i <= v_n DO
    SET v_prod = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_prods, ',', v_i), ',', -1) AS UNSIGNED);
    SET v_q = CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(p_qtys, ',', v_i), ',', -1) AS UNSIGNED);
    UPDATE inventory SET quan_in_stock = quan_in_stock - v_q, sales = sales + v_q
     WHERE prod_id = v_prod AND quan_in_stock >= v_q;
    IF ROW_COUNT() = 0 THEN
      -- short stock: the whole purchase rolls back
      ROLLBACK;
      SELECT 0 AS netamount, 1 AS rolled_back;
      LEAVE proc;
    END IF;
    SELECT price INTO v_price FROM products WHERE prod_id = v_prod;
    SET v_net = v_net + v_q * v_price;
    INSERT INTO orderlines (orderlineid, orderid, prod_id, quantity, orderdate) VALUES (v_i, p_orderid, v_prod, v_q, p_orderdate);
    INSERT INTO cust_hist (customerid, orderid, prod_id) VALUES (p_customerid, p_orderid, v_prod);
    SET v_i = v_i + 1;
  END WHILE;
  SET v_tax = ROUND(v_net * 0.0825, 2);
  INSERT INTO orders (orderid, orderdate, customerid, netamount, tax, totalamount)
    VALUES (p_orderid, p_orderdate, p_customerid, v_net, v_tax, v_net + v_tax);
  COMMIT;
  SELECT v_net AS netamount, 0 AS rolled_back;
END;
