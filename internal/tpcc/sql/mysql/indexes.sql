-- Secondary indexes, created after the load.
CREATE INDEX customer_last ON customer (c_w_id, c_d_id, c_last, c_first);
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
