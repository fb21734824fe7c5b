-- Keys (the specification's primary keys) and the secondary indexes DBT-5 and shore-kits create, after the load.
-- Foreign keys are not declared (the generator keeps them; `tpce check` verifies the rules that matter).
-- name: dbdyno_tpce_opening_pk
ALTER TABLE dbdyno_tpce_opening ADD CONSTRAINT dbdyno_tpce_opening_pk PRIMARY KEY (ob_ca_id);
-- name: account_permission_pk
ALTER TABLE account_permission ADD CONSTRAINT account_permission_pk PRIMARY KEY (ap_ca_id, ap_tax_id);
-- name: customer_pk
ALTER TABLE customer ADD CONSTRAINT customer_pk PRIMARY KEY (c_id);
-- name: customer_account_pk
ALTER TABLE customer_account ADD CONSTRAINT customer_account_pk PRIMARY KEY (ca_id);
-- name: customer_taxrate_pk
ALTER TABLE customer_taxrate ADD CONSTRAINT customer_taxrate_pk PRIMARY KEY (cx_tx_id, cx_c_id);
-- name: holding_pk
ALTER TABLE holding ADD CONSTRAINT holding_pk PRIMARY KEY (h_t_id);
-- name: holding_history_pk
ALTER TABLE holding_history ADD CONSTRAINT holding_history_pk PRIMARY KEY (hh_h_t_id, hh_t_id);
-- name: holding_summary_pk
ALTER TABLE holding_summary ADD CONSTRAINT holding_summary_pk PRIMARY KEY (hs_ca_id, hs_s_symb);
-- name: watch_item_pk
ALTER TABLE watch_item ADD CONSTRAINT watch_item_pk PRIMARY KEY (wi_wl_id, wi_s_symb);
-- name: watch_list_pk
ALTER TABLE watch_list ADD CONSTRAINT watch_list_pk PRIMARY KEY (wl_id);
-- name: broker_pk
ALTER TABLE broker ADD CONSTRAINT broker_pk PRIMARY KEY (b_id);
-- name: cash_transaction_pk
ALTER TABLE cash_transaction ADD CONSTRAINT cash_transaction_pk PRIMARY KEY (ct_t_id);
-- name: charge_pk
ALTER TABLE charge ADD CONSTRAINT charge_pk PRIMARY KEY (ch_tt_id, ch_c_tier);
-- name: commission_rate_pk
ALTER TABLE commission_rate ADD CONSTRAINT commission_rate_pk PRIMARY KEY (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty);
-- name: settlement_pk
ALTER TABLE settlement ADD CONSTRAINT settlement_pk PRIMARY KEY (se_t_id);
-- name: trade_pk
ALTER TABLE trade ADD CONSTRAINT trade_pk PRIMARY KEY (t_id);
-- name: trade_history_pk
ALTER TABLE trade_history ADD CONSTRAINT trade_history_pk PRIMARY KEY (th_t_id, th_st_id);
-- name: trade_request_pk
ALTER TABLE trade_request ADD CONSTRAINT trade_request_pk PRIMARY KEY (tr_t_id);
-- name: trade_type_pk
ALTER TABLE trade_type ADD CONSTRAINT trade_type_pk PRIMARY KEY (tt_id);
-- name: company_pk
ALTER TABLE company ADD CONSTRAINT company_pk PRIMARY KEY (co_id);
-- name: company_competitor_pk
ALTER TABLE company_competitor ADD CONSTRAINT company_competitor_pk PRIMARY KEY (cp_co_id, cp_comp_co_id, cp_in_id);
-- name: daily_market_pk
ALTER TABLE daily_market ADD CONSTRAINT daily_market_pk PRIMARY KEY (dm_s_symb, dm_date);
-- name: exchange_pk
ALTER TABLE exchange ADD CONSTRAINT exchange_pk PRIMARY KEY (ex_id);
-- name: financial_pk
ALTER TABLE financial ADD CONSTRAINT financial_pk PRIMARY KEY (fi_co_id, fi_year, fi_qtr);
-- name: industry_pk
ALTER TABLE industry ADD CONSTRAINT industry_pk PRIMARY KEY (in_id);
-- name: last_trade_pk
ALTER TABLE last_trade ADD CONSTRAINT last_trade_pk PRIMARY KEY (lt_s_symb);
-- name: news_item_pk
ALTER TABLE news_item ADD CONSTRAINT news_item_pk PRIMARY KEY (ni_id);
-- name: news_xref_pk
ALTER TABLE news_xref ADD CONSTRAINT news_xref_pk PRIMARY KEY (nx_ni_id, nx_co_id);
-- name: sector_pk
ALTER TABLE sector ADD CONSTRAINT sector_pk PRIMARY KEY (sc_id);
-- name: security_pk
ALTER TABLE security ADD CONSTRAINT security_pk PRIMARY KEY (s_symb);
-- name: address_pk
ALTER TABLE address ADD CONSTRAINT address_pk PRIMARY KEY (ad_id);
-- name: status_type_pk
ALTER TABLE status_type ADD CONSTRAINT status_type_pk PRIMARY KEY (st_id);
-- name: taxrate_pk
ALTER TABLE taxrate ADD CONSTRAINT taxrate_pk PRIMARY KEY (tx_id);
-- name: zip_code_pk
ALTER TABLE zip_code ADD CONSTRAINT zip_code_pk PRIMARY KEY (zc_code);
-- name: customer_tax_id
CREATE INDEX customer_tax_id ON customer (c_tax_id);
-- name: customer_account_c_id
CREATE INDEX customer_account_c_id ON customer_account (ca_c_id);
-- name: watch_list_c_id
CREATE INDEX watch_list_c_id ON watch_list (wl_c_id);
-- name: trade_request_s_symb
CREATE INDEX trade_request_s_symb ON trade_request (tr_s_symb, tr_b_id);
-- name: trade_ca_dts
CREATE INDEX trade_ca_dts ON trade (t_ca_id, t_dts, t_id);
-- name: trade_s_symb_dts
CREATE INDEX trade_s_symb_dts ON trade (t_s_symb, t_dts);
-- name: trade_st_id
CREATE INDEX trade_st_id ON trade (t_st_id);
-- name: company_name
CREATE INDEX company_name ON company (co_name);
-- name: company_in_id
CREATE INDEX company_in_id ON company (co_in_id);
-- name: security_co_issue
CREATE INDEX security_co_issue ON security (s_co_id, s_issue);
-- name: holding_ca_symb_dts
CREATE INDEX holding_ca_symb_dts ON holding (h_ca_id, h_s_symb, h_dts);
-- name: holding_history_t_id
CREATE INDEX holding_history_t_id ON holding_history (hh_t_id);
-- name: broker_name
CREATE INDEX broker_name ON broker (b_name);
-- name: industry_name
CREATE INDEX industry_name ON industry (in_name);
-- name: industry_sc_id
CREATE INDEX industry_sc_id ON industry (in_sc_id);
-- name: sector_name
CREATE INDEX sector_name ON sector (sc_name);
-- name: news_xref_co_id
CREATE INDEX news_xref_co_id ON news_xref (nx_co_id);
