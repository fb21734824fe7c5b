-- SQL Server and Azure SQL: TOP instead of LIMIT, DATEADD and DATEPART instead of interval arithmetic and EXTRACT.
-- name: q1(delta)
select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
       avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order
from lineitem
where l_shipdate <= dateadd(day, -cast(:delta as integer), cast('1998-12-01' as date))
group by l_returnflag, l_linestatus
order by l_returnflag, l_linestatus;
-- name: q2(size, type, region)
select top 100 s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
from part, supplier, partsupp, nation, region
where p_partkey = ps_partkey and s_suppkey = ps_suppkey and p_size = :size and p_type like '%' + :type
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = :region
  and ps_supplycost = (
    select min(ps_supplycost) from partsupp, supplier, nation, region
    where p_partkey = ps_partkey and s_suppkey = ps_suppkey and s_nationkey = n_nationkey
      and n_regionkey = r_regionkey and r_name = :region)
order by s_acctbal desc, n_name, s_name, p_partkey;
-- name: q3(segment, date)
select top 10 l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem
where c_mktsegment = :segment and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < cast(:date as date) and l_shipdate > cast(:date as date)
group by l_orderkey, o_orderdate, o_shippriority
order by revenue desc, o_orderdate;
-- name: q4(date)
select o_orderpriority, count(*) as order_count
from orders
where o_orderdate >= cast(:date as date) and o_orderdate < dateadd(month, 3, cast(:date as date))
  and exists (select * from lineitem where l_orderkey = o_orderkey and l_commitdate < l_receiptdate)
group by o_orderpriority
order by o_orderpriority;
-- name: q5(region, date)
select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue
from customer, orders, lineitem, supplier, nation, region
where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = s_suppkey and c_nationkey = s_nationkey
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = :region
  and o_orderdate >= cast(:date as date) and o_orderdate < dateadd(year, 1, cast(:date as date))
group by n_name
order by revenue desc;
-- name: q6(date, discount, quantity)
select sum(l_extendedprice * l_discount) as revenue
from lineitem
where l_shipdate >= cast(:date as date) and l_shipdate < dateadd(year, 1, cast(:date as date))
  and l_discount between cast(:discount as decimal(15,2)) - 0.01 and cast(:discount as decimal(15,2)) + 0.01
  and l_quantity < :quantity;
-- name: q7(nation1, nation2)
select supp_nation, cust_nation, l_year, sum(volume) as revenue
from (
  select n1.n_name as supp_nation, n2.n_name as cust_nation, datepart(year, l_shipdate) as l_year,
         l_extendedprice * (1 - l_discount) as volume
  from supplier, lineitem, orders, customer, nation n1, nation n2
  where s_suppkey = l_suppkey and o_orderkey = l_orderkey and c_custkey = o_custkey
    and s_nationkey = n1.n_nationkey and c_nationkey = n2.n_nationkey
    and ((n1.n_name = :nation1 and n2.n_name = :nation2) or (n1.n_name = :nation2 and n2.n_name = :nation1))
    and l_shipdate between cast('1995-01-01' as date) and cast('1996-12-31' as date)) as shipping
group by supp_nation, cust_nation, l_year
order by supp_nation, cust_nation, l_year;
-- name: q8(nation, region, type)
select o_year, sum(case when nation = :nation then volume else 0 end) / sum(volume) as mkt_share
from (
  select datepart(year, o_orderdate) as o_year, l_extendedprice * (1 - l_discount) as volume, n2.n_name as nation
  from part, supplier, lineitem, orders, customer, nation n1, nation n2, region
  where p_partkey = l_partkey and s_suppkey = l_suppkey and l_orderkey = o_orderkey and o_custkey = c_custkey
    and c_nationkey = n1.n_nationkey and n1.n_regionkey = r_regionkey and r_name = :region
    and s_nationkey = n2.n_nationkey and o_orderdate between cast('1995-01-01' as date) and cast('1996-12-31' as date)
    and p_type = :type) as all_nations
group by o_year
order by o_year;
-- name: q9(color)
select nation, o_year, sum(amount) as sum_profit
from (
  select n_name as nation, datepart(year, o_orderdate) as o_year,
         l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
  from part, supplier, lineitem, partsupp, orders, nation
  where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey and p_partkey = l_partkey
    and o_orderkey = l_orderkey and s_nationkey = n_nationkey and p_name like '%' + :color + '%') as profit
group by nation, o_year
order by nation, o_year desc;
-- name: q10(date)
select top 20 c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name, c_address, c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate >= cast(:date as date) and o_orderdate < dateadd(month, 3, cast(:date as date))
  and l_returnflag = 'R' and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
order by revenue desc;
-- name: q12(shipmode1, shipmode2, date)
select l_shipmode,
       sum(case when o_orderpriority = '1-URGENT' or o_orderpriority = '2-HIGH' then 1 else 0 end) as high_line_count,
       sum(case when o_orderpriority <> '1-URGENT' and o_orderpriority <> '2-HIGH' then 1 else 0 end) as low_line_count
from orders, lineitem
where o_orderkey = l_orderkey and l_shipmode in (:shipmode1, :shipmode2) and l_commitdate < l_receiptdate
  and l_shipdate < l_commitdate and l_receiptdate >= cast(:date as date)
  and l_receiptdate < dateadd(year, 1, cast(:date as date))
group by l_shipmode
order by l_shipmode;
-- name: q13(word1, word2)
select c_count, count(*) as custdist
from (
  select c_custkey, count(o_orderkey) as c_count
  from customer left outer join orders on c_custkey = o_custkey and o_comment not like '%' + :word1 + '%' + :word2 + '%'
  group by c_custkey) as c_orders
group by c_count
order by custdist desc, c_count desc;
-- name: q14(date)
select 100.00 * sum(case when p_type like 'PROMO%' then l_extendedprice * (1 - l_discount) else 0 end)
       / sum(l_extendedprice * (1 - l_discount)) as promo_revenue
from lineitem, part
where l_partkey = p_partkey and l_shipdate >= cast(:date as date) and l_shipdate < dateadd(month, 1, cast(:date as date));
-- name: q15(date)
with revenue0 (supplier_no, total_revenue) as (
  select l_suppkey, sum(l_extendedprice * (1 - l_discount))
  from lineitem
  where l_shipdate >= cast(:date as date) and l_shipdate < dateadd(month, 3, cast(:date as date))
  group by l_suppkey)
select s_suppkey, s_name, s_address, s_phone, total_revenue
from supplier, revenue0
where s_suppkey = supplier_no and total_revenue = (select max(total_revenue) from revenue0)
order by s_suppkey;
-- name: q16(brand, type, size1, size2, size3, size4, size5, size6, size7, size8)
select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt
from partsupp, part
where p_partkey = ps_partkey and p_brand <> :brand and p_type not like :type + '%'
  and p_size in (:size1, :size2, :size3, :size4, :size5, :size6, :size7, :size8)
  and ps_suppkey not in (select s_suppkey from supplier where s_comment like '%Customer%Complaints%')
group by p_brand, p_type, p_size
order by supplier_cnt desc, p_brand, p_type, p_size;
-- name: q18(quantity)
select top 100 c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
from customer, orders, lineitem
where o_orderkey in (select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > :quantity)
  and c_custkey = o_custkey and o_orderkey = l_orderkey
group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
order by o_totalprice desc, o_orderdate;
-- name: q20(color, date, nation)
select s_name, s_address
from supplier, nation
where s_suppkey in (
    select ps_suppkey from partsupp
    where ps_partkey in (select p_partkey from part where p_name like :color + '%')
      and ps_availqty > (
        select 0.5 * sum(l_quantity) from lineitem
        where l_partkey = ps_partkey and l_suppkey = ps_suppkey
          and l_shipdate >= cast(:date as date) and l_shipdate < dateadd(year, 1, cast(:date as date))))
  and s_nationkey = n_nationkey and n_name = :nation
order by s_name;
-- name: q21(nation)
select top 100 s_name, count(*) as numwait
from supplier, lineitem l1, orders, nation
where s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey and o_orderstatus = 'F'
  and l1.l_receiptdate > l1.l_commitdate
  and exists (select * from lineitem l2 where l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey)
  and not exists (
    select * from lineitem l3
    where l3.l_orderkey = l1.l_orderkey and l3.l_suppkey <> l1.l_suppkey and l3.l_receiptdate > l3.l_commitdate)
  and s_nationkey = n_nationkey and n_name = :nation
group by s_name
order by numwait desc, s_name;
-- name: q22(code1, code2, code3, code4, code5, code6, code7)
select cntrycode, count(*) as numcust, sum(c_acctbal) as totacctbal
from (
  select substring(c_phone, 1, 2) as cntrycode, c_acctbal
  from customer
  where substring(c_phone, 1, 2) in (:code1, :code2, :code3, :code4, :code5, :code6, :code7)
    and c_acctbal > (
      select avg(c_acctbal) from customer
      where c_acctbal > 0.00
        and substring(c_phone, 1, 2) in (:code1, :code2, :code3, :code4, :code5, :code6, :code7))
    and not exists (select * from orders where o_custkey = c_custkey)) as custsale
group by cntrycode
order by cntrycode;
