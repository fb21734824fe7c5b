-- MySQL/MariaDB: interval and string-concatenation syntax.
-- name: q1(delta)
select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
       avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order
from lineitem
where l_shipdate <= date '1998-12-01' - interval :delta day
group by l_returnflag, l_linestatus
order by l_returnflag, l_linestatus;
-- name: q2(size, type, region)
select s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
from part, supplier, partsupp, nation, region
where p_partkey = ps_partkey and s_suppkey = ps_suppkey and p_size = :size and p_type like concat('%', :type)
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = :region
  and ps_supplycost = (
    select min(ps_supplycost) from partsupp, supplier, nation, region
    where p_partkey = ps_partkey and s_suppkey = ps_suppkey and s_nationkey = n_nationkey
      and n_regionkey = r_regionkey and r_name = :region)
order by s_acctbal desc, n_name, s_name, p_partkey
limit 100;
-- name: q9(color)
select nation, o_year, sum(amount) as sum_profit
from (
  select n_name as nation, extract(year from o_orderdate) as o_year,
         l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
  from part, supplier, lineitem, partsupp, orders, nation
  where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey and p_partkey = l_partkey
    and o_orderkey = l_orderkey and s_nationkey = n_nationkey and p_name like concat('%', :color, '%')) as profit
group by nation, o_year
order by nation, o_year desc;
-- name: q13(word1, word2)
select c_count, count(*) as custdist
from (
  select c_custkey, count(o_orderkey) as c_count
  from customer left outer join orders on c_custkey = o_custkey and o_comment not like concat('%', :word1, '%', :word2, '%')
  group by c_custkey) as c_orders
group by c_count
order by custdist desc, c_count desc;
-- name: q16(brand, type, size1, size2, size3, size4, size5, size6, size7, size8)
select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt
from partsupp, part
where p_partkey = ps_partkey and p_brand <> :brand and p_type not like concat(:type, '%')
  and p_size in (:size1, :size2, :size3, :size4, :size5, :size6, :size7, :size8)
  and ps_suppkey not in (select s_suppkey from supplier where s_comment like '%Customer%Complaints%')
group by p_brand, p_type, p_size
order by supplier_cnt desc, p_brand, p_type, p_size;
-- name: q20(color, date, nation)
select s_name, s_address
from supplier, nation
where s_suppkey in (
    select ps_suppkey from partsupp
    where ps_partkey in (select p_partkey from part where p_name like concat(:color, '%'))
      and ps_availqty > (
        select 0.5 * sum(l_quantity) from lineitem
        where l_partkey = ps_partkey and l_suppkey = ps_suppkey
          and l_shipdate >= cast(:date as date) and l_shipdate < cast(:date as date) + interval '1' year))
  and s_nationkey = n_nationkey and n_name = :nation
order by s_name;
