-- dbdyno ycsb: the operations of YCSB's CoreWorkload, each one statement in autocommit, as YCSB's JDBC binding
-- runs them (site.ycsb.db.JdbcDBClient). Each statement is prepared once per connection; :name marks an
-- argument. {{column}} is one field's column (the statements NAME_fieldN, one per field, for readallfields=false
-- and writeallfields=false); the JDBC binding reads every column whatever readallfields says, dbdyno reads the
-- one field, as go-ycsb does.
-- name: insert(ycsb_key, {{params}})
INSERT INTO {{table}} (YCSB_KEY, {{columns}}) VALUES (:ycsb_key, {{values}});
-- name: read(ycsb_key)
SELECT YCSB_KEY, {{columns}} FROM {{table}} WHERE YCSB_KEY = :ycsb_key;
-- name: read_field{{n}}(ycsb_key)
SELECT YCSB_KEY, {{column}} FROM {{table}} WHERE YCSB_KEY = :ycsb_key;
-- name: update(ycsb_key, {{params}})
UPDATE {{table}} SET {{sets}} WHERE YCSB_KEY = :ycsb_key;
-- name: update_field{{n}}(ycsb_key, value)
UPDATE {{table}} SET {{column}} = :value WHERE YCSB_KEY = :ycsb_key;
-- A scan: the records from a key on, in key order (the JDBC binding's LIMIT; hashed keys sort as strings).
-- name: scan(ycsb_key, records)
SELECT YCSB_KEY, {{columns}} FROM {{table}} WHERE YCSB_KEY >= :ycsb_key ORDER BY YCSB_KEY LIMIT :records;
-- name: scan_field{{n}}(ycsb_key, records)
SELECT YCSB_KEY, {{column}} FROM {{table}} WHERE YCSB_KEY >= :ycsb_key ORDER BY YCSB_KEY LIMIT :records;
-- `ycsb check`: the records the table holds, those whose key is not of YCSB's form, those with a field missing.
-- name: count_records
SELECT count(*) FROM {{table}};
-- name: check_keys
SELECT YCSB_KEY, 'not a YCSB key (user and digits)' FROM {{table}} WHERE YCSB_KEY NOT LIKE 'user%';
-- name: check_fields
SELECT YCSB_KEY, 'a field is NULL' FROM {{table}} WHERE {{any_null}};
-- name: key_exists(ycsb_key)
SELECT 1 FROM {{table}} WHERE YCSB_KEY = :ycsb_key;
