-- dbdyno sql: workload ch, engine postgres (PostgreSQL)

-- file: schema.sql
-- name: dbdyno_tpcc_meta  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_tpcc_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: warehouse  -- from sql/postgres/schema.sql
CREATE TABLE warehouse (
  w_id int NOT NULL, w_ytd numeric(12,2), w_tax numeric(4,4), w_name varchar(10), w_street_1 varchar(20),
  w_street_2 varchar(20), w_city varchar(20), w_state char(2), w_zip char(9)
) WITH (fillfactor = 10);
-- name: district  -- from sql/postgres/schema.sql
CREATE TABLE district (
  d_id smallint NOT NULL, d_w_id int NOT NULL, d_ytd numeric(12,2), d_tax numeric(4,4), d_next_o_id int,
  d_name varchar(10), d_street_1 varchar(20), d_street_2 varchar(20), d_city varchar(20), d_state char(2), d_zip char(9)
) WITH (fillfactor = 10);
-- name: customer  -- from sql/generic/schema.sql
CREATE TABLE customer (
  c_id int NOT NULL, c_d_id smallint NOT NULL, c_w_id int NOT NULL, c_first varchar(16), c_middle char(2),
  c_last varchar(16), c_street_1 varchar(20), c_street_2 varchar(20), c_city varchar(20), c_state char(2),
  c_zip char(9), c_phone char(16), c_since timestamp, c_credit char(2), c_credit_lim numeric(12,2),
  c_discount numeric(4,4), c_balance numeric(12,2), c_ytd_payment numeric(12,2), c_payment_cnt int,
  c_delivery_cnt int, c_data varchar(500)
);
-- name: history  -- from sql/generic/schema.sql
CREATE TABLE history (
  h_c_id int, h_c_d_id smallint, h_c_w_id int, h_d_id smallint, h_w_id int, h_date timestamp,
  h_amount numeric(6,2), h_data varchar(24)
);
-- name: new_order  -- from sql/generic/schema.sql
CREATE TABLE new_order (no_o_id int NOT NULL, no_d_id smallint NOT NULL, no_w_id int NOT NULL);
-- name: orders  -- from sql/generic/schema.sql
CREATE TABLE orders (
  o_id int NOT NULL, o_d_id smallint NOT NULL, o_w_id int NOT NULL, o_c_id int, o_entry_d timestamp,
  o_carrier_id smallint, o_ol_cnt smallint, o_all_local smallint
);
-- name: order_line  -- from sql/generic/schema.sql
CREATE TABLE order_line (
  ol_o_id int NOT NULL, ol_d_id smallint NOT NULL, ol_w_id int NOT NULL, ol_number smallint NOT NULL, ol_i_id int,
  ol_supply_w_id int, ol_delivery_d timestamp, ol_quantity smallint, ol_amount numeric(6,2), ol_dist_info char(24)
);
-- name: item  -- from sql/generic/schema.sql
CREATE TABLE item (i_id int NOT NULL, i_im_id int, i_name varchar(24), i_price numeric(5,2), i_data varchar(50));
-- name: stock  -- from sql/generic/schema.sql
CREATE TABLE stock (
  s_i_id int NOT NULL, s_w_id int NOT NULL, s_quantity smallint, s_dist_01 char(24), s_dist_02 char(24),
  s_dist_03 char(24), s_dist_04 char(24), s_dist_05 char(24), s_dist_06 char(24), s_dist_07 char(24),
  s_dist_08 char(24), s_dist_09 char(24), s_dist_10 char(24), s_ytd int, s_order_cnt int, s_remote_cnt int,
  s_data varchar(50)
);

-- file: indexes.sql
-- name: warehouse_pk  -- from sql/generic/indexes.sql
ALTER TABLE warehouse ADD CONSTRAINT warehouse_pk PRIMARY KEY (w_id);
-- name: district_pk  -- from sql/generic/indexes.sql
ALTER TABLE district ADD CONSTRAINT district_pk PRIMARY KEY (d_w_id, d_id);
-- name: customer_pk  -- from sql/generic/indexes.sql
ALTER TABLE customer ADD CONSTRAINT customer_pk PRIMARY KEY (c_w_id, c_d_id, c_id);
-- name: customer_last  -- from sql/generic/indexes.sql
CREATE INDEX customer_last ON customer (c_w_id, c_d_id, c_last, c_first);
-- name: new_order_pk  -- from sql/generic/indexes.sql
ALTER TABLE new_order ADD CONSTRAINT new_order_pk PRIMARY KEY (no_w_id, no_d_id, no_o_id);
-- name: orders_pk  -- from sql/generic/indexes.sql
ALTER TABLE orders ADD CONSTRAINT orders_pk PRIMARY KEY (o_w_id, o_d_id, o_id);
-- name: orders_customer  -- from sql/generic/indexes.sql
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
-- name: order_line_pk  -- from sql/generic/indexes.sql
ALTER TABLE order_line ADD CONSTRAINT order_line_pk PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number);
-- name: item_pk  -- from sql/generic/indexes.sql
ALTER TABLE item ADD CONSTRAINT item_pk PRIMARY KEY (i_id);
-- name: stock_pk  -- from sql/generic/indexes.sql
ALTER TABLE stock ADD CONSTRAINT stock_pk PRIMARY KEY (s_w_id, s_i_id);

-- file: procs.sql
-- name: dbdyno_new_order  -- from sql/postgres/procs.sql
CREATE OR REPLACE FUNCTION dbdyno_new_order(p_w_id int, p_d_id int, p_c_id int, p_ol_cnt int, p_all_local int,
    p_items int[], p_supply int[], p_qty int[], OUT out_total numeric, OUT out_rolled_back int) AS $$
#variable_conflict use_column
DECLARE
  v_w_tax numeric; v_d_tax numeric; v_o_id int; v_discount numeric; v_last varchar; v_credit char(2);
  v_prices numeric[]; v_names varchar[]; v_idata varchar[]; v_found int; v_distinct int; v_sum numeric;
  v_sdata varchar; v_dist char(24);
BEGIN
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_tax, d_next_o_id - 1 INTO v_d_tax, v_o_id;
  SELECT c_discount, c_last, c_credit INTO v_discount, v_last, v_credit
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
    VALUES (v_o_id, p_d_id, p_w_id, p_c_id, localtimestamp(0), NULL, p_ol_cnt, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);
  SELECT array_agg(i_price ORDER BY u.n), array_agg(i_name ORDER BY u.n), array_agg(i_data ORDER BY u.n),
         count(i_id), count(DISTINCT (u.sw, u.id)), sum(u.qty * i_price)
    INTO v_prices, v_names, v_idata, v_found, v_distinct, v_sum
    FROM unnest(p_items, p_supply, p_qty) WITH ORDINALITY AS u(id, sw, qty, n) LEFT JOIN item ON i_id = u.id;
  IF v_found < p_ol_cnt THEN
    RAISE EXCEPTION 'dbdyno: item not found among %', p_items USING ERRCODE = 'DY001';
  END IF;
  IF v_distinct = p_ol_cnt THEN
    WITH s AS (
      UPDATE stock SET s_quantity = CASE WHEN s_quantity >= u.qty + 10 THEN s_quantity - u.qty ELSE s_quantity - u.qty + 91 END,
             s_ytd = s_ytd + u.qty, s_order_cnt = s_order_cnt + 1,
             s_remote_cnt = s_remote_cnt + CASE WHEN u.sw <> p_w_id THEN 1 ELSE 0 END
        FROM unnest(p_items, p_supply, p_qty) WITH ORDINALITY AS u(id, sw, qty, n)
       WHERE s_w_id = u.sw AND s_i_id = u.id
      RETURNING u.n, u.id, u.sw, u.qty, s_data, CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
                WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                WHEN 9 THEN s_dist_09 ELSE s_dist_10 END AS dist)
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
      SELECT v_o_id, p_d_id, p_w_id, s.n, s.id, s.sw, NULL, s.qty, s.qty * v_prices[s.n], s.dist FROM s;
  ELSE
    FOR i IN 1 .. p_ol_cnt LOOP
      UPDATE stock SET s_quantity = CASE WHEN s_quantity >= p_qty[i] + 10 THEN s_quantity - p_qty[i] ELSE s_quantity - p_qty[i] + 91 END,
             s_ytd = s_ytd + p_qty[i], s_order_cnt = s_order_cnt + 1,
             s_remote_cnt = s_remote_cnt + CASE WHEN p_supply[i] <> p_w_id THEN 1 ELSE 0 END
       WHERE s_w_id = p_supply[i] AND s_i_id = p_items[i]
       RETURNING s_data, CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END INTO v_sdata, v_dist;
      INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
        VALUES (v_o_id, p_d_id, p_w_id, i, p_items[i], p_supply[i], NULL, p_qty[i], p_qty[i] * v_prices[i], v_dist);
    END LOOP;
  END IF;
  out_total := v_sum * (1 - v_discount) * (1 + v_w_tax + v_d_tax);
  out_rolled_back := 0;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_customer_by_name  -- from sql/postgres/procs.sql
CREATE OR REPLACE FUNCTION dbdyno_customer_by_name(p_w_id int, p_d_id int, p_c_last varchar) RETURNS int AS $$
DECLARE v_n int; v_c_id int;
BEGIN
  SELECT count(*) INTO v_n FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
  IF v_n = 0 THEN
    RAISE EXCEPTION 'dbdyno: no customer named % in warehouse % district %', p_c_last, p_w_id, p_d_id;
  END IF;
  SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last
    ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;
  RETURN v_c_id;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_payment  -- from sql/postgres/procs.sql
CREATE OR REPLACE FUNCTION dbdyno_payment(p_w_id int, p_d_id int, p_c_w_id int, p_c_d_id int, p_c_id int,
    p_byname boolean, p_c_last varchar, p_amount numeric, OUT out_c_id int, OUT out_balance numeric) AS $$
#variable_conflict use_column
DECLARE v_w_name varchar; v_d_name varchar; v_credit char(2);
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id RETURNING w_name INTO v_w_name;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w_id AND d_id = p_d_id RETURNING d_name INTO v_d_name;
  IF p_byname THEN
    out_c_id := dbdyno_customer_by_name(p_c_w_id, p_c_d_id, p_c_last);
  ELSE
    out_c_id := p_c_id;
  END IF;
  UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
         c_payment_cnt = c_payment_cnt + 1
   WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = out_c_id
   RETURNING c_balance, c_credit INTO out_balance, v_credit;
  IF v_credit = 'BC' THEN
    UPDATE customer SET c_data = left(out_c_id || ' ' || p_c_d_id || ' ' || p_c_w_id || ' ' || p_d_id || ' ' || p_w_id || ' '
           || to_char(p_amount, 'FM99990.00') || '|' || c_data, 500)
     WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = out_c_id;
  END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (out_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, localtimestamp(0), p_amount, v_w_name || '    ' || v_d_name);
END $$ LANGUAGE plpgsql;
-- name: dbdyno_order_status  -- from sql/postgres/procs.sql
CREATE OR REPLACE FUNCTION dbdyno_order_status(p_w_id int, p_d_id int, p_c_id int, p_byname boolean, p_c_last varchar,
    OUT out_c_id int, OUT out_lines int) AS $$
#variable_conflict use_column
DECLARE v_balance numeric; v_first varchar; v_middle char(2); v_last varchar; v_o_id int; v_entry timestamp; v_carrier int; r record;
BEGIN
  IF p_byname THEN
    out_c_id := dbdyno_customer_by_name(p_w_id, p_d_id, p_c_last);
  ELSE
    out_c_id := p_c_id;
  END IF;
  SELECT c_balance, c_first, c_middle, c_last INTO v_balance, v_first, v_middle, v_last
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = out_c_id;
  SELECT o_id, o_entry_d, o_carrier_id INTO v_o_id, v_entry, v_carrier FROM orders
   WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = out_c_id ORDER BY o_id DESC LIMIT 1;
  out_lines := 0;
  FOR r IN SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
            WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o_id LOOP
    out_lines := out_lines + 1;
  END LOOP;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_delivery  -- from sql/postgres/procs.sql
CREATE OR REPLACE FUNCTION dbdyno_delivery(p_w_id int, p_carrier_id int, OUT out_delivered int) AS $$
#variable_conflict use_column
DECLARE v_o_id int; v_c_id int; v_amount numeric;
BEGIN
  out_delivered := 0;
  FOR d IN 1 .. 10 LOOP
    SELECT no_o_id INTO v_o_id FROM new_order WHERE no_w_id = p_w_id AND no_d_id = d ORDER BY no_o_id LIMIT 1 FOR UPDATE;
    CONTINUE WHEN NOT FOUND;
    DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = d AND no_o_id = v_o_id;
    UPDATE orders SET o_carrier_id = p_carrier_id WHERE o_w_id = p_w_id AND o_d_id = d AND o_id = v_o_id RETURNING o_c_id INTO v_c_id;
    UPDATE order_line SET ol_delivery_d = localtimestamp(0) WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_o_id;
    SELECT COALESCE(SUM(ol_amount), 0) INTO v_amount FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_o_id;
    UPDATE customer SET c_balance = c_balance + v_amount, c_delivery_cnt = c_delivery_cnt + 1
     WHERE c_w_id = p_w_id AND c_d_id = d AND c_id = v_c_id;
    out_delivered := out_delivered + 1;
  END LOOP;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_stock_level  -- from sql/postgres/procs.sql
CREATE OR REPLACE FUNCTION dbdyno_stock_level(p_w_id int, p_d_id int, p_threshold int, OUT out_low_stock int) AS $$
#variable_conflict use_column
DECLARE v_next int;
BEGIN
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT COUNT(DISTINCT s_i_id) INTO out_low_stock FROM order_line, stock
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id < v_next AND ol_o_id >= v_next - 20
     AND s_w_id = p_w_id AND s_i_id = ol_i_id AND s_quantity < p_threshold;
END $$ LANGUAGE plpgsql;

-- file: drop.sql
-- name: warehouse  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS warehouse;
-- name: district  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS district;
-- name: customer  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS customer;
-- name: history  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS history;
-- name: new_order  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS new_order;
-- name: orders  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS orders;
-- name: order_line  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS order_line;
-- name: item  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS item;
-- name: stock  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS stock;
-- name: dbdyno_tpcc_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_tpcc_meta;
-- name: drop_dbdyno_new_order  -- from sql/postgres/drop.sql
DROP FUNCTION IF EXISTS dbdyno_new_order(int, int, int, int, int, int[], int[], int[]);
-- name: drop_dbdyno_payment  -- from sql/postgres/drop.sql
DROP FUNCTION IF EXISTS dbdyno_payment(int, int, int, int, int, boolean, varchar, numeric);
-- name: drop_dbdyno_order_status  -- from sql/postgres/drop.sql
DROP FUNCTION IF EXISTS dbdyno_order_status(int, int, int, boolean, varchar);
-- name: drop_dbdyno_delivery  -- from sql/postgres/drop.sql
DROP FUNCTION IF EXISTS dbdyno_delivery(int, int);
-- name: drop_dbdyno_stock_level  -- from sql/postgres/drop.sql
DROP FUNCTION IF EXISTS dbdyno_stock_level(int, int, int);
-- name: drop_dbdyno_customer_by_name  -- from sql/postgres/drop.sql
DROP FUNCTION IF EXISTS dbdyno_customer_by_name(int, int, varchar);

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_tpcc_meta WHERE k = $1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_tpcc_meta WHERE k = $1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_tpcc_meta (k, v) VALUES ($1, $2);
-- name: routines()  -- from sql/postgres/admin.sql
SELECT CASE p.prokind WHEN 'p' THEN 'procedure' ELSE 'function' END, p.proname, pg_catalog.pg_get_functiondef(p.oid)
FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = current_schema() AND p.proname IN ('dbdyno_new_order', 'dbdyno_customer_by_name', 'dbdyno_payment',
  'dbdyno_order_status', 'dbdyno_delivery', 'dbdyno_stock_level');

-- file: tx.sql
-- name: no_warehouse(w_id)  -- from sql/generic/tx.sql
SELECT w_tax FROM warehouse WHERE w_id = $1;
-- name: no_district(w_id, d_id)  -- from sql/generic/tx.sql
SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2 FOR UPDATE;
-- name: no_district_update(w_id, d_id)  -- from sql/generic/tx.sql
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2;
-- name: no_customer(w_id, d_id, c_id)  -- from sql/generic/tx.sql
SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3;
-- name: no_insert_order(o_id, d_id, w_id, c_id, entry_d, ol_cnt, all_local)  -- from sql/generic/tx.sql
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
VALUES ($1, $2, $3, $4, $5, NULL, $6, $7);
-- name: no_insert_new_order(o_id, d_id, w_id)  -- from sql/generic/tx.sql
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3);
-- name: no_item(i_id)  -- from sql/generic/tx.sql
SELECT i_price, i_name, i_data FROM item WHERE i_id = $1;
-- name: no_stock(w_id, i_id, d_id)  -- from sql/postgres/tx.sql
SELECT s_quantity, s_data,
       CASE CAST($3 AS int) WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                  WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                  WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
FROM stock WHERE s_w_id = $1 AND s_i_id = $2 FOR UPDATE;
-- name: no_stock_update(quantity, ol_quantity, remote, w_id, i_id)  -- from sql/generic/tx.sql
UPDATE stock SET s_quantity = $1, s_ytd = s_ytd + $2, s_order_cnt = s_order_cnt + 1,
       s_remote_cnt = s_remote_cnt + $3
WHERE s_w_id = $4 AND s_i_id = $5;
-- name: no_insert_order_line(o_id, d_id, w_id, number, i_id, supply_w_id, quantity, amount, dist_info)  -- from sql/generic/tx.sql
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8, $9);
-- name: pay_warehouse_update(w_id, amount)  -- from sql/generic/tx.sql
UPDATE warehouse SET w_ytd = w_ytd + $2 WHERE w_id = $1;
-- name: pay_warehouse(w_id)  -- from sql/generic/tx.sql
SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = $1;
-- name: pay_district_update(w_id, d_id, amount)  -- from sql/generic/tx.sql
UPDATE district SET d_ytd = d_ytd + $3 WHERE d_w_id = $1 AND d_id = $2;
-- name: pay_district(w_id, d_id)  -- from sql/generic/tx.sql
SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = $1 AND d_id = $2;
-- name: customers_by_last(w_id, d_id, last)  -- from sql/generic/tx.sql
SELECT c_id FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 ORDER BY c_first;
-- name: pay_customer(w_id, d_id, c_id)  -- from sql/generic/tx.sql
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit,
       c_credit_lim, c_discount, c_balance
FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3 FOR UPDATE;
-- name: pay_customer_data(w_id, d_id, c_id)  -- from sql/generic/tx.sql
SELECT c_data FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3;
-- name: pay_customer_update(w_id, d_id, c_id, amount)  -- from sql/generic/tx.sql
UPDATE customer SET c_balance = c_balance - $4, c_ytd_payment = c_ytd_payment + $4,
       c_payment_cnt = c_payment_cnt + 1
WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3;
-- name: pay_customer_update_bc(w_id, d_id, c_id, amount, data)  -- from sql/generic/tx.sql
UPDATE customer SET c_balance = c_balance - $4, c_ytd_payment = c_ytd_payment + $4,
       c_payment_cnt = c_payment_cnt + 1, c_data = $5
WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3;
-- name: pay_insert_history(c_id, c_d_id, c_w_id, d_id, w_id, h_date, amount, data)  -- from sql/generic/tx.sql
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8);
-- name: os_customer(w_id, d_id, c_id)  -- from sql/generic/tx.sql
SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3;
-- name: os_last_order(w_id, d_id, c_id)  -- from sql/generic/tx.sql
SELECT o_id, o_entry_d, o_carrier_id FROM orders
WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 ORDER BY o_id DESC LIMIT 1;
-- name: os_order_lines(w_id, d_id, o_id)  -- from sql/generic/tx.sql
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3;
-- name: dl_new_order(w_id, d_id)  -- from sql/generic/tx.sql
SELECT no_o_id FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 ORDER BY no_o_id LIMIT 1 FOR UPDATE;
-- name: dl_delete_new_order(w_id, d_id, o_id)  -- from sql/generic/tx.sql
DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3;
-- name: dl_order(w_id, d_id, o_id)  -- from sql/generic/tx.sql
SELECT o_c_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3;
-- name: dl_update_order(w_id, d_id, o_id, carrier_id)  -- from sql/generic/tx.sql
UPDATE orders SET o_carrier_id = $4 WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3;
-- name: dl_update_order_lines(w_id, d_id, o_id, delivery_d)  -- from sql/generic/tx.sql
UPDATE order_line SET ol_delivery_d = $4 WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3;
-- name: dl_sum_order_lines(w_id, d_id, o_id)  -- from sql/generic/tx.sql
SELECT COALESCE(SUM(ol_amount), 0) FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3;
-- name: dl_update_customer(w_id, d_id, c_id, amount)  -- from sql/generic/tx.sql
UPDATE customer SET c_balance = c_balance + $4, c_delivery_cnt = c_delivery_cnt + 1
WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3;
-- name: sl_district(w_id, d_id)  -- from sql/generic/tx.sql
SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2;
-- name: sl_count(w_id, d_id, next_o_id, threshold)  -- from sql/generic/tx.sql
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock
WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id < $3 AND ol_o_id >= $3 - 20
  AND s_w_id = $1 AND s_i_id = ol_i_id AND s_quantity < $4;
-- name: check_1()  -- from sql/generic/tx.sql
SELECT w.w_id, w.w_ytd - d.s FROM warehouse w JOIN (SELECT d_w_id, SUM(d_ytd) AS s FROM district GROUP BY d_w_id) d
  ON d.d_w_id = w.w_id WHERE ABS(w.w_ytd - d.s) > 0.001;
-- name: check_2()  -- from sql/generic/tx.sql
SELECT d.d_w_id, d.d_id FROM district d
  LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) AS m FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
  LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS m FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
WHERE o.m IS NULL OR d.d_next_o_id - 1 <> o.m OR (n.m IS NOT NULL AND n.m <> o.m);
-- name: check_3()  -- from sql/generic/tx.sql
SELECT no_w_id, no_d_id FROM new_order GROUP BY no_w_id, no_d_id HAVING MAX(no_o_id) - MIN(no_o_id) + 1 <> COUNT(*);
-- name: check_4()  -- from sql/generic/tx.sql
SELECT o.o_w_id, o.o_d_id FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS s FROM orders GROUP BY o_w_id, o_d_id) o
  LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS c FROM order_line GROUP BY ol_w_id, ol_d_id) l
  ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id
WHERE l.c IS NULL OR o.s <> l.c;
-- name: check_5()  -- from sql/generic/tx.sql
SELECT o.o_w_id, o.o_d_id, o.o_id FROM orders o
  LEFT JOIN new_order n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id
WHERE (o.o_carrier_id IS NULL AND n.no_o_id IS NULL) OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL)
UNION ALL
SELECT n.no_w_id, n.no_d_id, n.no_o_id FROM new_order n
  LEFT JOIN orders o ON o.o_w_id = n.no_w_id AND o.o_d_id = n.no_d_id AND o.o_id = n.no_o_id
WHERE o.o_id IS NULL;
-- name: check_6()  -- from sql/generic/tx.sql
SELECT o.o_w_id, o.o_d_id, o.o_id FROM orders o
  LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, COUNT(*) AS c FROM order_line GROUP BY ol_w_id, ol_d_id, ol_o_id) l
  ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
WHERE COALESCE(l.c, 0) <> o.o_ol_cnt;
-- name: check_7()  -- from sql/generic/tx.sql
SELECT DISTINCT o.o_w_id, o.o_d_id, o.o_id FROM orders o
  JOIN order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
WHERE (o.o_carrier_id IS NULL AND l.ol_delivery_d IS NOT NULL) OR (o.o_carrier_id IS NOT NULL AND l.ol_delivery_d IS NULL);
-- name: check_8()  -- from sql/generic/tx.sql
SELECT w.w_id, w.w_ytd - COALESCE(h.s, 0) FROM warehouse w
  LEFT JOIN (SELECT h_w_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id) h ON h.h_w_id = w.w_id
WHERE ABS(w.w_ytd - COALESCE(h.s, 0)) > 0.001;
-- name: check_9()  -- from sql/generic/tx.sql
SELECT d.d_w_id, d.d_id, d.d_ytd - COALESCE(h.s, 0) FROM district d
  LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id, h_d_id) h ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id
WHERE ABS(d.d_ytd - COALESCE(h.s, 0)) > 0.001;
-- name: check_10()  -- from sql/generic/tx.sql
SELECT c.c_w_id, c.c_d_id, c.c_id FROM customer c
  LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, SUM(l.ol_amount) AS s FROM orders o
    JOIN order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
    WHERE l.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) ol
  ON ol.o_w_id = c.c_w_id AND ol.o_d_id = c.c_d_id AND ol.o_c_id = c.c_id
  LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount) AS s FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h
  ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id AND h.h_c_id = c.c_id
WHERE ABS(c.c_balance - (COALESCE(ol.s, 0) - COALESCE(h.s, 0))) > 0.005;
-- name: check_11()  -- from sql/generic/tx.sql
SELECT o.o_w_id, o.o_d_id, o.n - COALESCE(n.n, 0) - o.delivered FROM
  (SELECT o_w_id, o_d_id, COUNT(*) AS n, SUM(CASE WHEN o_id > 2100 AND o_carrier_id IS NOT NULL THEN 1 ELSE 0 END) AS delivered
   FROM orders GROUP BY o_w_id, o_d_id) o
  LEFT JOIN (SELECT no_w_id, no_d_id, COUNT(*) AS n FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id
WHERE o.n - COALESCE(n.n, 0) - o.delivered <> 2100;
-- name: check_12()  -- from sql/generic/tx.sql
SELECT c.c_w_id, c.c_d_id, c.c_id FROM customer c
  LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, SUM(l.ol_amount) AS s FROM orders o
    JOIN order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
    WHERE l.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) ol
  ON ol.o_w_id = c.c_w_id AND ol.o_d_id = c.c_d_id AND ol.o_c_id = c.c_id
WHERE ABS(c.c_balance + c.c_ytd_payment - COALESCE(ol.s, 0)) > 0.005;
-- name: sum_next_o_id()  -- from sql/generic/tx.sql
SELECT COALESCE(SUM(d_next_o_id), 0) FROM district;
-- name: new_orders_row()  -- from sql/generic/tx.sql
SELECT 'new_orders', COALESCE(SUM(d_next_o_id), 0) FROM district;
-- name: begin_write  -- from sql/generic/tx.sql
BEGIN;
-- name: begin_read  -- from sql/generic/tx.sql
BEGIN;
-- name: commit  -- from sql/generic/tx.sql
COMMIT;
-- name: rollback  -- from sql/generic/tx.sql
ROLLBACK;

-- file: calls.sql
-- name: proc_new_order(w_id, d_id, c_id, ol_cnt, all_local, items, supply, qty)  -- from sql/postgres/calls.sql
SELECT out_total, out_rolled_back FROM dbdyno_new_order($1, $2, $3, $4, $5, $6, $7, $8);
-- name: proc_payment(w_id, d_id, c_w_id, c_d_id, c_id, byname, c_last, amount)  -- from sql/postgres/calls.sql
SELECT out_c_id, out_balance FROM dbdyno_payment($1, $2, $3, $4, $5, $6, $7, $8);
-- name: proc_order_status(w_id, d_id, c_id, byname, c_last)  -- from sql/postgres/calls.sql
SELECT out_c_id, out_lines FROM dbdyno_order_status($1, $2, $3, $4, $5);
-- name: proc_delivery(w_id, carrier_id)  -- from sql/postgres/calls.sql
SELECT out_delivered FROM dbdyno_delivery($1, $2);
-- name: proc_stock_level(w_id, d_id, threshold)  -- from sql/postgres/calls.sql
SELECT out_low_stock FROM dbdyno_stock_level($1, $2, $3);

-- file: schema.sql
-- name: dbdyno_ch_meta  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_ch_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: region  -- from sql/generic/schema.sql
CREATE TABLE region (r_regionkey int NOT NULL, r_name varchar(55) NOT NULL, r_comment varchar(152) NOT NULL);
-- name: nation  -- from sql/generic/schema.sql
CREATE TABLE nation (
  n_nationkey int NOT NULL, n_name varchar(25) NOT NULL, n_regionkey int NOT NULL, n_comment varchar(152) NOT NULL
);
-- name: supplier  -- from sql/generic/schema.sql
CREATE TABLE supplier (
  su_suppkey int NOT NULL, su_name varchar(25) NOT NULL, su_address varchar(40) NOT NULL, su_nationkey int NOT NULL,
  su_phone char(15) NOT NULL, su_acctbal numeric(12,2) NOT NULL, su_comment varchar(101) NOT NULL
);

-- file: indexes.sql
-- name: region_pk  -- from sql/generic/indexes.sql
ALTER TABLE region ADD CONSTRAINT region_pk PRIMARY KEY (r_regionkey);
-- name: nation_pk  -- from sql/generic/indexes.sql
ALTER TABLE nation ADD CONSTRAINT nation_pk PRIMARY KEY (n_nationkey);
-- name: supplier_pk  -- from sql/generic/indexes.sql
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY (su_suppkey);

-- file: drop.sql
-- name: region  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS region;
-- name: nation  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS nation;
-- name: supplier  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS supplier;
-- name: dbdyno_ch_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_ch_meta;

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_ch_meta WHERE k = $1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_ch_meta WHERE k = $1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_ch_meta (k, v) VALUES ($1, $2);

-- file: queries.sql
-- name: q1  -- from sql/generic/queries.sql
select ol_number, sum(ol_quantity) as sum_qty, sum(ol_amount) as sum_amount, avg(ol_quantity) as avg_qty,
       avg(ol_amount) as avg_amount, count(*) as count_order
from order_line
where ol_delivery_d > '2007-01-02 00:00:00'
group by ol_number
order by ol_number;
-- name: q2  -- from sql/generic/queries.sql
select su_suppkey, su_name, n_name, i_id, i_name, su_address, su_phone, su_comment
from item, supplier, stock, nation, region,
     (select s_i_id as m_i_id, min(s_quantity) as m_s_quantity
      from stock, supplier, nation, region
      where (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey and n_regionkey = r_regionkey
        and r_name like 'Europ%'
      group by s_i_id) m
where i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey
  and n_regionkey = r_regionkey and i_data like '%b' and r_name like 'Europ%' and i_id = m_i_id
  and s_quantity = m_s_quantity
order by n_name, su_name, i_id;
-- name: q3  -- from sql/generic/queries.sql
select ol_o_id, ol_w_id, ol_d_id, sum(ol_amount) as revenue, o_entry_d
from customer, new_order, orders, order_line
where c_state like 'A%' and c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and no_w_id = o_w_id
  and no_d_id = o_d_id and no_o_id = o_id and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id
  and o_entry_d > '2007-01-02 00:00:00'
group by ol_o_id, ol_w_id, ol_d_id, o_entry_d
order by revenue desc, o_entry_d;
-- name: q4  -- from sql/generic/queries.sql
select o_ol_cnt, count(*) as order_count
from orders
where o_entry_d >= '2007-01-02 00:00:00' and o_entry_d < '2100-01-01 00:00:00'
  and exists (select * from order_line
              where o_id = ol_o_id and o_w_id = ol_w_id and o_d_id = ol_d_id and ol_delivery_d >= o_entry_d)
group by o_ol_cnt
order by o_ol_cnt;
-- name: q5  -- from sql/generic/queries.sql
select n_name, sum(ol_amount) as revenue
from customer, orders, order_line, stock, supplier, nation, region
where c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and ol_o_id = o_id and ol_w_id = o_w_id
  and ol_d_id = o_d_id and ol_w_id = s_w_id and ol_i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ascii(substring(c_state, 1, 1)) = su_nationkey and su_nationkey = n_nationkey
  and n_regionkey = r_regionkey and r_name = 'Europe' and o_entry_d >= '2007-01-02 00:00:00'
group by n_name
order by revenue desc;
-- name: q6  -- from sql/generic/queries.sql
select sum(ol_amount) as revenue
from order_line
where ol_delivery_d >= '1999-01-01 00:00:00' and ol_delivery_d < '2100-01-01 00:00:00'
  and ol_quantity between 1 and 100000;
-- name: q7  -- from sql/generic/queries.sql
select su_nationkey as supp_nation, substring(c_state, 1, 1) as cust_nation, extract(year from o_entry_d) as l_year,
       sum(ol_amount) as revenue
from supplier, stock, order_line, orders, customer, nation n1, nation n2
where ol_supply_w_id = s_w_id and ol_i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and c_id = o_c_id and c_w_id = o_w_id
  and c_d_id = o_d_id and su_nationkey = n1.n_nationkey and ascii(substring(c_state, 1, 1)) = n2.n_nationkey
  and ((n1.n_name = 'Germany' and n2.n_name = 'Cambodia') or (n1.n_name = 'Cambodia' and n2.n_name = 'Germany'))
group by su_nationkey, substring(c_state, 1, 1), extract(year from o_entry_d)
order by supp_nation, cust_nation, l_year;
-- name: q8  -- from sql/generic/queries.sql
select extract(year from o_entry_d) as l_year,
       sum(case when n2.n_name = 'Germany' then ol_amount else 0 end) / nullif(sum(ol_amount), 0) as mkt_share
from item, supplier, stock, order_line, orders, customer, nation n1, nation n2, region
where i_id = s_i_id and ol_i_id = s_i_id and ol_supply_w_id = s_w_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and c_id = o_c_id and c_w_id = o_w_id
  and c_d_id = o_d_id and n1.n_nationkey = ascii(substring(c_state, 1, 1)) and n1.n_regionkey = r_regionkey
  and ol_i_id < 1000 and r_name = 'Europe' and su_nationkey = n2.n_nationkey and i_data like '%b'
  and i_id = ol_i_id
group by extract(year from o_entry_d)
order by l_year;
-- name: q9  -- from sql/generic/queries.sql
select n_name, extract(year from o_entry_d) as l_year, sum(ol_amount) as sum_profit
from item, stock, supplier, order_line, orders, nation
where ol_i_id = s_i_id and ol_supply_w_id = s_w_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and ol_i_id = i_id and su_nationkey = n_nationkey
  and i_data like '%bb'
group by n_name, extract(year from o_entry_d)
order by n_name, l_year desc;
-- name: q10  -- from sql/generic/queries.sql
select c_id, c_last, sum(ol_amount) as revenue, c_city, c_phone, n_name
from customer, orders, order_line, nation
where c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and ol_w_id = o_w_id and ol_d_id = o_d_id
  and ol_o_id = o_id and o_entry_d >= '2007-01-02 00:00:00' and o_entry_d <= ol_delivery_d
  and n_nationkey = ascii(substring(c_state, 1, 1))
group by c_id, c_last, c_city, c_phone, n_name
order by revenue desc;
-- name: q11  -- from sql/generic/queries.sql
select s_i_id, sum(s_order_cnt) as ordercount
from stock, supplier, nation
where (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey and n_name = 'Germany'
group by s_i_id
having sum(s_order_cnt) > (select sum(s_order_cnt) * .005
                           from stock, supplier, nation
                           where (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey
                             and n_name = 'Germany')
order by ordercount desc;
-- name: q12  -- from sql/generic/queries.sql
select o_ol_cnt, sum(case when o_carrier_id = 1 or o_carrier_id = 2 then 1 else 0 end) as high_line_count,
       sum(case when o_carrier_id <> 1 and o_carrier_id <> 2 then 1 else 0 end) as low_line_count
from orders, order_line
where ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and o_entry_d <= ol_delivery_d
  and ol_delivery_d < '2100-01-01 00:00:00'
group by o_ol_cnt
order by o_ol_cnt;
-- name: q13  -- from sql/generic/queries.sql
select c_count, count(*) as custdist
from (select c_id, count(o_id) as c_count
      from customer left outer join orders on (c_w_id = o_w_id and c_d_id = o_d_id and c_id = o_c_id and o_carrier_id > 8)
      group by c_id) as c_orders
group by c_count
order by custdist desc, c_count desc;
-- name: q14  -- from sql/generic/queries.sql
select 100.00 * sum(case when i_data like 'PR%' then ol_amount else 0 end) / (1 + sum(ol_amount)) as promo_revenue
from order_line, item
where ol_i_id = i_id and ol_delivery_d >= '2007-01-02 00:00:00' and ol_delivery_d < '2100-01-01 00:00:00';
-- name: q15  -- from sql/generic/queries.sql
with revenue0 (supplier_no, total_revenue) as (
  select (s_w_id * s_i_id) % 10000, sum(ol_amount)
  from order_line, stock
  where ol_i_id = s_i_id and ol_supply_w_id = s_w_id and ol_delivery_d >= '2007-01-02 00:00:00'
  group by (s_w_id * s_i_id) % 10000)
select su_suppkey, su_name, su_address, su_phone, total_revenue
from supplier, revenue0
where su_suppkey = supplier_no and total_revenue = (select max(total_revenue) from revenue0)
order by su_suppkey;
-- name: q16  -- from sql/generic/queries.sql
select i_name, substring(i_data, 1, 3) as brand, i_price, count(distinct ((s_w_id * s_i_id) % 10000)) as supplier_cnt
from stock, item
where i_id = s_i_id and i_data not like 'zz%'
  and ((s_w_id * s_i_id) % 10000 not in (select su_suppkey from supplier where su_comment like '%bad%'))
group by i_name, substring(i_data, 1, 3), i_price
order by supplier_cnt desc;
-- name: q17  -- from sql/generic/queries.sql
select sum(ol_amount) / 2.0 as avg_yearly
from order_line, (select i_id, avg(1.0 * ol_quantity) as a
                  from item, order_line
                  where i_data like '%b' and ol_i_id = i_id
                  group by i_id) t
where ol_i_id = t.i_id and ol_quantity < t.a;
-- name: q18  -- from sql/generic/queries.sql
select c_last, c_id, o_id, o_entry_d, o_ol_cnt, sum(ol_amount) as amount_sum
from customer, orders, order_line
where c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and ol_w_id = o_w_id and ol_d_id = o_d_id
  and ol_o_id = o_id
group by o_id, o_w_id, o_d_id, c_id, c_last, o_entry_d, o_ol_cnt
having sum(ol_amount) > 200
order by amount_sum desc, o_entry_d;
-- name: q19  -- from sql/generic/queries.sql
select sum(ol_amount) as revenue
from order_line, item
where (ol_i_id = i_id and i_data like '%a' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 2, 3))
   or (ol_i_id = i_id and i_data like '%b' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 2, 4))
   or (ol_i_id = i_id and i_data like '%c' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 5, 3));
-- name: q20  -- from sql/generic/queries.sql
select su_name, su_address
from supplier, nation
where su_suppkey in (select (s_i_id * s_w_id) % 10000
                     from stock inner join item on i_id = s_i_id inner join order_line on ol_i_id = s_i_id
                     where ol_delivery_d > '2010-05-23 12:00:00' and i_data like 'c%'
                     group by s_i_id, s_w_id, s_quantity
                     having 2 * s_quantity > sum(ol_quantity))
  and su_nationkey = n_nationkey and n_name = 'Germany'
order by su_name;
-- name: q21  -- from sql/generic/queries.sql
select su_name, count(*) as numwait
from supplier, order_line l1, orders, stock, nation
where ol_o_id = o_id and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_w_id = s_w_id and ol_i_id = s_i_id
  and (s_w_id * s_i_id) % 10000 = su_suppkey and l1.ol_delivery_d > o_entry_d
  and not exists (select * from order_line l2
                  where l2.ol_o_id = l1.ol_o_id and l2.ol_w_id = l1.ol_w_id and l2.ol_d_id = l1.ol_d_id
                    and l2.ol_delivery_d > l1.ol_delivery_d)
  and su_nationkey = n_nationkey and n_name = 'Germany'
group by su_name
order by numwait desc, su_name;
-- name: q22  -- from sql/generic/queries.sql
select substring(c_state, 1, 1) as country, count(*) as numcust, sum(c_balance) as totacctbal
from customer
where substring(c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7')
  and c_balance > (select avg(c_balance) from customer
                   where c_balance > 0.00 and substring(c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7'))
  and not exists (select * from orders where o_c_id = c_id and o_w_id = c_w_id and o_d_id = c_d_id)
group by substring(c_state, 1, 1)
order by country;

