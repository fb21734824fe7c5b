-- SQL Server: the stored procedures of procs.sql, each returning its outputs as one row.
-- name: proc_login(username, password)
EXEC dbdyno_ws_login :username, :password;
-- name: proc_purchase(customerid, orderid, orderdate, prods, qtys)
EXEC dbdyno_ws_purchase :customerid, :orderid, :orderdate, :prods, :qtys;
