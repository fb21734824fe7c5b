-- dbdyno web store steps as SQL Server stored procedures (--mode procedures): one EXEC per login or purchase.
-- Product lists arrive as comma-separated numbers; XACT_ABORT rolls a purchase back on any error. Low stock is
-- restocked by the inventory's trigger (indexes.sql).
-- name: dbdyno_ws_login
CREATE OR ALTER PROCEDURE dbdyno_ws_login @username varchar(50), @password varchar(50)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @c int, @n int;
  SELECT @c = customerid FROM customers WHERE username = @username AND password = @password;
  IF @c IS NULL
    THROW 50003, 'dbdyno: no such customer', 1;
  SELECT @n = COUNT(*) FROM (SELECT TOP 10 p.title, p.actor FROM cust_hist h JOIN products p ON p.prod_id = h.prod_id
    WHERE h.customerid = @c ORDER BY h.orderid DESC) AS t;
  SELECT @c AS customerid, @n AS titles;
END
-- name: dbdyno_ws_purchase
CREATE OR ALTER PROCEDURE dbdyno_ws_purchase @customerid int, @orderid int, @orderdate date, @prods varchar(100),
    @qtys varchar(40)
AS
BEGIN
  SET NOCOUNT ON;
  SET XACT_ABORT ON;
  DECLARE @i int, @prod int, @q int, @price numeric(12,2), @net numeric(12,2), @tax numeric(12,2);
  DECLARE @pp int, @qp int, @pn int, @qn int;
  SET @net = 0;
  SET @i = 1;
  SET @pp = 1;
  SET @qp = 1;
  BEGIN TRANSACTION;
  WHILE @pp <= LEN(@prods)
  BEGIN
    SET @pn = CHARINDEX(',', @prods + ',', @pp);
    SET @qn = CHARINDEX(',', @qtys + ',', @qp);
    SET @prod = CAST(SUBSTRING(@prods, @pp, @pn - @pp) AS int);
    SET @q = CAST(SUBSTRING(@qtys, @qp, @qn - @qp) AS int);
    SET @pp = @pn + 1;
    SET @qp = @qn + 1;
    UPDATE inventory SET quan_in_stock = quan_in_stock - @q, sales = sales + @q
     WHERE prod_id = @prod AND quan_in_stock >= @q;
    IF @@ROWCOUNT = 0
    BEGIN
      -- short stock: the whole purchase rolls back
      ROLLBACK TRANSACTION;
      SELECT CAST(0 AS numeric(12,2)) AS netamount, 1 AS rolled_back;
      RETURN;
    END;
    SELECT @price = price FROM products WHERE prod_id = @prod;
    SET @net = @net + @q * @price;
    INSERT INTO orderlines (orderlineid, orderid, prod_id, quantity, orderdate) VALUES (@i, @orderid, @prod, @q, @orderdate);
    INSERT INTO cust_hist (customerid, orderid, prod_id) VALUES (@customerid, @orderid, @prod);
    SET @i = @i + 1;
  END;
  SET @tax = ROUND(@net * 0.0825, 2);
  INSERT INTO orders (orderid, orderdate, customerid, netamount, tax, totalamount)
    VALUES (@orderid, @orderdate, @customerid, @net, @tax, @net + @tax);
  COMMIT TRANSACTION;
  SELECT @net AS netamount, 0 AS rolled_back;
END
