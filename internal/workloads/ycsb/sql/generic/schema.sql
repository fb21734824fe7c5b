-- dbdyno ycsb: YCSB's table as YCSB's JDBC binding names it (jdbc/src/main/resources/sql/create_table.sql):
-- the key YCSB_KEY and the fields FIELD0 .. FIELDn-1 (fieldcount; FIELD is fieldnameprefix in upper case), keyed
-- from the start: the load inserts through the primary key, as YCSB's load does. {{table}} is the table
-- property (usertable).
-- name: dbdyno_ycsb_meta
CREATE TABLE dbdyno_ycsb_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: usertable
CREATE TABLE {{table}} (YCSB_KEY VARCHAR(255) NOT NULL PRIMARY KEY, {{columns TEXT}});
