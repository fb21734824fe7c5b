-- dbdyno CH-benCHmark schema: the three TPC-H tables CH-benCHmark adds to TPC-C's nine (which the tpcc
-- package builds), with the paper's column names (su_, n_, r_). Names are varchar rather than TPC-H's char, so
-- that every engine returns them unpadded. Keys are created after the load (indexes.sql).
-- name: dbdyno_ch_meta
CREATE TABLE dbdyno_ch_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: region
CREATE TABLE region (r_regionkey int NOT NULL, r_name varchar(55) NOT NULL, r_comment varchar(152) NOT NULL);
-- name: nation
CREATE TABLE nation (
  n_nationkey int NOT NULL, n_name varchar(25) NOT NULL, n_regionkey int NOT NULL, n_comment varchar(152) NOT NULL
);
-- name: supplier
CREATE TABLE supplier (
  su_suppkey int NOT NULL, su_name varchar(25) NOT NULL, su_address varchar(40) NOT NULL, su_nationkey int NOT NULL,
  su_phone char(15) NOT NULL, su_acctbal numeric(12,2) NOT NULL, su_comment varchar(101) NOT NULL
);
