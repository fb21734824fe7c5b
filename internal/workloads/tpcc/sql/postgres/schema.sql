-- PostgreSQL: the two small, hot tables leave room on their pages for updated rows (HOT updates).
-- name: warehouse
CREATE TABLE warehouse (
  w_id int NOT NULL, w_ytd numeric(12,2), w_tax numeric(4,4), w_name varchar(10), w_street_1 varchar(20),
  w_street_2 varchar(20), w_city varchar(20), w_state char(2), w_zip char(9)
) WITH (fillfactor = 10);
-- name: district
CREATE TABLE district (
  d_id smallint NOT NULL, d_w_id int NOT NULL, d_ytd numeric(12,2), d_tax numeric(4,4), d_next_o_id int,
  d_name varchar(10), d_street_1 varchar(20), d_street_2 varchar(20), d_city varchar(20), d_state char(2), d_zip char(9)
) WITH (fillfactor = 10);
