-- Calls of the stored procedures (--mode procedures, on engines that have them): a login and a purchase are
-- one round trip each. Browsing and registering are one statement each in both modes.
-- name: proc_login(username, password)
CALL dbdyno_ws_login(:username, :password);
-- name: proc_purchase(customerid, orderid, orderdate, prods, qtys)
CALL dbdyno_ws_purchase(:customerid, :orderid, :orderdate, :prods, :qtys);
