-- PostgreSQL: the steps are PL/pgSQL functions (procs.sql), called in a SELECT that returns their outputs.
-- name: proc_login(username, password)
SELECT out_customerid, out_titles FROM dbdyno_ws_login(:username, :password);
-- name: proc_purchase(customerid, orderid, orderdate, prods, qtys)
SELECT out_netamount, out_rolled_back FROM dbdyno_ws_purchase(:customerid, :orderid, CAST(:orderdate AS date), :prods, :qtys);
