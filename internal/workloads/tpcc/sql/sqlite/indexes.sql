-- SQLite: keys as unique indexes (SQLite cannot add a primary key to a table).
-- name: warehouse_pk
CREATE UNIQUE INDEX warehouse_pk ON warehouse (w_id);
-- name: district_pk
CREATE UNIQUE INDEX district_pk ON district (d_w_id, d_id);
-- name: customer_pk
CREATE UNIQUE INDEX customer_pk ON customer (c_w_id, c_d_id, c_id);
-- name: new_order_pk
CREATE UNIQUE INDEX new_order_pk ON new_order (no_w_id, no_d_id, no_o_id);
-- name: orders_pk
CREATE UNIQUE INDEX orders_pk ON orders (o_w_id, o_d_id, o_id);
-- name: order_line_pk
CREATE UNIQUE INDEX order_line_pk ON order_line (ol_w_id, ol_d_id, ol_o_id, ol_number);
-- name: item_pk
CREATE UNIQUE INDEX item_pk ON item (i_id);
-- name: stock_pk
CREATE UNIQUE INDEX stock_pk ON stock (s_w_id, s_i_id);
