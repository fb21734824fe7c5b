-- What `dbdyno tpce drop` removes: only the tables dbdyno created.
-- name: dbdyno_tpce_opening
DROP TABLE IF EXISTS dbdyno_tpce_opening;
-- name: account_permission
DROP TABLE IF EXISTS account_permission;
-- name: customer
DROP TABLE IF EXISTS customer;
-- name: customer_account
DROP TABLE IF EXISTS customer_account;
-- name: customer_taxrate
DROP TABLE IF EXISTS customer_taxrate;
-- name: holding
DROP TABLE IF EXISTS holding;
-- name: holding_history
DROP TABLE IF EXISTS holding_history;
-- name: holding_summary
DROP TABLE IF EXISTS holding_summary;
-- name: watch_item
DROP TABLE IF EXISTS watch_item;
-- name: watch_list
DROP TABLE IF EXISTS watch_list;
-- name: broker
DROP TABLE IF EXISTS broker;
-- name: cash_transaction
DROP TABLE IF EXISTS cash_transaction;
-- name: charge
DROP TABLE IF EXISTS charge;
-- name: commission_rate
DROP TABLE IF EXISTS commission_rate;
-- name: settlement
DROP TABLE IF EXISTS settlement;
-- name: trade
DROP TABLE IF EXISTS trade;
-- name: trade_history
DROP TABLE IF EXISTS trade_history;
-- name: trade_request
DROP TABLE IF EXISTS trade_request;
-- name: trade_type
DROP TABLE IF EXISTS trade_type;
-- name: company
DROP TABLE IF EXISTS company;
-- name: company_competitor
DROP TABLE IF EXISTS company_competitor;
-- name: daily_market
DROP TABLE IF EXISTS daily_market;
-- name: exchange
DROP TABLE IF EXISTS exchange;
-- name: financial
DROP TABLE IF EXISTS financial;
-- name: industry
DROP TABLE IF EXISTS industry;
-- name: last_trade
DROP TABLE IF EXISTS last_trade;
-- name: news_item
DROP TABLE IF EXISTS news_item;
-- name: news_xref
DROP TABLE IF EXISTS news_xref;
-- name: sector
DROP TABLE IF EXISTS sector;
-- name: security
DROP TABLE IF EXISTS security;
-- name: address
DROP TABLE IF EXISTS address;
-- name: status_type
DROP TABLE IF EXISTS status_type;
-- name: taxrate
DROP TABLE IF EXISTS taxrate;
-- name: zip_code
DROP TABLE IF EXISTS zip_code;
-- name: dbdyno_tpce_meta
DROP TABLE IF EXISTS dbdyno_tpce_meta;
