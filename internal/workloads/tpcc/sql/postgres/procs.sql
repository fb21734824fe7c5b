-- dbdyno TPC-C-derived transactions as PL/pgSQL functions (--mode procedures): one call per transaction.
-- Installed by `dbdyno tpcc build`; dropped by `dbdyno tpcc drop`.
-- name: dbdyno_new_order
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
  -- The items of all lines in one query: price, name and data in line order, how many exist, how many lines
  -- are distinct (supply warehouse, item) pairs, and the order's sum of quantity x price.
  SELECT array_agg(i_price ORDER BY u.n), array_agg(i_name ORDER BY u.n), array_agg(i_data ORDER BY u.n),
         count(i_id), count(DISTINCT (u.sw, u.id)), sum(u.qty * i_price)
    INTO v_prices, v_names, v_idata, v_found, v_distinct, v_sum
    FROM unnest(p_items, p_supply, p_qty) WITH ORDINALITY AS u(id, sw, qty, n) LEFT JOIN item ON i_id = u.id;
  IF v_found < p_ol_cnt THEN
    -- the 1% of New-Orders with an unused item number: the whole transaction rolls back
    RAISE EXCEPTION 'dbdyno: item not found among %', p_items USING ERRCODE = 'DY001';
  END IF;
  IF v_distinct = p_ol_cnt THEN
    -- Every line its own stock row: update them and insert the order lines in one statement. The rows are
    -- locked in line order (the client sorts the lines by supply warehouse and item), as line by line.
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
    -- Lines that repeat an item update its stock row once each, one after the other (an UPDATE ... FROM would
    -- apply only one of them).
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
-- name: dbdyno_customer_by_name
CREATE OR REPLACE FUNCTION dbdyno_customer_by_name(p_w_id int, p_d_id int, p_c_last varchar) RETURNS int AS $$
DECLARE v_n int; v_c_id int;
BEGIN
  SELECT count(*) INTO v_n FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
  IF v_n = 0 THEN
    RAISE EXCEPTION 'dbdyno: no customer named % in warehouse % district %', p_c_last, p_w_id, p_d_id;
  END IF;
  -- the customer at position ceil(n/2) in C_FIRST order (clause 2.5.2.2)
  SELECT c_id INTO v_c_id FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last
    ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;
  RETURN v_c_id;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_payment
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
-- name: dbdyno_order_status
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
-- name: dbdyno_delivery
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
-- name: dbdyno_stock_level
CREATE OR REPLACE FUNCTION dbdyno_stock_level(p_w_id int, p_d_id int, p_threshold int, OUT out_low_stock int) AS $$
#variable_conflict use_column
DECLARE v_next int;
BEGIN
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT COUNT(DISTINCT s_i_id) INTO out_low_stock FROM order_line, stock
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id < v_next AND ol_o_id >= v_next - 20
     AND s_w_id = p_w_id AND s_i_id = ol_i_id AND s_quantity < p_threshold;
END $$ LANGUAGE plpgsql;
