-- SQL Server: a scan's first records with TOP, as the JDBC binding's sqlserverScans.
-- name: scan(ycsb_key, records)
SELECT TOP (:records) YCSB_KEY, {{columns}} FROM {{table}} WHERE YCSB_KEY >= :ycsb_key ORDER BY YCSB_KEY;
-- name: scan_field{{n}}(ycsb_key, records)
SELECT TOP (:records) YCSB_KEY, {{column}} FROM {{table}} WHERE YCSB_KEY >= :ycsb_key ORDER BY YCSB_KEY;
