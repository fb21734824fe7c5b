-- Keys, created after the load.
-- name: region_pk
ALTER TABLE region ADD CONSTRAINT region_pk PRIMARY KEY (r_regionkey);
-- name: nation_pk
ALTER TABLE nation ADD CONSTRAINT nation_pk PRIMARY KEY (n_nationkey);
-- name: supplier_pk
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY (su_suppkey);
