-- SQLite: keys as unique indexes (SQLite cannot add a primary key to a table).
-- name: dbdyno_tpce_opening_pk
CREATE UNIQUE INDEX dbdyno_tpce_opening_pk ON dbdyno_tpce_opening (ob_ca_id);
-- name: account_permission_pk
CREATE UNIQUE INDEX account_permission_pk ON account_permission (ap_ca_id, ap_tax_id);
-- name: customer_pk
CREATE UNIQUE INDEX customer_pk ON customer (c_id);
-- name: customer_account_pk
CREATE UNIQUE INDEX customer_account_pk ON customer_account (ca_id);
-- name: customer_taxrate_pk
CREATE UNIQUE INDEX customer_taxrate_pk ON customer_taxrate (cx_tx_id, cx_c_id);
-- name: holding_pk
CREATE UNIQUE INDEX holding_pk ON holding (h_t_id);
-- name: holding_history_pk
CREATE UNIQUE INDEX holding_history_pk ON holding_history (hh_h_t_id, hh_t_id);
-- name: holding_summary_pk
CREATE UNIQUE INDEX holding_summary_pk ON holding_summary (hs_ca_id, hs_s_symb);
-- name: watch_item_pk
CREATE UNIQUE INDEX watch_item_pk ON watch_item (wi_wl_id, wi_s_symb);
-- name: watch_list_pk
CREATE UNIQUE INDEX watch_list_pk ON watch_list (wl_id);
-- name: broker_pk
CREATE UNIQUE INDEX broker_pk ON broker (b_id);
-- name: cash_transaction_pk
CREATE UNIQUE INDEX cash_transaction_pk ON cash_transaction (ct_t_id);
-- name: charge_pk
CREATE UNIQUE INDEX charge_pk ON charge (ch_tt_id, ch_c_tier);
-- name: commission_rate_pk
CREATE UNIQUE INDEX commission_rate_pk ON commission_rate (cr_c_tier, cr_tt_id, cr_ex_id, cr_from_qty);
-- name: settlement_pk
CREATE UNIQUE INDEX settlement_pk ON settlement (se_t_id);
-- name: trade_pk
CREATE UNIQUE INDEX trade_pk ON trade (t_id);
-- name: trade_history_pk
CREATE UNIQUE INDEX trade_history_pk ON trade_history (th_t_id, th_st_id);
-- name: trade_request_pk
CREATE UNIQUE INDEX trade_request_pk ON trade_request (tr_t_id);
-- name: trade_type_pk
CREATE UNIQUE INDEX trade_type_pk ON trade_type (tt_id);
-- name: company_pk
CREATE UNIQUE INDEX company_pk ON company (co_id);
-- name: company_competitor_pk
CREATE UNIQUE INDEX company_competitor_pk ON company_competitor (cp_co_id, cp_comp_co_id, cp_in_id);
-- name: daily_market_pk
CREATE UNIQUE INDEX daily_market_pk ON daily_market (dm_s_symb, dm_date);
-- name: exchange_pk
CREATE UNIQUE INDEX exchange_pk ON exchange (ex_id);
-- name: financial_pk
CREATE UNIQUE INDEX financial_pk ON financial (fi_co_id, fi_year, fi_qtr);
-- name: industry_pk
CREATE UNIQUE INDEX industry_pk ON industry (in_id);
-- name: last_trade_pk
CREATE UNIQUE INDEX last_trade_pk ON last_trade (lt_s_symb);
-- name: news_item_pk
CREATE UNIQUE INDEX news_item_pk ON news_item (ni_id);
-- name: news_xref_pk
CREATE UNIQUE INDEX news_xref_pk ON news_xref (nx_ni_id, nx_co_id);
-- name: sector_pk
CREATE UNIQUE INDEX sector_pk ON sector (sc_id);
-- name: security_pk
CREATE UNIQUE INDEX security_pk ON security (s_symb);
-- name: address_pk
CREATE UNIQUE INDEX address_pk ON address (ad_id);
-- name: status_type_pk
CREATE UNIQUE INDEX status_type_pk ON status_type (st_id);
-- name: taxrate_pk
CREATE UNIQUE INDEX taxrate_pk ON taxrate (tx_id);
-- name: zip_code_pk
CREATE UNIQUE INDEX zip_code_pk ON zip_code (zc_code);
