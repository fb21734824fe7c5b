-- What `dbdyno tpcc drop` removes: only objects dbdyno created.
DROP PROCEDURE IF EXISTS dbdyno_new_order;
DROP PROCEDURE IF EXISTS dbdyno_payment;
DROP PROCEDURE IF EXISTS dbdyno_order_status;
DROP PROCEDURE IF EXISTS dbdyno_delivery;
DROP PROCEDURE IF EXISTS dbdyno_stock_level;
DROP TABLE IF EXISTS warehouse, district, customer, history, new_order, orders, order_line, item, stock;
DROP TABLE IF EXISTS dbdyno_tpcc_meta;
