-- MySQL/MariaDB: the tables' default collations ignore case, so a LIKE on generated data compares the value
-- as binary (cast(... as binary)) to match the paper's case-sensitive patterns, and Q22 groups the states'
-- first characters as binary ('a' and 'A' are two nations). Only those queries are here. Q20 sums the delivered
-- quantities per item once, in a derived table, before it joins them to stock: the same rows as the paper's
-- join of stock, item and order_line grouped by stock row, which MariaDB, without an index on ol_i_id, took
-- half a minute over at one warehouse.
-- name: q2
select su_suppkey, su_name, n_name, i_id, i_name, su_address, su_phone, su_comment
from item, supplier, stock, nation, region,
     (select s_i_id as m_i_id, min(s_quantity) as m_s_quantity
      from stock, supplier, nation, region
      where (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey and n_regionkey = r_regionkey
        and r_name like 'Europ%'
      group by s_i_id) m
where i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey
  and n_regionkey = r_regionkey and cast(i_data as binary) like '%b' and r_name like 'Europ%' and i_id = m_i_id
  and s_quantity = m_s_quantity
order by n_name, su_name, i_id;;
-- name: q3
select ol_o_id, ol_w_id, ol_d_id, sum(ol_amount) as revenue, o_entry_d
from customer, new_order, orders, order_line
where cast(c_state as binary) like 'A%' and c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and no_w_id = o_w_id
  and no_d_id = o_d_id and no_o_id = o_id and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id
  and o_entry_d > '2007-01-02 00:00:00'
group by ol_o_id, ol_w_id, ol_d_id, o_entry_d
order by revenue desc, o_entry_d;;
-- name: q8
select extract(year from o_entry_d) as l_year,
       sum(case when n2.n_name = 'Germany' then ol_amount else 0 end) / nullif(sum(ol_amount), 0) as mkt_share
from item, supplier, stock, order_line, orders, customer, nation n1, nation n2, region
where i_id = s_i_id and ol_i_id = s_i_id and ol_supply_w_id = s_w_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and c_id = o_c_id and c_w_id = o_w_id
  and c_d_id = o_d_id and n1.n_nationkey = ascii(substring(c_state, 1, 1)) and n1.n_regionkey = r_regionkey
  and ol_i_id < 1000 and r_name = 'Europe' and su_nationkey = n2.n_nationkey and cast(i_data as binary) like '%b'
  and i_id = ol_i_id
group by extract(year from o_entry_d)
order by l_year;;
-- name: q9
select n_name, extract(year from o_entry_d) as l_year, sum(ol_amount) as sum_profit
from item, stock, supplier, order_line, orders, nation
where ol_i_id = s_i_id and ol_supply_w_id = s_w_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and ol_i_id = i_id and su_nationkey = n_nationkey
  and cast(i_data as binary) like '%bb'
group by n_name, extract(year from o_entry_d)
order by n_name, l_year desc;;
-- name: q14
select 100.00 * sum(case when cast(i_data as binary) like 'PR%' then ol_amount else 0 end) / (1 + sum(ol_amount)) as promo_revenue
from order_line, item
where ol_i_id = i_id and ol_delivery_d >= '2007-01-02 00:00:00' and ol_delivery_d < '2100-01-01 00:00:00';;
-- name: q16
select i_name, substring(i_data, 1, 3) as brand, i_price, count(distinct ((s_w_id * s_i_id) % 10000)) as supplier_cnt
from stock, item
where i_id = s_i_id and cast(i_data as binary) not like 'zz%'
  and ((s_w_id * s_i_id) % 10000 not in (select su_suppkey from supplier where cast(su_comment as binary) like '%bad%'))
group by i_name, substring(i_data, 1, 3), i_price
order by supplier_cnt desc;;
-- name: q17
select sum(ol_amount) / 2.0 as avg_yearly
from order_line, (select i_id, avg(1.0 * ol_quantity) as a
                  from item, order_line
                  where cast(i_data as binary) like '%b' and ol_i_id = i_id
                  group by i_id) t
where ol_i_id = t.i_id and ol_quantity < t.a;;
-- name: q19
select sum(ol_amount) as revenue
from order_line, item
where (ol_i_id = i_id and cast(i_data as binary) like '%a' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 2, 3))
   or (ol_i_id = i_id and cast(i_data as binary) like '%b' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 2, 4))
   or (ol_i_id = i_id and cast(i_data as binary) like '%c' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 5, 3));;
-- name: q20
select su_name, su_address
from supplier, nation
where su_suppkey in (select (s_i_id * s_w_id) % 10000
                     from stock inner join item on i_id = s_i_id
                          inner join (select ol_i_id, sum(ol_quantity) as ol_qty from order_line
                                      where ol_delivery_d > '2010-05-23 12:00:00' group by ol_i_id) ol on ol.ol_i_id = s_i_id
                     where cast(i_data as binary) like 'c%' and 2 * s_quantity > ol_qty)
  and su_nationkey = n_nationkey and n_name = 'Germany'
order by su_name;
-- name: q22
select cast(substring(c_state, 1, 1) as binary) as country, count(*) as numcust, sum(c_balance) as totacctbal
from customer
where substring(c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7')
  and c_balance > (select avg(c_balance) from customer
                   where c_balance > 0.00 and substring(c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7'))
  and not exists (select * from orders where o_c_id = c_id and o_w_id = c_w_id and o_d_id = c_d_id)
group by cast(substring(c_state, 1, 1) as binary)
order by country;;
