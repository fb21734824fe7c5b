-- dbdyno sql: workload tpce, engine sqlserver (SQL Server)

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
-- name: holding  -- from sql/sqlserver/schema.sql
CREATE TABLE holding (
  h_t_id bigint NOT NULL, h_ca_id bigint NOT NULL, h_s_symb varchar(15) NOT NULL, h_dts datetime2(0) NOT NULL,
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
-- name: cash_transaction  -- from sql/sqlserver/schema.sql
CREATE TABLE cash_transaction (ct_t_id bigint NOT NULL, ct_dts datetime2(0) NOT NULL, ct_amt numeric(10,2) NOT NULL, ct_name varchar(100));
-- name: charge  -- from sql/generic/schema.sql
CREATE TABLE charge (ch_tt_id varchar(3) NOT NULL, ch_c_tier smallint NOT NULL, ch_chrg numeric(10,2) NOT NULL);
-- name: commission_rate  -- from sql/generic/schema.sql
CREATE TABLE commission_rate (
  cr_c_tier smallint NOT NULL, cr_tt_id varchar(3) NOT NULL, cr_ex_id varchar(6) NOT NULL, cr_from_qty int NOT NULL,
  cr_to_qty int NOT NULL, cr_rate numeric(5,2) NOT NULL
);
-- name: settlement  -- from sql/generic/schema.sql
CREATE TABLE settlement (se_t_id bigint NOT NULL, se_cash_type varchar(40) NOT NULL, se_cash_due_date date NOT NULL, se_amt numeric(10,2) NOT NULL);
-- name: trade  -- from sql/sqlserver/schema.sql
CREATE TABLE trade (
  t_id bigint NOT NULL, t_dts datetime2(0) NOT NULL, t_st_id varchar(4) NOT NULL, t_tt_id varchar(3) NOT NULL,
  t_is_cash smallint NOT NULL, t_s_symb varchar(15) NOT NULL, t_qty int NOT NULL, t_bid_price numeric(12,2) NOT NULL,
  t_ca_id bigint NOT NULL, t_exec_name varchar(49) NOT NULL, t_trade_price numeric(12,2), t_chrg numeric(10,2) NOT NULL,
  t_comm numeric(10,2) NOT NULL, t_tax numeric(10,2) NOT NULL, t_lifo smallint NOT NULL
);
-- name: trade_history  -- from sql/sqlserver/schema.sql
CREATE TABLE trade_history (th_t_id bigint NOT NULL, th_dts datetime2(0) NOT NULL, th_st_id varchar(4) NOT NULL);
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
-- name: last_trade  -- from sql/sqlserver/schema.sql
CREATE TABLE last_trade (
  lt_s_symb varchar(15) NOT NULL, lt_dts datetime2(0) NOT NULL, lt_price numeric(12,2) NOT NULL,
  lt_open_price numeric(12,2) NOT NULL, lt_vol bigint NOT NULL
);
-- name: news_item  -- from sql/sqlserver/schema.sql
CREATE TABLE news_item (
  ni_id bigint NOT NULL, ni_headline varchar(80) NOT NULL, ni_summary varchar(255) NOT NULL, ni_item varchar(max) NOT NULL,
  ni_dts datetime2(0) NOT NULL, ni_source varchar(30) NOT NULL, ni_author varchar(30)
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
-- name: dbdyno_tpce_bv1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_bv1 @b_lo bigint, @b_hi bigint, @sc_name varchar(30)
AS
BEGIN
  SET NOCOUNT ON;
  SELECT b_name, sum(tr_qty * tr_bid_price) AS vol FROM trade_request
  JOIN security ON s_symb = tr_s_symb JOIN company ON co_id = s_co_id JOIN industry ON in_id = co_in_id
  JOIN sector ON sc_id = in_sc_id JOIN broker ON b_id = tr_b_id
  WHERE b_id BETWEEN @b_lo AND @b_hi AND sc_name = @sc_name GROUP BY b_name ORDER BY vol DESC;
END;
-- name: dbdyno_tpce_cp1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_cp1 @by_tax int, @c_id bigint, @tax_id varchar(20)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @c bigint;
  IF @by_tax = 1
    SELECT @c = c_id FROM customer WHERE c_tax_id = @tax_id;
  ELSE
    SELECT @c = c_id FROM customer WHERE c_id = @c_id;
  SELECT TOP 10 ca_id, ca_bal, coalesce(sum(hs_qty * lt_price), 0) AS assets FROM customer_account
    LEFT JOIN holding_summary ON hs_ca_id = ca_id LEFT JOIN last_trade ON lt_s_symb = hs_s_symb
    WHERE ca_c_id = @c GROUP BY ca_id, ca_bal ORDER BY assets;
END;
-- name: dbdyno_tpce_cp2  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_cp2 @ca_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  SELECT TOP 30 t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT TOP 10 t_id AS id FROM trade WHERE t_ca_id = @ca_id ORDER BY t_dts DESC, t_id DESC) x
  JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name;
END;
-- name: dbdyno_tpce_mw1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_mw1 @kind int, @c_id bigint, @ca_id bigint, @in_name varchar(50), @co_lo bigint, @co_hi bigint, @day date
AS
BEGIN
  SET NOCOUNT ON;
  IF @kind = 0
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM watch_list
      JOIN watch_item ON wi_wl_id = wl_id JOIN last_trade ON lt_s_symb = wi_s_symb JOIN security ON s_symb = wi_s_symb
      JOIN daily_market ON dm_s_symb = wi_s_symb AND dm_date = @day WHERE wl_c_id = @c_id;
  ELSE IF @kind = 1
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM holding_summary
      JOIN last_trade ON lt_s_symb = hs_s_symb JOIN security ON s_symb = hs_s_symb
      JOIN daily_market ON dm_s_symb = hs_s_symb AND dm_date = @day WHERE hs_ca_id = @ca_id;
  ELSE
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM industry
      JOIN company ON co_in_id = in_id JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
      JOIN daily_market ON dm_s_symb = s_symb AND dm_date = @day WHERE in_name = @in_name AND co_id BETWEEN @co_lo AND @co_hi;
END;
-- name: dbdyno_tpce_sd1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_sd1 @symb varchar(15), @co_id bigint, @day date, @lob int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @s_name varchar(70), @co varchar(60), @comp bigint, @fin bigint, @days bigint, @news bigint, @lt numeric(12,2);
  DECLARE @sp varchar(4), @ceo varchar(46), @desc varchar(150), @open date, @line varchar(80), @town varchar(80), @div varchar(80);
  DECLARE @ex_name varchar(100), @ex_open int, @ex_close int, @ex_num int, @ex_line varchar(80), @ex_town varchar(80);
  SELECT @s_name = s_name, @co = co_name, @sp = co_sp_rate, @ceo = co_ceo, @desc = co_desc, @open = co_open_date, @line = ca.ad_line1,
    @town = zca.zc_town, @div = zca.zc_div, @ex_name = ex_name, @ex_open = ex_open, @ex_close = ex_close, @ex_num = ex_num_symb,
    @ex_line = ea.ad_line1, @ex_town = zea.zc_town
  FROM security JOIN company ON co_id = s_co_id JOIN address ca ON ca.ad_id = co_ad_id JOIN zip_code zca ON zca.zc_code = ca.ad_zc_code
  JOIN exchange ON ex_id = s_ex_id JOIN address ea ON ea.ad_id = ex_ad_id JOIN zip_code zea ON zea.zc_code = ea.ad_zc_code
  WHERE s_symb = @symb;
  SELECT @comp = count(*) FROM (SELECT TOP 3 co_name, in_name FROM company_competitor JOIN company ON co_id = cp_comp_co_id
    JOIN industry ON in_id = cp_in_id WHERE cp_co_id = @co_id ORDER BY cp_comp_co_id) x;
  SELECT @fin = count(*) FROM (SELECT TOP 20 fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin
    FROM financial WHERE fi_co_id = @co_id ORDER BY fi_year, fi_qtr) x;
  SELECT @days = count(*) FROM (SELECT TOP 20 dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market
    WHERE dm_s_symb = @symb AND dm_date >= @day ORDER BY dm_date) x;
  SELECT @lt = lt_price FROM last_trade WHERE lt_s_symb = @symb;
  IF @lob = 1
    SELECT @news = count(*) FROM (SELECT TOP 2 ni_item, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id
      WHERE nx_co_id = @co_id ORDER BY ni_id) x;
  ELSE
    SELECT @news = count(*) FROM (SELECT TOP 2 ni_headline, ni_summary, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id
      WHERE nx_co_id = @co_id ORDER BY ni_id) x;
  SELECT @s_name AS s_name, @co AS co_name, @comp AS comp, @fin AS fin, @days AS days, @lt AS lt_price, @news AS news WHERE @s_name IS NOT NULL;
END;
-- name: dbdyno_tpce_tl1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tl1 @update int, @t_lo bigint, @t_hi bigint
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint, @amt numeric(14,2), @hist bigint;
  IF @update = 1
    UPDATE trade SET t_exec_name = CASE WHEN replace(t_exec_name, ' X ', '') <> t_exec_name THEN replace(t_exec_name, ' X ', ' ')
      ELSE replace(t_exec_name, ' ', ' X ') END WHERE t_id BETWEEN @t_lo AND @t_hi;
  SELECT @n = count(*), @amt = coalesce(sum(se_amt), 0) FROM (SELECT TOP 20 t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price,
    se_amt, se_cash_due_date, se_cash_type, ct_amt, ct_dts, ct_name
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_id BETWEEN @t_lo AND @t_hi ORDER BY t_id) x;
  SELECT @hist = count(*) FROM trade_history WHERE th_t_id BETWEEN @t_lo AND @t_hi;
  SELECT @n AS trades, @amt AS amt, @hist AS hist;
END;
-- name: dbdyno_tpce_tl2  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tl2 @update int, @ca_id bigint, @start datetime2(0), @end datetime2(0)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint, @amt numeric(14,2);
  SELECT @n = count(*), @amt = coalesce(sum(se_amt), 0) FROM (SELECT TOP 20 t_id, t_bid_price, t_exec_name,
    t_is_cash, t_trade_price, se_amt, se_cash_type, ct_amt, ct_name
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_ca_id = @ca_id AND t_dts BETWEEN @start AND @end ORDER BY t_dts, t_id) x;
  IF @update = 1
    UPDATE settlement SET se_cash_type = CASE se_cash_type WHEN 'Cash Account' THEN 'Cash' WHEN 'Cash' THEN 'Cash Account'
      WHEN 'Margin' THEN 'Margin Account' ELSE 'Margin' END
    WHERE se_t_id IN (SELECT TOP 20 t_id FROM trade WHERE t_ca_id = @ca_id AND t_dts BETWEEN @start AND @end ORDER BY t_dts, t_id);
  SELECT @n AS trades, @amt AS amt;
END;
-- name: dbdyno_tpce_tl3  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tl3 @update int, @symb varchar(15), @start datetime2(0), @end datetime2(0)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint, @qty bigint;
  SELECT @n = count(*), @qty = coalesce(sum(CAST(t_qty AS bigint)), 0) FROM (SELECT TOP 20 t_id, t_ca_id, t_exec_name,
    t_is_cash, t_trade_price, t_qty, t_dts, t_tt_id, se_amt, ct_amt
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_s_symb = @symb AND t_dts BETWEEN @start AND @end ORDER BY t_dts, t_id) x;
  IF @update = 1
    UPDATE cash_transaction SET ct_name = CASE WHEN replace(ct_name, ' shares of ', '') <> ct_name THEN replace(ct_name, ' shares of ', ' Shares of ')
      ELSE replace(ct_name, ' Shares of ', ' shares of ') END
    WHERE ct_t_id IN (SELECT TOP 20 t_id FROM trade WHERE t_s_symb = @symb AND t_dts BETWEEN @start AND @end ORDER BY t_dts, t_id);
  SELECT @n AS trades, @qty AS qty;
END;
-- name: dbdyno_tpce_tl4  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tl4 @ca_id bigint, @start datetime2(0)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @id bigint, @lots bigint;
  SET @lots = 0;
  SELECT TOP 1 @id = t_id FROM trade WHERE t_ca_id = @ca_id AND t_dts >= @start ORDER BY t_dts, t_id;
  IF @id IS NULL
    SET @id = 0;
  ELSE
    SELECT @lots = count(*) FROM (SELECT TOP 20 hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
      WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = @id) ORDER BY hh_t_id) x;
  SELECT @id AS t_id, @lots AS lots;
END;
-- name: dbdyno_tpce_ts1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_ts1 @ca_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint;
  SELECT @n = count(*) FROM (SELECT TOP 50 t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
    JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
    WHERE t_ca_id = @ca_id ORDER BY t_dts DESC, t_id DESC) x;
  SELECT @n AS trades, c_l_name, c_f_name, b_name FROM customer_account
    JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = @ca_id;
END;
-- name: dbdyno_tpce_to1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_to1 @ca_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  SELECT ca_b_id, ca_c_id, ca_tax_st, ca_bal, c_f_name, c_l_name, c_tier, c_tax_id, b_name FROM customer_account
  JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = @ca_id;
END;
-- name: dbdyno_tpce_to2  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_to2 @ca_id bigint, @tax_id varchar(20)
AS
BEGIN
  SET NOCOUNT ON;
  SELECT TOP 1 ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = @ca_id AND ap_tax_id <> @tax_id ORDER BY ap_tax_id;
END;
-- name: dbdyno_tpce_to3  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_to3 @by_name int, @symb varchar(15), @co_name varchar(60), @issue varchar(6), @ca_id bigint, @c_id bigint,
  @tier int, @tt_id varchar(3), @qty int, @tax int, @margin int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @s varchar(15), @ex_id varchar(6), @s_name varchar(70), @lt numeric(12,2), @held bigint, @lots bigint;
  DECLARE @chrg numeric(10,2), @rate numeric(5,2), @tx numeric(8,5), @assets numeric(20,2);
  IF @by_name = 1
    SELECT @s = s_symb, @ex_id = s_ex_id, @s_name = s_name, @lt = lt_price FROM company JOIN security ON s_co_id = co_id
      JOIN last_trade ON lt_s_symb = s_symb WHERE co_name = @co_name AND s_issue = @issue;
  ELSE
    SELECT @s = s_symb, @ex_id = s_ex_id, @s_name = s_name, @lt = lt_price FROM security
      JOIN last_trade ON lt_s_symb = s_symb WHERE s_symb = @symb;
  SELECT @held = coalesce(sum(hs_qty), 0) FROM holding_summary WHERE hs_ca_id = @ca_id AND hs_s_symb = @s;
  SELECT @lots = count(*) FROM holding WHERE h_ca_id = @ca_id AND h_s_symb = @s;
  SELECT @chrg = ch_chrg FROM charge WHERE ch_tt_id = @tt_id AND ch_c_tier = @tier;
  SELECT @rate = cr_rate FROM commission_rate WHERE cr_c_tier = @tier AND cr_tt_id = @tt_id AND cr_ex_id = @ex_id
    AND cr_from_qty <= @qty AND cr_to_qty >= @qty;
  SET @tx = 0;
  SET @assets = 0;
  IF @tax = 1
    SELECT @tx = coalesce(sum(tx_rate), 0) FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = @c_id;
  IF @margin = 1
    SELECT @assets = coalesce(sum(hs_qty * lt_price), 0) FROM holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb WHERE hs_ca_id = @ca_id;
  SELECT @s AS symb, @ex_id AS ex_id, @s_name AS s_name, @lt AS lt_price, @held AS held, @lots AS lots, @chrg AS chrg, @rate AS rate,
    @tx AS tax, @assets AS assets WHERE @s IS NOT NULL;
END;
-- name: dbdyno_tpce_to4  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_to4 @t_id bigint, @dts datetime2(0), @st_id varchar(4), @tt_id varchar(3), @is_cash int, @symb varchar(15),
  @qty int, @bid numeric(12,2), @ca_id bigint, @exec_name varchar(49), @chrg numeric(10,2), @comm numeric(10,2), @lifo int, @pending int, @b_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price, t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
    VALUES (@t_id, @dts, @st_id, @tt_id, @is_cash, @symb, @qty, @bid, @ca_id, @exec_name, NULL, @chrg, @comm, 0, @lifo);
  IF @pending = 1
    INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id) VALUES (@t_id, @tt_id, @symb, @qty, @bid, @b_id);
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@t_id, @dts, @st_id);
  SELECT @t_id AS t_id;
END;
-- name: dbdyno_tpce_tr1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr1 @t_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @ca bigint, @symb varchar(15), @hs int, @has int;
  SELECT @ca = t_ca_id, @symb = t_s_symb FROM trade WHERE t_id = @t_id;
  UPDATE customer_account SET ca_bal = ca_bal WHERE ca_id = @ca; -- the account's Trade-Results take turns
  SET @has = 0;
  SELECT @hs = hs_qty, @has = 1 FROM holding_summary WHERE hs_ca_id = @ca AND hs_s_symb = @symb;
  SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name,
      @has AS has_hs, coalesce(@hs, 0) AS hs_qty
    FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
    JOIN security ON s_symb = t_s_symb WHERE t_id = @t_id;
END;
-- name: dbdyno_tpce_tr2  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr2 @t_id bigint, @ca_id bigint, @symb varchar(15), @qty int, @sell int, @lifo int, @price numeric(12,2),
  @dts datetime2(0), @hs_qty int, @has_hs int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @sign int, @left int, @take int, @after int, @new int, @i int, @n int, @id bigint, @lq int, @lp numeric(12,2);
  DECLARE @buy numeric(20,2), @sellv numeric(20,2);
  DECLARE @lots TABLE (n int NOT NULL PRIMARY KEY, id bigint NOT NULL, qty int NOT NULL, price numeric(12,2) NOT NULL);
  INSERT INTO @lots (n, id, qty, price)
    SELECT ROW_NUMBER() OVER (ORDER BY CASE WHEN @lifo = 1 THEN h_dts END DESC, CASE WHEN @lifo = 1 THEN h_t_id END DESC, h_dts, h_t_id),
      h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = @ca_id AND h_s_symb = @symb;
  SET @sign = CASE WHEN @sell = 1 THEN -1 ELSE 1 END;
  SET @left = @qty;
  SET @buy = 0;
  SET @sellv = 0;
  SET @i = 1;
  SELECT @n = count(*) FROM @lots;
  WHILE @i <= @n AND @left > 0
  BEGIN
    SELECT @id = id, @lq = qty, @lp = price FROM @lots WHERE n = @i;
    IF @lq * @sign >= 0
      BREAK;
    SET @take = CASE WHEN @left < abs(@lq) THEN @left ELSE abs(@lq) END;
    SET @after = @lq + @sign * @take;
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (@id, @t_id, @lq, @after);
    IF @after = 0
      DELETE FROM holding WHERE h_t_id = @id;
    ELSE
      UPDATE holding SET h_qty = @after WHERE h_t_id = @id;
    SET @buy = @buy + @take * CASE WHEN @sign < 0 THEN @lp ELSE @price END;
    SET @sellv = @sellv + @take * CASE WHEN @sign < 0 THEN @price ELSE @lp END;
    SET @left = @left - @take;
    SET @i = @i + 1;
  END;
  IF @left > 0
  BEGIN
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (@t_id, @t_id, 0, @sign * @left);
    INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (@t_id, @ca_id, @symb, @dts, @price, @sign * @left);
  END;
  SET @new = @hs_qty + @sign * @qty;
  IF @has_hs = 0
    INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (@ca_id, @symb, @new);
  ELSE IF @new = 0
    DELETE FROM holding_summary WHERE hs_ca_id = @ca_id AND hs_s_symb = @symb;
  ELSE
    UPDATE holding_summary SET hs_qty = @new WHERE hs_ca_id = @ca_id AND hs_s_symb = @symb;
  SELECT @buy AS buy_value, @sellv AS sell_value;
END;
-- name: dbdyno_tpce_tr3  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr3 @t_id bigint, @c_id bigint, @gain numeric(20,2)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @tax numeric(20,2);
  SELECT @tax = round(@gain * coalesce(sum(tx_rate), 0), 2) FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = @c_id;
  UPDATE trade SET t_tax = @tax WHERE t_id = @t_id;
  SELECT @tax AS tax;
END;
-- name: dbdyno_tpce_tr4  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr4 @tier int, @tt_id varchar(3), @ex_id varchar(6), @qty int
AS
BEGIN
  SET NOCOUNT ON;
  SELECT cr_rate FROM commission_rate WHERE cr_c_tier = @tier AND cr_tt_id = @tt_id AND cr_ex_id = @ex_id AND cr_from_qty <= @qty AND cr_to_qty >= @qty;
END;
-- name: dbdyno_tpce_tr5  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr5 @t_id bigint, @comm numeric(10,2), @dts datetime2(0), @price numeric(12,2), @b_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  UPDATE trade SET t_comm = @comm, t_dts = @dts, t_st_id = 'CMPT', t_trade_price = @price WHERE t_id = @t_id;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@t_id, @dts, 'CMPT');
  UPDATE broker SET b_comm_total = b_comm_total + @comm, b_num_trades = b_num_trades + 1 WHERE b_id = @b_id;
  SELECT @t_id AS t_id;
END;
-- name: dbdyno_tpce_tr6  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr6 @t_id bigint, @is_cash int, @due date, @amt numeric(10,2), @ca_id bigint, @dts datetime2(0), @ct_name varchar(100)
AS
BEGIN
  SET NOCOUNT ON;
  INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
    VALUES (@t_id, CASE WHEN @is_cash = 1 THEN 'Cash Account' ELSE 'Margin' END, @due, @amt);
  IF @is_cash = 1
  BEGIN
    UPDATE customer_account SET ca_bal = ca_bal + @amt WHERE ca_id = @ca_id;
    INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES (@t_id, @dts, @amt, @ct_name);
  END;
  SELECT ca_bal FROM customer_account WHERE ca_id = @ca_id;
END;
-- name: dbdyno_tpce_mf1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_mf1 @symb varchar(15), @price numeric(12,2), @qty int, @dts datetime2(0)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @i int, @n int, @id bigint, @done int;
  DECLARE @hits TABLE (n int NOT NULL PRIMARY KEY, id bigint NOT NULL);
  DECLARE @out TABLE (id bigint NOT NULL);
  UPDATE last_trade SET lt_price = @price, lt_vol = lt_vol + @qty, lt_dts = @dts WHERE lt_s_symb = @symb;
  INSERT INTO @hits (n, id) SELECT ROW_NUMBER() OVER (ORDER BY tr_t_id), tr_t_id FROM trade_request WHERE tr_s_symb = @symb
    AND ((tr_tt_id = 'TSL' AND tr_bid_price >= @price) OR (tr_tt_id = 'TLS' AND tr_bid_price <= @price) OR (tr_tt_id = 'TLB' AND tr_bid_price >= @price));
  SELECT @n = count(*) FROM @hits;
  SET @i = 1;
  WHILE @i <= @n
  BEGIN
    SELECT @id = id FROM @hits WHERE n = @i;
    DELETE FROM trade_request WHERE tr_t_id = @id;
    SET @done = @@ROWCOUNT;
    IF @done > 0
    BEGIN
      UPDATE trade SET t_st_id = 'SBMT', t_dts = @dts WHERE t_id = @id;
      INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@id, @dts, 'SBMT');
      INSERT INTO @out (id) VALUES (@id);
    END;
    SET @i = @i + 1;
  END;
  SELECT id AS t_id FROM @out ORDER BY id;
END;
-- name: dbdyno_tpce_dm1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_dm1 @tbl int, @id bigint, @key varchar(15), @txt varchar(150), @day date, @dts datetime2(0), @vol int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint = 0;
  DECLARE @old varchar(4);
  DECLARE @first varchar(15);
  UPDATE account_permission SET ap_acl = CASE WHEN ap_acl = '1111' THEN '0011' ELSE '1111' END WHERE @tbl = 0 AND ap_ca_id = @id;
  SET @n = @n + @@ROWCOUNT;
  UPDATE address SET ad_line2 = left(@txt, 80) WHERE @tbl = 1 AND ad_id = @id;
  SET @n = @n + @@ROWCOUNT;
  UPDATE company SET co_sp_rate = left(@txt, 4) WHERE @tbl = 2 AND co_id = @id;
  SET @n = @n + @@ROWCOUNT;
  UPDATE customer SET c_email_2 = left(@txt, 50) WHERE @tbl = 3 AND c_id = @id;
  SET @n = @n + @@ROWCOUNT;
  SELECT TOP 1 @old = cx_tx_id FROM customer_taxrate WHERE @tbl = 4 AND cx_c_id = @id AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
  UPDATE customer_taxrate SET cx_tx_id = CASE @old WHEN 'US1' THEN 'US2' WHEN 'US2' THEN 'US3' WHEN 'US3' THEN 'US4' WHEN 'US4' THEN 'US5' WHEN 'US5' THEN 'US1' WHEN 'CN1' THEN 'CN2' WHEN 'CN2' THEN 'CN3' WHEN 'CN3' THEN 'CN4' ELSE 'CN1' END
    WHERE @tbl = 4 AND cx_c_id = @id AND cx_tx_id = @old;
  SET @n = @n + @@ROWCOUNT;
  UPDATE daily_market SET dm_vol = dm_vol + @vol WHERE @tbl = 5 AND dm_s_symb = @key AND dm_date = @day;
  SET @n = @n + @@ROWCOUNT;
  UPDATE exchange SET ex_desc = @txt WHERE @tbl = 6 AND ex_id = @key;
  SET @n = @n + @@ROWCOUNT;
  UPDATE financial SET fi_qtr_start_date = @day WHERE @tbl = 7 AND fi_co_id = @id AND fi_year = 2000 AND fi_qtr = 1;
  SET @n = @n + @@ROWCOUNT;
  UPDATE news_item SET ni_dts = @dts WHERE @tbl = 8 AND ni_id = @id;
  SET @n = @n + @@ROWCOUNT;
  UPDATE security SET s_exch_date = @day WHERE @tbl = 9 AND s_symb = @key;
  SET @n = @n + @@ROWCOUNT;
  UPDATE taxrate SET tx_name = left(@txt, 50) WHERE @tbl = 10 AND tx_id = @key;
  SET @n = @n + @@ROWCOUNT;
  SELECT @first = min(wi_s_symb) FROM watch_item WHERE @tbl = 11 AND wi_wl_id = @id;
  UPDATE watch_item SET wi_s_symb = @key WHERE @tbl = 11 AND wi_wl_id = @id AND wi_s_symb = @first
    AND NOT EXISTS (SELECT 1 FROM watch_item w WHERE w.wi_wl_id = @id AND w.wi_s_symb = @key);
  SET @n = @n + @@ROWCOUNT;
  SELECT @n AS o_rows;
END;
-- name: dbdyno_tpce_tc1  -- from sql/sqlserver/procs.sql
CREATE OR ALTER PROCEDURE dbdyno_tpce_tc1 @dts datetime2(0), @first bigint, @shards bigint, @residue bigint
AS
BEGIN
  SET NOCOUNT ON;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, @dts, 'SBMT' FROM trade_request
  WHERE tr_t_id % @shards = @residue AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = tr_t_id AND th_st_id = 'SBMT');
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, @dts, 'CNCL' FROM trade_request WHERE tr_t_id % @shards = @residue;
  UPDATE trade SET t_st_id = 'CNCL' WHERE t_id IN (SELECT tr_t_id FROM trade_request WHERE tr_t_id % @shards = @residue);
  DELETE FROM trade_request WHERE tr_t_id % @shards = @residue;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT t_id, @dts, 'CNCL' FROM trade WHERE t_id >= @first AND t_st_id = 'SBMT' AND t_id % @shards = @residue;
  UPDATE trade SET t_st_id = 'CNCL' WHERE t_id >= @first AND t_st_id = 'SBMT' AND t_id % @shards = @residue;
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
-- name: drop_dbdyno_tpce_bv1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_bv1;
-- name: drop_dbdyno_tpce_cp1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp1;
-- name: drop_dbdyno_tpce_cp2  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp2;
-- name: drop_dbdyno_tpce_mw1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_mw1;
-- name: drop_dbdyno_tpce_sd1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_sd1;
-- name: drop_dbdyno_tpce_tl1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl1;
-- name: drop_dbdyno_tpce_tl2  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl2;
-- name: drop_dbdyno_tpce_tl3  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl3;
-- name: drop_dbdyno_tpce_tl4  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl4;
-- name: drop_dbdyno_tpce_ts1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_ts1;
-- name: drop_dbdyno_tpce_to1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to1;
-- name: drop_dbdyno_tpce_to2  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to2;
-- name: drop_dbdyno_tpce_to3  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to3;
-- name: drop_dbdyno_tpce_to4  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_to4;
-- name: drop_dbdyno_tpce_tr1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr1;
-- name: drop_dbdyno_tpce_tr2  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr2;
-- name: drop_dbdyno_tpce_tr3  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr3;
-- name: drop_dbdyno_tpce_tr4  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr4;
-- name: drop_dbdyno_tpce_tr5  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr5;
-- name: drop_dbdyno_tpce_tr6  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr6;
-- name: drop_dbdyno_tpce_mf1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_mf1;
-- name: drop_dbdyno_tpce_dm1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_dm1;
-- name: drop_dbdyno_tpce_tc1  -- from sql/sqlserver/drop.sql
DROP PROCEDURE IF EXISTS dbdyno_tpce_tc1;

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_tpce_meta WHERE k = @p1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_tpce_meta WHERE k = @p1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_tpce_meta (k, v) VALUES (@p1, @p2);

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
WHERE b_id BETWEEN @p1 AND @p2 AND sc_name = @p3 GROUP BY b_name ORDER BY vol DESC;
-- name: cp_customer(c_id)  -- from sql/generic/tx.sql
SELECT c_id, c_st_id, c_l_name, c_f_name, c_tier, c_dob, c_email_1 FROM customer WHERE c_id = @p1;
-- name: cp_customer_tax(tax_id)  -- from sql/generic/tx.sql
SELECT c_id, c_st_id, c_l_name, c_f_name, c_tier, c_dob, c_email_1 FROM customer WHERE c_tax_id = @p1;
-- name: cp_accounts(c_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 10 ca_id, ca_bal, coalesce(sum(hs_qty * lt_price), 0) AS assets FROM customer_account
LEFT JOIN holding_summary ON hs_ca_id = ca_id LEFT JOIN last_trade ON lt_s_symb = hs_s_symb
WHERE ca_c_id = @p1 GROUP BY ca_id, ca_bal ORDER BY assets;
-- name: cp_history(ca_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 30 t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT TOP 10 t_id AS id FROM trade WHERE t_ca_id = @p1 ORDER BY t_dts DESC, t_id DESC) x
JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name;
-- name: mw_watch(c_id, day)  -- from sql/generic/tx.sql
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM watch_list
JOIN watch_item ON wi_wl_id = wl_id JOIN last_trade ON lt_s_symb = wi_s_symb JOIN security ON s_symb = wi_s_symb
JOIN daily_market ON dm_s_symb = wi_s_symb AND dm_date = @p2 WHERE wl_c_id = @p1;
-- name: mw_account(ca_id, day)  -- from sql/generic/tx.sql
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM holding_summary
JOIN last_trade ON lt_s_symb = hs_s_symb JOIN security ON s_symb = hs_s_symb
JOIN daily_market ON dm_s_symb = hs_s_symb AND dm_date = @p2 WHERE hs_ca_id = @p1;
-- name: mw_industry(in_name, co_lo, co_hi, day)  -- from sql/generic/tx.sql
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM industry
JOIN company ON co_in_id = in_id JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
JOIN daily_market ON dm_s_symb = s_symb AND dm_date = @p4 WHERE in_name = @p1 AND co_id BETWEEN @p2 AND @p3;
-- name: sd_security(symb)  -- from sql/generic/tx.sql
SELECT s_name, co_id, co_name, co_sp_rate, co_ceo, co_desc, co_open_date, ca.ad_line1, zca.zc_town, zca.zc_div,
  ex_name, ex_open, ex_close, ex_num_symb, ea.ad_line1, zea.zc_town
FROM security JOIN company ON co_id = s_co_id JOIN address ca ON ca.ad_id = co_ad_id JOIN zip_code zca ON zca.zc_code = ca.ad_zc_code
JOIN exchange ON ex_id = s_ex_id JOIN address ea ON ea.ad_id = ex_ad_id JOIN zip_code zea ON zea.zc_code = ea.ad_zc_code
WHERE s_symb = @p1;
-- name: sd_competitors(co_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 3 co_name, in_name FROM company_competitor JOIN company ON co_id = cp_comp_co_id JOIN industry ON in_id = cp_in_id
WHERE cp_co_id = @p1 ORDER BY cp_comp_co_id;
-- name: sd_financial(co_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 20 fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin
FROM financial WHERE fi_co_id = @p1 ORDER BY fi_year, fi_qtr;
-- name: sd_daily(symb, day)  -- from sql/sqlserver/tx.sql
SELECT TOP 20 dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market WHERE dm_s_symb = @p1 AND dm_date >= @p2 ORDER BY dm_date;
-- name: sd_last(symb)  -- from sql/generic/tx.sql
SELECT lt_price, lt_open_price, lt_vol FROM last_trade WHERE lt_s_symb = @p1;
-- name: sd_news(co_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 2 ni_headline, ni_summary, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id WHERE nx_co_id = @p1 ORDER BY ni_id;
-- name: sd_news_lob(co_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 2 ni_item, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id WHERE nx_co_id = @p1 ORDER BY ni_id;
-- name: tl_ids(t_lo, t_hi)  -- from sql/sqlserver/tx.sql
SELECT TOP 20 t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price, se_amt, se_cash_due_date, se_cash_type, ct_amt, ct_dts, ct_name
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_id BETWEEN @p1 AND @p2 ORDER BY t_id;
-- name: tl_history(t_lo, t_hi)  -- from sql/generic/tx.sql
SELECT th_t_id, th_dts, th_st_id FROM trade_history WHERE th_t_id BETWEEN @p1 AND @p2 ORDER BY th_t_id, th_dts;
-- name: tl_account(ca_id, t_start, t_end)  -- from sql/sqlserver/tx.sql
SELECT TOP 20 t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price, se_amt, se_cash_type, ct_amt, ct_name
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_ca_id = @p1 AND t_dts BETWEEN @p2 AND @p3 ORDER BY t_dts, t_id;
-- name: tl_symbol(symb, t_start, t_end)  -- from sql/sqlserver/tx.sql
SELECT TOP 20 t_id, t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_tt_id, se_amt, ct_amt
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_s_symb = @p1 AND t_dts BETWEEN @p2 AND @p3 ORDER BY t_dts, t_id;
-- name: tl_first(ca_id, t_start)  -- from sql/sqlserver/tx.sql
SELECT TOP 1 t_id FROM trade WHERE t_ca_id = @p1 AND t_dts >= @p2 ORDER BY t_dts, t_id;
-- name: tl_lots(t_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 20 hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = @p1) ORDER BY hh_t_id;
-- name: tu_exec(t_lo, t_hi)  -- from sql/generic/tx.sql
UPDATE trade SET t_exec_name = CASE WHEN replace(t_exec_name, ' X ', '') <> t_exec_name THEN replace(t_exec_name, ' X ', ' ')
  ELSE replace(t_exec_name, ' ', ' X ') END WHERE t_id BETWEEN @p1 AND @p2;
-- name: tu_cash_type(t_id)  -- from sql/generic/tx.sql
UPDATE settlement SET se_cash_type = CASE se_cash_type WHEN 'Cash Account' THEN 'Cash' WHEN 'Cash' THEN 'Cash Account'
  WHEN 'Margin' THEN 'Margin Account' ELSE 'Margin' END WHERE se_t_id = @p1;
-- name: tu_ct_name(t_id)  -- from sql/generic/tx.sql
UPDATE cash_transaction SET ct_name = CASE WHEN replace(ct_name, ' shares of ', '') <> ct_name THEN replace(ct_name, ' shares of ', ' Shares of ')
  ELSE replace(ct_name, ' Shares of ', ' shares of ') END WHERE ct_t_id = @p1;
-- name: ts(ca_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 50 t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
WHERE t_ca_id = @p1 ORDER BY t_dts DESC, t_id DESC;
-- name: ts_names(ca_id)  -- from sql/generic/tx.sql
SELECT c_l_name, c_f_name, b_name FROM customer_account JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = @p1;
-- name: to_account(ca_id)  -- from sql/generic/tx.sql
SELECT ca_b_id, ca_c_id, ca_tax_st, ca_bal, c_f_name, c_l_name, c_tier, c_tax_id, b_name FROM customer_account
JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = @p1;
-- name: to_permission(ca_id, tax_id)  -- from sql/sqlserver/tx.sql
SELECT TOP 1 ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = @p1 AND ap_tax_id <> @p2 ORDER BY ap_tax_id;
-- name: to_security(symb)  -- from sql/generic/tx.sql
SELECT s_ex_id, s_name, lt_price FROM security JOIN last_trade ON lt_s_symb = s_symb WHERE s_symb = @p1;
-- name: to_security_name(co_name, issue)  -- from sql/generic/tx.sql
SELECT s_symb, s_ex_id, s_name, lt_price FROM company JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
WHERE co_name = @p1 AND s_issue = @p2;
-- name: to_holding(ca_id, symb)  -- from sql/generic/tx.sql
SELECT coalesce(sum(hs_qty), 0) FROM holding_summary WHERE hs_ca_id = @p1 AND hs_s_symb = @p2;
-- name: to_lots(ca_id, symb)  -- from sql/generic/tx.sql
SELECT h_qty, h_price FROM holding WHERE h_ca_id = @p1 AND h_s_symb = @p2 ORDER BY h_dts DESC, h_t_id DESC;
-- name: to_charge(tt_id, tier)  -- from sql/generic/tx.sql
SELECT ch_chrg FROM charge WHERE ch_tt_id = @p1 AND ch_c_tier = @p2;
-- name: to_comm(tier, tt_id, ex_id, qty, qty2)  -- from sql/generic/tx.sql
SELECT cr_rate FROM commission_rate WHERE cr_c_tier = @p1 AND cr_tt_id = @p2 AND cr_ex_id = @p3 AND cr_from_qty <= @p4 AND cr_to_qty >= @p5;
-- name: to_tax(c_id)  -- from sql/generic/tx.sql
SELECT coalesce(sum(tx_rate), 0) FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = @p1;
-- name: to_assets(ca_id)  -- from sql/generic/tx.sql
SELECT coalesce(sum(hs_qty * lt_price), 0) FROM holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb WHERE hs_ca_id = @p1;
-- name: to_trade(t_id, dts, st_id, tt_id, is_cash, symb, qty, bid, ca_id, exec_name, chrg, comm, lifo)  -- from sql/generic/tx.sql
INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price, t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
VALUES (@p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9, @p10, NULL, @p11, @p12, 0, @p13);
-- name: to_request(t_id, tt_id, symb, qty, bid, b_id)  -- from sql/generic/tx.sql
INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id) VALUES (@p1, @p2, @p3, @p4, @p5, @p6);
-- name: th_insert(t_id, dts, st_id)  -- from sql/generic/tx.sql
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@p1, @p2, @p3);
-- name: max_trade  -- from sql/generic/tx.sql
SELECT coalesce(max(t_id), 0) FROM trade;
-- name: tr_trade(t_id)  -- from sql/generic/tx.sql
SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name
FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
JOIN security ON s_symb = t_s_symb WHERE t_id = @p1;
-- name: tr_hs(ca_id, symb)  -- from sql/sqlserver/tx.sql
UPDATE customer_account SET ca_bal = ca_bal WHERE ca_id = @p1;
SELECT hs_qty FROM holding_summary WHERE hs_ca_id = @p1 AND hs_s_symb = @p2;
-- name: tr_lots_lifo(ca_id, symb)  -- from sql/sqlserver/tx.sql
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = @p1 AND h_s_symb = @p2 ORDER BY h_dts DESC, h_t_id DESC;
-- name: tr_lots_fifo(ca_id, symb)  -- from sql/sqlserver/tx.sql
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = @p1 AND h_s_symb = @p2 ORDER BY h_dts, h_t_id;
-- name: tr_hh(h_t_id, t_id, before_qty, after_qty)  -- from sql/generic/tx.sql
INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (@p1, @p2, @p3, @p4);
-- name: tr_lot_update(h_t_id, qty)  -- from sql/generic/tx.sql
UPDATE holding SET h_qty = @p2 WHERE h_t_id = @p1;
-- name: tr_lot_delete(h_t_id)  -- from sql/generic/tx.sql
DELETE FROM holding WHERE h_t_id = @p1;
-- name: tr_lot_insert(t_id, ca_id, symb, dts, price, qty)  -- from sql/generic/tx.sql
INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (@p1, @p2, @p3, @p4, @p5, @p6);
-- name: tr_hs_insert(ca_id, symb, qty)  -- from sql/generic/tx.sql
INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (@p1, @p2, @p3);
-- name: tr_hs_update(ca_id, symb, qty)  -- from sql/generic/tx.sql
UPDATE holding_summary SET hs_qty = @p3 WHERE hs_ca_id = @p1 AND hs_s_symb = @p2;
-- name: tr_hs_delete(ca_id, symb)  -- from sql/generic/tx.sql
DELETE FROM holding_summary WHERE hs_ca_id = @p1 AND hs_s_symb = @p2;
-- name: tr_tax(t_id, tax)  -- from sql/generic/tx.sql
UPDATE trade SET t_tax = @p2 WHERE t_id = @p1;
-- name: tr_complete(t_id, comm, dts, price)  -- from sql/generic/tx.sql
UPDATE trade SET t_comm = @p2, t_dts = @p3, t_st_id = 'CMPT', t_trade_price = @p4 WHERE t_id = @p1;
-- name: tr_broker(b_id, comm)  -- from sql/generic/tx.sql
UPDATE broker SET b_comm_total = b_comm_total + @p2, b_num_trades = b_num_trades + 1 WHERE b_id = @p1;
-- name: tr_settlement(t_id, cash_type, due, amt)  -- from sql/generic/tx.sql
INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt) VALUES (@p1, @p2, @p3, @p4);
-- name: tr_balance(ca_id, amt)  -- from sql/generic/tx.sql
UPDATE customer_account SET ca_bal = ca_bal + @p2 WHERE ca_id = @p1;
-- name: tr_bal(ca_id)  -- from sql/generic/tx.sql
SELECT ca_bal FROM customer_account WHERE ca_id = @p1;
-- name: tr_cash(t_id, dts, amt, ct_name)  -- from sql/generic/tx.sql
INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES (@p1, @p2, @p3, @p4);
-- name: mf_last(symb, price, qty, dts)  -- from sql/generic/tx.sql
UPDATE last_trade SET lt_price = @p2, lt_vol = lt_vol + @p3, lt_dts = @p4 WHERE lt_s_symb = @p1;
-- name: mf_triggered(symb, p1, p2, p3)  -- from sql/generic/tx.sql
SELECT tr_t_id FROM trade_request WHERE tr_s_symb = @p1
  AND ((tr_tt_id = 'TSL' AND tr_bid_price >= @p2) OR (tr_tt_id = 'TLS' AND tr_bid_price <= @p3) OR (tr_tt_id = 'TLB' AND tr_bid_price >= @p4))
ORDER BY tr_t_id;
-- name: mf_submit(t_id, dts)  -- from sql/generic/tx.sql
UPDATE trade SET t_st_id = 'SBMT', t_dts = @p2 WHERE t_id = @p1;
-- name: mf_request_done(t_id)  -- from sql/generic/tx.sql
DELETE FROM trade_request WHERE tr_t_id = @p1;
-- name: tc_pending_sbmt(dts, shards, residue)  -- from sql/generic/tx.sql
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, @p1, 'SBMT' FROM trade_request
WHERE tr_t_id % @p2 = @p3 AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = tr_t_id AND th_st_id = 'SBMT');
-- name: tc_pending_cncl(dts, shards, residue)  -- from sql/generic/tx.sql
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, @p1, 'CNCL' FROM trade_request WHERE tr_t_id % @p2 = @p3;
-- name: tc_pending_trades(shards, residue)  -- from sql/generic/tx.sql
UPDATE trade SET t_st_id = 'CNCL' WHERE t_id IN (SELECT tr_t_id FROM trade_request WHERE tr_t_id % @p1 = @p2);
-- name: tc_pending_done(shards, residue)  -- from sql/generic/tx.sql
DELETE FROM trade_request WHERE tr_t_id % @p1 = @p2;
-- name: tc_submitted_cncl(dts, first, shards, residue)  -- from sql/generic/tx.sql
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT t_id, @p1, 'CNCL' FROM trade
WHERE t_id >= @p2 AND t_st_id = 'SBMT' AND t_id % @p3 = @p4;
-- name: tc_submitted(first, shards, residue)  -- from sql/generic/tx.sql
UPDATE trade SET t_st_id = 'CNCL' WHERE t_id >= @p1 AND t_st_id = 'SBMT' AND t_id % @p2 = @p3;
-- name: dm_account_permission(ca_id)  -- from sql/generic/tx.sql
UPDATE account_permission SET ap_acl = CASE WHEN ap_acl = '1111' THEN '0011' ELSE '1111' END WHERE ap_ca_id = @p1;
-- name: dm_address(ad_id, line2)  -- from sql/generic/tx.sql
UPDATE address SET ad_line2 = @p2 WHERE ad_id = @p1;
-- name: dm_company(co_id, rate)  -- from sql/generic/tx.sql
UPDATE company SET co_sp_rate = @p2 WHERE co_id = @p1;
-- name: dm_customer(c_id, email)  -- from sql/generic/tx.sql
UPDATE customer SET c_email_2 = @p2 WHERE c_id = @p1;
-- name: dm_customer_taxrate(c_id, old_id, new_id)  -- from sql/generic/tx.sql
UPDATE customer_taxrate SET cx_tx_id = @p3 WHERE cx_c_id = @p1 AND cx_tx_id = @p2;
-- name: dm_taxrate_of(c_id)  -- from sql/generic/tx.sql
SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = @p1 AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
-- name: dm_daily_market(symb, day, vol)  -- from sql/generic/tx.sql
UPDATE daily_market SET dm_vol = dm_vol + @p3 WHERE dm_s_symb = @p1 AND dm_date = @p2;
-- name: dm_exchange(ex_id, descr)  -- from sql/generic/tx.sql
UPDATE exchange SET ex_desc = @p2 WHERE ex_id = @p1;
-- name: dm_financial(co_id, day)  -- from sql/generic/tx.sql
UPDATE financial SET fi_qtr_start_date = @p2 WHERE fi_co_id = @p1 AND fi_year = 2000 AND fi_qtr = 1;
-- name: dm_news_item(ni_id, dts)  -- from sql/generic/tx.sql
UPDATE news_item SET ni_dts = @p2 WHERE ni_id = @p1;
-- name: dm_security(symb, day)  -- from sql/generic/tx.sql
UPDATE security SET s_exch_date = @p2 WHERE s_symb = @p1;
-- name: dm_taxrate(tx_id, tx_name)  -- from sql/generic/tx.sql
UPDATE taxrate SET tx_name = @p2 WHERE tx_id = @p1;
-- name: dm_watch_has(c_id, symb)  -- from sql/generic/tx.sql
SELECT count(*) FROM watch_item WHERE wi_wl_id = @p1 AND wi_s_symb = @p2;
-- name: dm_watch_first(c_id)  -- from sql/generic/tx.sql
SELECT min(wi_s_symb) FROM watch_item WHERE wi_wl_id = @p1;
-- name: dm_watch_item(c_id, old_symb, new_symb)  -- from sql/generic/tx.sql
UPDATE watch_item SET wi_s_symb = @p3 WHERE wi_wl_id = @p1 AND wi_s_symb = @p2;
-- name: begin_write  -- from sql/sqlserver/tx.sql
BEGIN TRANSACTION;
-- name: commit  -- from sql/sqlserver/tx.sql
COMMIT TRANSACTION;
-- name: rollback  -- from sql/sqlserver/tx.sql
IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION;

-- file: calls.sql
-- name: proc_bv1(b_lo, b_hi, sc_name)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_bv1 @p1, @p2, @p3;
-- name: proc_cp1(by_tax, c_id, tax_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_cp1 @p1, @p2, @p3;
-- name: proc_cp2(ca_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_cp2 @p1;
-- name: proc_mw1(kind, c_id, ca_id, in_name, co_lo, co_hi, day)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_mw1 @p1, @p2, @p3, @p4, @p5, @p6, @p7;
-- name: proc_sd1(symb, co_id, day, lob)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_sd1 @p1, @p2, @p3, @p4;
-- name: proc_tl1(update, t_lo, t_hi)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tl1 @p1, @p2, @p3;
-- name: proc_tl2(update, ca_id, start, end)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tl2 @p1, @p2, @p3, @p4;
-- name: proc_tl3(update, symb, start, end)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tl3 @p1, @p2, @p3, @p4;
-- name: proc_tl4(ca_id, start)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tl4 @p1, @p2;
-- name: proc_ts1(ca_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_ts1 @p1;
-- name: proc_to1(ca_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_to1 @p1;
-- name: proc_to2(ca_id, tax_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_to2 @p1, @p2;
-- name: proc_to3(by_name, symb, co_name, issue, ca_id, c_id, tier, tt_id, qty, tax, margin)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_to3 @p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9, @p10, @p11;
-- name: proc_to4(t_id, dts, st_id, tt_id, is_cash, symb, qty, bid, ca_id, exec_name, chrg, comm, lifo, pending, b_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_to4 @p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9, @p10, @p11, @p12, @p13, @p14, @p15;
-- name: proc_tr1(t_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tr1 @p1;
-- name: proc_tr2(t_id, ca_id, symb, qty, sell, lifo, price, dts, hs_qty, has_hs)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tr2 @p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9, @p10;
-- name: proc_tr3(t_id, c_id, gain)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tr3 @p1, @p2, @p3;
-- name: proc_tr4(tier, tt_id, ex_id, qty)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tr4 @p1, @p2, @p3, @p4;
-- name: proc_tr5(t_id, comm, dts, price, b_id)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tr5 @p1, @p2, @p3, @p4, @p5;
-- name: proc_tr6(t_id, is_cash, due, amt, ca_id, dts, ct_name)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tr6 @p1, @p2, @p3, @p4, @p5, @p6, @p7;
-- name: proc_mf1(symb, price, qty, dts)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_mf1 @p1, @p2, @p3, @p4;
-- name: proc_dm1(tbl, id, key, txt, day, dts, vol)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_dm1 @p1, @p2, @p3, @p4, @p5, @p6, @p7;
-- name: proc_tc1(dts, first, shards, residue)  -- from sql/sqlserver/calls.sql
EXEC dbdyno_tpce_tc1 @p1, @p2, @p3, @p4;

