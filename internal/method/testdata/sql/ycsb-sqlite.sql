-- dbdyno sql: workload ycsb, engine sqlite (SQLite)

-- file: schema.sql
-- name: dbdyno_ycsb_meta  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_ycsb_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: usertable  -- from sql/generic/schema.sql
CREATE TABLE usertable (YCSB_KEY VARCHAR(255) NOT NULL PRIMARY KEY, FIELD0 TEXT, FIELD1 TEXT, FIELD2 TEXT, FIELD3 TEXT, FIELD4 TEXT, FIELD5 TEXT, FIELD6 TEXT, FIELD7 TEXT, FIELD8 TEXT, FIELD9 TEXT);

-- file: tx.sql
-- name: insert(ycsb_key, field0, field1, field2, field3, field4, field5, field6, field7, field8, field9)  -- from sql/generic/tx.sql
INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: read(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field0(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD0 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field1(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD1 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field2(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD2 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field3(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD3 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field4(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD4 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field5(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD5 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field6(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD6 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field7(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD7 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field8(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD8 FROM usertable WHERE YCSB_KEY = ?;
-- name: read_field9(ycsb_key)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD9 FROM usertable WHERE YCSB_KEY = ?;
-- name: update(ycsb_key, field0, field1, field2, field3, field4, field5, field6, field7, field8, field9)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD0 = ?, FIELD1 = ?, FIELD2 = ?, FIELD3 = ?, FIELD4 = ?, FIELD5 = ?, FIELD6 = ?, FIELD7 = ?, FIELD8 = ?, FIELD9 = ? WHERE YCSB_KEY = ?;
-- name: update_field0(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD0 = ? WHERE YCSB_KEY = ?;
-- name: update_field1(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD1 = ? WHERE YCSB_KEY = ?;
-- name: update_field2(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD2 = ? WHERE YCSB_KEY = ?;
-- name: update_field3(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD3 = ? WHERE YCSB_KEY = ?;
-- name: update_field4(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD4 = ? WHERE YCSB_KEY = ?;
-- name: update_field5(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD5 = ? WHERE YCSB_KEY = ?;
-- name: update_field6(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD6 = ? WHERE YCSB_KEY = ?;
-- name: update_field7(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD7 = ? WHERE YCSB_KEY = ?;
-- name: update_field8(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD8 = ? WHERE YCSB_KEY = ?;
-- name: update_field9(ycsb_key, value)  -- from sql/generic/tx.sql
UPDATE usertable SET FIELD9 = ? WHERE YCSB_KEY = ?;
-- name: scan(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD0, FIELD1, FIELD2, FIELD3, FIELD4, FIELD5, FIELD6, FIELD7, FIELD8, FIELD9 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field0(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD0 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field1(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD1 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field2(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD2 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field3(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD3 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field4(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD4 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field5(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD5 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field6(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD6 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field7(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD7 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field8(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD8 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: scan_field9(ycsb_key, records)  -- from sql/generic/tx.sql
SELECT YCSB_KEY, FIELD9 FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?;
-- name: count_records  -- from sql/generic/tx.sql
SELECT count(*) FROM usertable;
-- name: check_keys  -- from sql/generic/tx.sql
SELECT YCSB_KEY, 'not a YCSB key (user and digits)' FROM usertable WHERE YCSB_KEY NOT LIKE 'user%';
-- name: check_fields  -- from sql/generic/tx.sql
SELECT YCSB_KEY, 'a field is NULL' FROM usertable WHERE FIELD0 IS NULL OR FIELD1 IS NULL OR FIELD2 IS NULL OR FIELD3 IS NULL OR FIELD4 IS NULL OR FIELD5 IS NULL OR FIELD6 IS NULL OR FIELD7 IS NULL OR FIELD8 IS NULL OR FIELD9 IS NULL;
-- name: key_exists(ycsb_key)  -- from sql/generic/tx.sql
SELECT 1 FROM usertable WHERE YCSB_KEY = ?;

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_ycsb_meta WHERE k = ?;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_ycsb_meta WHERE k = ?;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_ycsb_meta (k, v) VALUES (?, ?);
-- name: meta_loaded()  -- from sql/generic/admin.sql
SELECT k, v FROM dbdyno_ycsb_meta WHERE k LIKE 'loaded.%';
-- name: integrity_check()  -- from sql/sqlite/admin.sql
PRAGMA quick_check;

-- file: drop.sql
-- name: usertable  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS usertable;
-- name: dbdyno_ycsb_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_ycsb_meta;

