-- dbdyno TPC-E-derived frames as MySQL/MariaDB stored procedures (--mode procedures): one CALL per frame, each
-- returning the frame's outputs as one result set, as the client builds them in --mode sql
-- (internal/workloads/tpce/frames.go). The client keeps the transaction. Each procedure is dropped first, so a
-- build can install it again; `dbdyno tpce drop` drops them.
-- name: drop_dbdyno_tpce_bv1
DROP PROCEDURE IF EXISTS dbdyno_tpce_bv1;
-- name: dbdyno_tpce_bv1
CREATE PROCEDURE dbdyno_tpce_bv1(p_b_lo BIGINT, p_b_hi BIGINT, p_sc_name VARCHAR(30))
BEGIN
  SELECT b_name, sum(tr_qty * tr_bid_price) AS vol FROM trade_request
  JOIN security ON s_symb = tr_s_symb JOIN company ON co_id = s_co_id JOIN industry ON in_id = co_in_id
  JOIN sector ON sc_id = in_sc_id JOIN broker ON b_id = tr_b_id
  WHERE b_id BETWEEN p_b_lo AND p_b_hi AND sc_name = p_sc_name GROUP BY b_name ORDER BY vol DESC;
END;
-- name: drop_dbdyno_tpce_cp1
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp1;
-- name: dbdyno_tpce_cp1
CREATE PROCEDURE dbdyno_tpce_cp1(p_by_tax INT, p_c_id BIGINT, p_tax_id VARCHAR(20))
BEGIN
  DECLARE v_c BIGINT DEFAULT NULL;
  IF p_by_tax = 1 THEN
    SELECT c_id INTO v_c FROM customer WHERE c_tax_id = p_tax_id LIMIT 1;
  ELSE
    SELECT c_id INTO v_c FROM customer WHERE c_id = p_c_id;
  END IF;
  SELECT ca_id, ca_bal, coalesce(sum(hs_qty * lt_price), 0) AS assets FROM customer_account
    LEFT JOIN holding_summary ON hs_ca_id = ca_id LEFT JOIN last_trade ON lt_s_symb = hs_s_symb
    WHERE ca_c_id = v_c GROUP BY ca_id, ca_bal ORDER BY assets LIMIT 10;
END;
-- name: drop_dbdyno_tpce_cp2
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp2;
-- name: dbdyno_tpce_cp2
CREATE PROCEDURE dbdyno_tpce_cp2(p_ca_id BIGINT)
BEGIN
  SELECT t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = p_ca_id ORDER BY t_dts DESC, t_id DESC LIMIT 10) x
  JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name LIMIT 30;
END;
-- name: drop_dbdyno_tpce_mw1
DROP PROCEDURE IF EXISTS dbdyno_tpce_mw1;
-- name: dbdyno_tpce_mw1
CREATE PROCEDURE dbdyno_tpce_mw1(p_kind INT, p_c_id BIGINT, p_ca_id BIGINT, p_in_name VARCHAR(50), p_co_lo BIGINT, p_co_hi BIGINT, p_day DATE)
BEGIN
  IF p_kind = 0 THEN
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM watch_list
      JOIN watch_item ON wi_wl_id = wl_id JOIN last_trade ON lt_s_symb = wi_s_symb JOIN security ON s_symb = wi_s_symb
      JOIN daily_market ON dm_s_symb = wi_s_symb AND dm_date = p_day WHERE wl_c_id = p_c_id;
  ELSEIF p_kind = 1 THEN
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM holding_summary
      JOIN last_trade ON lt_s_symb = hs_s_symb JOIN security ON s_symb = hs_s_symb
      JOIN daily_market ON dm_s_symb = hs_s_symb AND dm_date = p_day WHERE hs_ca_id = p_ca_id;
  ELSE
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM industry
      JOIN company ON co_in_id = in_id JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
      JOIN daily_market ON dm_s_symb = s_symb AND dm_date = p_day WHERE in_name = p_in_name AND co_id BETWEEN p_co_lo AND p_co_hi;
  END IF;
END;
-- name: drop_dbdyno_tpce_sd1
DROP PROCEDURE IF EXISTS dbdyno_tpce_sd1;
-- name: dbdyno_tpce_sd1
CREATE PROCEDURE dbdyno_tpce_sd1(p_symb VARCHAR(15), p_co_id BIGINT, p_day DATE, p_lob INT)
proc: BEGIN
  DECLARE v_s_name VARCHAR(70) DEFAULT NULL;
  DECLARE v_co_name VARCHAR(60);
  DECLARE v_co_id, v_comp, v_fin, v_days, v_news BIGINT;
  DECLARE v_sp, v_ceo, v_desc, v_line, v_town, v_div, v_ex_name, v_ex_line, v_ex_town VARCHAR(150);
  DECLARE v_open DATE;
  DECLARE v_ex_open, v_ex_close, v_ex_num INT;
  DECLARE v_lt DECIMAL(12,2);
  SELECT s_name, co_id, co_name, co_sp_rate, co_ceo, co_desc, co_open_date, ca.ad_line1, zca.zc_town, zca.zc_div,
    ex_name, ex_open, ex_close, ex_num_symb, ea.ad_line1, zea.zc_town
    INTO v_s_name, v_co_id, v_co_name, v_sp, v_ceo, v_desc, v_open, v_line, v_town, v_div, v_ex_name, v_ex_open, v_ex_close, v_ex_num, v_ex_line, v_ex_town
  FROM security JOIN company ON co_id = s_co_id JOIN address ca ON ca.ad_id = co_ad_id JOIN zip_code zca ON zca.zc_code = ca.ad_zc_code
  JOIN exchange ON ex_id = s_ex_id JOIN address ea ON ea.ad_id = ex_ad_id JOIN zip_code zea ON zea.zc_code = ea.ad_zc_code
  WHERE s_symb = p_symb;
  IF v_s_name IS NULL THEN
    SELECT 1 FROM security WHERE 1 = 0;
    LEAVE proc;
  END IF;
  SELECT count(*) INTO v_comp FROM (SELECT co_name, in_name FROM company_competitor JOIN company ON co_id = cp_comp_co_id
    JOIN industry ON in_id = cp_in_id WHERE cp_co_id = p_co_id ORDER BY cp_comp_co_id LIMIT 3) x;
  SELECT count(*) INTO v_fin FROM (SELECT fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin
    FROM financial WHERE fi_co_id = p_co_id ORDER BY fi_year, fi_qtr LIMIT 20) x;
  SELECT count(*) INTO v_days FROM (SELECT dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market
    WHERE dm_s_symb = p_symb AND dm_date >= p_day ORDER BY dm_date LIMIT 20) x;
  SELECT lt_price INTO v_lt FROM last_trade WHERE lt_s_symb = p_symb;
  IF p_lob = 1 THEN
    SELECT count(*) INTO v_news FROM (SELECT ni_item, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id
      WHERE nx_co_id = p_co_id ORDER BY ni_id LIMIT 2) x;
  ELSE
    SELECT count(*) INTO v_news FROM (SELECT ni_headline, ni_summary, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id
      WHERE nx_co_id = p_co_id ORDER BY ni_id LIMIT 2) x;
  END IF;
  SELECT v_s_name, v_co_name, v_comp, v_fin, v_days, v_lt, v_news;
END;
-- name: drop_dbdyno_tpce_tl1
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl1;
-- name: dbdyno_tpce_tl1
CREATE PROCEDURE dbdyno_tpce_tl1(p_update INT, p_t_lo BIGINT, p_t_hi BIGINT)
BEGIN
  DECLARE v_n, v_hist BIGINT;
  DECLARE v_amt DECIMAL(14,2);
  IF p_update = 1 THEN
    UPDATE trade SET t_exec_name = CASE WHEN replace(t_exec_name, ' X ', '') <> t_exec_name THEN replace(t_exec_name, ' X ', ' ')
      ELSE replace(t_exec_name, ' ', ' X ') END WHERE t_id BETWEEN p_t_lo AND p_t_hi;
  END IF;
  SELECT count(*), coalesce(sum(se_amt), 0) INTO v_n, v_amt FROM (SELECT t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price,
    se_amt, se_cash_due_date, se_cash_type, ct_amt, ct_dts, ct_name
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_id BETWEEN p_t_lo AND p_t_hi ORDER BY t_id LIMIT 20) x;
  SELECT count(*) INTO v_hist FROM trade_history WHERE th_t_id BETWEEN p_t_lo AND p_t_hi;
  SELECT v_n, v_amt, v_hist;
END;
-- name: drop_dbdyno_tpce_tl2
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl2;
-- name: dbdyno_tpce_tl2
CREATE PROCEDURE dbdyno_tpce_tl2(p_update INT, p_ca_id BIGINT, p_start DATETIME, p_end DATETIME)
BEGIN
  DECLARE v_n BIGINT;
  DECLARE v_amt DECIMAL(14,2);
  SELECT count(*), coalesce(sum(se_amt), 0) INTO v_n, v_amt FROM (SELECT t_id, t_bid_price, t_exec_name,
    t_is_cash, t_trade_price, se_amt, se_cash_type, ct_amt, ct_name
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_ca_id = p_ca_id AND t_dts BETWEEN p_start AND p_end ORDER BY t_dts, t_id LIMIT 20) x;
  IF p_update = 1 THEN
    UPDATE settlement JOIN (SELECT t_id FROM trade WHERE t_ca_id = p_ca_id AND t_dts BETWEEN p_start AND p_end ORDER BY t_dts, t_id LIMIT 20) x
      ON se_t_id = x.t_id
      SET se_cash_type = CASE se_cash_type WHEN 'Cash Account' THEN 'Cash' WHEN 'Cash' THEN 'Cash Account'
        WHEN 'Margin' THEN 'Margin Account' ELSE 'Margin' END;
  END IF;
  SELECT v_n, v_amt;
END;
-- name: drop_dbdyno_tpce_tl3
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl3;
-- name: dbdyno_tpce_tl3
CREATE PROCEDURE dbdyno_tpce_tl3(p_update INT, p_symb VARCHAR(15), p_start DATETIME, p_end DATETIME)
BEGIN
  DECLARE v_n, v_qty BIGINT;
  SELECT count(*), coalesce(sum(t_qty), 0) INTO v_n, v_qty FROM (SELECT t_id, t_ca_id, t_exec_name,
    t_is_cash, t_trade_price, t_qty, t_dts, t_tt_id, se_amt, ct_amt
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_s_symb = p_symb AND t_dts BETWEEN p_start AND p_end ORDER BY t_dts, t_id LIMIT 20) x;
  IF p_update = 1 THEN
    UPDATE cash_transaction JOIN (SELECT t_id FROM trade WHERE t_s_symb = p_symb AND t_dts BETWEEN p_start AND p_end ORDER BY t_dts, t_id LIMIT 20) x
      ON ct_t_id = x.t_id
      SET ct_name = CASE WHEN replace(ct_name, ' shares of ', '') <> ct_name THEN replace(ct_name, ' shares of ', ' Shares of ')
        ELSE replace(ct_name, ' Shares of ', ' shares of ') END;
  END IF;
  SELECT v_n, v_qty;
END;
-- name: drop_dbdyno_tpce_tl4
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl4;
-- name: dbdyno_tpce_tl4
CREATE PROCEDURE dbdyno_tpce_tl4(p_ca_id BIGINT, p_start DATETIME)
BEGIN
  DECLARE v_id BIGINT DEFAULT NULL;
  DECLARE v_lots BIGINT DEFAULT 0;
  SELECT t_id INTO v_id FROM trade WHERE t_ca_id = p_ca_id AND t_dts >= p_start ORDER BY t_dts, t_id LIMIT 1;
  IF v_id IS NULL THEN
    SET v_id = 0;
  ELSE
    SELECT count(*) INTO v_lots FROM (SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
      WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = v_id) ORDER BY hh_t_id LIMIT 20) x;
  END IF;
  SELECT v_id, v_lots;
END;
-- name: drop_dbdyno_tpce_ts1
DROP PROCEDURE IF EXISTS dbdyno_tpce_ts1;
-- name: dbdyno_tpce_ts1
CREATE PROCEDURE dbdyno_tpce_ts1(p_ca_id BIGINT)
BEGIN
  DECLARE v_n BIGINT;
  SELECT count(*) INTO v_n FROM (SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
    JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
    WHERE t_ca_id = p_ca_id ORDER BY t_dts DESC, t_id DESC LIMIT 50) x;
  SELECT v_n, c_l_name, c_f_name, b_name FROM customer_account
    JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = p_ca_id;
END;
-- name: drop_dbdyno_tpce_to1
DROP PROCEDURE IF EXISTS dbdyno_tpce_to1;
-- name: dbdyno_tpce_to1
CREATE PROCEDURE dbdyno_tpce_to1(p_ca_id BIGINT)
BEGIN
  SELECT ca_b_id, ca_c_id, ca_tax_st, ca_bal, c_f_name, c_l_name, c_tier, c_tax_id, b_name FROM customer_account
  JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = p_ca_id;
END;
-- name: drop_dbdyno_tpce_to2
DROP PROCEDURE IF EXISTS dbdyno_tpce_to2;
-- name: dbdyno_tpce_to2
CREATE PROCEDURE dbdyno_tpce_to2(p_ca_id BIGINT, p_tax_id VARCHAR(20))
BEGIN
  SELECT ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = p_ca_id AND ap_tax_id <> p_tax_id ORDER BY ap_tax_id LIMIT 1;
END;
-- name: drop_dbdyno_tpce_to3
DROP PROCEDURE IF EXISTS dbdyno_tpce_to3;
-- name: dbdyno_tpce_to3
CREATE PROCEDURE dbdyno_tpce_to3(p_by_name INT, p_symb VARCHAR(15), p_co_name VARCHAR(60), p_issue VARCHAR(6), p_ca_id BIGINT, p_c_id BIGINT,
  p_tier INT, p_tt_id VARCHAR(3), p_qty INT, p_tax INT, p_margin INT)
proc: BEGIN
  DECLARE v_symb VARCHAR(15) DEFAULT NULL;
  DECLARE v_ex_id VARCHAR(6);
  DECLARE v_s_name VARCHAR(70);
  DECLARE v_lt, v_chrg, v_rate DECIMAL(12,2);
  DECLARE v_held, v_lots BIGINT;
  DECLARE v_tax DECIMAL(8,5) DEFAULT 0;
  DECLARE v_assets DECIMAL(20,2) DEFAULT 0;
  IF p_by_name = 1 THEN
    SELECT s_symb, s_ex_id, s_name, lt_price INTO v_symb, v_ex_id, v_s_name, v_lt FROM company JOIN security ON s_co_id = co_id
      JOIN last_trade ON lt_s_symb = s_symb WHERE co_name = p_co_name AND s_issue = p_issue LIMIT 1;
  ELSE
    SELECT s_symb, s_ex_id, s_name, lt_price INTO v_symb, v_ex_id, v_s_name, v_lt FROM security
      JOIN last_trade ON lt_s_symb = s_symb WHERE s_symb = p_symb;
  END IF;
  IF v_symb IS NULL THEN
    SELECT 1 FROM security WHERE 1 = 0;
    LEAVE proc;
  END IF;
  SELECT coalesce(sum(hs_qty), 0) INTO v_held FROM holding_summary WHERE hs_ca_id = p_ca_id AND hs_s_symb = v_symb;
  SELECT count(*) INTO v_lots FROM (SELECT h_qty, h_price FROM holding WHERE h_ca_id = p_ca_id AND h_s_symb = v_symb ORDER BY h_dts DESC, h_t_id DESC) x;
  SELECT ch_chrg INTO v_chrg FROM charge WHERE ch_tt_id = p_tt_id AND ch_c_tier = p_tier;
  SELECT cr_rate INTO v_rate FROM commission_rate WHERE cr_c_tier = p_tier AND cr_tt_id = p_tt_id AND cr_ex_id = v_ex_id
    AND cr_from_qty <= p_qty AND cr_to_qty >= p_qty;
  IF p_tax = 1 THEN
    SELECT coalesce(sum(tx_rate), 0) INTO v_tax FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = p_c_id;
  END IF;
  IF p_margin = 1 THEN
    SELECT coalesce(sum(hs_qty * lt_price), 0) INTO v_assets FROM holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb WHERE hs_ca_id = p_ca_id;
  END IF;
  SELECT v_symb, v_ex_id, v_s_name, v_lt, v_held, v_lots, v_chrg, v_rate, v_tax, v_assets;
END;
-- name: drop_dbdyno_tpce_to4
DROP PROCEDURE IF EXISTS dbdyno_tpce_to4;
-- name: dbdyno_tpce_to4
CREATE PROCEDURE dbdyno_tpce_to4(p_t_id BIGINT, p_dts DATETIME, p_st_id VARCHAR(4), p_tt_id VARCHAR(3), p_is_cash INT, p_symb VARCHAR(15),
  p_qty INT, p_bid DECIMAL(12,2), p_ca_id BIGINT, p_exec_name VARCHAR(49), p_chrg DECIMAL(10,2), p_comm DECIMAL(10,2), p_lifo INT,
  p_pending INT, p_b_id BIGINT)
BEGIN
  INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price, t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
    VALUES (p_t_id, p_dts, p_st_id, p_tt_id, p_is_cash, p_symb, p_qty, p_bid, p_ca_id, p_exec_name, NULL, p_chrg, p_comm, 0, p_lifo);
  IF p_pending = 1 THEN
    INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id) VALUES (p_t_id, p_tt_id, p_symb, p_qty, p_bid, p_b_id);
  END IF;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (p_t_id, p_dts, p_st_id);
  SELECT p_t_id;
END;
-- name: drop_dbdyno_tpce_tr1
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr1;
-- name: dbdyno_tpce_tr1
CREATE PROCEDURE dbdyno_tpce_tr1(p_t_id BIGINT)
BEGIN
  DECLARE v_ca BIGINT;
  DECLARE v_symb VARCHAR(15);
  DECLARE v_hs INT DEFAULT NULL;
  SELECT t_ca_id, t_s_symb INTO v_ca, v_symb FROM trade WHERE t_id = p_t_id;
  -- locking reads (the rows as committed, locked to the end): two Trade-Results of one position take turns
  SELECT hs_qty INTO v_hs FROM holding_summary WHERE hs_ca_id = v_ca AND hs_s_symb = v_symb FOR UPDATE;
  SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name,
      CASE WHEN v_hs IS NULL THEN 0 ELSE 1 END, coalesce(v_hs, 0)
    FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
    JOIN security ON s_symb = t_s_symb WHERE t_id = p_t_id;
END;
-- name: drop_dbdyno_tpce_tr2
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr2;
-- name: dbdyno_tpce_tr2
CREATE PROCEDURE dbdyno_tpce_tr2(p_t_id BIGINT, p_ca_id BIGINT, p_symb VARCHAR(15), p_qty INT, p_sell INT, p_lifo INT, p_price DECIMAL(12,2),
  p_dts DATETIME, p_hs_qty INT, p_has_hs INT)
BEGIN
  DECLARE v_sign, v_left, v_take, v_after, v_new, v_qty INT;
  DECLARE v_id BIGINT;
  DECLARE v_price DECIMAL(12,2);
  DECLARE v_buy, v_sell DECIMAL(20,2) DEFAULT 0;
  DECLARE v_done INT DEFAULT 0;
  -- a sell closes long lots, a buy short ones, in LIFO or FIFO order; the rest opens a lot of its own
  DECLARE lots CURSOR FOR SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = p_ca_id AND h_s_symb = p_symb
    ORDER BY CASE WHEN p_lifo = 1 THEN h_dts END DESC, CASE WHEN p_lifo = 1 THEN h_t_id END DESC, h_dts, h_t_id FOR UPDATE;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
  SET v_sign = IF(p_sell = 1, -1, 1);
  SET v_left = p_qty;
  OPEN lots;
  lot: LOOP
    FETCH lots INTO v_id, v_qty, v_price;
    IF v_done = 1 OR v_left = 0 OR v_qty * v_sign >= 0 THEN
      LEAVE lot;
    END IF;
    SET v_take = LEAST(v_left, ABS(v_qty));
    SET v_after = v_qty + v_sign * v_take;
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (v_id, p_t_id, v_qty, v_after);
    IF v_after = 0 THEN
      DELETE FROM holding WHERE h_t_id = v_id;
    ELSE
      UPDATE holding SET h_qty = v_after WHERE h_t_id = v_id;
    END IF;
    IF v_sign < 0 THEN
      SET v_buy = v_buy + v_take * v_price, v_sell = v_sell + v_take * p_price;
    ELSE
      SET v_sell = v_sell + v_take * v_price, v_buy = v_buy + v_take * p_price;
    END IF;
    SET v_left = v_left - v_take;
  END LOOP;
  CLOSE lots;
  IF v_left > 0 THEN
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (p_t_id, p_t_id, 0, v_sign * v_left);
    INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (p_t_id, p_ca_id, p_symb, p_dts, p_price, v_sign * v_left);
  END IF;
  SET v_new = p_hs_qty + v_sign * p_qty;
  IF p_has_hs = 0 THEN
    INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (p_ca_id, p_symb, v_new);
  ELSEIF v_new = 0 THEN
    DELETE FROM holding_summary WHERE hs_ca_id = p_ca_id AND hs_s_symb = p_symb;
  ELSE
    UPDATE holding_summary SET hs_qty = v_new WHERE hs_ca_id = p_ca_id AND hs_s_symb = p_symb;
  END IF;
  SELECT v_buy, v_sell;
END;
-- name: drop_dbdyno_tpce_tr3
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr3;
-- name: dbdyno_tpce_tr3
CREATE PROCEDURE dbdyno_tpce_tr3(p_t_id BIGINT, p_c_id BIGINT, p_gain DECIMAL(20,2))
BEGIN
  DECLARE v_tax DECIMAL(20,2);
  SELECT round(p_gain * coalesce(sum(tx_rate), 0), 2) INTO v_tax FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = p_c_id;
  UPDATE trade SET t_tax = v_tax WHERE t_id = p_t_id;
  SELECT v_tax;
END;
-- name: drop_dbdyno_tpce_tr4
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr4;
-- name: dbdyno_tpce_tr4
CREATE PROCEDURE dbdyno_tpce_tr4(p_tier INT, p_tt_id VARCHAR(3), p_ex_id VARCHAR(6), p_qty INT)
BEGIN
  SELECT cr_rate FROM commission_rate WHERE cr_c_tier = p_tier AND cr_tt_id = p_tt_id AND cr_ex_id = p_ex_id AND cr_from_qty <= p_qty AND cr_to_qty >= p_qty;
END;
-- name: drop_dbdyno_tpce_tr5
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr5;
-- name: dbdyno_tpce_tr5
CREATE PROCEDURE dbdyno_tpce_tr5(p_t_id BIGINT, p_comm DECIMAL(10,2), p_dts DATETIME, p_price DECIMAL(12,2), p_b_id BIGINT)
BEGIN
  UPDATE trade SET t_comm = p_comm, t_dts = p_dts, t_st_id = 'CMPT', t_trade_price = p_price WHERE t_id = p_t_id;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (p_t_id, p_dts, 'CMPT');
  UPDATE broker SET b_comm_total = b_comm_total + p_comm, b_num_trades = b_num_trades + 1 WHERE b_id = p_b_id;
  SELECT p_t_id;
END;
-- name: drop_dbdyno_tpce_tr6
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr6;
-- name: dbdyno_tpce_tr6
CREATE PROCEDURE dbdyno_tpce_tr6(p_t_id BIGINT, p_is_cash INT, p_due DATE, p_amt DECIMAL(10,2), p_ca_id BIGINT, p_dts DATETIME, p_ct_name VARCHAR(100))
BEGIN
  INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
    VALUES (p_t_id, CASE WHEN p_is_cash = 1 THEN 'Cash Account' ELSE 'Margin' END, p_due, p_amt);
  IF p_is_cash = 1 THEN
    UPDATE customer_account SET ca_bal = ca_bal + p_amt WHERE ca_id = p_ca_id;
    INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES (p_t_id, p_dts, p_amt, p_ct_name);
  END IF;
  SELECT ca_bal FROM customer_account WHERE ca_id = p_ca_id;
END;
-- name: drop_dbdyno_tpce_mf1
DROP PROCEDURE IF EXISTS dbdyno_tpce_mf1;
-- name: dbdyno_tpce_mf1
CREATE PROCEDURE dbdyno_tpce_mf1(p_symb VARCHAR(15), p_price DECIMAL(12,2), p_qty INT, p_dts DATETIME)
BEGIN
  UPDATE last_trade SET lt_price = p_price, lt_vol = lt_vol + p_qty, lt_dts = p_dts WHERE lt_s_symb = p_symb;
  -- the triggered orders (the frame's result set), locked (a concurrent feed that took one first has it), then each submitted: SBMT, its history row, out of trade_request
  SELECT tr_t_id FROM trade_request WHERE tr_s_symb = p_symb
    AND ((tr_tt_id = 'TSL' AND tr_bid_price >= p_price) OR (tr_tt_id = 'TLS' AND tr_bid_price <= p_price) OR (tr_tt_id = 'TLB' AND tr_bid_price >= p_price))
    ORDER BY tr_t_id FOR UPDATE;
  UPDATE trade JOIN trade_request ON tr_t_id = t_id SET t_st_id = 'SBMT', t_dts = p_dts WHERE tr_s_symb = p_symb
    AND ((tr_tt_id = 'TSL' AND tr_bid_price >= p_price) OR (tr_tt_id = 'TLS' AND tr_bid_price <= p_price) OR (tr_tt_id = 'TLB' AND tr_bid_price >= p_price));
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, p_dts, 'SBMT' FROM trade_request WHERE tr_s_symb = p_symb
    AND ((tr_tt_id = 'TSL' AND tr_bid_price >= p_price) OR (tr_tt_id = 'TLS' AND tr_bid_price <= p_price) OR (tr_tt_id = 'TLB' AND tr_bid_price >= p_price));
  DELETE FROM trade_request WHERE tr_s_symb = p_symb
    AND ((tr_tt_id = 'TSL' AND tr_bid_price >= p_price) OR (tr_tt_id = 'TLS' AND tr_bid_price <= p_price) OR (tr_tt_id = 'TLB' AND tr_bid_price >= p_price));
END;
-- Data-Maintenance's frame: the change on one table (p_tbl, the round-robin's turn 0-11), the rows it changed.
-- name: drop_dbdyno_tpce_dm1
DROP PROCEDURE IF EXISTS dbdyno_tpce_dm1;
-- name: dbdyno_tpce_dm1
CREATE PROCEDURE dbdyno_tpce_dm1(p_tbl INT, p_id BIGINT, p_key VARCHAR(15), p_txt VARCHAR(150), p_day DATE, p_dts DATETIME, p_vol INT)
BEGIN
  DECLARE v_old VARCHAR(4);
  DECLARE v_first VARCHAR(15);
  DECLARE v_n BIGINT DEFAULT 0;
  CASE p_tbl
  WHEN 0 THEN UPDATE account_permission SET ap_acl = CASE WHEN ap_acl = '1111' THEN '0011' ELSE '1111' END WHERE ap_ca_id = p_id; SET v_n = ROW_COUNT();
  WHEN 1 THEN UPDATE address SET ad_line2 = p_txt WHERE ad_id = p_id; SET v_n = ROW_COUNT();
  WHEN 2 THEN UPDATE company SET co_sp_rate = p_txt WHERE co_id = p_id; SET v_n = ROW_COUNT();
  WHEN 3 THEN UPDATE customer SET c_email_2 = p_txt WHERE c_id = p_id; SET v_n = ROW_COUNT();
  WHEN 4 THEN
    SELECT cx_tx_id INTO v_old FROM customer_taxrate WHERE cx_c_id = p_id AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%') LIMIT 1;
    UPDATE customer_taxrate SET cx_tx_id = CASE v_old WHEN 'US1' THEN 'US2' WHEN 'US2' THEN 'US3' WHEN 'US3' THEN 'US4' WHEN 'US4' THEN 'US5' WHEN 'US5' THEN 'US1' WHEN 'CN1' THEN 'CN2' WHEN 'CN2' THEN 'CN3' WHEN 'CN3' THEN 'CN4' ELSE 'CN1' END
      WHERE cx_c_id = p_id AND cx_tx_id = v_old;
    SET v_n = ROW_COUNT();
  WHEN 5 THEN UPDATE daily_market SET dm_vol = dm_vol + p_vol WHERE dm_s_symb = p_key AND dm_date = p_day; SET v_n = ROW_COUNT();
  WHEN 6 THEN UPDATE exchange SET ex_desc = p_txt WHERE ex_id = p_key; SET v_n = ROW_COUNT();
  WHEN 7 THEN UPDATE financial SET fi_qtr_start_date = p_day WHERE fi_co_id = p_id AND fi_year = 2000 AND fi_qtr = 1; SET v_n = ROW_COUNT();
  WHEN 8 THEN UPDATE news_item SET ni_dts = p_dts WHERE ni_id = p_id; SET v_n = ROW_COUNT();
  WHEN 9 THEN UPDATE security SET s_exch_date = p_day WHERE s_symb = p_key; SET v_n = ROW_COUNT();
  WHEN 10 THEN UPDATE taxrate SET tx_name = p_txt WHERE tx_id = p_key; SET v_n = ROW_COUNT();
  ELSE
    SELECT min(wi_s_symb) INTO v_first FROM watch_item WHERE wi_wl_id = p_id;
    IF NOT EXISTS (SELECT 1 FROM watch_item WHERE wi_wl_id = p_id AND wi_s_symb = p_key) THEN
      UPDATE watch_item SET wi_s_symb = p_key WHERE wi_wl_id = p_id AND wi_s_symb = v_first;
      SET v_n = ROW_COUNT();
    END IF;
  END CASE;
  SELECT v_n AS o_rows;
END;
-- Trade-Cleanup's frame, before a run: pending orders and the submitted ones an earlier run left are cancelled.
-- name: drop_dbdyno_tpce_tc1
DROP PROCEDURE IF EXISTS dbdyno_tpce_tc1;
-- name: dbdyno_tpce_tc1
CREATE PROCEDURE dbdyno_tpce_tc1(p_dts DATETIME, p_first BIGINT, p_shards BIGINT, p_residue BIGINT)
BEGIN
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, p_dts, 'SBMT' FROM trade_request
  WHERE tr_t_id % p_shards = p_residue AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = tr_t_id AND th_st_id = 'SBMT');
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, p_dts, 'CNCL' FROM trade_request WHERE tr_t_id % p_shards = p_residue;
  UPDATE trade SET t_st_id = 'CNCL' WHERE t_id IN (SELECT tr_t_id FROM trade_request WHERE tr_t_id % p_shards = p_residue);
  DELETE FROM trade_request WHERE tr_t_id % p_shards = p_residue;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT t_id, p_dts, 'CNCL' FROM trade WHERE t_id >= p_first AND t_st_id = 'SBMT' AND t_id % p_shards = p_residue;
  UPDATE trade SET t_st_id = 'CNCL' WHERE t_id >= p_first AND t_st_id = 'SBMT' AND t_id % p_shards = p_residue;
  SELECT 1 AS o_done;
END;
