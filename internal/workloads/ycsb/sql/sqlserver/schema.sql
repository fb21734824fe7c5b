-- SQL Server: TEXT is deprecated (and kept off the row); VARCHAR(MAX) keeps a field of up to 8,000 bytes in the row.
-- name: usertable
CREATE TABLE {{table}} (YCSB_KEY VARCHAR(255) NOT NULL PRIMARY KEY, {{columns VARCHAR(MAX)}});
