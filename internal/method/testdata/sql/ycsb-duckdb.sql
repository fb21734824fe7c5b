-- dbdyno sql: workload ycsb, engine duckdb (DuckDB)

-- file: schema.sql
-- name: dbdyno_ycsb_meta  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_ycsb_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: usertable  -- from sql/generic/schema.sql
CREATE TABLE usertable (YCSB_KEY VARCHAR(255) NOT NULL PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT, FIELD2 TEXT, FIELD3 TEXT, FIELD4 TEXT, FIELD5 TEXT, FIELD6 TEXT, FIELD7 TEXT, FIELD8 TEXT, FIELD9 TEXT);

-- file: tx.sql
-- name: insert(ycsb_key, field0, field1, field2, field3, field4, field5, field6, field7, field8, field9)  -- from sql/generic/tx.sql
INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);
-- name: read(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field0(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD0 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field1(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD1 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field2(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD2 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field3(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD3 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field4(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD4 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field5(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD5 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field6(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD6 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field7(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD7 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field8(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD8 FROM usertable WHERE YCSB_KEY = $1;
-- name: read_field9(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD9 FROM usertable WHERE YCSB_KEY = $1;
-- name: update(ycsb_key, field0, field1, field2, field3, field4, field5, field6, field7, field8, field9)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD0 = $2, FIELD1 = $3, FIELD2 = $4, FIELD3 = $5, FIELD4 = $6, FIELD5 = $7, FIELD6 = $8, FIELD7 = $9, FIELD8 = $10, FIELD9 = $11 WHERE YCSB_KEY = $1;
-- name: update_field0(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD0 = $2 WHERE YCSB_KEY = $1;
-- name: update_field1(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD1 = $2 WHERE YCSB_KEY = $1;
-- name: update_field2(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD2 = $2 WHERE YCSB_KEY = $1;
-- name: update_field3(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD3 = $2 WHERE YCSB_KEY = $1;
-- name: update_field4(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD4 = $2 WHERE YCSB_KEY = $1;
-- name: update_field5(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD5 = $2 WHERE YCSB_KEY = $1;
-- name: update_field6(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD6 = $2 WHERE YCSB_KEY = $1;
-- name: update_field7(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD7 = $2 WHERE YCSB_KEY = $1;
-- name: update_field8(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD8 = $2 WHERE YCSB_KEY = $1;
-- name: update_field9(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD9 = $2 WHERE YCSB_KEY = $1;
-- name: scan(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field0(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD0 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field1(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD1 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field2(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD2 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field3(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD3 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field4(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD4 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field5(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD5 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field6(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD6 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field7(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD7 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field8(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD8 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: scan_field9(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD9 FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY LIMIT $2;
-- name: count_records  -- from sql/generic/tx.sql
SELECT count(*) FROM usertable;
-- name: check_keys  -- from sql/generic/tx.sql
SELECT YCSB_KEY, 'not a YCSB key (user and digits)' FROM usertable WHERE YCSB_KEY NOT LIKE 'user%';
-- name: check_fields  -- from sql/generic/tx.sql
SELECT YCSB_KEY, 'a field is NULL' FROM usertable WHERE FIELD0 IS NULL OR FIELD1 IS NULL OR FIELD2 IS NULL OR FIELD3 IS NULL OR FIELD4 IS NULL OR FIELD5 IS NULL OR FIELD6 IS NULL OR FIELD7 IS NULL OR FIELD8 IS NULL OR FIELD9 IS NULL;
-- name: key_exists(ycsb_key)  -- from sql/generic/tx.sql
SELECT 1 FROM usertable WHERE YCSB_KEY = $1;

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_ycsb_meta WHERE k = $1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_ycsb_meta WHERE k = $1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_ycsb_meta (k, v) VALUES ($1, $2);
-- name: meta_loaded()  -- from sql/generic/admin.sql
SELECT k, v FROM dbdyno_ycsb_meta WHERE k LIKE 'loaded.%';

-- file: drop.sql
-- name: usertable  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS usertable;
-- name: dbdyno_ycsb_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_ycsb_meta;

