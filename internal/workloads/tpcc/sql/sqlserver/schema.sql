-- SQL Server: timestamp is a row version there, so the dates are datetime2(0); the rest is the generic schema.
-- name: customer
CREATE TABLE customer (
  c_id int NOT NULL, c_d_id smallint NOT NULL, c_w_id int NOT NULL, c_first varchar(16), c_middle char(2),
  c_last varchar(16), c_street_1 varchar(20), c_street_2 varchar(20), c_city varchar(20), c_state char(2),
  c_zip char(9), c_phone char(16), c_since datetime2(0), c_credit char(2), c_credit_lim numeric(12,2),
  c_discount numeric(4,4), c_balance numeric(12,2), c_ytd_payment numeric(12,2), c_payment_cnt int,
  c_delivery_cnt int, c_data varchar(500)
);
-- name: history
CREATE TABLE history (
  h_c_id int, h_c_d_id smallint, h_c_w_id int, h_d_id smallint, h_w_id int, h_date datetime2(0),
  h_amount numeric(6,2), h_data varchar(24)
);
-- name: orders
CREATE TABLE orders (
  o_id int NOT NULL, o_d_id smallint NOT NULL, o_w_id int NOT NULL, o_c_id int, o_entry_d datetime2(0),
  o_carrier_id smallint, o_ol_cnt smallint, o_all_local smallint
);
-- name: order_line
CREATE TABLE order_line (
  ol_o_id int NOT NULL, ol_d_id smallint NOT NULL, ol_w_id int NOT NULL, ol_number smallint NOT NULL, ol_i_id int,
  ol_supply_w_id int, ol_delivery_d datetime2(0), ol_quantity smallint, ol_amount numeric(6,2), ol_dist_info char(24)
);
