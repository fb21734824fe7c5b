-- Keys (as unique indexes: SQLite cannot add a primary key to a table) and indexes, created after the load.
CREATE UNIQUE INDEX warehouse_pk ON warehouse (w_id);
CREATE UNIQUE INDEX district_pk ON district (d_w_id, d_id);
CREATE UNIQUE INDEX customer_pk ON customer (c_w_id, c_d_id, c_id);
CREATE INDEX customer_last ON customer (c_w_id, c_d_id, c_last, c_first);
CREATE UNIQUE INDEX new_order_pk ON new_order (no_w_id, no_d_id, no_o_id);
CREATE UNIQUE INDEX orders_pk ON orders (o_w_id, o_d_id, o_id);
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
CREATE UNIQUE INDEX order_line_pk ON order_line (ol_w_id, ol_d_id, ol_o_id, ol_number);
CREATE UNIQUE INDEX item_pk ON item (i_id);
CREATE UNIQUE INDEX stock_pk ON stock (s_w_id, s_i_id);
