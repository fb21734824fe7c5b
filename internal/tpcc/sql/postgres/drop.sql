-- What `dbdyno tpcc drop` removes: only objects dbdyno created.
DROP FUNCTION IF EXISTS dbdyno_new_order(int, int, int, int, int, int[], int[], int[]);
DROP FUNCTION IF EXISTS dbdyno_payment(int, int, int, int, int, boolean, varchar, numeric);
DROP FUNCTION IF EXISTS dbdyno_order_status(int, int, int, boolean, varchar);
DROP FUNCTION IF EXISTS dbdyno_delivery(int, int);
DROP FUNCTION IF EXISTS dbdyno_stock_level(int, int, int);
DROP FUNCTION IF EXISTS dbdyno_customer_by_name(int, int, varchar);
DROP TABLE IF EXISTS warehouse, district, customer, history, new_order, orders, order_line, item, stock;
DROP TABLE IF EXISTS dbdyno_tpcc_meta;
