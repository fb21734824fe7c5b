-- Keys and indexes, created after the load.
-- name: warehouse_pk
ALTER TABLE warehouse ADD CONSTRAINT warehouse_pk PRIMARY KEY (w_id);
-- name: district_pk
ALTER TABLE district ADD CONSTRAINT district_pk PRIMARY KEY (d_w_id, d_id);
-- name: customer_pk
ALTER TABLE customer ADD CONSTRAINT customer_pk PRIMARY KEY (c_w_id, c_d_id, c_id);
-- name: customer_last
CREATE INDEX customer_last ON customer (c_w_id, c_d_id, c_last, c_first);
-- name: new_order_pk
ALTER TABLE new_order ADD CONSTRAINT new_order_pk PRIMARY KEY (no_w_id, no_d_id, no_o_id);
-- name: orders_pk
ALTER TABLE orders ADD CONSTRAINT orders_pk PRIMARY KEY (o_w_id, o_d_id, o_id);
-- name: orders_customer
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
-- name: order_line_pk
ALTER TABLE order_line ADD CONSTRAINT order_line_pk PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number);
-- name: item_pk
ALTER TABLE item ADD CONSTRAINT item_pk PRIMARY KEY (i_id);
-- name: stock_pk
ALTER TABLE stock ADD CONSTRAINT stock_pk PRIMARY KEY (s_w_id, s_i_id);
