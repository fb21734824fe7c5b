-- dbdyno sql: workload tpce, engine sqlite (SQLite)

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
-- name: holding  -- from sql/generic/schema.sql
CREATE TABLE holding (
  h_t_id bigint NOT NULL, h_ca_id bigint NOT NULL, h_s_symb varchar(15) NOT NULL, h_dts timestamp NOT NULL,
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
-- name: cash_transaction  -- from sql/generic/schema.sql
CREATE TABLE cash_transaction (ct_t_id bigint NOT NULL, ct_dts timestamp NOT NULL, ct_amt numeric(10,2) NOT NULL, ct_name varchar(100));
-- name: charge  -- from sql/generic/schema.sql
CREATE TABLE charge (ch_tt_id varchar(3) NOT NULL, ch_c_tier smallint NOT NULL, ch_chrg numeric(10,2) NOT NULL);
-- name: commission_rate  -- from sql/generic/schema.sql
CREATE TABLE commission_rate (
  cr_c_tier smallint NOT NULL, cr_tt_id varchar(3) NOT NULL, cr_ex_id varchar(6) NOT NULL, cr_from_qty int NOT NULL,
  cr_to_qty int NOT NULL, cr_rate numeric(5,2) NOT NULL
);
-- name: settlement  -- from sql/generic/schema.sql
CREATE TABLE settlement (se_t_id bigint NOT NULL, se_cash_type varchar(40) NOT NULL, se_cash_due_date date NOT NULL, se_amt numeric(10,2) NOT NULL);
-- name: trade  -- from sql/generic/schema.sql
CREATE TABLE trade (
  t_id bigint NOT NULL, t_dts timestamp NOT NULL, t_st_id varchar(4) NOT NULL, t_tt_id varchar(3) NOT NULL,
  t_is_cash smallint NOT NULL, t_s_symb varchar(15) NOT NULL, t_qty int NOT NULL, t_bid_price numeric(12,2) NOT NULL,
  t_ca_id bigint NOT NULL, t_exec_name varchar(49) NOT NULL, t_trade_price numeric(12,2), t_chrg numeric(10,2) NOT NULL,
  t_comm numeric(10,2) NOT NULL, t_tax numeric(10,2) NOT NULL, t_lifo smallint NOT NULL
);
-- name: trade_history  -- from sql/generic/schema.sql
CREATE TABLE trade_history (th_t_id bigint NOT NULL, th_dts timestamp NOT NULL, th_st_id varchar(4) NOT NULL);
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
-- name: last_trade  -- from sql/generic/schema.sql
CREATE TABLE last_trade (
  lt_s_symb varchar(15) NOT NULL, lt_dts timestamp NOT NULL, lt_price numeric(12,2) NOT NULL,
  lt_open_price numeric(12,2) NOT NULL, lt_vol bigint NOT NULL
);
-- name: news_item  -- from sql/generic/schema.sql
CREATE TABLE news_item (
  ni_id bigint NOT NULL, ni_headline varchar(80) NOT NULL, ni_summary varchar(255) NOT NULL, ni_item text NOT NULL,
  ni_dts timestamp NOT NULL, ni_source varchar(30) NOT NULL, ni_author varchar(30)
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
-- name: dbdyno_tpce_opening_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX dbdyno_tpce_opening_pk ON dbdyno_tpce_opening (ob_ca_id);
-- name: account_permission_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX account_permission_pk ON account_permission (ap_ca_id, ap_tax_id);
-- name: customer_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX customer_pk ON customer (c_id);
-- name: customer_account_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX customer_account_pk ON customer_account (ca_id);
-- name: customer_taxrate_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX customer_taxrate_pk ON customer_taxrate (cx_tx_id, cx_c_id);
-- name: holding_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX holding_pk ON holding (h_t_id);
-- name: holding_history_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX holding_history_pk ON holding_history (hh_h_t_id, hh_t_id);
-- name: holding_summary_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX holding_summary_pk ON holding_summary (hs_ca_id, hs_s_symb);
-- name: watch_item_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX watch_item_pk ON watch_item (wi_wl_id, wi_s_symb);
-- name: watch_list_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX watch_list_pk ON watch_list (wl_id);
-- name: broker_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX broker_pk ON broker (b_id);
-- name: cash_transaction_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX cash_transaction_pk ON cash_transaction (ct_t_id);
-- name: charge_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX charge_pk ON charge (ch_tt_id, ch_c_tier);
-- name: commission_rate_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX commission_rate_pk ON commission_rate (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty);
-- name: settlement_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX settlement_pk ON settlement (se_t_id);
-- name: trade_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX trade_pk ON trade (t_id);
-- name: trade_history_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX trade_history_pk ON trade_history (th_t_id, th_st_id);
-- name: trade_request_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX trade_request_pk ON trade_request (tr_t_id);
-- name: trade_type_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX trade_type_pk ON trade_type (tt_id);
-- name: company_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX company_pk ON company (co_id);
-- name: company_competitor_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX company_competitor_pk ON company_competitor (cp_co_id, cp_comp_co_id, cp_in_id);
-- name: daily_market_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX daily_market_pk ON daily_market (dm_s_symb, dm_date);
-- name: exchange_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX exchange_pk ON exchange (ex_id);
-- name: financial_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX financial_pk ON financial (fi_co_id, fi_year, fi_qtr);
-- name: industry_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX industry_pk ON industry (in_id);
-- name: last_trade_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX last_trade_pk ON last_trade (lt_s_symb);
-- name: news_item_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX news_item_pk ON news_item (ni_id);
-- name: news_xref_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX news_xref_pk ON news_xref (nx_ni_id, nx_co_id);
-- name: sector_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX sector_pk ON sector (sc_id);
-- name: security_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX security_pk ON security (s_symb);
-- name: address_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX address_pk ON address (ad_id);
-- name: status_type_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX status_type_pk ON status_type (st_id);
-- name: taxrate_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX taxrate_pk ON taxrate (tx_id);
-- name: zip_code_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX zip_code_pk ON zip_code (zc_code);
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
-- name: tr_hs(ca_id, symb)  -- from sql/sqlite/tx.sql
SELECT hs_qty FROM holding_summary WHERE hs_ca_id = ? AND hs_s_symb = ?;
-- name: tr_lots_lifo(ca_id, symb)  -- from sql/sqlite/tx.sql
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = ? AND h_s_symb = ? ORDER BY h_dts DESC, h_t_id DESC;
-- name: tr_lots_fifo(ca_id, symb)  -- from sql/sqlite/tx.sql
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = ? AND h_s_symb = ? ORDER BY h_dts, h_t_id;
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
-- name: begin_write  -- from sql/sqlite/tx.sql
BEGIN IMMEDIATE;
-- name: commit  -- from sql/generic/tx.sql
COMMIT;
-- name: rollback  -- from sql/generic/tx.sql
ROLLBACK;

