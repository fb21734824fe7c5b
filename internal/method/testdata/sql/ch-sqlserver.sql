-- dbdyno sql: workload ch, engine sqlserver (SQL Server)

-- file: schema.sql
-- name: dbdyno_tpcc_meta  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_tpcc_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: warehouse  -- from sql/generic/schema.sql
CREATE TABLE warehouse (
  w_id int NOT NULL, w_ytd numeric(12,2), w_tax numeric(4,4), w_name varchar(10), w_street_1 varchar(20),
  w_street_2 varchar(20), w_city varchar(20), w_state char(2), w_zip char(9)
);
-- name: district  -- from sql/generic/schema.sql
CREATE TABLE district (
  d_id smallint NOT NULL, d_w_id int NOT NULL, d_ytd numeric(12,2), d_tax numeric(4,4), d_next_o_id int,
  d_name varchar(10), d_street_1 varchar(20), d_street_2 varchar(20), d_city varchar(20), d_state char(2), d_zip char(9)
);
-- name: customer  -- from sql/sqlserver/schema.sql
CREATE TABLE customer (
  c_id int NOT NULL, c_d_id smallint NOT NULL, c_w_id int NOT NULL, c_first varchar(16), c_middle char(2),
  c_last varchar(16), c_street_1 varchar(20), c_street_2 varchar(20), c_city varchar(20), c_state char(2),
  c_zip char(9), c_phone char(16), c_since datetime2(0), c_credit char(2), c_credit_lim numeric(12,2),
  c_discount numeric(4,4), c_balance numeric(12,2), c_ytd_payment numeric(12,2), c_payment_cnt int,
  c_delivery_cnt int, c_data varchar(500)
);
-- name: history  -- from sql/sqlserver/schema.sql
CREATE TABLE history (
  h_c_id int, h_c_d_id smallint, h_c_w_id int, h_d_id smallint, h_w_id int, h_date datetime2(0),
  h_amount numeric(6,2), h_data varchar(24)
);
-- name: new_order  -- from sql/generic/schema.sql
CREATE TABLE new_order (no_o_id int NOT NULL, no_d_id smallint NOT NULL, no_w_id int NOT NULL);
-- name: orders  -- from sql/sqlserver/schema.sql
CREATE TABLE orders (
  o_id int NOT NULL, o_d_id smallint NOT NULL, o_w_id int NOT NULL, o_c_id int, o_entry_d datetime2(0),
  o_carrier_id smallint, o_ol_cnt smallint, o_all_local smallint
);
-- name: order_line  -- from sql/sqlserver/schema.sql
CREATE TABLE order_line (
  ol_o_id int NOT NULL, ol_d_id smallint NOT NULL, ol_w_id int NOT NULL, ol_number smallint NOT NULL, ol_i_id int,
  ol_supply_w_id int, ol_delivery_d datetime2(0), ol_quantity smallint, ol_amount numeric(6,2), ol_dist_info char(24)
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
-- name: dbdyno_new_order  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_new_order @w_id int, @d_id int, @c_id int, @ol_cnt int, @all_local int,
    @items varchar(255), @supply varchar(255), @qty varchar(64)
AS
BEGIN
  SET NOCOUNT ON;
  SET XACT_ABORT ON;
  DECLARE @w_tax numeric(4,4), @d_tax numeric(4,4), @discount numeric(4,4);
  DECLARE @o_id int, @i int, @item int, @sw int, @q int, @squant int;
  DECLARE @price numeric(5,2), @sum numeric(12,2), @last varchar(16), @credit char(2);
  DECLARE @name varchar(24), @idata varchar(50), @sdata varchar(50), @dist char(24);
  DECLARE @ip int, @sp int, @qp int, @in int, @sn int, @qn int;
  SET @sum = 0;
  BEGIN TRANSACTION;
  SELECT @w_tax = w_tax FROM warehouse WHERE w_id = @w_id;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = @w_id AND d_id = @d_id;
  SELECT @d_tax = d_tax, @o_id = d_next_o_id - 1 FROM district WHERE d_w_id = @w_id AND d_id = @d_id;
  SELECT @discount = c_discount, @last = c_last, @credit = c_credit
    FROM customer WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_id = @c_id;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
    VALUES (@o_id, @d_id, @w_id, @c_id, CAST(SYSDATETIME() AS datetime2(0)), NULL, @ol_cnt, @all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (@o_id, @d_id, @w_id);
  SET @i = 1;
  SET @ip = 1;
  SET @sp = 1;
  SET @qp = 1;
  WHILE @i <= @ol_cnt
  BEGIN
    SET @in = CHARINDEX(',', @items + ',', @ip);
    SET @sn = CHARINDEX(',', @supply + ',', @sp);
    SET @qn = CHARINDEX(',', @qty + ',', @qp);
    SET @item = CAST(SUBSTRING(@items, @ip, @in - @ip) AS int);
    SET @sw = CAST(SUBSTRING(@supply, @sp, @sn - @sp) AS int);
    SET @q = CAST(SUBSTRING(@qty, @qp, @qn - @qp) AS int);
    SET @ip = @in + 1;
    SET @sp = @sn + 1;
    SET @qp = @qn + 1;
    SET @price = NULL;
    SELECT @price = i_price, @name = i_name, @idata = i_data FROM item WHERE i_id = @item;
    IF @price IS NULL
    BEGIN
      ROLLBACK TRANSACTION;
      SELECT CAST(0 AS numeric(12,2)) AS total, 1 AS rolled_back;
      RETURN;
    END;
    UPDATE stock
       SET s_quantity = CASE WHEN s_quantity >= @q + 10 THEN s_quantity - @q ELSE s_quantity - @q + 91 END,
           s_ytd = s_ytd + @q, s_order_cnt = s_order_cnt + 1,
           s_remote_cnt = s_remote_cnt + CASE WHEN @sw <> @w_id THEN 1 ELSE 0 END
     WHERE s_w_id = @sw AND s_i_id = @item;
    SELECT @squant = s_quantity, @sdata = s_data,
           @dist = CASE @d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                              WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                              WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
      FROM stock WHERE s_w_id = @sw AND s_i_id = @item;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
      VALUES (@o_id, @d_id, @w_id, @i, @item, @sw, NULL, @q, @q * @price, @dist);
    SET @sum = @sum + @q * @price;
    SET @i = @i + 1;
  END;
  COMMIT TRANSACTION;
  SELECT CAST(@sum * (1 - @discount) * (1 + @w_tax + @d_tax) AS numeric(12,2)) AS total, 0 AS rolled_back;
END;
-- name: dbdyno_payment  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_payment @w_id int, @d_id int, @c_w_id int, @c_d_id int, @c_id int,
    @byname bit, @c_last varchar(16), @amount numeric(6,2)
AS
BEGIN
  SET NOCOUNT ON;
  SET XACT_ABORT ON;
  DECLARE @w_name varchar(10), @d_name varchar(10), @cid int, @n int, @off int;
  DECLARE @credit char(2), @balance numeric(12,2);
  SET @cid = @c_id;
  BEGIN TRANSACTION;
  UPDATE warehouse SET w_ytd = w_ytd + @amount WHERE w_id = @w_id;
  SELECT @w_name = w_name FROM warehouse WHERE w_id = @w_id;
  UPDATE district SET d_ytd = d_ytd + @amount WHERE d_w_id = @w_id AND d_id = @d_id;
  SELECT @d_name = d_name FROM district WHERE d_w_id = @w_id AND d_id = @d_id;
  IF @byname = 1
  BEGIN
    SELECT @n = COUNT(*) FROM customer WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_last = @c_last;
    IF @n = 0
      THROW 50001, 'dbdyno: no customer with that last name', 1;
    SET @off = (@n + 1) / 2 - 1;
    SELECT @cid = c_id FROM customer WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_last = @c_last
      ORDER BY c_first OFFSET @off ROWS FETCH NEXT 1 ROWS ONLY;
  END;
  UPDATE customer SET c_balance = c_balance - @amount, c_ytd_payment = c_ytd_payment + @amount,
         c_payment_cnt = c_payment_cnt + 1,
         c_data = CASE WHEN c_credit = 'BC'
                       THEN LEFT(CONCAT_WS(' ', @cid, @c_d_id, @c_w_id, @d_id, @w_id, CAST(@amount AS varchar(12))) + '|' + c_data, 500)
                       ELSE c_data END
   WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_id = @cid;
  SELECT @credit = c_credit, @balance = c_balance FROM customer WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_id = @cid;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (@cid, @c_d_id, @c_w_id, @d_id, @w_id, CAST(SYSDATETIME() AS datetime2(0)), @amount, @w_name + '    ' + @d_name);
  COMMIT TRANSACTION;
  SELECT @cid AS c_id, @balance AS balance;
END;
-- name: dbdyno_order_status  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_order_status @w_id int, @d_id int, @c_id int, @byname bit, @c_last varchar(16)
AS
BEGIN
  SET NOCOUNT ON;
  SET XACT_ABORT ON;
  DECLARE @cid int, @n int, @off int, @o_id int, @lines int, @balance numeric(12,2);
  DECLARE @first varchar(16), @middle char(2), @last varchar(16), @entry datetime2(0), @carrier int;
  SET @cid = @c_id;
  BEGIN TRANSACTION;
  IF @byname = 1
  BEGIN
    SELECT @n = COUNT(*) FROM customer WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_last = @c_last;
    IF @n = 0
      THROW 50001, 'dbdyno: no customer with that last name', 1;
    SET @off = (@n + 1) / 2 - 1;
    SELECT @cid = c_id FROM customer WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_last = @c_last
      ORDER BY c_first OFFSET @off ROWS FETCH NEXT 1 ROWS ONLY;
  END;
  SELECT @balance = c_balance, @first = c_first, @middle = c_middle, @last = c_last
    FROM customer WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_id = @cid;
  SELECT TOP 1 @o_id = o_id, @entry = o_entry_d, @carrier = o_carrier_id FROM orders
   WHERE o_w_id = @w_id AND o_d_id = @d_id AND o_c_id = @cid ORDER BY o_id DESC;
  SELECT @lines = COUNT(*) FROM (SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
   WHERE ol_w_id = @w_id AND ol_d_id = @d_id AND ol_o_id = @o_id) AS ol;
  COMMIT TRANSACTION;
  SELECT @cid AS c_id, @lines AS line_count;
END;
-- name: dbdyno_delivery  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_delivery @w_id int, @carrier_id int
AS
BEGIN
  SET NOCOUNT ON;
  SET XACT_ABORT ON;
  DECLARE @d int, @o_id int, @cid int, @delivered int, @taken int, @amount numeric(12,2);
  SET @delivered = 0;
  SET @d = 1;
  BEGIN TRANSACTION;
  WHILE @d <= 10
  BEGIN
    SET @o_id = NULL;
    SET @taken = 0;
    SELECT @o_id = MIN(no_o_id) FROM new_order WHERE no_w_id = @w_id AND no_d_id = @d;
    IF @o_id IS NOT NULL
    BEGIN
      DELETE FROM new_order WHERE no_w_id = @w_id AND no_d_id = @d AND no_o_id = @o_id;
      SET @taken = @@ROWCOUNT;
    END;
    IF @taken > 0
    BEGIN
      UPDATE orders SET o_carrier_id = @carrier_id WHERE o_w_id = @w_id AND o_d_id = @d AND o_id = @o_id;
      SELECT @cid = o_c_id FROM orders WHERE o_w_id = @w_id AND o_d_id = @d AND o_id = @o_id;
      UPDATE order_line SET ol_delivery_d = CAST(SYSDATETIME() AS datetime2(0))
       WHERE ol_w_id = @w_id AND ol_d_id = @d AND ol_o_id = @o_id;
      SELECT @amount = COALESCE(SUM(ol_amount), 0) FROM order_line WHERE ol_w_id = @w_id AND ol_d_id = @d AND ol_o_id = @o_id;
      UPDATE customer SET c_balance = c_balance + @amount, c_delivery_cnt = c_delivery_cnt + 1
       WHERE c_w_id = @w_id AND c_d_id = @d AND c_id = @cid;
      SET @delivered = @delivered + 1;
    END;
    SET @d = @d + 1;
  END;
  COMMIT TRANSACTION;
  SELECT @delivered AS delivered;
END;
-- name: dbdyno_stock_level  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_stock_level @w_id int, @d_id int, @threshold int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @next int, @low int;
  SELECT @next = d_next_o_id FROM district WHERE d_w_id = @w_id AND d_id = @d_id;
  SELECT @low = COUNT(DISTINCT s_i_id) FROM order_line, stock
   WHERE ol_w_id = @w_id AND ol_d_id = @d_id AND ol_o_id < @next AND ol_o_id >= @next - 20
     AND s_w_id = @w_id AND s_i_id = ol_i_id AND s_quantity < @threshold;
  SELECT @low AS low_stock;
END;

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
-- name: drop_dbdyno_new_order  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_new_order;
-- name: drop_dbdyno_payment  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_payment;
-- name: drop_dbdyno_order_status  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_order_status;
-- name: drop_dbdyno_delivery  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_delivery;
-- name: drop_dbdyno_stock_level  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_stock_level;

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_tpcc_meta WHERE k = @p1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_tpcc_meta WHERE k = @p1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_tpcc_meta (k, v) VALUES (@p1, @p2);
-- name: routines()  -- from sql/sqlserver/admin.sql
SELECT 'procedure', o.name, m.definition FROM sys.objects o JOIN sys.sql_modules m ON m.object_id = o.object_id
WHERE SCHEMA_NAME(o.schema_id) = SCHEMA_NAME() AND o.name IN ('dbdyno_new_order', 'dbdyno_payment', 'dbdyno_order_status',
  'dbdyno_delivery', 'dbdyno_stock_level');

-- file: tx.sql
-- name: no_warehouse(w_id)  -- from sql/generic/tx.sql
SELECT w_tax FROM warehouse WHERE w_id = @p1;
-- name: no_district(w_id, d_id)  -- from sql/sqlserver/tx.sql
SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = @p1 AND d_id = @p2;
-- name: no_district_update(w_id, d_id)  -- from sql/generic/tx.sql
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = @p1 AND d_id = @p2;
-- name: no_customer(w_id, d_id, c_id)  -- from sql/generic/tx.sql
SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_id = @p3;
-- name: no_insert_order(o_id, d_id, w_id, c_id, entry_d, ol_cnt, all_local)  -- from sql/generic/tx.sql
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
VALUES (@p1, @p2, @p3, @p4, @p5, NULL, @p6, @p7);
-- name: no_insert_new_order(o_id, d_id, w_id)  -- from sql/generic/tx.sql
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (@p1, @p2, @p3);
-- name: no_item(i_id)  -- from sql/generic/tx.sql
SELECT i_price, i_name, i_data FROM item WHERE i_id = @p1;
-- name: no_stock(w_id, i_id, d_id)  -- from sql/sqlserver/tx.sql
UPDATE stock SET s_quantity = s_quantity WHERE s_w_id = @p1 AND s_i_id = @p2;
SELECT s_quantity, s_data,
       CASE @p3 WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                  WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                  WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
FROM stock WHERE s_w_id = @p1 AND s_i_id = @p2;
-- name: no_stock_update(quantity, ol_quantity, remote, w_id, i_id)  -- from sql/generic/tx.sql
UPDATE stock SET s_quantity = @p1, s_ytd = s_ytd + @p2, s_order_cnt = s_order_cnt + 1,
       s_remote_cnt = s_remote_cnt + @p3
WHERE s_w_id = @p4 AND s_i_id = @p5;
-- name: no_insert_order_line(o_id, d_id, w_id, number, i_id, supply_w_id, quantity, amount, dist_info)  -- from sql/generic/tx.sql
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
VALUES (@p1, @p2, @p3, @p4, @p5, @p6, NULL, @p7, @p8, @p9);
-- name: pay_warehouse_update(w_id, amount)  -- from sql/generic/tx.sql
UPDATE warehouse SET w_ytd = w_ytd + @p2 WHERE w_id = @p1;
-- name: pay_warehouse(w_id)  -- from sql/generic/tx.sql
SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = @p1;
-- name: pay_district_update(w_id, d_id, amount)  -- from sql/generic/tx.sql
UPDATE district SET d_ytd = d_ytd + @p3 WHERE d_w_id = @p1 AND d_id = @p2;
-- name: pay_district(w_id, d_id)  -- from sql/generic/tx.sql
SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = @p1 AND d_id = @p2;
-- name: customers_by_last(w_id, d_id, last)  -- from sql/generic/tx.sql
SELECT c_id FROM customer WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_last = @p3 ORDER BY c_first;
-- name: pay_customer(w_id, d_id, c_id)  -- from sql/sqlserver/tx.sql
UPDATE customer SET c_balance = c_balance WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_id = @p3;
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit,
       c_credit_lim, c_discount, c_balance
FROM customer WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_id = @p3;
-- name: pay_customer_data(w_id, d_id, c_id)  -- from sql/generic/tx.sql
SELECT c_data FROM customer WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_id = @p3;
-- name: pay_customer_update(w_id, d_id, c_id, amount)  -- from sql/generic/tx.sql
UPDATE customer SET c_balance = c_balance - @p4, c_ytd_payment = c_ytd_payment + @p4,
       c_payment_cnt = c_payment_cnt + 1
WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_id = @p3;
-- name: pay_customer_update_bc(w_id, d_id, c_id, amount, data)  -- from sql/generic/tx.sql
UPDATE customer SET c_balance = c_balance - @p4, c_ytd_payment = c_ytd_payment + @p4,
       c_payment_cnt = c_payment_cnt + 1, c_data = @p5
WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_id = @p3;
-- name: pay_insert_history(c_id, c_d_id, c_w_id, d_id, w_id, h_date, amount, data)  -- from sql/generic/tx.sql
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
VALUES (@p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8);
-- name: os_customer(w_id, d_id, c_id)  -- from sql/generic/tx.sql
SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_id = @p3;
-- name: os_last_order(w_id, d_id, c_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 1 o_id, o_entry_d, o_carrier_id FROM orders
WHERE o_w_id = @p1 AND o_d_id = @p2 AND o_c_id = @p3 ORDER BY o_id DESC;
-- name: os_order_lines(w_id, d_id, o_id)  -- from sql/generic/tx.sql
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
WHERE ol_w_id = @p1 AND ol_d_id = @p2 AND ol_o_id = @p3;
-- name: dl_new_order(w_id, d_id)  -- from sql/sqlserver/tx.sql
DELETE FROM new_order OUTPUT deleted.no_o_id
WHERE no_w_id = @p1 AND no_d_id = @p2
  AND no_o_id = (SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = @p1 AND no_d_id = @p2);
-- name: dl_delete_new_order(w_id, d_id, o_id)  -- from sql/generic/tx.sql
DELETE FROM new_order WHERE no_w_id = @p1 AND no_d_id = @p2 AND no_o_id = @p3;
-- name: dl_order(w_id, d_id, o_id)  -- from sql/generic/tx.sql
SELECT o_c_id FROM orders WHERE o_w_id = @p1 AND o_d_id = @p2 AND o_id = @p3;
-- name: dl_update_order(w_id, d_id, o_id, carrier_id)  -- from sql/generic/tx.sql
UPDATE orders SET o_carrier_id = @p4 WHERE o_w_id = @p1 AND o_d_id = @p2 AND o_id = @p3;
-- name: dl_update_order_lines(w_id, d_id, o_id, delivery_d)  -- from sql/generic/tx.sql
UPDATE order_line SET ol_delivery_d = @p4 WHERE ol_w_id = @p1 AND ol_d_id = @p2 AND ol_o_id = @p3;
-- name: dl_sum_order_lines(w_id, d_id, o_id)  -- from sql/generic/tx.sql
SELECT COALESCE(SUM(ol_amount), 0) FROM order_line WHERE ol_w_id = @p1 AND ol_d_id = @p2 AND ol_o_id = @p3;
-- name: dl_update_customer(w_id, d_id, c_id, amount)  -- from sql/generic/tx.sql
UPDATE customer SET c_balance = c_balance + @p4, c_delivery_cnt = c_delivery_cnt + 1
WHERE c_w_id = @p1 AND c_d_id = @p2 AND c_id = @p3;
-- name: sl_district(w_id, d_id)  -- from sql/generic/tx.sql
SELECT d_next_o_id FROM district WHERE d_w_id = @p1 AND d_id = @p2;
-- name: sl_count(w_id, d_id, next_o_id, threshold)  -- from sql/generic/tx.sql
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock
WHERE ol_w_id = @p1 AND ol_d_id = @p2 AND ol_o_id < @p3 AND ol_o_id >= @p3 - 20
  AND s_w_id = @p1 AND s_i_id = ol_i_id AND s_quantity < @p4;
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
-- name: begin_write  -- from sql/sqlserver/tx.sql
BEGIN TRANSACTION;
-- name: begin_read  -- from sql/sqlserver/tx.sql
BEGIN TRANSACTION;
-- name: commit  -- from sql/sqlserver/tx.sql
COMMIT TRANSACTION;
-- name: rollback  -- from sql/sqlserver/tx.sql
IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION;
-- name: no_district_next(w_id, d_id)  -- from sql/sqlserver/tx.sql
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = @p1 AND d_id = @p2;
SELECT d_tax, d_next_o_id - 1 FROM district WHERE d_w_id = @p1 AND d_id = @p2;

-- file: calls.sql
-- name: proc_new_order(w_id, d_id, c_id, ol_cnt, all_local, items, supply, qty)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_new_order @p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8;
-- name: proc_payment(w_id, d_id, c_w_id, c_d_id, c_id, byname, c_last, amount)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_payment @p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8;
-- name: proc_order_status(w_id, d_id, c_id, byname, c_last)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_order_status @p1, @p2, @p3, @p4, @p5;
-- name: proc_delivery(w_id, carrier_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_delivery @p1, @p2;
-- name: proc_stock_level(w_id, d_id, threshold)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_stock_level @p1, @p2, @p3;

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
SELECT v FROM dbdyno_ch_meta WHERE k = @p1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_ch_meta WHERE k = @p1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_ch_meta (k, v) VALUES (@p1, @p2);

-- file: queries.sql
-- name: q1  -- from sql/generic/queries.sql
select ol_number, sum(ol_quantity) as sum_qty, sum(ol_amount) as sum_amount, avg(ol_quantity) as avg_qty,
       avg(ol_amount) as avg_amount, count(*) as count_order
from order_line
where ol_delivery_d > '2007-01-02 00:00:00'
group by ol_number
order by ol_number;
-- name: q2  -- from sql/sqlserver/queries.sql
select su_suppkey, su_name, n_name, i_id, i_name, su_address, su_phone, su_comment
from item, supplier, stock, nation, region,
     (select s_i_id as m_i_id, min(s_quantity) as m_s_quantity
      from stock, supplier, nation, region
      where (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey and n_regionkey = r_regionkey
        and r_name like 'Europ%'
      group by s_i_id) m
where i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey
  and n_regionkey = r_regionkey and i_data collate Latin1_General_CS_AS like '%b' and r_name like 'Europ%' and i_id = m_i_id
  and s_quantity = m_s_quantity
order by n_name, su_name, i_id;;
-- name: q3  -- from sql/sqlserver/queries.sql
select ol_o_id, ol_w_id, ol_d_id, sum(ol_amount) as revenue, o_entry_d
from customer, new_order, orders, order_line
where c_state collate Latin1_General_CS_AS like 'A%' and c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and no_w_id = o_w_id
  and no_d_id = o_d_id and no_o_id = o_id and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id
  and o_entry_d > '2007-01-02 00:00:00'
group by ol_o_id, ol_w_id, ol_d_id, o_entry_d
order by revenue desc, o_entry_d;;
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
-- name: q7  -- from sql/sqlserver/queries.sql
select su_nationkey as supp_nation, substring(c_state, 1, 1) as cust_nation, year(o_entry_d) as l_year,
       sum(ol_amount) as revenue
from supplier, stock, order_line, orders, customer, nation n1, nation n2
where ol_supply_w_id = s_w_id and ol_i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and c_id = o_c_id and c_w_id = o_w_id
  and c_d_id = o_d_id and su_nationkey = n1.n_nationkey and ascii(substring(c_state, 1, 1)) = n2.n_nationkey
  and ((n1.n_name = 'Germany' and n2.n_name = 'Cambodia') or (n1.n_name = 'Cambodia' and n2.n_name = 'Germany'))
group by su_nationkey, substring(c_state, 1, 1), year(o_entry_d)
order by supp_nation, cust_nation, l_year;;
-- name: q8  -- from sql/sqlserver/queries.sql
select year(o_entry_d) as l_year,
       sum(case when n2.n_name = 'Germany' then ol_amount else 0 end) / nullif(sum(ol_amount), 0) as mkt_share
from item, supplier, stock, order_line, orders, customer, nation n1, nation n2, region
where i_id = s_i_id and ol_i_id = s_i_id and ol_supply_w_id = s_w_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and c_id = o_c_id and c_w_id = o_w_id
  and c_d_id = o_d_id and n1.n_nationkey = ascii(substring(c_state, 1, 1)) and n1.n_regionkey = r_regionkey
  and ol_i_id < 1000 and r_name = 'Europe' and su_nationkey = n2.n_nationkey and i_data collate Latin1_General_CS_AS like '%b'
  and i_id = ol_i_id
group by year(o_entry_d)
order by l_year;;
-- name: q9  -- from sql/sqlserver/queries.sql
select n_name, year(o_entry_d) as l_year, sum(ol_amount) as sum_profit
from item, stock, supplier, order_line, orders, nation
where ol_i_id = s_i_id and ol_supply_w_id = s_w_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and ol_i_id = i_id and su_nationkey = n_nationkey
  and i_data collate Latin1_General_CS_AS like '%bb'
group by n_name, year(o_entry_d)
order by n_name, l_year desc;;
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
-- name: q14  -- from sql/sqlserver/queries.sql
select 100.00 * sum(case when i_data collate Latin1_General_CS_AS like 'PR%' then ol_amount else 0 end) / (1 + sum(ol_amount)) as promo_revenue
from order_line, item
where ol_i_id = i_id and ol_delivery_d >= '2007-01-02 00:00:00' and ol_delivery_d < '2100-01-01 00:00:00';;
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
-- name: q16  -- from sql/sqlserver/queries.sql
select i_name, substring(i_data, 1, 3) as brand, i_price, count(distinct ((s_w_id * s_i_id) % 10000)) as supplier_cnt
from stock, item
where i_id = s_i_id and i_data collate Latin1_General_CS_AS not like 'zz%'
  and ((s_w_id * s_i_id) % 10000 not in (select su_suppkey from supplier where su_comment collate Latin1_General_CS_AS like '%bad%'))
group by i_name, substring(i_data, 1, 3), i_price
order by supplier_cnt desc;;
-- name: q17  -- from sql/sqlserver/queries.sql
select sum(ol_amount) / 2.0 as avg_yearly
from order_line, (select i_id, avg(1.0 * ol_quantity) as a
                  from item, order_line
                  where i_data collate Latin1_General_CS_AS like '%b' and ol_i_id = i_id
                  group by i_id) t
where ol_i_id = t.i_id and ol_quantity < t.a;;
-- name: q18  -- from sql/generic/queries.sql
select c_last, c_id, o_id, o_entry_d, o_ol_cnt, sum(ol_amount) as amount_sum
from customer, orders, order_line
where c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and ol_w_id = o_w_id and ol_d_id = o_d_id
  and ol_o_id = o_id
group by o_id, o_w_id, o_d_id, c_id, c_last, o_entry_d, o_ol_cnt
having sum(ol_amount) > 200
order by amount_sum desc, o_entry_d;
-- name: q19  -- from sql/sqlserver/queries.sql
select sum(ol_amount) as revenue
from order_line, item
where (ol_i_id = i_id and i_data collate Latin1_General_CS_AS like '%a' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 2, 3))
   or (ol_i_id = i_id and i_data collate Latin1_General_CS_AS like '%b' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 2, 4))
   or (ol_i_id = i_id and i_data collate Latin1_General_CS_AS like '%c' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 5, 3));;
-- name: q20  -- from sql/sqlserver/queries.sql
select su_name, su_address
from supplier, nation
where su_suppkey in (select (s_i_id * s_w_id) % 10000
                     from stock inner join item on i_id = s_i_id inner join order_line on ol_i_id = s_i_id
                     where ol_delivery_d > '2010-05-23 12:00:00' and i_data collate Latin1_General_CS_AS like 'c%'
                     group by s_i_id, s_w_id, s_quantity
                     having 2 * s_quantity > sum(ol_quantity))
  and su_nationkey = n_nationkey and n_name = 'Germany'
order by su_name;;
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
-- name: q22  -- from sql/sqlserver/queries.sql
select substring(c_state, 1, 1) collate Latin1_General_CS_AS as country, count(*) as numcust, sum(c_balance) as totacctbal
from customer
where substring(c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7')
  and c_balance > (select avg(c_balance) from customer
                   where c_balance > 0.00 and substring(c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7'))
  and not exists (select * from orders where o_c_id = c_id and o_w_id = c_w_id and o_d_id = c_d_id)
group by substring(c_state, 1, 1) collate Latin1_General_CS_AS
order by country;;

