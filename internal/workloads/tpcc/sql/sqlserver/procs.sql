-- dbdyno TPC-C-derived transactions as SQL Server stored procedures (--mode procedures): one EXEC per
-- transaction, its outputs as one row. Item lists arrive as comma-separated numbers. XACT_ABORT rolls the
-- transaction back on any error (a deadlock victim's included) before the error reaches the client.
-- A row is written first and read after (its own write), never read into a variable by the UPDATE itself
-- (UPDATE ... SET @v = col, col = ...: SQL Server-compatible servers such as Babelfish give @v the new value)
-- nor locked by a table hint (UPDLOCK, which they ignore).
-- name: dbdyno_new_order
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
      -- the 1% of New-Orders with an unused item number: the whole transaction rolls back
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
END
-- name: dbdyno_payment
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
END
-- name: dbdyno_order_status
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
END
-- name: dbdyno_delivery
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
      -- the order is this terminal's only if it deletes it: another that took it first leaves nothing to delete
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
END
-- name: dbdyno_stock_level
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
END
