-- MySQL/MariaDB (InnoDB): primary keys are declared with the tables, since InnoDB clusters rows on them (adding
-- one after the load rebuilds the table) and the generator writes each part's rows in key order; secondary
-- indexes come after the load (indexes.sql).
-- name: categories
CREATE TABLE categories (category int NOT NULL, categoryname varchar(50) NOT NULL, PRIMARY KEY (category)) ENGINE = InnoDB;
-- name: products
CREATE TABLE products (
  prod_id int NOT NULL, category int NOT NULL, title varchar(50) NOT NULL, actor varchar(50) NOT NULL,
  price numeric(12,2) NOT NULL, special smallint NOT NULL, common_prod_id int NOT NULL, PRIMARY KEY (prod_id)
) ENGINE = InnoDB;
-- name: inventory
CREATE TABLE inventory (prod_id int NOT NULL, quan_in_stock int NOT NULL, sales int NOT NULL, PRIMARY KEY (prod_id)) ENGINE = InnoDB;
-- name: inventory_loaded
CREATE TABLE inventory_loaded (prod_id int NOT NULL, quan_in_stock int NOT NULL, sales int NOT NULL, PRIMARY KEY (prod_id)) ENGINE = InnoDB;
-- name: customers
CREATE TABLE customers (
  customerid int NOT NULL, firstname varchar(50) NOT NULL, lastname varchar(50) NOT NULL, address1 varchar(50) NOT NULL,
  city varchar(50) NOT NULL, state varchar(50), zip int, country varchar(50) NOT NULL, region smallint NOT NULL,
  email varchar(50), phone varchar(50), creditcardtype int NOT NULL, creditcard varchar(50) NOT NULL,
  creditcardexpiration varchar(50) NOT NULL, username varchar(50) NOT NULL, password varchar(50) NOT NULL,
  age smallint, income int, gender varchar(1), PRIMARY KEY (customerid)
) ENGINE = InnoDB;
-- name: orders
CREATE TABLE orders (
  orderid int NOT NULL, orderdate date NOT NULL, customerid int NOT NULL, netamount numeric(12,2) NOT NULL,
  tax numeric(12,2) NOT NULL, totalamount numeric(12,2) NOT NULL, PRIMARY KEY (orderid)
) ENGINE = InnoDB;
-- name: orderlines
CREATE TABLE orderlines (
  orderlineid smallint NOT NULL, orderid int NOT NULL, prod_id int NOT NULL, quantity smallint NOT NULL, orderdate date NOT NULL,
  PRIMARY KEY (orderid, orderlineid)
) ENGINE = InnoDB;
-- name: membership
CREATE TABLE membership (customerid int NOT NULL, membershiptype int NOT NULL, expiredate date NOT NULL, PRIMARY KEY (customerid)) ENGINE = InnoDB;
-- name: reviews
CREATE TABLE reviews (
  review_id int NOT NULL, prod_id int NOT NULL, review_date date NOT NULL, stars int NOT NULL, customerid int NOT NULL,
  review_summary varchar(50) NOT NULL, review_text varchar(1000) NOT NULL, PRIMARY KEY (review_id)
) ENGINE = InnoDB;
-- name: reviews_helpfulness
CREATE TABLE reviews_helpfulness (review_helpfulness_id int NOT NULL, review_id int NOT NULL, customerid int NOT NULL, helpfulness int NOT NULL,
  PRIMARY KEY (review_helpfulness_id)) ENGINE = InnoDB;
