-- SQL Server: timestamp is a row version there, so the times are datetime2(0); the news body is varchar(max).
-- name: holding
CREATE TABLE holding (
  h_t_id bigint NOT NULL, h_ca_id bigint NOT NULL, h_s_symb varchar(15) NOT NULL, h_dts datetime2(0) NOT NULL,
  h_price numeric(12,2) NOT NULL, h_qty int NOT NULL
);
-- name: cash_transaction
CREATE TABLE cash_transaction (ct_t_id bigint NOT NULL, ct_dts datetime2(0) NOT NULL, ct_amt numeric(10,2) NOT NULL, ct_name varchar(100));
-- name: trade
CREATE TABLE trade (
  t_id bigint NOT NULL, t_dts datetime2(0) NOT NULL, t_st_id varchar(4) NOT NULL, t_tt_id varchar(3) NOT NULL,
  t_is_cash smallint NOT NULL, t_s_symb varchar(15) NOT NULL, t_qty int NOT NULL, t_bid_price numeric(12,2) NOT NULL,
  t_ca_id bigint NOT NULL, t_exec_name varchar(49) NOT NULL, t_trade_price numeric(12,2), t_chrg numeric(10,2) NOT NULL,
  t_comm numeric(10,2) NOT NULL, t_tax numeric(10,2) NOT NULL, t_lifo smallint NOT NULL
);
-- name: trade_history
CREATE TABLE trade_history (th_t_id bigint NOT NULL, th_dts datetime2(0) NOT NULL, th_st_id varchar(4) NOT NULL);
-- name: last_trade
CREATE TABLE last_trade (
  lt_s_symb varchar(15) NOT NULL, lt_dts datetime2(0) NOT NULL, lt_price numeric(12,2) NOT NULL,
  lt_open_price numeric(12,2) NOT NULL, lt_vol bigint NOT NULL
);
-- name: news_item
CREATE TABLE news_item (
  ni_id bigint NOT NULL, ni_headline varchar(80) NOT NULL, ni_summary varchar(255) NOT NULL, ni_item varchar(max) NOT NULL,
  ni_dts datetime2(0) NOT NULL, ni_source varchar(30) NOT NULL, ni_author varchar(30)
);
