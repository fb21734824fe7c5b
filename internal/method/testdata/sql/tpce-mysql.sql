-- dbdyno sql: workload tpce, engine mysql (MySQL/MariaDB)

-- file: schema.sql
-- name: dbdyno_tpce_meta  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_tpce_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: dbdyno_tpce_opening  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_tpce_opening (ob_ca_id bigint NOT NULL, ob_bal numeric(12,2) NOT NULL);
-- name: account_permission  -- from sql/generic/schema.sql
CREATE TABLE account_permission (
  ap_ca_id bigint NOT NULL, ap_acl varchar(4) NOT NULL, ap_tax_id varchar(20) NOT NULL, ap_l_name varchar(25) NOT NULL,
  ap_f_name varchar(20) NOT NULL
);
-- name: customer  -- from sql/generic/schema.sql
CREATE TABLE customer (
  c_id bigint NOT NULL, c_tax_id varchar(20) NOT NULL, c_st_id varchar(4) NOT NULL, c_l_name varchar(25) NOT NULL,
  c_f_name varchar(20) NOT NULL, c_m_name varchar(1), c_gndr varchar(1), c_tier smallint NOT NULL, c_dob date NOT NULL,
  c_ad_id bigint NOT NULL, c_ctry_1 varchar(3), c_area_1 varchar(3), c_local_1 varchar(10), c_ext_1 varchar(5),
  c_ctry_2 varchar(3), c_area_2 varchar(3), c_local_2 varchar(10), c_ext_2 varchar(5), c_ctry_3 varchar(3),
  c_area_3 varchar(3), c_local_3 varchar(10), c_ext_3 varchar(5), c_email_1 varchar(50), c_email_2 varchar(50)
);
-- name: customer_account  -- from sql/generic/schema.sql
CREATE TABLE customer_account (
  ca_id bigint NOT NULL, ca_b_id bigint NOT NULL, ca_c_id bigint NOT NULL, ca_name varchar(50), ca_tax_st smallint NOT NULL,
  ca_bal numeric(12,2) NOT NULL
);
-- name: customer_taxrate  -- from sql/generic/schema.sql
CREATE TABLE customer_taxrate (cx_tx_id varchar(4) NOT NULL, cx_c_id bigint NOT NULL);
-- name: holding  -- from sql/mysql/schema.sql
CREATE TABLE holding (
  h_t_id bigint NOT NULL, h_ca_id bigint NOT NULL, h_s_symb varchar(15) NOT NULL, h_dts datetime NOT NULL,
  h_price numeric(12,2) NOT NULL, h_qty int NOT NULL
);
-- name: holding_history  -- from sql/generic/schema.sql
CREATE TABLE holding_history (hh_h_t_id bigint NOT NULL, hh_t_id bigint NOT NULL, hh_before_qty int NOT NULL, hh_after_qty int NOT NULL);
-- name: holding_summary  -- from sql/generic/schema.sql
CREATE TABLE holding_summary (hs_ca_id bigint NOT NULL, hs_s_symb varchar(15) NOT NULL, hs_qty int NOT NULL);
-- name: watch_item  -- from sql/generic/schema.sql
CREATE TABLE watch_item (wi_wl_id bigint NOT NULL, wi_s_symb varchar(15) NOT NULL);
-- name: watch_list  -- from sql/generic/schema.sql
CREATE TABLE watch_list (wl_id bigint NOT NULL, wl_c_id bigint NOT NULL);
-- name: broker  -- from sql/generic/schema.sql
CREATE TABLE broker (
  b_id bigint NOT NULL, b_st_id varchar(4) NOT NULL, b_name varchar(49) NOT NULL, b_num_trades int NOT NULL,
  b_comm_total numeric(12,2) NOT NULL
);
-- name: cash_transaction  -- from sql/mysql/schema.sql
CREATE TABLE cash_transaction (ct_t_id bigint NOT NULL, ct_dts datetime NOT NULL, ct_amt numeric(10,2) NOT NULL, ct_name varchar(100));
-- name: charge  -- from sql/generic/schema.sql
CREATE TABLE charge (ch_tt_id varchar(3) NOT NULL, ch_c_tier smallint NOT NULL, ch_chrg numeric(10,2) NOT NULL);
-- name: commission_rate  -- from sql/generic/schema.sql
CREATE TABLE commission_rate (
  cr_c_tier smallint NOT NULL, cr_tt_id varchar(3) NOT NULL, cr_ex_id varchar(6) NOT NULL, cr_from_qty int NOT NULL,
  cr_to_qty int NOT NULL, cr_rate numeric(5,2) NOT NULL
);
-- name: settlement  -- from sql/generic/schema.sql
CREATE TABLE settlement (se_t_id bigint NOT NULL, se_cash_type varchar(40) NOT NULL, se_cash_due_date date NOT NULL, se_amt numeric(10,2) NOT NULL);
-- name: trade  -- from sql/mysql/schema.sql
CREATE TABLE trade (
  t_id bigint NOT NULL, t_dts datetime NOT NULL, t_st_id varchar(4) NOT NULL, t_tt_id varchar(3) NOT NULL,
  t_is_cash smallint NOT NULL, t_s_symb varchar(15) NOT NULL, t_qty int NOT NULL, t_bid_price numeric(12,2) NOT NULL,
  t_ca_id bigint NOT NULL, t_exec_name varchar(49) NOT NULL, t_trade_price numeric(12,2), t_chrg numeric(10,2) NOT NULL,
  t_comm numeric(10,2) NOT NULL, t_tax numeric(10,2) NOT NULL, t_lifo smallint NOT NULL
);
-- name: trade_history  -- from sql/mysql/schema.sql
CREATE TABLE trade_history (th_t_id bigint NOT NULL, th_dts datetime NOT NULL, th_st_id varchar(4) NOT NULL);
-- name: trade_request  -- from sql/generic/schema.sql
CREATE TABLE trade_request (
  tr_t_id bigint NOT NULL, tr_tt_id varchar(3) NOT NULL, tr_s_symb varchar(15) NOT NULL, tr_qty int NOT NULL,
  tr_bid_price numeric(12,2) NOT NULL, tr_b_id bigint NOT NULL
);
-- name: trade_type  -- from sql/generic/schema.sql
CREATE TABLE trade_type (tt_id varchar(3) NOT NULL, tt_name varchar(12) NOT NULL, tt_is_sell smallint NOT NULL, tt_is_mrkt smallint NOT NULL);
-- name: company  -- from sql/generic/schema.sql
CREATE TABLE company (
  co_id bigint NOT NULL, co_st_id varchar(4) NOT NULL, co_name varchar(60) NOT NULL, co_in_id varchar(2) NOT NULL,
  co_sp_rate varchar(4) NOT NULL, co_ceo varchar(46) NOT NULL, co_ad_id bigint NOT NULL, co_desc varchar(150) NOT NULL,
  co_open_date date NOT NULL
);
-- name: company_competitor  -- from sql/generic/schema.sql
CREATE TABLE company_competitor (cp_co_id bigint NOT NULL, cp_comp_co_id bigint NOT NULL, cp_in_id varchar(2) NOT NULL);
-- name: daily_market  -- from sql/generic/schema.sql
CREATE TABLE daily_market (
  dm_date date NOT NULL, dm_s_symb varchar(15) NOT NULL, dm_close numeric(12,2) NOT NULL, dm_high numeric(12,2) NOT NULL,
  dm_low numeric(12,2) NOT NULL, dm_vol bigint NOT NULL
);
-- name: exchange  -- from sql/generic/schema.sql
CREATE TABLE exchange (
  ex_id varchar(6) NOT NULL, ex_name varchar(100) NOT NULL, ex_num_symb int NOT NULL, ex_open int NOT NULL,
  ex_close int NOT NULL, ex_desc varchar(150), ex_ad_id bigint NOT NULL
);
-- name: financial  -- from sql/generic/schema.sql
CREATE TABLE financial (
  fi_co_id bigint NOT NULL, fi_year int NOT NULL, fi_qtr smallint NOT NULL, fi_qtr_start_date date NOT NULL,
  fi_revenue numeric(15,2) NOT NULL, fi_net_earn numeric(15,2) NOT NULL, fi_basic_eps numeric(10,2) NOT NULL,
  fi_dilut_eps numeric(10,2) NOT NULL, fi_margin numeric(10,2) NOT NULL, fi_inventory numeric(15,2) NOT NULL,
  fi_assets numeric(15,2) NOT NULL, fi_liability numeric(15,2) NOT NULL, fi_out_basic bigint NOT NULL,
  fi_out_dilut bigint NOT NULL
);
-- name: industry  -- from sql/generic/schema.sql
CREATE TABLE industry (in_id varchar(2) NOT NULL, in_name varchar(50) NOT NULL, in_sc_id varchar(2) NOT NULL);
-- name: last_trade  -- from sql/mysql/schema.sql
CREATE TABLE last_trade (
  lt_s_symb varchar(15) NOT NULL, lt_dts datetime NOT NULL, lt_price numeric(12,2) NOT NULL,
  lt_open_price numeric(12,2) NOT NULL, lt_vol bigint NOT NULL
);
-- name: news_item  -- from sql/mysql/schema.sql
CREATE TABLE news_item (
  ni_id bigint NOT NULL, ni_headline varchar(80) NOT NULL, ni_summary varchar(255) NOT NULL, ni_item mediumtext NOT NULL,
  ni_dts datetime NOT NULL, ni_source varchar(30) NOT NULL, ni_author varchar(30)
);
-- name: news_xref  -- from sql/generic/schema.sql
CREATE TABLE news_xref (nx_ni_id bigint NOT NULL, nx_co_id bigint NOT NULL);
-- name: sector  -- from sql/generic/schema.sql
CREATE TABLE sector (sc_id varchar(2) NOT NULL, sc_name varchar(30) NOT NULL);
-- name: security  -- from sql/generic/schema.sql
CREATE TABLE security (
  s_symb varchar(15) NOT NULL, s_issue varchar(6) NOT NULL, s_st_id varchar(4) NOT NULL, s_name varchar(70) NOT NULL,
  s_ex_id varchar(6) NOT NULL, s_co_id bigint NOT NULL, s_num_out bigint NOT NULL, s_start_date date NOT NULL,
  s_exch_date date NOT NULL, s_pe numeric(10,2) NOT NULL, s_52wk_high numeric(12,2) NOT NULL, s_52wk_high_date date NOT NULL,
  s_52wk_low numeric(12,2) NOT NULL, s_52wk_low_date date NOT NULL, s_dividend numeric(10,2) NOT NULL, s_yield numeric(5,2) NOT NULL
);
-- name: address  -- from sql/generic/schema.sql
CREATE TABLE address (ad_id bigint NOT NULL, ad_line1 varchar(80), ad_line2 varchar(80), ad_zc_code varchar(12) NOT NULL, ad_ctry varchar(80));
-- name: status_type  -- from sql/generic/schema.sql
CREATE TABLE status_type (st_id varchar(4) NOT NULL, st_name varchar(10) NOT NULL);
-- name: taxrate  -- from sql/generic/schema.sql
CREATE TABLE taxrate (tx_id varchar(4) NOT NULL, tx_name varchar(50) NOT NULL, tx_rate numeric(6,5) NOT NULL);
-- name: zip_code  -- from sql/generic/schema.sql
CREATE TABLE zip_code (zc_code varchar(12) NOT NULL, zc_town varchar(80) NOT NULL, zc_div varchar(80) NOT NULL);

-- file: indexes.sql
-- name: dbdyno_tpce_opening_pk  -- from sql/generic/indexes.sql
ALTER TABLE dbdyno_tpce_opening ADD CONSTRAINT dbdyno_tpce_opening_pk PRIMARY KEY (ob_ca_id);
-- name: account_permission_pk  -- from sql/generic/indexes.sql
ALTER TABLE account_permission ADD CONSTRAINT account_permission_pk PRIMARY KEY (ap_ca_id, ap_tax_id);
-- name: customer_pk  -- from sql/generic/indexes.sql
ALTER TABLE customer ADD CONSTRAINT customer_pk PRIMARY KEY (c_id);
-- name: customer_account_pk  -- from sql/generic/indexes.sql
ALTER TABLE customer_account ADD CONSTRAINT customer_account_pk PRIMARY KEY (ca_id);
-- name: customer_taxrate_pk  -- from sql/generic/indexes.sql
ALTER TABLE customer_taxrate ADD CONSTRAINT customer_taxrate_pk PRIMARY KEY (cx_tx_id, cx_c_id);
-- name: holding_pk  -- from sql/generic/indexes.sql
ALTER TABLE holding ADD CONSTRAINT holding_pk PRIMARY KEY (h_t_id);
-- name: holding_history_pk  -- from sql/generic/indexes.sql
ALTER TABLE holding_history ADD CONSTRAINT holding_history_pk PRIMARY KEY (hh_h_t_id, hh_t_id);
-- name: holding_summary_pk  -- from sql/generic/indexes.sql
ALTER TABLE holding_summary ADD CONSTRAINT holding_summary_pk PRIMARY KEY (hs_ca_id, hs_s_symb);
-- name: watch_item_pk  -- from sql/generic/indexes.sql
ALTER TABLE watch_item ADD CONSTRAINT watch_item_pk PRIMARY KEY (wi_wl_id, wi_s_symb);
-- name: watch_list_pk  -- from sql/generic/indexes.sql
ALTER TABLE watch_list ADD CONSTRAINT watch_list_pk PRIMARY KEY (wl_id);
-- name: broker_pk  -- from sql/generic/indexes.sql
ALTER TABLE broker ADD CONSTRAINT broker_pk PRIMARY KEY (b_id);
-- name: cash_transaction_pk  -- from sql/generic/indexes.sql
ALTER TABLE cash_transaction ADD CONSTRAINT cash_transaction_pk PRIMARY KEY (ct_t_id);
-- name: charge_pk  -- from sql/generic/indexes.sql
ALTER TABLE charge ADD CONSTRAINT charge_pk PRIMARY KEY (ch_tt_id, ch_c_tier);
-- name: commission_rate_pk  -- from sql/generic/indexes.sql
ALTER TABLE commission_rate ADD CONSTRAINT commission_rate_pk PRIMARY KEY (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty);
-- name: settlement_pk  -- from sql/generic/indexes.sql
ALTER TABLE settlement ADD CONSTRAINT settlement_pk PRIMARY KEY (se_t_id);
-- name: trade_pk  -- from sql/generic/indexes.sql
ALTER TABLE trade ADD CONSTRAINT trade_pk PRIMARY KEY (t_id);
-- name: trade_history_pk  -- from sql/generic/indexes.sql
ALTER TABLE trade_history ADD CONSTRAINT trade_history_pk PRIMARY KEY (th_t_id, th_st_id);
-- name: trade_request_pk  -- from sql/generic/indexes.sql
ALTER TABLE trade_request ADD CONSTRAINT trade_request_pk PRIMARY KEY (tr_t_id);
-- name: trade_type_pk  -- from sql/generic/indexes.sql
ALTER TABLE trade_type ADD CONSTRAINT trade_type_pk PRIMARY KEY (tt_id);
-- name: company_pk  -- from sql/generic/indexes.sql
ALTER TABLE company ADD CONSTRAINT company_pk PRIMARY KEY (co_id);
-- name: company_competitor_pk  -- from sql/generic/indexes.sql
ALTER TABLE company_competitor ADD CONSTRAINT company_competitor_pk PRIMARY KEY (cp_co_id, cp_comp_co_id, cp_in_id);
-- name: daily_market_pk  -- from sql/generic/indexes.sql
ALTER TABLE daily_market ADD CONSTRAINT daily_market_pk PRIMARY KEY (dm_s_symb, dm_date);
-- name: exchange_pk  -- from sql/generic/indexes.sql
ALTER TABLE exchange ADD CONSTRAINT exchange_pk PRIMARY KEY (ex_id);
-- name: financial_pk  -- from sql/generic/indexes.sql
ALTER TABLE financial ADD CONSTRAINT financial_pk PRIMARY KEY (fi_co_id, fi_year, fi_qtr);
-- name: industry_pk  -- from sql/generic/indexes.sql
ALTER TABLE industry ADD CONSTRAINT industry_pk PRIMARY KEY (in_id);
-- name: last_trade_pk  -- from sql/generic/indexes.sql
ALTER TABLE last_trade ADD CONSTRAINT last_trade_pk PRIMARY KEY (lt_s_symb);
-- name: news_item_pk  -- from sql/generic/indexes.sql
ALTER TABLE news_item ADD CONSTRAINT news_item_pk PRIMARY KEY (ni_id);
-- name: news_xref_pk  -- from sql/generic/indexes.sql
ALTER TABLE news_xref ADD CONSTRAINT news_xref_pk PRIMARY KEY (nx_ni_id, nx_co_id);
-- name: sector_pk  -- from sql/generic/indexes.sql
ALTER TABLE sector ADD CONSTRAINT sector_pk PRIMARY KEY (sc_id);
-- name: security_pk  -- from sql/generic/indexes.sql
ALTER TABLE security ADD CONSTRAINT security_pk PRIMARY KEY (s_symb);
-- name: address_pk  -- from sql/generic/indexes.sql
ALTER TABLE address ADD CONSTRAINT address_pk PRIMARY KEY (ad_id);
-- name: status_type_pk  -- from sql/generic/indexes.sql
ALTER TABLE status_type ADD CONSTRAINT status_type_pk PRIMARY KEY (st_id);
-- name: taxrate_pk  -- from sql/generic/indexes.sql
ALTER TABLE taxrate ADD CONSTRAINT taxrate_pk PRIMARY KEY (tx_id);
-- name: zip_code_pk  -- from sql/generic/indexes.sql
ALTER TABLE zip_code ADD CONSTRAINT zip_code_pk PRIMARY KEY (zc_code);
-- name: customer_tax_id  -- from sql/generic/indexes.sql
CREATE INDEX customer_tax_id ON customer (c_tax_id);
-- name: customer_account_c_id  -- from sql/generic/indexes.sql
CREATE INDEX customer_account_c_id ON customer_account (ca_c_id);
-- name: watch_list_c_id  -- from sql/generic/indexes.sql
CREATE INDEX watch_list_c_id ON watch_list (wl_c_id);
-- name: trade_request_s_symb  -- from sql/generic/indexes.sql
CREATE INDEX trade_request_s_symb ON trade_request (tr_s_symb, tr_b_id);
-- name: trade_ca_dts  -- from sql/generic/indexes.sql
CREATE INDEX trade_ca_dts ON trade (t_ca_id, t_dts, t_id);
-- name: trade_s_symb_dts  -- from sql/generic/indexes.sql
CREATE INDEX trade_s_symb_dts ON trade (t_s_symb, t_dts);
-- name: trade_st_id  -- from sql/generic/indexes.sql
CREATE INDEX trade_st_id ON trade (t_st_id);
-- name: company_name  -- from sql/generic/indexes.sql
CREATE INDEX company_name ON company (co_name);
-- name: company_in_id  -- from sql/generic/indexes.sql
CREATE INDEX company_in_id ON company (co_in_id);
-- name: security_co_issue  -- from sql/generic/indexes.sql
CREATE INDEX security_co_issue ON security (s_co_id, s_issue);
-- name: holding_ca_symb_dts  -- from sql/generic/indexes.sql
CREATE INDEX holding_ca_symb_dts ON holding (h_ca_id, h_s_symb, h_dts);
-- name: holding_history_t_id  -- from sql/generic/indexes.sql
CREATE INDEX holding_history_t_id ON holding_history (hh_t_id);
-- name: broker_name  -- from sql/generic/indexes.sql
CREATE INDEX broker_name ON broker (b_name);
-- name: industry_name  -- from sql/generic/indexes.sql
CREATE INDEX industry_name ON industry (in_name);
-- name: industry_sc_id  -- from sql/generic/indexes.sql
CREATE INDEX industry_sc_id ON industry (in_sc_id);
-- name: sector_name  -- from sql/generic/indexes.sql
CREATE INDEX sector_name ON sector (sc_name);
-- name: news_xref_co_id  -- from sql/generic/indexes.sql
CREATE INDEX news_xref_co_id ON news_xref (nx_co_id);

-- file: procs.sql
-- name: drop_dbdyno_tpce_bv1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_bv1;
-- name: dbdyno_tpce_bv1  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_bv1(p_b_lo BIGINT, p_b_hi BIGINT, p_sc_name VARCHAR(30))
BEGIN
  SELECT b_name, sum(tr_qty * tr_bid_price) AS vol FROM trade_request
  JOIN security ON s_symb = tr_s_symb JOIN company ON co_id = s_co_id JOIN industry ON in_id = co_in_id
  JOIN sector ON sc_id = in_sc_id JOIN broker ON b_id = tr_b_id
  WHERE b_id BETWEEN p_b_lo AND p_b_hi AND sc_name = p_sc_name GROUP BY b_name ORDER BY vol DESC;
END;
-- name: drop_dbdyno_tpce_cp1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp1;
-- name: dbdyno_tpce_cp1  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_cp2  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp2;
-- name: dbdyno_tpce_cp2  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_cp2(p_ca_id BIGINT)
BEGIN
  SELECT t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = p_ca_id ORDER BY t_dts DESC, t_id DESC LIMIT 10) x
  JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name LIMIT 30;
END;
-- name: drop_dbdyno_tpce_mw1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_mw1;
-- name: dbdyno_tpce_mw1  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_sd1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_sd1;
-- name: dbdyno_tpce_sd1  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_tl1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl1;
-- name: dbdyno_tpce_tl1  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_tl2  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl2;
-- name: dbdyno_tpce_tl2  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_tl3  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl3;
-- name: dbdyno_tpce_tl3  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_tl4  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl4;
-- name: dbdyno_tpce_tl4  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_ts1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_ts1;
-- name: dbdyno_tpce_ts1  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_ts1(p_ca_id BIGINT)
BEGIN
  DECLARE v_n BIGINT;
  SELECT count(*) INTO v_n FROM (SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
    JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
    WHERE t_ca_id = p_ca_id ORDER BY t_dts DESC, t_id DESC LIMIT 50) x;
  SELECT v_n, c_l_name, c_f_name, b_name FROM customer_account
    JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = p_ca_id;
END;
-- name: drop_dbdyno_tpce_to1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to1;
-- name: dbdyno_tpce_to1  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_to1(p_ca_id BIGINT)
BEGIN
  SELECT ca_b_id, ca_c_id, ca_tax_st, ca_bal, c_f_name, c_l_name, c_tier, c_tax_id, b_name FROM customer_account
  JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = p_ca_id;
END;
-- name: drop_dbdyno_tpce_to2  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to2;
-- name: dbdyno_tpce_to2  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_to2(p_ca_id BIGINT, p_tax_id VARCHAR(20))
BEGIN
  SELECT ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = p_ca_id AND ap_tax_id <> p_tax_id ORDER BY ap_tax_id LIMIT 1;
END;
-- name: drop_dbdyno_tpce_to3  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to3;
-- name: dbdyno_tpce_to3  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_to4  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to4;
-- name: dbdyno_tpce_to4  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_tr1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr1;
-- name: dbdyno_tpce_tr1  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_tr1(p_t_id BIGINT)
BEGIN
  DECLARE v_ca BIGINT;
  DECLARE v_symb VARCHAR(15);
  DECLARE v_hs INT DEFAULT NULL;
  SELECT t_ca_id, t_s_symb INTO v_ca, v_symb FROM trade WHERE t_id = p_t_id;
  SELECT hs_qty INTO v_hs FROM holding_summary WHERE hs_ca_id = v_ca AND hs_s_symb = v_symb FOR UPDATE;
  SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name,
      CASE WHEN v_hs IS NULL THEN 0 ELSE 1 END, coalesce(v_hs, 0)
    FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
    JOIN security ON s_symb = t_s_symb WHERE t_id = p_t_id;
END;
-- name: drop_dbdyno_tpce_tr2  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr2;
-- name: dbdyno_tpce_tr2  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_tr2(p_t_id BIGINT, p_ca_id BIGINT, p_symb VARCHAR(15), p_qty INT, p_sell INT, p_lifo INT, p_price DECIMAL(12,2),
  p_dts DATETIME, p_hs_qty INT, p_has_hs INT)
BEGIN
  DECLARE v_sign, v_left, v_take, v_after, v_new, v_qty INT;
  DECLARE v_id BIGINT;
  DECLARE v_price DECIMAL(12,2);
  DECLARE v_buy, v_sell DECIMAL(20,2) DEFAULT 0;
  DECLARE v_done INT DEFAULT 0;
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
-- name: drop_dbdyno_tpce_tr3  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr3;
-- name: dbdyno_tpce_tr3  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_tr3(p_t_id BIGINT, p_c_id BIGINT, p_gain DECIMAL(20,2))
BEGIN
  DECLARE v_tax DECIMAL(20,2);
  SELECT round(p_gain * coalesce(sum(tx_rate), 0), 2) INTO v_tax FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = p_c_id;
  UPDATE trade SET t_tax = v_tax WHERE t_id = p_t_id;
  SELECT v_tax;
END;
-- name: drop_dbdyno_tpce_tr4  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr4;
-- name: dbdyno_tpce_tr4  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_tr4(p_tier INT, p_tt_id VARCHAR(3), p_ex_id VARCHAR(6), p_qty INT)
BEGIN
  SELECT cr_rate FROM commission_rate WHERE cr_c_tier = p_tier AND cr_tt_id = p_tt_id AND cr_ex_id = p_ex_id AND cr_from_qty <= p_qty AND cr_to_qty >= p_qty;
END;
-- name: drop_dbdyno_tpce_tr5  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr5;
-- name: dbdyno_tpce_tr5  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_tr5(p_t_id BIGINT, p_comm DECIMAL(10,2), p_dts DATETIME, p_price DECIMAL(12,2), p_b_id BIGINT)
BEGIN
  UPDATE trade SET t_comm = p_comm, t_dts = p_dts, t_st_id = 'CMPT', t_trade_price = p_price WHERE t_id = p_t_id;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (p_t_id, p_dts, 'CMPT');
  UPDATE broker SET b_comm_total = b_comm_total + p_comm, b_num_trades = b_num_trades + 1 WHERE b_id = p_b_id;
  SELECT p_t_id;
END;
-- name: drop_dbdyno_tpce_tr6  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr6;
-- name: dbdyno_tpce_tr6  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_mf1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_mf1;
-- name: dbdyno_tpce_mf1  -- from sql/mysql/procs.sql
CREATE PROCEDURE dbdyno_tpce_mf1(p_symb VARCHAR(15), p_price DECIMAL(12,2), p_qty INT, p_dts DATETIME)
BEGIN
  UPDATE last_trade SET lt_price = p_price, lt_vol = lt_vol + p_qty, lt_dts = p_dts WHERE lt_s_symb = p_symb;
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
-- name: drop_dbdyno_tpce_dm1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_dm1;
-- name: dbdyno_tpce_dm1  -- from sql/mysql/procs.sql
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
-- name: drop_dbdyno_tpce_tc1  -- from sql/mysql/procs.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tc1;
-- name: dbdyno_tpce_tc1  -- from sql/mysql/procs.sql
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

-- file: drop.sql
-- name: dbdyno_tpce_opening  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_tpce_opening;
-- name: account_permission  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS account_permission;
-- name: customer  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS customer;
-- name: customer_account  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS customer_account;
-- name: customer_taxrate  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS customer_taxrate;
-- name: holding  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS holding;
-- name: holding_history  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS holding_history;
-- name: holding_summary  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS holding_summary;
-- name: watch_item  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS watch_item;
-- name: watch_list  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS watch_list;
-- name: broker  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS broker;
-- name: cash_transaction  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS cash_transaction;
-- name: charge  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS charge;
-- name: commission_rate  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS commission_rate;
-- name: settlement  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS settlement;
-- name: trade  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS trade;
-- name: trade_history  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS trade_history;
-- name: trade_request  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS trade_request;
-- name: trade_type  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS trade_type;
-- name: company  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS company;
-- name: company_competitor  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS company_competitor;
-- name: daily_market  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS daily_market;
-- name: exchange  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS exchange;
-- name: financial  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS financial;
-- name: industry  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS industry;
-- name: last_trade  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS last_trade;
-- name: news_item  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS news_item;
-- name: news_xref  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS news_xref;
-- name: sector  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS sector;
-- name: security  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS security;
-- name: address  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS address;
-- name: status_type  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS status_type;
-- name: taxrate  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS taxrate;
-- name: zip_code  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS zip_code;
-- name: dbdyno_tpce_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_tpce_meta;
-- name: drop_dbdyno_tpce_bv1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_bv1;
-- name: drop_dbdyno_tpce_cp1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp1;
-- name: drop_dbdyno_tpce_cp2  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp2;
-- name: drop_dbdyno_tpce_mw1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_mw1;
-- name: drop_dbdyno_tpce_sd1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_sd1;
-- name: drop_dbdyno_tpce_tl1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl1;
-- name: drop_dbdyno_tpce_tl2  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl2;
-- name: drop_dbdyno_tpce_tl3  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl3;
-- name: drop_dbdyno_tpce_tl4  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl4;
-- name: drop_dbdyno_tpce_ts1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_ts1;
-- name: drop_dbdyno_tpce_to1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to1;
-- name: drop_dbdyno_tpce_to2  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to2;
-- name: drop_dbdyno_tpce_to3  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to3;
-- name: drop_dbdyno_tpce_to4  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to4;
-- name: drop_dbdyno_tpce_tr1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr1;
-- name: drop_dbdyno_tpce_tr2  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr2;
-- name: drop_dbdyno_tpce_tr3  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr3;
-- name: drop_dbdyno_tpce_tr4  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr4;
-- name: drop_dbdyno_tpce_tr5  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr5;
-- name: drop_dbdyno_tpce_tr6  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr6;
-- name: drop_dbdyno_tpce_mf1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_mf1;
-- name: drop_dbdyno_tpce_dm1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_dm1;
-- name: drop_dbdyno_tpce_tc1  -- from sql/mysql/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tc1;

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_tpce_meta WHERE k = ?;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_tpce_meta WHERE k = ?;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_tpce_meta (k, v) VALUES (?, ?);

-- file: tx.sql
-- name: check_brokers  -- from sql/generic/tx.sql
SELECT b_id, b_num_trades FROM broker
LEFT JOIN (SELECT ca_b_id, count(*) AS n, sum(t_comm) AS comm FROM trade JOIN customer_account ON ca_id = t_ca_id
           WHERE t_st_id = 'CMPT' GROUP BY ca_b_id) x ON x.ca_b_id = b_id
WHERE b_num_trades <> coalesce(x.n, 0) OR abs(b_comm_total - coalesce(x.comm, 0)) >= 0.005;
-- name: check_holdings  -- from sql/generic/tx.sql
SELECT hs_ca_id, hs_s_symb FROM holding_summary
LEFT JOIN (SELECT h_ca_id, h_s_symb, sum(h_qty) AS q FROM holding GROUP BY h_ca_id, h_s_symb) h
  ON h.h_ca_id = hs_ca_id AND h.h_s_symb = hs_s_symb
WHERE h.q IS NULL OR h.q <> hs_qty OR hs_qty = 0
UNION ALL
SELECT h_ca_id, h_s_symb FROM holding WHERE NOT EXISTS (SELECT 1 FROM holding_summary WHERE hs_ca_id = h_ca_id AND hs_s_symb = h_s_symb);
-- name: check_settlements  -- from sql/generic/tx.sql
SELECT t_id, t_st_id FROM trade LEFT JOIN settlement ON se_t_id = t_id
WHERE (t_st_id = 'CMPT' AND se_t_id IS NULL) OR (t_st_id <> 'CMPT' AND se_t_id IS NOT NULL)
UNION ALL
SELECT se_t_id, 'no trade' FROM settlement WHERE NOT EXISTS (SELECT 1 FROM trade WHERE t_id = se_t_id);
-- name: check_cash  -- from sql/generic/tx.sql
SELECT t_id, t_is_cash FROM trade JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE (t_is_cash = 1 AND (ct_t_id IS NULL OR ct_amt <> se_amt)) OR (t_is_cash = 0 AND ct_t_id IS NOT NULL)
UNION ALL
SELECT ct_t_id, -1 FROM cash_transaction WHERE NOT EXISTS (SELECT 1 FROM settlement WHERE se_t_id = ct_t_id);
-- name: check_balances  -- from sql/generic/tx.sql
SELECT ca_id, ca_bal FROM customer_account
LEFT JOIN dbdyno_tpce_opening ON ob_ca_id = ca_id
LEFT JOIN (SELECT t_ca_id, sum(ct_amt) AS s FROM cash_transaction JOIN trade ON t_id = ct_t_id GROUP BY t_ca_id) x ON x.t_ca_id = ca_id
WHERE ob_ca_id IS NULL OR abs(ca_bal - ob_bal - coalesce(x.s, 0)) >= 0.005;
-- name: check_trades  -- from sql/generic/tx.sql
SELECT t_id, t_st_id FROM trade
WHERE (t_st_id = 'CMPT' AND t_trade_price IS NULL) OR (t_st_id <> 'CMPT' AND t_trade_price IS NOT NULL)
   OR (t_st_id = 'CMPT' AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = t_id AND th_st_id = 'CMPT'));
-- name: bv(b_lo, b_hi, sc_name)  -- from sql/generic/tx.sql
SELECT b_name, sum(tr_qty * tr_bid_price) AS vol FROM trade_request
JOIN security ON s_symb = tr_s_symb JOIN company ON co_id = s_co_id JOIN industry ON in_id = co_in_id
JOIN sector ON sc_id = in_sc_id JOIN broker ON b_id = tr_b_id
WHERE b_id BETWEEN ? AND ? AND sc_name = ? GROUP BY b_name ORDER BY vol DESC;
-- name: cp_customer(c_id)  -- from sql/generic/tx.sql
SELECT c_id, c_st_id, c_l_name, c_f_name, c_tier, c_dob, c_email_1 FROM customer WHERE c_id = ?;
-- name: cp_customer_tax(tax_id)  -- from sql/generic/tx.sql
SELECT c_id, c_st_id, c_l_name, c_f_name, c_tier, c_dob, c_email_1 FROM customer WHERE c_tax_id = ?;
-- name: cp_accounts(c_id)  -- from sql/generic/tx.sql
SELECT ca_id, ca_bal, coalesce(sum(hs_qty * lt_price), 0) AS assets FROM customer_account
LEFT JOIN holding_summary ON hs_ca_id = ca_id LEFT JOIN last_trade ON lt_s_symb = hs_s_symb
WHERE ca_c_id = ? GROUP BY ca_id, ca_bal ORDER BY assets LIMIT 10;
-- name: cp_history(ca_id)  -- from sql/generic/tx.sql
SELECT t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = ? ORDER BY t_dts DESC, t_id DESC LIMIT 10) x
JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name LIMIT 30;
-- name: mw_watch(c_id, day)  -- from sql/generic/tx.sql
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM watch_list
JOIN watch_item ON wi_wl_id = wl_id JOIN last_trade ON lt_s_symb = wi_s_symb JOIN security ON s_symb = wi_s_symb
JOIN daily_market ON dm_s_symb = wi_s_symb AND dm_date = ? WHERE wl_c_id = ?;
-- name: mw_account(ca_id, day)  -- from sql/generic/tx.sql
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM holding_summary
JOIN last_trade ON lt_s_symb = hs_s_symb JOIN security ON s_symb = hs_s_symb
JOIN daily_market ON dm_s_symb = hs_s_symb AND dm_date = ? WHERE hs_ca_id = ?;
-- name: mw_industry(in_name, co_lo, co_hi, day)  -- from sql/generic/tx.sql
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM industry
JOIN company ON co_in_id = in_id JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
JOIN daily_market ON dm_s_symb = s_symb AND dm_date = ? WHERE in_name = ? AND co_id BETWEEN ? AND ?;
-- name: sd_security(symb)  -- from sql/generic/tx.sql
SELECT s_name, co_id, co_name, co_sp_rate, co_ceo, co_desc, co_open_date, ca.ad_line1, zca.zc_town, zca.zc_div,
  ex_name, ex_open, ex_close, ex_num_symb, ea.ad_line1, zea.zc_town
FROM security JOIN company ON co_id = s_co_id JOIN address ca ON ca.ad_id = co_ad_id JOIN zip_code zca ON zca.zc_code = ca.ad_zc_code
JOIN exchange ON ex_id = s_ex_id JOIN address ea ON ea.ad_id = ex_ad_id JOIN zip_code zea ON zea.zc_code = ea.ad_zc_code
WHERE s_symb = ?;
-- name: sd_competitors(co_id)  -- from sql/generic/tx.sql
SELECT co_name, in_name FROM company_competitor JOIN company ON co_id = cp_comp_co_id JOIN industry ON in_id = cp_in_id
WHERE cp_co_id = ? ORDER BY cp_comp_co_id LIMIT 3;
-- name: sd_financial(co_id)  -- from sql/generic/tx.sql
SELECT fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin
FROM financial WHERE fi_co_id = ? ORDER BY fi_year, fi_qtr LIMIT 20;
-- name: sd_daily(symb, day)  -- from sql/generic/tx.sql
SELECT dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market WHERE dm_s_symb = ? AND dm_date >= ? ORDER BY dm_date LIMIT 20;
-- name: sd_last(symb)  -- from sql/generic/tx.sql
SELECT lt_price, lt_open_price, lt_vol FROM last_trade WHERE lt_s_symb = ?;
-- name: sd_news(co_id)  -- from sql/generic/tx.sql
SELECT ni_headline, ni_summary, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id WHERE nx_co_id = ? ORDER BY ni_id LIMIT 2;
-- name: sd_news_lob(co_id)  -- from sql/generic/tx.sql
SELECT ni_item, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id WHERE nx_co_id = ? ORDER BY ni_id LIMIT 2;
-- name: tl_ids(t_lo, t_hi)  -- from sql/generic/tx.sql
SELECT t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price, se_amt, se_cash_due_date, se_cash_type, ct_amt, ct_dts, ct_name
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_id BETWEEN ? AND ? ORDER BY t_id LIMIT 20;
-- name: tl_history(t_lo, t_hi)  -- from sql/generic/tx.sql
SELECT th_t_id, th_dts, th_st_id FROM trade_history WHERE th_t_id BETWEEN ? AND ? ORDER BY th_t_id, th_dts;
-- name: tl_account(ca_id, t_start, t_end)  -- from sql/generic/tx.sql
SELECT t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price, se_amt, se_cash_type, ct_amt, ct_name
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_ca_id = ? AND t_dts BETWEEN ? AND ? ORDER BY t_dts, t_id LIMIT 20;
-- name: tl_symbol(symb, t_start, t_end)  -- from sql/generic/tx.sql
SELECT t_id, t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_tt_id, se_amt, ct_amt
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_s_symb = ? AND t_dts BETWEEN ? AND ? ORDER BY t_dts, t_id LIMIT 20;
-- name: tl_first(ca_id, t_start)  -- from sql/generic/tx.sql
SELECT t_id FROM trade WHERE t_ca_id = ? AND t_dts >= ? ORDER BY t_dts, t_id LIMIT 1;
-- name: tl_lots(t_id)  -- from sql/generic/tx.sql
SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = ?) ORDER BY hh_t_id LIMIT 20;
-- name: tu_exec(t_lo, t_hi)  -- from sql/generic/tx.sql
UPDATE trade SET t_exec_name = CASE WHEN replace(t_exec_name, ' X ', '') <> t_exec_name THEN replace(t_exec_name, ' X ', ' ')
  ELSE replace(t_exec_name, ' ', ' X ') END WHERE t_id BETWEEN ? AND ?;
-- name: tu_cash_type(t_id)  -- from sql/generic/tx.sql
UPDATE settlement SET se_cash_type = CASE se_cash_type WHEN 'Cash Account' THEN 'Cash' WHEN 'Cash' THEN 'Cash Account'
  WHEN 'Margin' THEN 'Margin Account' ELSE 'Margin' END WHERE se_t_id = ?;
-- name: tu_ct_name(t_id)  -- from sql/generic/tx.sql
UPDATE cash_transaction SET ct_name = CASE WHEN replace(ct_name, ' shares of ', '') <> ct_name THEN replace(ct_name, ' shares of ', ' Shares of ')
  ELSE replace(ct_name, ' Shares of ', ' shares of ') END WHERE ct_t_id = ?;
-- name: ts(ca_id)  -- from sql/generic/tx.sql
SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
WHERE t_ca_id = ? ORDER BY t_dts DESC, t_id DESC LIMIT 50;
-- name: ts_names(ca_id)  -- from sql/generic/tx.sql
SELECT c_l_name, c_f_name, b_name FROM customer_account JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = ?;
-- name: to_account(ca_id)  -- from sql/generic/tx.sql
SELECT ca_b_id, ca_c_id, ca_tax_st, ca_bal, c_f_name, c_l_name, c_tier, c_tax_id, b_name FROM customer_account
JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = ?;
-- name: to_permission(ca_id, tax_id)  -- from sql/generic/tx.sql
SELECT ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = ? AND ap_tax_id <> ? ORDER BY ap_tax_id LIMIT 1;
-- name: to_security(symb)  -- from sql/generic/tx.sql
SELECT s_ex_id, s_name, lt_price FROM security JOIN last_trade ON lt_s_symb = s_symb WHERE s_symb = ?;
-- name: to_security_name(co_name, issue)  -- from sql/generic/tx.sql
SELECT s_symb, s_ex_id, s_name, lt_price FROM company JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
WHERE co_name = ? AND s_issue = ?;
-- name: to_holding(ca_id, symb)  -- from sql/generic/tx.sql
SELECT coalesce(sum(hs_qty), 0) FROM holding_summary WHERE hs_ca_id = ? AND hs_s_symb = ?;
-- name: to_lots(ca_id, symb)  -- from sql/generic/tx.sql
SELECT h_qty, h_price FROM holding WHERE h_ca_id = ? AND h_s_symb = ? ORDER BY h_dts DESC, h_t_id DESC;
-- name: to_charge(tt_id, tier)  -- from sql/generic/tx.sql
SELECT ch_chrg FROM charge WHERE ch_tt_id = ? AND ch_c_tier = ?;
-- name: to_comm(tier, tt_id, ex_id, qty, qty2)  -- from sql/generic/tx.sql
SELECT cr_rate FROM commission_rate WHERE cr_c_tier = ? AND cr_tt_id = ? AND cr_ex_id = ? AND cr_from_qty <= ? AND cr_to_qty >= ?;
-- name: to_tax(c_id)  -- from sql/generic/tx.sql
SELECT coalesce(sum(tx_rate), 0) FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = ?;
-- name: to_assets(ca_id)  -- from sql/generic/tx.sql
SELECT coalesce(sum(hs_qty * lt_price), 0) FROM holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb WHERE hs_ca_id = ?;
-- name: to_trade(t_id, dts, st_id, tt_id, is_cash, symb, qty, bid, ca_id, exec_name, chrg, comm, lifo)  -- from sql/generic/tx.sql
INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price, t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 0, ?);
-- name: to_request(t_id, tt_id, symb, qty, bid, b_id)  -- from sql/generic/tx.sql
INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id) VALUES (?, ?, ?, ?, ?, ?);
-- name: th_insert(t_id, dts, st_id)  -- from sql/generic/tx.sql
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (?, ?, ?);
-- name: max_trade  -- from sql/generic/tx.sql
SELECT coalesce(max(t_id), 0) FROM trade;
-- name: tr_trade(t_id)  -- from sql/generic/tx.sql
SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name
FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
JOIN security ON s_symb = t_s_symb WHERE t_id = ?;
-- name: tr_hs(ca_id, symb)  -- from sql/generic/tx.sql
SELECT hs_qty FROM holding_summary WHERE hs_ca_id = ? AND hs_s_symb = ? FOR UPDATE;
-- name: tr_lots_lifo(ca_id, symb)  -- from sql/generic/tx.sql
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = ? AND h_s_symb = ? ORDER BY h_dts DESC, h_t_id DESC FOR UPDATE;
-- name: tr_lots_fifo(ca_id, symb)  -- from sql/generic/tx.sql
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = ? AND h_s_symb = ? ORDER BY h_dts, h_t_id FOR UPDATE;
-- name: tr_hh(h_t_id, t_id, before_qty, after_qty)  -- from sql/generic/tx.sql
INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (?, ?, ?, ?);
-- name: tr_lot_update(h_t_id, qty)  -- from sql/generic/tx.sql
UPDATE holding SET h_qty = ? WHERE h_t_id = ?;
-- name: tr_lot_delete(h_t_id)  -- from sql/generic/tx.sql
DELETE FROM holding WHERE h_t_id = ?;
-- name: tr_lot_insert(t_id, ca_id, symb, dts, price, qty)  -- from sql/generic/tx.sql
INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (?, ?, ?, ?, ?, ?);
-- name: tr_hs_insert(ca_id, symb, qty)  -- from sql/generic/tx.sql
INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (?, ?, ?);
-- name: tr_hs_update(ca_id, symb, qty)  -- from sql/generic/tx.sql
UPDATE holding_summary SET hs_qty = ? WHERE hs_ca_id = ? AND hs_s_symb = ?;
-- name: tr_hs_delete(ca_id, symb)  -- from sql/generic/tx.sql
DELETE FROM holding_summary WHERE hs_ca_id = ? AND hs_s_symb = ?;
-- name: tr_tax(t_id, tax)  -- from sql/generic/tx.sql
UPDATE trade SET t_tax = ? WHERE t_id = ?;
-- name: tr_complete(t_id, comm, dts, price)  -- from sql/generic/tx.sql
UPDATE trade SET t_comm = ?, t_dts = ?, t_st_id = 'CMPT', t_trade_price = ? WHERE t_id = ?;
-- name: tr_broker(b_id, comm)  -- from sql/generic/tx.sql
UPDATE broker SET b_comm_total = b_comm_total + ?, b_num_trades = b_num_trades + 1 WHERE b_id = ?;
-- name: tr_settlement(t_id, cash_type, due, amt)  -- from sql/generic/tx.sql
INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt) VALUES (?, ?, ?, ?);
-- name: tr_balance(ca_id, amt)  -- from sql/generic/tx.sql
UPDATE customer_account SET ca_bal = ca_bal + ? WHERE ca_id = ?;
-- name: tr_bal(ca_id)  -- from sql/generic/tx.sql
SELECT ca_bal FROM customer_account WHERE ca_id = ?;
-- name: tr_cash(t_id, dts, amt, ct_name)  -- from sql/generic/tx.sql
INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES (?, ?, ?, ?);
-- name: mf_last(symb, price, qty, dts)  -- from sql/generic/tx.sql
UPDATE last_trade SET lt_price = ?, lt_vol = lt_vol + ?, lt_dts = ? WHERE lt_s_symb = ?;
-- name: mf_triggered(symb, p1, p2, p3)  -- from sql/generic/tx.sql
SELECT tr_t_id FROM trade_request WHERE tr_s_symb = ?
  AND ((tr_tt_id = 'TSL' AND tr_bid_price >= ?) OR (tr_tt_id = 'TLS' AND tr_bid_price <= ?) OR (tr_tt_id = 'TLB' AND tr_bid_price >= ?))
ORDER BY tr_t_id;
-- name: mf_submit(t_id, dts)  -- from sql/generic/tx.sql
UPDATE trade SET t_st_id = 'SBMT', t_dts = ? WHERE t_id = ?;
-- name: mf_request_done(t_id)  -- from sql/generic/tx.sql
DELETE FROM trade_request WHERE tr_t_id = ?;
-- name: tc_pending_sbmt(dts, shards, residue)  -- from sql/generic/tx.sql
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, ?, 'SBMT' FROM trade_request
WHERE tr_t_id % ? = ? AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = tr_t_id AND th_st_id = 'SBMT');
-- name: tc_pending_cncl(dts, shards, residue)  -- from sql/generic/tx.sql
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, ?, 'CNCL' FROM trade_request WHERE tr_t_id % ? = ?;
-- name: tc_pending_trades(shards, residue)  -- from sql/generic/tx.sql
UPDATE trade SET t_st_id = 'CNCL' WHERE t_id IN (SELECT tr_t_id FROM trade_request WHERE tr_t_id % ? = ?);
-- name: tc_pending_done(shards, residue)  -- from sql/generic/tx.sql
DELETE FROM trade_request WHERE tr_t_id % ? = ?;
-- name: tc_submitted_cncl(dts, first, shards, residue)  -- from sql/generic/tx.sql
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT t_id, ?, 'CNCL' FROM trade
WHERE t_id >= ? AND t_st_id = 'SBMT' AND t_id % ? = ?;
-- name: tc_submitted(first, shards, residue)  -- from sql/generic/tx.sql
UPDATE trade SET t_st_id = 'CNCL' WHERE t_id >= ? AND t_st_id = 'SBMT' AND t_id % ? = ?;
-- name: dm_account_permission(ca_id)  -- from sql/generic/tx.sql
UPDATE account_permission SET ap_acl = CASE WHEN ap_acl = '1111' THEN '0011' ELSE '1111' END WHERE ap_ca_id = ?;
-- name: dm_address(ad_id, line2)  -- from sql/generic/tx.sql
UPDATE address SET ad_line2 = ? WHERE ad_id = ?;
-- name: dm_company(co_id, rate)  -- from sql/generic/tx.sql
UPDATE company SET co_sp_rate = ? WHERE co_id = ?;
-- name: dm_customer(c_id, email)  -- from sql/generic/tx.sql
UPDATE customer SET c_email_2 = ? WHERE c_id = ?;
-- name: dm_customer_taxrate(c_id, old_id, new_id)  -- from sql/generic/tx.sql
UPDATE customer_taxrate SET cx_tx_id = ? WHERE cx_c_id = ? AND cx_tx_id = ?;
-- name: dm_taxrate_of(c_id)  -- from sql/generic/tx.sql
SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = ? AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
-- name: dm_daily_market(symb, day, vol)  -- from sql/generic/tx.sql
UPDATE daily_market SET dm_vol = dm_vol + ? WHERE dm_s_symb = ? AND dm_date = ?;
-- name: dm_exchange(ex_id, descr)  -- from sql/generic/tx.sql
UPDATE exchange SET ex_desc = ? WHERE ex_id = ?;
-- name: dm_financial(co_id, day)  -- from sql/generic/tx.sql
UPDATE financial SET fi_qtr_start_date = ? WHERE fi_co_id = ? AND fi_year = 2000 AND fi_qtr = 1;
-- name: dm_news_item(ni_id, dts)  -- from sql/generic/tx.sql
UPDATE news_item SET ni_dts = ? WHERE ni_id = ?;
-- name: dm_security(symb, day)  -- from sql/generic/tx.sql
UPDATE security SET s_exch_date = ? WHERE s_symb = ?;
-- name: dm_taxrate(tx_id, tx_name)  -- from sql/generic/tx.sql
UPDATE taxrate SET tx_name = ? WHERE tx_id = ?;
-- name: dm_watch_has(c_id, symb)  -- from sql/generic/tx.sql
SELECT count(*) FROM watch_item WHERE wi_wl_id = ? AND wi_s_symb = ?;
-- name: dm_watch_first(c_id)  -- from sql/generic/tx.sql
SELECT min(wi_s_symb) FROM watch_item WHERE wi_wl_id = ?;
-- name: dm_watch_item(c_id, old_symb, new_symb)  -- from sql/generic/tx.sql
UPDATE watch_item SET wi_s_symb = ? WHERE wi_wl_id = ? AND wi_s_symb = ?;
-- name: begin_write  -- from sql/generic/tx.sql
BEGIN;
-- name: commit  -- from sql/generic/tx.sql
COMMIT;
-- name: rollback  -- from sql/generic/tx.sql
ROLLBACK;

-- file: calls.sql
-- name: proc_bv1(b_lo, b_hi, sc_name)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_bv1(?, ?, ?);
-- name: proc_cp1(by_tax, c_id, tax_id)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_cp1(?, ?, ?);
-- name: proc_cp2(ca_id)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_cp2(?);
-- name: proc_mw1(kind, c_id, ca_id, in_name, co_lo, co_hi, day)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_mw1(?, ?, ?, ?, ?, ?, ?);
-- name: proc_sd1(symb, co_id, day, lob)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_sd1(?, ?, ?, ?);
-- name: proc_tl1(update, t_lo, t_hi)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tl1(?, ?, ?);
-- name: proc_tl2(update, ca_id, start, end)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tl2(?, ?, ?, ?);
-- name: proc_tl3(update, symb, start, end)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tl3(?, ?, ?, ?);
-- name: proc_tl4(ca_id, start)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tl4(?, ?);
-- name: proc_ts1(ca_id)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_ts1(?);
-- name: proc_to1(ca_id)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_to1(?);
-- name: proc_to2(ca_id, tax_id)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_to2(?, ?);
-- name: proc_to3(by_name, symb, co_name, issue, ca_id, c_id, tier, tt_id, qty, tax, margin)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_to3(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: proc_to4(t_id, dts, st_id, tt_id, is_cash, symb, qty, bid, ca_id, exec_name, chrg, comm, lifo, pending, b_id)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_to4(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: proc_tr1(t_id)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tr1(?);
-- name: proc_tr2(t_id, ca_id, symb, qty, sell, lifo, price, dts, hs_qty, has_hs)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tr2(?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: proc_tr3(t_id, c_id, gain)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tr3(?, ?, ?);
-- name: proc_tr4(tier, tt_id, ex_id, qty)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tr4(?, ?, ?, ?);
-- name: proc_tr5(t_id, comm, dts, price, b_id)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tr5(?, ?, ?, ?, ?);
-- name: proc_tr6(t_id, is_cash, due, amt, ca_id, dts, ct_name)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tr6(?, ?, ?, ?, ?, ?, ?);
-- name: proc_mf1(symb, price, qty, dts)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_mf1(?, ?, ?, ?);
-- name: proc_dm1(tbl, id, key, txt, day, dts, vol)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_dm1(?, ?, ?, ?, ?, ?, ?);
-- name: proc_tc1(dts, first, shards, residue)  -- from sql/generic/calls.sql
CALL dbdyno_tpce_tc1(?, ?, ?, ?);

