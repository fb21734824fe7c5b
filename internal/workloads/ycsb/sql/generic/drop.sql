-- What `dbdyno ycsb drop` (and `ycsb load --drop`) removes: YCSB's table and dbdyno's build record of it, only
-- when dbdyno made them.
-- name: usertable
DROP TABLE IF EXISTS {{table}};
-- name: dbdyno_ycsb_meta
DROP TABLE IF EXISTS dbdyno_ycsb_meta;
