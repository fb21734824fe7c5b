-- dbdyno sql: workload tpch, engine sqlite (SQLite)

-- file: schema.sql
-- name: dbdyno_tpch_meta  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_tpch_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: region  -- from sql/generic/schema.sql
CREATE TABLE region (r_regionkey integer NOT NULL, r_name char(25) NOT NULL, r_comment varchar(152));
-- name: nation  -- from sql/generic/schema.sql
CREATE TABLE nation (n_nationkey integer NOT NULL, n_name char(25) NOT NULL, n_regionkey integer NOT NULL, n_comment varchar(152));
-- name: supplier  -- from sql/sqlite/schema.sql
CREATE TABLE supplier (
  s_suppkey integer NOT NULL, s_name char(25) NOT NULL, s_address varchar(40) NOT NULL, s_nationkey integer NOT NULL,
  s_phone char(15) NOT NULL, s_acctbal real NOT NULL, s_comment varchar(101) NOT NULL
);
-- name: customer  -- from sql/sqlite/schema.sql
CREATE TABLE customer (
  c_custkey integer NOT NULL, c_name varchar(25) NOT NULL, c_address varchar(40) NOT NULL, c_nationkey integer NOT NULL,
  c_phone char(15) NOT NULL, c_acctbal real NOT NULL, c_mktsegment char(10) NOT NULL, c_comment varchar(117) NOT NULL
);
-- name: part  -- from sql/sqlite/schema.sql
CREATE TABLE part (
  p_partkey integer NOT NULL, p_name varchar(55) NOT NULL, p_mfgr char(25) NOT NULL, p_brand char(10) NOT NULL,
  p_type varchar(25) NOT NULL, p_size integer NOT NULL, p_container char(10) NOT NULL, p_retailprice real NOT NULL,
  p_comment varchar(23) NOT NULL
);
-- name: partsupp  -- from sql/sqlite/schema.sql
CREATE TABLE partsupp (
  ps_partkey integer NOT NULL, ps_suppkey integer NOT NULL, ps_availqty integer NOT NULL, ps_supplycost real NOT NULL,
  ps_comment varchar(199) NOT NULL
);
-- name: orders  -- from sql/sqlite/schema.sql
CREATE TABLE orders (
  o_orderkey integer NOT NULL, o_custkey integer NOT NULL, o_orderstatus char(1) NOT NULL, o_totalprice real NOT NULL,
  o_orderdate text NOT NULL, o_orderpriority char(15) NOT NULL, o_clerk char(15) NOT NULL, o_shippriority integer NOT NULL,
  o_comment varchar(79) NOT NULL
);
-- name: lineitem  -- from sql/sqlite/schema.sql
CREATE TABLE lineitem (
  l_orderkey integer NOT NULL, l_partkey integer NOT NULL, l_suppkey integer NOT NULL, l_linenumber integer NOT NULL,
  l_quantity real NOT NULL, l_extendedprice real NOT NULL, l_discount real NOT NULL,
  l_tax real NOT NULL, l_returnflag char(1) NOT NULL, l_linestatus char(1) NOT NULL, l_shipdate text NOT NULL,
  l_commitdate text NOT NULL, l_receiptdate text NOT NULL, l_shipinstruct char(25) NOT NULL, l_shipmode char(10) NOT NULL,
  l_comment varchar(44) NOT NULL
);

-- file: indexes.sql
-- name: region_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX region_pk ON region (r_regionkey);
-- name: nation_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX nation_pk ON nation (n_nationkey);
-- name: supplier_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX supplier_pk ON supplier (s_suppkey);
-- name: customer_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX customer_pk ON customer (c_custkey);
-- name: part_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX part_pk ON part (p_partkey);
-- name: partsupp_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX partsupp_pk ON partsupp (ps_partkey, ps_suppkey);
-- name: orders_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX orders_pk ON orders (o_orderkey);
-- name: lineitem_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX lineitem_pk ON lineitem (l_orderkey, l_linenumber);
-- name: nation_region  -- from sql/generic/indexes.sql
CREATE INDEX nation_region ON nation (n_regionkey);
-- name: supplier_nation  -- from sql/generic/indexes.sql
CREATE INDEX supplier_nation ON supplier (s_nationkey);
-- name: customer_nation  -- from sql/generic/indexes.sql
CREATE INDEX customer_nation ON customer (c_nationkey);
-- name: partsupp_supp  -- from sql/generic/indexes.sql
CREATE INDEX partsupp_supp ON partsupp (ps_suppkey);
-- name: orders_cust  -- from sql/generic/indexes.sql
CREATE INDEX orders_cust ON orders (o_custkey);
-- name: orders_date  -- from sql/generic/indexes.sql
CREATE INDEX orders_date ON orders (o_orderdate);
-- name: lineitem_part_supp  -- from sql/generic/indexes.sql
CREATE INDEX lineitem_part_supp ON lineitem (l_partkey, l_suppkey);
-- name: lineitem_ship  -- from sql/generic/indexes.sql
CREATE INDEX lineitem_ship ON lineitem (l_shipdate);

-- file: drop.sql
-- name: lineitem  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS lineitem;
-- name: orders  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS orders;
-- name: partsupp  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS partsupp;
-- name: part  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS part;
-- name: customer  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS customer;
-- name: supplier  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS supplier;
-- name: nation  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS nation;
-- name: region  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS region;
-- name: dbdyno_tpch_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_tpch_meta;

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_tpch_meta WHERE k = ?;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_tpch_meta WHERE k = ?;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_tpch_meta (k, v) VALUES (?, ?);

-- file: queries.sql
-- name: q1(delta)  -- from sql/sqlite/queries.sql
select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
       avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order
from lineitem
where l_shipdate <= date('1998-12-01', '-' || ? || ' days')
group by l_returnflag, l_linestatus
order by l_returnflag, l_linestatus;
-- name: q2(size, type, region)  -- from sql/generic/queries.sql
select s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
from part, supplier, partsupp, nation, region
where p_partkey = ps_partkey and s_suppkey = ps_suppkey and p_size = ? and p_type like '%' || ?
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = ?
  and ps_supplycost = (
    select min(ps_supplycost) from partsupp, supplier, nation, region
    where p_partkey = ps_partkey and s_suppkey = ps_suppkey and s_nationkey = n_nationkey
      and n_regionkey = r_regionkey and r_name = ?)
order by s_acctbal desc, n_name, s_name, p_partkey
limit 100;
-- name: q3(segment, date)  -- from sql/sqlite/queries.sql
select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem
where c_mktsegment = ? and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < ? and l_shipdate > ?
group by l_orderkey, o_orderdate, o_shippriority
order by revenue desc, o_orderdate
limit 10;
-- name: q4(date)  -- from sql/sqlite/queries.sql
select o_orderpriority, count(*) as order_count
from orders
where o_orderdate >= ? and o_orderdate < date(?, '+3 months')
  and exists (select * from lineitem where l_orderkey = o_orderkey and l_commitdate < l_receiptdate)
group by o_orderpriority
order by o_orderpriority;
-- name: q5(region, date)  -- from sql/sqlite/queries.sql
select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue
from customer, orders, lineitem, supplier, nation, region
where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = s_suppkey and c_nationkey = s_nationkey
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = ?
  and o_orderdate >= ? and o_orderdate < date(?, '+1 years')
group by n_name
order by revenue desc;
-- name: q6(date, discount, quantity)  -- from sql/sqlite/queries.sql
select sum(l_extendedprice * l_discount) as revenue
from lineitem
where l_shipdate >= ? and l_shipdate < date(?, '+1 years')
  and l_discount between round(? - 0.01, 2) and round(? + 0.01, 2)
  and l_quantity < ?;
-- name: q7(nation1, nation2)  -- from sql/sqlite/queries.sql
select supp_nation, cust_nation, l_year, sum(volume) as revenue
from (
  select n1.n_name as supp_nation, n2.n_name as cust_nation, cast(strftime('%Y', l_shipdate) as integer) as l_year,
         l_extendedprice * (1 - l_discount) as volume
  from supplier, lineitem, orders, customer, nation n1, nation n2
  where s_suppkey = l_suppkey and o_orderkey = l_orderkey and c_custkey = o_custkey
    and s_nationkey = n1.n_nationkey and c_nationkey = n2.n_nationkey
    and ((n1.n_name = ? and n2.n_name = ?) or (n1.n_name = ? and n2.n_name = ?))
    and l_shipdate between '1995-01-01' and '1996-12-31') as shipping
group by supp_nation, cust_nation, l_year
order by supp_nation, cust_nation, l_year;
-- name: q8(nation, region, type)  -- from sql/sqlite/queries.sql
select o_year, sum(case when nation = ? then volume else 0 end) / sum(volume) as mkt_share
from (
  select cast(strftime('%Y', o_orderdate) as integer) as o_year, l_extendedprice * (1 - l_discount) as volume, n2.n_name as nation
  from part, supplier, lineitem, orders, customer, nation n1, nation n2, region
  where p_partkey = l_partkey and s_suppkey = l_suppkey and l_orderkey = o_orderkey and o_custkey = c_custkey
    and c_nationkey = n1.n_nationkey and n1.n_regionkey = r_regionkey and r_name = ?
    and s_nationkey = n2.n_nationkey and o_orderdate between '1995-01-01' and '1996-12-31'
    and p_type = ?) as all_nations
group by o_year
order by o_year;
-- name: q9(color)  -- from sql/sqlite/queries.sql
select nation, o_year, sum(amount) as sum_profit
from (
  select n_name as nation, cast(strftime('%Y', o_orderdate) as integer) as o_year,
         l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
  from part, supplier, lineitem, partsupp, orders, nation
  where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey and p_partkey = l_partkey
    and o_orderkey = l_orderkey and s_nationkey = n_nationkey and p_name like '%' || ? || '%') as profit
group by nation, o_year
order by nation, o_year desc;
-- name: q10(date)  -- from sql/sqlite/queries.sql
select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name, c_address, c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate >= ? and o_orderdate < date(?, '+3 months')
  and l_returnflag = 'R' and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
order by revenue desc
limit 20;
-- name: q11(nation, fraction)  -- from sql/sqlite/queries.sql
select ps_partkey, sum(ps_supplycost * ps_availqty) as value
from partsupp, supplier, nation
where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = ?
group by ps_partkey
having sum(ps_supplycost * ps_availqty) > (
  select sum(ps_supplycost * ps_availqty) * ?
  from partsupp, supplier, nation
  where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = ?)
order by value desc;
-- name: q12(shipmode1, shipmode2, date)  -- from sql/sqlite/queries.sql
select l_shipmode,
       sum(case when o_orderpriority = '1-URGENT' or o_orderpriority = '2-HIGH' then 1 else 0 end) as high_line_count,
       sum(case when o_orderpriority <> '1-URGENT' and o_orderpriority <> '2-HIGH' then 1 else 0 end) as low_line_count
from orders, lineitem
where o_orderkey = l_orderkey and l_shipmode in (?, ?) and l_commitdate < l_receiptdate
  and l_shipdate < l_commitdate and l_receiptdate >= ?
  and l_receiptdate < date(?, '+1 years')
group by l_shipmode
order by l_shipmode;
-- name: q13(word1, word2)  -- from sql/generic/queries.sql
select c_count, count(*) as custdist
from (
  select c_custkey, count(o_orderkey) as c_count
  from customer left outer join orders on c_custkey = o_custkey and o_comment not like '%' || ? || '%' || ? || '%'
  group by c_custkey) as c_orders
group by c_count
order by custdist desc, c_count desc;
-- name: q14(date)  -- from sql/sqlite/queries.sql
select 100.00 * sum(case when p_type like 'PROMO%' then l_extendedprice * (1 - l_discount) else 0 end)
       / sum(l_extendedprice * (1 - l_discount)) as promo_revenue
from lineitem, part
where l_partkey = p_partkey and l_shipdate >= ? and l_shipdate < date(?, '+1 months');
-- name: q15(date)  -- from sql/sqlite/queries.sql
with revenue0 (supplier_no, total_revenue) as (
  select l_suppkey, sum(l_extendedprice * (1 - l_discount))
  from lineitem
  where l_shipdate >= ? and l_shipdate < date(?, '+3 months')
  group by l_suppkey)
select s_suppkey, s_name, s_address, s_phone, total_revenue
from supplier, revenue0
where s_suppkey = supplier_no and total_revenue = (select max(total_revenue) from revenue0)
order by s_suppkey;
-- name: q16(brand, type, size1, size2, size3, size4, size5, size6, size7, size8)  -- from sql/generic/queries.sql
select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt
from partsupp, part
where p_partkey = ps_partkey and p_brand <> ? and p_type not like ? || '%'
  and p_size in (?, ?, ?, ?, ?, ?, ?, ?)
  and ps_suppkey not in (select s_suppkey from supplier where s_comment like '%Customer%Complaints%')
group by p_brand, p_type, p_size
order by supplier_cnt desc, p_brand, p_type, p_size;
-- name: q17(brand, container)  -- from sql/generic/queries.sql
select sum(l_extendedprice) / 7.0 as avg_yearly
from lineitem, part
where p_partkey = l_partkey and p_brand = ? and p_container = ?
  and l_quantity < (select 0.2 * avg(l_quantity) from lineitem where l_partkey = p_partkey);
-- name: q18(quantity)  -- from sql/generic/queries.sql
select c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
from customer, orders, lineitem
where o_orderkey in (select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > ?)
  and c_custkey = o_custkey and o_orderkey = l_orderkey
group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
order by o_totalprice desc, o_orderdate
limit 100;
-- name: q19(quantity1, quantity2, quantity3, brand1, brand2, brand3)  -- from sql/generic/queries.sql
select sum(l_extendedprice * (1 - l_discount)) as revenue
from lineitem, part
where (p_partkey = l_partkey and p_brand = ? and p_container in ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')
       and l_quantity >= ? and l_quantity <= ? + 10 and p_size between 1 and 5
       and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')
   or (p_partkey = l_partkey and p_brand = ? and p_container in ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK')
       and l_quantity >= ? and l_quantity <= ? + 10 and p_size between 1 and 10
       and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')
   or (p_partkey = l_partkey and p_brand = ? and p_container in ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG')
       and l_quantity >= ? and l_quantity <= ? + 10 and p_size between 1 and 15
       and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON');
-- name: q20(color, date, nation)  -- from sql/sqlite/queries.sql
select s_name, s_address
from supplier, nation
where s_suppkey in (
    select ps_suppkey from partsupp
    where ps_partkey in (select p_partkey from part where p_name like ? || '%')
      and ps_availqty > (
        select 0.5 * sum(l_quantity) from lineitem
        where l_partkey = ps_partkey and l_suppkey = ps_suppkey
          and l_shipdate >= ? and l_shipdate < date(?, '+1 years')))
  and s_nationkey = n_nationkey and n_name = ?
order by s_name;
-- name: q21(nation)  -- from sql/generic/queries.sql
select s_name, count(*) as numwait
from supplier, lineitem l1, orders, nation
where s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey and o_orderstatus = 'F'
  and l1.l_receiptdate > l1.l_commitdate
  and exists (select * from lineitem l2 where l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey)
  and not exists (
    select * from lineitem l3
    where l3.l_orderkey = l1.l_orderkey and l3.l_suppkey <> l1.l_suppkey and l3.l_receiptdate > l3.l_commitdate)
  and s_nationkey = n_nationkey and n_name = ?
group by s_name
order by numwait desc, s_name
limit 100;
-- name: q22(code1, code2, code3, code4, code5, code6, code7)  -- from sql/sqlite/queries.sql
select cntrycode, count(*) as numcust, sum(c_acctbal) as totacctbal
from (
  select substr(c_phone, 1, 2) as cntrycode, c_acctbal
  from customer
  where substr(c_phone, 1, 2) in (?, ?, ?, ?, ?, ?, ?)
    and c_acctbal > (
      select avg(c_acctbal) from customer
      where c_acctbal > 0.00
        and substr(c_phone, 1, 2) in (?, ?, ?, ?, ?, ?, ?))
    and not exists (select * from orders where o_custkey = c_custkey)) as custsale
group by cntrycode
order by cntrycode;

-- file: refresh.sql
-- name: rf2_lineitem(o_orderkey)  -- from sql/generic/refresh.sql
DELETE FROM lineitem WHERE l_orderkey = ?;
-- name: rf2_orders(o_orderkey)  -- from sql/generic/refresh.sql
DELETE FROM orders WHERE o_orderkey = ?;
-- name: restore_lineitem(lo, hi)  -- from sql/generic/refresh.sql
DELETE FROM lineitem WHERE l_orderkey >= ? AND l_orderkey <= ?;
-- name: restore_orders(lo, hi)  -- from sql/generic/refresh.sql
DELETE FROM orders WHERE o_orderkey >= ? AND o_orderkey <= ?;

