-- dbdyno TPC-E-derived frames as PL/pgSQL functions (--mode procedures): one function per frame, each returning
-- the frame's outputs as the client builds them in --mode sql (internal/workloads/tpce/frames.go). The client
-- keeps the transaction. Installed by `dbdyno tpce build`; dropped by `dbdyno tpce drop`.
-- name: dbdyno_tpce_bv1
CREATE OR REPLACE FUNCTION dbdyno_tpce_bv1(p_b_lo bigint, p_b_hi bigint, p_sc_name varchar)
RETURNS TABLE (o_b_name varchar, o_vol numeric) AS $$
  SELECT b_name, sum(tr_qty * tr_bid_price) AS vol FROM trade_request
  JOIN security ON s_symb = tr_s_symb JOIN company ON co_id = s_co_id JOIN industry ON in_id = co_in_id
  JOIN sector ON sc_id = in_sc_id JOIN broker ON b_id = tr_b_id
  WHERE b_id BETWEEN p_b_lo AND p_b_hi AND sc_name = p_sc_name GROUP BY b_name ORDER BY vol DESC;
$$ LANGUAGE sql;
-- name: dbdyno_tpce_cp1
CREATE OR REPLACE FUNCTION dbdyno_tpce_cp1(p_by_tax int, p_c_id bigint, p_tax_id varchar)
RETURNS TABLE (o_ca_id bigint, o_bal numeric, o_assets numeric) AS $$
DECLARE v_c bigint;
BEGIN
  IF p_by_tax = 1 THEN
    SELECT c_id INTO v_c FROM customer WHERE c_tax_id = p_tax_id;
  ELSE
    SELECT c_id INTO v_c FROM customer WHERE c_id = p_c_id;
  END IF;
  IF v_c IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY SELECT ca_id, ca_bal, coalesce(sum(hs_qty * lt_price), 0) AS assets FROM customer_account
    LEFT JOIN holding_summary ON hs_ca_id = ca_id LEFT JOIN last_trade ON lt_s_symb = hs_s_symb
    WHERE ca_c_id = v_c GROUP BY ca_id, ca_bal ORDER BY assets LIMIT 10;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_cp2
CREATE OR REPLACE FUNCTION dbdyno_tpce_cp2(p_ca_id bigint)
RETURNS TABLE (o_t_id bigint, o_symb varchar, o_qty int, o_st_name varchar, o_dts timestamp) AS $$
  SELECT t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = p_ca_id ORDER BY t_dts DESC, t_id DESC LIMIT 10) x
  JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name LIMIT 30;
$$ LANGUAGE sql;
-- name: dbdyno_tpce_mw1
CREATE OR REPLACE FUNCTION dbdyno_tpce_mw1(p_kind int, p_c_id bigint, p_ca_id bigint, p_in_name varchar, p_co_lo bigint, p_co_hi bigint, p_day date)
RETURNS TABLE (o_now numeric, o_old numeric) AS $$
BEGIN
  IF p_kind = 0 THEN
    RETURN QUERY SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM watch_list
      JOIN watch_item ON wi_wl_id = wl_id JOIN last_trade ON lt_s_symb = wi_s_symb JOIN security ON s_symb = wi_s_symb
      JOIN daily_market ON dm_s_symb = wi_s_symb AND dm_date = p_day WHERE wl_c_id = p_c_id;
  ELSIF p_kind = 1 THEN
    RETURN QUERY SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM holding_summary
      JOIN last_trade ON lt_s_symb = hs_s_symb JOIN security ON s_symb = hs_s_symb
      JOIN daily_market ON dm_s_symb = hs_s_symb AND dm_date = p_day WHERE hs_ca_id = p_ca_id;
  ELSE
    RETURN QUERY SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM industry
      JOIN company ON co_in_id = in_id JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
      JOIN daily_market ON dm_s_symb = s_symb AND dm_date = p_day WHERE in_name = p_in_name AND co_id BETWEEN p_co_lo AND p_co_hi;
  END IF;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_sd1
CREATE OR REPLACE FUNCTION dbdyno_tpce_sd1(p_symb varchar, p_co_id bigint, p_day date, p_lob int)
RETURNS TABLE (o_s_name varchar, o_co_name varchar, o_comp bigint, o_fin bigint, o_days bigint, o_lt_price numeric, o_news bigint) AS $$
DECLARE r record;
BEGIN
  SELECT s_name, co_id, co_name, co_sp_rate, co_ceo, co_desc, co_open_date, ca.ad_line1, zca.zc_town, zca.zc_div,
    ex_name, ex_open, ex_close, ex_num_symb, ea.ad_line1 AS ex_line1, zea.zc_town AS ex_town INTO r
  FROM security JOIN company ON co_id = s_co_id JOIN address ca ON ca.ad_id = co_ad_id JOIN zip_code zca ON zca.zc_code = ca.ad_zc_code
  JOIN exchange ON ex_id = s_ex_id JOIN address ea ON ea.ad_id = ex_ad_id JOIN zip_code zea ON zea.zc_code = ea.ad_zc_code
  WHERE s_symb = p_symb;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  o_s_name := r.s_name; o_co_name := r.co_name;
  SELECT count(*) INTO o_comp FROM (SELECT co_name, in_name FROM company_competitor JOIN company ON co_id = cp_comp_co_id
    JOIN industry ON in_id = cp_in_id WHERE cp_co_id = p_co_id ORDER BY cp_comp_co_id LIMIT 3) x;
  SELECT count(*) INTO o_fin FROM (SELECT fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin
    FROM financial WHERE fi_co_id = p_co_id ORDER BY fi_year, fi_qtr LIMIT 20) x;
  SELECT count(*) INTO o_days FROM (SELECT dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market
    WHERE dm_s_symb = p_symb AND dm_date >= p_day ORDER BY dm_date LIMIT 20) x;
  SELECT lt_price INTO o_lt_price FROM last_trade WHERE lt_s_symb = p_symb;
  IF p_lob = 1 THEN
    SELECT count(*) INTO o_news FROM (SELECT ni_item, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id
      WHERE nx_co_id = p_co_id ORDER BY ni_id LIMIT 2) x;
  ELSE
    SELECT count(*) INTO o_news FROM (SELECT ni_headline, ni_summary, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id
      WHERE nx_co_id = p_co_id ORDER BY ni_id LIMIT 2) x;
  END IF;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tl1
CREATE OR REPLACE FUNCTION dbdyno_tpce_tl1(p_update int, p_t_lo bigint, p_t_hi bigint)
RETURNS TABLE (o_trades bigint, o_amt numeric, o_hist bigint) AS $$
BEGIN
  IF p_update = 1 THEN
    UPDATE trade SET t_exec_name = CASE WHEN replace(t_exec_name, ' X ', '') <> t_exec_name THEN replace(t_exec_name, ' X ', ' ')
      ELSE replace(t_exec_name, ' ', ' X ') END WHERE t_id BETWEEN p_t_lo AND p_t_hi;
  END IF;
  SELECT count(*), coalesce(sum(se_amt), 0) INTO o_trades, o_amt FROM (SELECT t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price,
    se_amt, se_cash_due_date, se_cash_type, ct_amt, ct_dts, ct_name
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_id BETWEEN p_t_lo AND p_t_hi ORDER BY t_id LIMIT 20) x;
  SELECT count(*) INTO o_hist FROM trade_history WHERE th_t_id BETWEEN p_t_lo AND p_t_hi;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tl2
CREATE OR REPLACE FUNCTION dbdyno_tpce_tl2(p_update int, p_ca_id bigint, p_start timestamp, p_end timestamp)
RETURNS TABLE (o_trades bigint, o_amt numeric) AS $$
DECLARE v_ids bigint[];
BEGIN
  SELECT count(*), coalesce(sum(se_amt), 0), array_agg(t_id) INTO o_trades, o_amt, v_ids FROM (SELECT t_id, t_bid_price, t_exec_name,
    t_is_cash, t_trade_price, se_amt, se_cash_type, ct_amt, ct_name
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_ca_id = p_ca_id AND t_dts BETWEEN p_start AND p_end ORDER BY t_dts, t_id LIMIT 20) x;
  IF p_update = 1 THEN
    UPDATE settlement SET se_cash_type = CASE se_cash_type WHEN 'Cash Account' THEN 'Cash' WHEN 'Cash' THEN 'Cash Account'
      WHEN 'Margin' THEN 'Margin Account' ELSE 'Margin' END WHERE se_t_id = ANY (v_ids);
  END IF;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tl3
CREATE OR REPLACE FUNCTION dbdyno_tpce_tl3(p_update int, p_symb varchar, p_start timestamp, p_end timestamp)
RETURNS TABLE (o_trades bigint, o_qty bigint) AS $$
DECLARE v_ids bigint[];
BEGIN
  SELECT count(*), coalesce(sum(t_qty), 0), array_agg(t_id) INTO o_trades, o_qty, v_ids FROM (SELECT t_id, t_ca_id, t_exec_name,
    t_is_cash, t_trade_price, t_qty, t_dts, t_tt_id, se_amt, ct_amt
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_s_symb = p_symb AND t_dts BETWEEN p_start AND p_end ORDER BY t_dts, t_id LIMIT 20) x;
  IF p_update = 1 THEN
    UPDATE cash_transaction SET ct_name = CASE WHEN replace(ct_name, ' shares of ', '') <> ct_name THEN replace(ct_name, ' shares of ', ' Shares of ')
      ELSE replace(ct_name, ' Shares of ', ' shares of ') END WHERE ct_t_id = ANY (v_ids);
  END IF;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tl4
CREATE OR REPLACE FUNCTION dbdyno_tpce_tl4(p_ca_id bigint, p_start timestamp)
RETURNS TABLE (o_t_id bigint, o_lots bigint) AS $$
BEGIN
  SELECT t_id INTO o_t_id FROM trade WHERE t_ca_id = p_ca_id AND t_dts >= p_start ORDER BY t_dts, t_id LIMIT 1;
  IF o_t_id IS NULL THEN
    o_t_id := 0; o_lots := 0;
  ELSE
    SELECT count(*) INTO o_lots FROM (SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
      WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = o_t_id) ORDER BY hh_t_id LIMIT 20) x;
  END IF;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_ts1
CREATE OR REPLACE FUNCTION dbdyno_tpce_ts1(p_ca_id bigint)
RETURNS TABLE (o_trades bigint, o_l_name varchar, o_f_name varchar, o_b_name varchar) AS $$
BEGIN
  SELECT count(*) INTO o_trades FROM (SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
    JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
    WHERE t_ca_id = p_ca_id ORDER BY t_dts DESC, t_id DESC LIMIT 50) x;
  SELECT c_l_name, c_f_name, b_name INTO o_l_name, o_f_name, o_b_name FROM customer_account
    JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = p_ca_id;
  IF FOUND THEN
    RETURN NEXT;
  END IF;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_to1
CREATE OR REPLACE FUNCTION dbdyno_tpce_to1(p_ca_id bigint)
RETURNS TABLE (o_b_id bigint, o_c_id bigint, o_tax_st smallint, o_bal numeric, o_f_name varchar, o_l_name varchar, o_tier smallint,
  o_tax_id varchar, o_b_name varchar) AS $$
  SELECT ca_b_id, ca_c_id, ca_tax_st, ca_bal, c_f_name, c_l_name, c_tier, c_tax_id, b_name FROM customer_account
  JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = p_ca_id;
$$ LANGUAGE sql;
-- name: dbdyno_tpce_to2
CREATE OR REPLACE FUNCTION dbdyno_tpce_to2(p_ca_id bigint, p_tax_id varchar)
RETURNS TABLE (o_f_name varchar, o_l_name varchar, o_acl varchar) AS $$
  SELECT ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = p_ca_id AND ap_tax_id <> p_tax_id ORDER BY ap_tax_id LIMIT 1;
$$ LANGUAGE sql;
-- name: dbdyno_tpce_to3
CREATE OR REPLACE FUNCTION dbdyno_tpce_to3(p_by_name int, p_symb varchar, p_co_name varchar, p_issue varchar, p_ca_id bigint, p_c_id bigint,
  p_tier int, p_tt_id varchar, p_qty int, p_tax int, p_margin int)
RETURNS TABLE (o_symb varchar, o_ex_id varchar, o_s_name varchar, o_lt_price numeric, o_held bigint, o_lots bigint, o_chrg numeric,
  o_rate numeric, o_tax numeric, o_assets numeric) AS $$
BEGIN
  IF p_by_name = 1 THEN
    SELECT s_symb, s_ex_id, s_name, lt_price INTO o_symb, o_ex_id, o_s_name, o_lt_price FROM company JOIN security ON s_co_id = co_id
      JOIN last_trade ON lt_s_symb = s_symb WHERE co_name = p_co_name AND s_issue = p_issue;
  ELSE
    SELECT s_symb, s_ex_id, s_name, lt_price INTO o_symb, o_ex_id, o_s_name, o_lt_price FROM security
      JOIN last_trade ON lt_s_symb = s_symb WHERE s_symb = p_symb;
  END IF;
  IF o_symb IS NULL THEN
    RETURN;
  END IF;
  SELECT coalesce(sum(hs_qty), 0) INTO o_held FROM holding_summary WHERE hs_ca_id = p_ca_id AND hs_s_symb = o_symb;
  SELECT count(*) INTO o_lots FROM (SELECT h_qty, h_price FROM holding WHERE h_ca_id = p_ca_id AND h_s_symb = o_symb ORDER BY h_dts DESC, h_t_id DESC) x;
  SELECT ch_chrg INTO o_chrg FROM charge WHERE ch_tt_id = p_tt_id AND ch_c_tier = p_tier;
  SELECT cr_rate INTO o_rate FROM commission_rate WHERE cr_c_tier = p_tier AND cr_tt_id = p_tt_id AND cr_ex_id = o_ex_id
    AND cr_from_qty <= p_qty AND cr_to_qty >= p_qty;
  o_tax := 0; o_assets := 0;
  IF p_tax = 1 THEN
    SELECT coalesce(sum(tx_rate), 0) INTO o_tax FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = p_c_id;
  END IF;
  IF p_margin = 1 THEN
    SELECT coalesce(sum(hs_qty * lt_price), 0) INTO o_assets FROM holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb WHERE hs_ca_id = p_ca_id;
  END IF;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_to4
CREATE OR REPLACE FUNCTION dbdyno_tpce_to4(p_t_id bigint, p_dts timestamp, p_st_id varchar, p_tt_id varchar, p_is_cash int, p_symb varchar,
  p_qty int, p_bid numeric, p_ca_id bigint, p_exec_name varchar, p_chrg numeric, p_comm numeric, p_lifo int, p_pending int, p_b_id bigint)
RETURNS TABLE (o_t_id bigint) AS $$
BEGIN
  INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price, t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
    VALUES (p_t_id, p_dts, p_st_id, p_tt_id, p_is_cash, p_symb, p_qty, p_bid, p_ca_id, p_exec_name, NULL, p_chrg, p_comm, 0, p_lifo);
  IF p_pending = 1 THEN
    INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id) VALUES (p_t_id, p_tt_id, p_symb, p_qty, p_bid, p_b_id);
  END IF;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (p_t_id, p_dts, p_st_id);
  o_t_id := p_t_id;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tr1
CREATE OR REPLACE FUNCTION dbdyno_tpce_tr1(p_t_id bigint)
RETURNS TABLE (o_ca_id bigint, o_tt_id varchar, o_symb varchar, o_qty int, o_chrg numeric, o_lifo smallint, o_is_cash smallint, o_tt_name varchar,
  o_is_sell smallint, o_b_id bigint, o_c_id bigint, o_tax_st smallint, o_tier smallint, o_ex_id varchar, o_s_name varchar, o_has_hs int, o_hs_qty int) AS $$
BEGIN
  SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name
    INTO o_ca_id, o_tt_id, o_symb, o_qty, o_chrg, o_lifo, o_is_cash, o_tt_name, o_is_sell, o_b_id, o_c_id, o_tax_st, o_tier, o_ex_id, o_s_name
    FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
    JOIN security ON s_symb = t_s_symb WHERE t_id = p_t_id FOR UPDATE OF customer_account; -- the account's Trade-Results take turns
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT hs_qty INTO o_hs_qty FROM holding_summary WHERE hs_ca_id = o_ca_id AND hs_s_symb = o_symb FOR UPDATE;
  IF FOUND THEN
    o_has_hs := 1;
  ELSE
    o_has_hs := 0; o_hs_qty := 0;
  END IF;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tr2
CREATE OR REPLACE FUNCTION dbdyno_tpce_tr2(p_t_id bigint, p_ca_id bigint, p_symb varchar, p_qty int, p_sell int, p_lifo int, p_price numeric,
  p_dts timestamp, p_hs_qty int, p_has_hs int)
RETURNS TABLE (o_buy numeric, o_sell numeric) AS $$
DECLARE v_sign int; v_left int; v_take int; v_after int; v_new int; l record;
BEGIN
  v_sign := CASE WHEN p_sell = 1 THEN -1 ELSE 1 END;
  v_left := p_qty; o_buy := 0; o_sell := 0;
  -- a sell closes long lots, a buy short ones, in LIFO or FIFO order; the rest opens a lot of its own
  FOR l IN SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = p_ca_id AND h_s_symb = p_symb
      ORDER BY CASE WHEN p_lifo = 1 THEN h_dts END DESC, CASE WHEN p_lifo = 1 THEN h_t_id END DESC, h_dts, h_t_id LOOP
    EXIT WHEN v_left = 0 OR l.h_qty * v_sign >= 0;
    v_take := least(v_left, abs(l.h_qty));
    v_after := l.h_qty + v_sign * v_take;
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (l.h_t_id, p_t_id, l.h_qty, v_after);
    IF v_after = 0 THEN
      DELETE FROM holding WHERE h_t_id = l.h_t_id;
    ELSE
      UPDATE holding SET h_qty = v_after WHERE h_t_id = l.h_t_id;
    END IF;
    IF v_sign < 0 THEN
      o_buy := o_buy + v_take * l.h_price; o_sell := o_sell + v_take * p_price;
    ELSE
      o_sell := o_sell + v_take * l.h_price; o_buy := o_buy + v_take * p_price;
    END IF;
    v_left := v_left - v_take;
  END LOOP;
  IF v_left > 0 THEN
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (p_t_id, p_t_id, 0, v_sign * v_left);
    INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (p_t_id, p_ca_id, p_symb, p_dts, p_price, v_sign * v_left);
  END IF;
  v_new := p_hs_qty + v_sign * p_qty;
  IF p_has_hs = 0 THEN
    INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (p_ca_id, p_symb, v_new);
  ELSIF v_new = 0 THEN
    DELETE FROM holding_summary WHERE hs_ca_id = p_ca_id AND hs_s_symb = p_symb;
  ELSE
    UPDATE holding_summary SET hs_qty = v_new WHERE hs_ca_id = p_ca_id AND hs_s_symb = p_symb;
  END IF;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tr3
CREATE OR REPLACE FUNCTION dbdyno_tpce_tr3(p_t_id bigint, p_c_id bigint, p_gain numeric)
RETURNS TABLE (o_tax numeric) AS $$
BEGIN
  SELECT round(p_gain * coalesce(sum(tx_rate), 0), 2) INTO o_tax FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = p_c_id;
  UPDATE trade SET t_tax = o_tax WHERE t_id = p_t_id;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tr4
CREATE OR REPLACE FUNCTION dbdyno_tpce_tr4(p_tier int, p_tt_id varchar, p_ex_id varchar, p_qty int)
RETURNS TABLE (o_rate numeric) AS $$
  SELECT cr_rate FROM commission_rate WHERE cr_c_tier = p_tier AND cr_tt_id = p_tt_id AND cr_ex_id = p_ex_id AND cr_from_qty <= p_qty AND cr_to_qty >= p_qty;
$$ LANGUAGE sql;
-- name: dbdyno_tpce_tr5
CREATE OR REPLACE FUNCTION dbdyno_tpce_tr5(p_t_id bigint, p_comm numeric, p_dts timestamp, p_price numeric, p_b_id bigint)
RETURNS TABLE (o_t_id bigint) AS $$
BEGIN
  UPDATE trade SET t_comm = p_comm, t_dts = p_dts, t_st_id = 'CMPT', t_trade_price = p_price WHERE t_id = p_t_id;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (p_t_id, p_dts, 'CMPT');
  UPDATE broker SET b_comm_total = b_comm_total + p_comm, b_num_trades = b_num_trades + 1 WHERE b_id = p_b_id;
  o_t_id := p_t_id;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_tr6
CREATE OR REPLACE FUNCTION dbdyno_tpce_tr6(p_t_id bigint, p_is_cash int, p_due date, p_amt numeric, p_ca_id bigint, p_dts timestamp, p_ct_name varchar)
RETURNS TABLE (o_bal numeric) AS $$
BEGIN
  INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
    VALUES (p_t_id, CASE WHEN p_is_cash = 1 THEN 'Cash Account' ELSE 'Margin' END, p_due, p_amt);
  IF p_is_cash = 1 THEN
    UPDATE customer_account SET ca_bal = ca_bal + p_amt WHERE ca_id = p_ca_id;
    INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES (p_t_id, p_dts, p_amt, p_ct_name);
  END IF;
  RETURN QUERY SELECT ca_bal FROM customer_account WHERE ca_id = p_ca_id;
END $$ LANGUAGE plpgsql;
-- name: dbdyno_tpce_mf1
CREATE OR REPLACE FUNCTION dbdyno_tpce_mf1(p_symb varchar, p_price numeric, p_qty int, p_dts timestamp)
RETURNS TABLE (o_t_id bigint) AS $$
DECLARE v_id bigint;
BEGIN
  UPDATE last_trade SET lt_price = p_price, lt_vol = lt_vol + p_qty, lt_dts = p_dts WHERE lt_s_symb = p_symb;
  FOR v_id IN SELECT tr_t_id FROM trade_request WHERE tr_s_symb = p_symb
      AND ((tr_tt_id = 'TSL' AND tr_bid_price >= p_price) OR (tr_tt_id = 'TLS' AND tr_bid_price <= p_price) OR (tr_tt_id = 'TLB' AND tr_bid_price >= p_price))
      ORDER BY tr_t_id LOOP
    -- the request is taken out first: a concurrent feed that took it already leaves it to that feed
    DELETE FROM trade_request WHERE tr_t_id = v_id;
    CONTINUE WHEN NOT FOUND;
    UPDATE trade SET t_st_id = 'SBMT', t_dts = p_dts WHERE t_id = v_id;
    INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (v_id, p_dts, 'SBMT');
    o_t_id := v_id;
    RETURN NEXT;
  END LOOP;
END $$ LANGUAGE plpgsql;
-- Data-Maintenance's frame: the change on one table (p_tbl, the round-robin's turn 0-11), the rows it changed.
-- name: dbdyno_tpce_dm1
CREATE OR REPLACE FUNCTION dbdyno_tpce_dm1(p_tbl int, p_id bigint, p_key varchar, p_txt varchar, p_day date, p_dts timestamp, p_vol int)
RETURNS TABLE (o_rows bigint) AS $$
DECLARE v_old varchar; v_first varchar; v_n bigint := 0;
BEGIN
  CASE p_tbl
  WHEN 0 THEN UPDATE account_permission SET ap_acl = CASE WHEN ap_acl = '1111' THEN '0011' ELSE '1111' END WHERE ap_ca_id = p_id;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 1 THEN UPDATE address SET ad_line2 = p_txt WHERE ad_id = p_id; GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 2 THEN UPDATE company SET co_sp_rate = p_txt WHERE co_id = p_id; GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 3 THEN UPDATE customer SET c_email_2 = p_txt WHERE c_id = p_id; GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 4 THEN
    SELECT cx_tx_id INTO v_old FROM customer_taxrate WHERE cx_c_id = p_id AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
    IF NOT FOUND THEN RAISE EXCEPTION 'dm1: customer % has no US or CN tax rate', p_id; END IF;
    UPDATE customer_taxrate SET cx_tx_id = CASE v_old WHEN 'US1' THEN 'US2' WHEN 'US2' THEN 'US3' WHEN 'US3' THEN 'US4' WHEN 'US4' THEN 'US5' WHEN 'US5' THEN 'US1' WHEN 'CN1' THEN 'CN2' WHEN 'CN2' THEN 'CN3' WHEN 'CN3' THEN 'CN4' ELSE 'CN1' END
      WHERE cx_c_id = p_id AND cx_tx_id = v_old;
    GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 5 THEN UPDATE daily_market SET dm_vol = dm_vol + p_vol WHERE dm_s_symb = p_key AND dm_date = p_day; GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 6 THEN UPDATE exchange SET ex_desc = p_txt WHERE ex_id = p_key; GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 7 THEN UPDATE financial SET fi_qtr_start_date = p_day WHERE fi_co_id = p_id AND fi_year = 2000 AND fi_qtr = 1; GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 8 THEN UPDATE news_item SET ni_dts = p_dts WHERE ni_id = p_id; GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 9 THEN UPDATE security SET s_exch_date = p_day WHERE s_symb = p_key; GET DIAGNOSTICS v_n = ROW_COUNT;
  WHEN 10 THEN UPDATE taxrate SET tx_name = p_txt WHERE tx_id = p_key; GET DIAGNOSTICS v_n = ROW_COUNT;
  ELSE
    SELECT min(wi_s_symb) INTO v_first FROM watch_item WHERE wi_wl_id = p_id;
    IF NOT EXISTS (SELECT 1 FROM watch_item WHERE wi_wl_id = p_id AND wi_s_symb = p_key) THEN
      UPDATE watch_item SET wi_s_symb = p_key WHERE wi_wl_id = p_id AND wi_s_symb = v_first;
      GET DIAGNOSTICS v_n = ROW_COUNT;
    END IF;
  END CASE;
  o_rows := v_n;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
-- Trade-Cleanup's frame, before a run: pending orders and the submitted ones an earlier run left are cancelled.
-- name: dbdyno_tpce_tc1
CREATE OR REPLACE FUNCTION dbdyno_tpce_tc1(p_dts timestamp, p_first bigint, p_shards bigint, p_residue bigint)
RETURNS TABLE (o_done int) AS $$
BEGIN
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, p_dts, 'SBMT' FROM trade_request
  WHERE tr_t_id % p_shards = p_residue AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = tr_t_id AND th_st_id = 'SBMT');
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, p_dts, 'CNCL' FROM trade_request WHERE tr_t_id % p_shards = p_residue;
  UPDATE trade SET t_st_id = 'CNCL' WHERE t_id IN (SELECT tr_t_id FROM trade_request WHERE tr_t_id % p_shards = p_residue);
  DELETE FROM trade_request WHERE tr_t_id % p_shards = p_residue;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT t_id, p_dts, 'CNCL' FROM trade WHERE t_id >= p_first AND t_st_id = 'SBMT' AND t_id % p_shards = p_residue;
  UPDATE trade SET t_st_id = 'CNCL' WHERE t_id >= p_first AND t_st_id = 'SBMT' AND t_id % p_shards = p_residue;
  o_done := 1;
  RETURN NEXT;
END $$ LANGUAGE plpgsql;
