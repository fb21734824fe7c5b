-- dbdyno web store steps as PL/pgSQL functions (--mode procedures): one call per login or purchase.
-- name: dbdyno_ws_login
CREATE OR REPLACE FUNCTION dbdyno_ws_login(p_username varchar, p_password varchar, OUT out_customerid int, OUT out_titles int) AS $$
BEGIN
  SELECT customerid INTO out_customerid FROM customers WHERE username = p_username AND password = p_password;
  IF out_customerid IS NULL THEN
    RAISE EXCEPTION 'dbdyno: no customer %', p_username USING ERRCODE = 'DY003';
  END IF;
  SELECT count(*) INTO out_titles FROM (
    SELECT p.title, p.actor FROM cust_hist h JOIN products p ON p.prod_id = h.prod_id
    WHERE h.customerid = out_customerid ORDER BY h.orderid DESC LIMIT 10) AS t;
END $$ LANGUAGE plpgsql;
-- A purchase: each line's stock taken only if it covers the quantity (else the whole purchase is undone and
-- reported as rolled back), then the order, its lines and the customer's history (low stock is restocked by
-- the inventory's trigger, indexes.sql).
-- name: dbdyno_ws_purchase
CREATE OR REPLACE FUNCTION dbdyno_ws_purchase(p_customerid int, p_orderid int, p_orderdate date, p_prods int[], p_qtys int[],
    OUT out_netamount numeric, OUT out_rolled_back int) AS $$
DECLARE
  v_net numeric(12,2); v_tax numeric(12,2);
BEGIN
  FOR i IN 1 .. array_length(p_prods, 1) LOOP
    UPDATE inventory SET quan_in_stock = quan_in_stock - p_qtys[i], sales = sales + p_qtys[i]
     WHERE prod_id = p_prods[i] AND quan_in_stock >= p_qtys[i];
    IF NOT FOUND THEN
      RAISE EXCEPTION 'dbdyno: short stock of product %', p_prods[i] USING ERRCODE = 'DY002';
    END IF;
  END LOOP;
  SELECT sum(u.q * p.price) INTO v_net FROM unnest(p_prods, p_qtys) AS u(id, q) JOIN products p ON p.prod_id = u.id;
  v_tax := round(v_net * 0.0825, 2);
  INSERT INTO orders (orderid, orderdate, customerid, netamount, tax, totalamount)
    VALUES (p_orderid, p_orderdate, p_customerid, v_net, v_tax, v_net + v_tax);
  INSERT INTO orderlines (orderlineid, orderid, prod_id, quantity, orderdate)
    SELECT u.n, p_orderid, u.id, u.q, p_orderdate FROM unnest(p_prods, p_qtys) WITH ORDINALITY AS u(id, q, n);
  INSERT INTO cust_hist (customerid, orderid, prod_id) SELECT p_customerid, p_orderid, u.id FROM unnest(p_prods) AS u(id);
  out_netamount := v_net;
  out_rolled_back := 0;
END $$ LANGUAGE plpgsql;
