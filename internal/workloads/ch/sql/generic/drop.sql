-- What `dbdyno ch drop` removes: only the tables dbdyno's CH-benCHmark build created (the TPC-C tables are the
-- tpcc package's). Q15's revenue view is a WITH clause of the query, so there is no view to drop.
-- name: region
DROP TABLE IF EXISTS region;
-- name: nation
DROP TABLE IF EXISTS nation;
-- name: supplier
DROP TABLE IF EXISTS supplier;
-- name: dbdyno_ch_meta
DROP TABLE IF EXISTS dbdyno_ch_meta;
