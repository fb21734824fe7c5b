-- The 22 analytic queries of CH-benCHmark (Cole et al., "The mixed workload CH-benCHmark", DBTest 2011): TPC-H's
-- queries adapted onto TPC-C's tables plus SUPPLIER, NATION and REGION, as BenchBase's chbenchmark has them. A
-- stock row's supplier is mod(s_w_id * s_i_id, 10000), written with the % operator every engine has; a
-- customer's nation is the ASCII code of the first character of c_state (the 62 nation keys are the codes of
-- 0-9, A-Z and a-z). Grouping is by expressions, not by output names, which not every engine accepts; Q15's view
-- is a WITH clause, so a query stream runs no DDL.
--
-- Dates: the TPC-C load stamps o_entry_d and the delivered lines' ol_delivery_d with the load's own date and
-- time, so every date window must hold the load time: the lower bounds are the paper's (2007 and 1999), and the
-- paper's upper bounds (2020) are moved to 2100. At the load, delivered order lines have ol_amount 0,
-- ol_quantity is 5 on every line, s_order_cnt is 0, every customer has exactly one order and a balance of
-- -10.00, and every line of an order is delivered when it is entered: Q11, Q17, Q21 and Q22 find nothing until
-- a TPC-C run has changed the data (their rows come from what the transactions write).
--
-- LIKE is as the paper writes it: case-sensitive, as on PostgreSQL; the engines whose LIKE ignores case
-- (SQLite, MySQL/MariaDB, SQL Server) override those queries so they match the same rows.
--
-- Q1: quantity and amount per order-line number of the lines delivered since 2007 (TPC-H's pricing summary).
-- name: q1
select ol_number, sum(ol_quantity) as sum_qty, sum(ol_amount) as sum_amount, avg(ol_quantity) as avg_qty,
       avg(ol_amount) as avg_amount, count(*) as count_order
from order_line
where ol_delivery_d > '2007-01-02 00:00:00'
group by ol_number
order by ol_number;
-- Q2: for each item whose data ends in 'b', the European supplier whose stock of it is the smallest (TPC-H's
-- minimum cost supplier).
-- name: q2
select su_suppkey, su_name, n_name, i_id, i_name, su_address, su_phone, su_comment
from item, supplier, stock, nation, region,
     (select s_i_id as m_i_id, min(s_quantity) as m_s_quantity
      from stock, supplier, nation, region
      where (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey and n_regionkey = r_regionkey
        and r_name like 'Europ%'
      group by s_i_id) m
where i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey
  and n_regionkey = r_regionkey and i_data like '%b' and r_name like 'Europ%' and i_id = m_i_id
  and s_quantity = m_s_quantity
order by n_name, su_name, i_id;
-- Q3: revenue of the undelivered (new) orders of customers whose state starts with 'A' (TPC-H's shipping
-- priority).
-- name: q3
select ol_o_id, ol_w_id, ol_d_id, sum(ol_amount) as revenue, o_entry_d
from customer, new_order, orders, order_line
where c_state like 'A%' and c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and no_w_id = o_w_id
  and no_d_id = o_d_id and no_o_id = o_id and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id
  and o_entry_d > '2007-01-02 00:00:00'
group by ol_o_id, ol_w_id, ol_d_id, o_entry_d
order by revenue desc, o_entry_d;
-- Q4: orders entered in the window with a line delivered, counted by their number of lines (TPC-H's order
-- priority checking). The window on o_entry_d, from 2007 to 2012 in BenchBase's earlier Q4 and in go-tpc's
-- (which ends it in 2032), ends in 2100 here; BenchBase's present Q4 leaves it out.
-- name: q4
select o_ol_cnt, count(*) as order_count
from orders
where o_entry_d >= '2007-01-02 00:00:00' and o_entry_d < '2100-01-01 00:00:00'
  and exists (select * from order_line
              where o_id = ol_o_id and o_w_id = ol_w_id and o_d_id = ol_d_id and ol_delivery_d >= o_entry_d)
group by o_ol_cnt
order by o_ol_cnt;
-- Q5: revenue by nation of Europe, where customer and supplier are of the same nation (TPC-H's local supplier
-- volume).
-- name: q5
select n_name, sum(ol_amount) as revenue
from customer, orders, order_line, stock, supplier, nation, region
where c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and ol_o_id = o_id and ol_w_id = o_w_id
  and ol_d_id = o_d_id and ol_w_id = s_w_id and ol_i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ascii(substring(c_state, 1, 1)) = su_nationkey and su_nationkey = n_nationkey
  and n_regionkey = r_regionkey and r_name = 'Europe' and o_entry_d >= '2007-01-02 00:00:00'
group by n_name
order by revenue desc;
-- Q6: the amount of the lines delivered in the window (TPC-H's forecasting revenue change). The paper's upper
-- bound, 2020, is before any dbdyno load: it is 2100.
-- name: q6
select sum(ol_amount) as revenue
from order_line
where ol_delivery_d >= '1999-01-01 00:00:00' and ol_delivery_d < '2100-01-01 00:00:00'
  and ol_quantity between 1 and 100000;
-- Q7: revenue between German suppliers and Cambodian customers and back, by year (TPC-H's volume shipping).
-- name: q7
select su_nationkey as supp_nation, substring(c_state, 1, 1) as cust_nation, extract(year from o_entry_d) as l_year,
       sum(ol_amount) as revenue
from supplier, stock, order_line, orders, customer, nation n1, nation n2
where ol_supply_w_id = s_w_id and ol_i_id = s_i_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and c_id = o_c_id and c_w_id = o_w_id
  and c_d_id = o_d_id and su_nationkey = n1.n_nationkey and ascii(substring(c_state, 1, 1)) = n2.n_nationkey
  and ((n1.n_name = 'Germany' and n2.n_name = 'Cambodia') or (n1.n_name = 'Cambodia' and n2.n_name = 'Germany'))
group by su_nationkey, substring(c_state, 1, 1), extract(year from o_entry_d)
order by supp_nation, cust_nation, l_year;
-- Q8: German suppliers' share of the European customers' revenue on items below 1000 whose data ends in 'b', by
-- year (TPC-H's national market share). The divisor is nullif(..., 0): at the load the delivered lines' amounts
-- are 0, and a share of nothing is NULL rather than a division by zero.
-- name: q8
select extract(year from o_entry_d) as l_year,
       sum(case when n2.n_name = 'Germany' then ol_amount else 0 end) / nullif(sum(ol_amount), 0) as mkt_share
from item, supplier, stock, order_line, orders, customer, nation n1, nation n2, region
where i_id = s_i_id and ol_i_id = s_i_id and ol_supply_w_id = s_w_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and c_id = o_c_id and c_w_id = o_w_id
  and c_d_id = o_d_id and n1.n_nationkey = ascii(substring(c_state, 1, 1)) and n1.n_regionkey = r_regionkey
  and ol_i_id < 1000 and r_name = 'Europe' and su_nationkey = n2.n_nationkey and i_data like '%b'
  and i_id = ol_i_id
group by extract(year from o_entry_d)
order by l_year;
-- Q9: amount by supplier nation and year of the items whose data ends in 'bb' (TPC-H's product type profit).
-- name: q9
select n_name, extract(year from o_entry_d) as l_year, sum(ol_amount) as sum_profit
from item, stock, supplier, order_line, orders, nation
where ol_i_id = s_i_id and ol_supply_w_id = s_w_id and (s_w_id * s_i_id) % 10000 = su_suppkey
  and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and ol_i_id = i_id and su_nationkey = n_nationkey
  and i_data like '%bb'
group by n_name, extract(year from o_entry_d)
order by n_name, l_year desc;
-- Q10: customers by the amount of their delivered lines, with their nation (TPC-H's returned item reporting).
-- name: q10
select c_id, c_last, sum(ol_amount) as revenue, c_city, c_phone, n_name
from customer, orders, order_line, nation
where c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and ol_w_id = o_w_id and ol_d_id = o_d_id
  and ol_o_id = o_id and o_entry_d >= '2007-01-02 00:00:00' and o_entry_d <= ol_delivery_d
  and n_nationkey = ascii(substring(c_state, 1, 1))
group by c_id, c_last, c_city, c_phone, n_name
order by revenue desc;
-- Q11: the items of German suppliers' stock ordered more than 0.5% of all their orders (TPC-H's important stock
-- identification). Empty at the load, where every s_order_cnt is 0.
-- name: q11
select s_i_id, sum(s_order_cnt) as ordercount
from stock, supplier, nation
where (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey and n_name = 'Germany'
group by s_i_id
having sum(s_order_cnt) > (select sum(s_order_cnt) * .005
                           from stock, supplier, nation
                           where (s_w_id * s_i_id) % 10000 = su_suppkey and su_nationkey = n_nationkey
                             and n_name = 'Germany')
order by ordercount desc;
-- Q12: delivered lines by order size, of orders with carrier 1 or 2 and of the others (TPC-H's shipping modes
-- and order priority). The paper's upper bound, 2020, is 2100.
-- name: q12
select o_ol_cnt, sum(case when o_carrier_id = 1 or o_carrier_id = 2 then 1 else 0 end) as high_line_count,
       sum(case when o_carrier_id <> 1 and o_carrier_id <> 2 then 1 else 0 end) as low_line_count
from orders, order_line
where ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id and o_entry_d <= ol_delivery_d
  and ol_delivery_d < '2100-01-01 00:00:00'
group by o_ol_cnt
order by o_ol_cnt;
-- Q13: how many customers have how many orders with a carrier above 8 (TPC-H's customer distribution).
-- name: q13
select c_count, count(*) as custdist
from (select c_id, count(o_id) as c_count
      from customer left outer join orders on (c_w_id = o_w_id and c_d_id = o_d_id and c_id = o_c_id and o_carrier_id > 8)
      group by c_id) as c_orders
group by c_count
order by custdist desc, c_count desc;
-- Q14: the share of the delivered lines' amount that is of items whose data starts with 'PR' (TPC-H's
-- promotion effect). The paper's upper bound, 2020, is 2100.
-- name: q14
select 100.00 * sum(case when i_data like 'PR%' then ol_amount else 0 end) / (1 + sum(ol_amount)) as promo_revenue
from order_line, item
where ol_i_id = i_id and ol_delivery_d >= '2007-01-02 00:00:00' and ol_delivery_d < '2100-01-01 00:00:00';
-- Q15: the suppliers of the largest amount delivered since 2007 (TPC-H's top supplier). The paper's view
-- revenue0 is a WITH clause here. At the load every delivered amount is 0, so every supplier with a delivered
-- line ties.
-- name: q15
with revenue0 (supplier_no, total_revenue) as (
  select (s_w_id * s_i_id) % 10000, sum(ol_amount)
  from order_line, stock
  where ol_i_id = s_i_id and ol_supply_w_id = s_w_id and ol_delivery_d >= '2007-01-02 00:00:00'
  group by (s_w_id * s_i_id) % 10000)
select su_suppkey, su_name, su_address, su_phone, total_revenue
from supplier, revenue0
where su_suppkey = supplier_no and total_revenue = (select max(total_revenue) from revenue0)
order by su_suppkey;
-- Q16: suppliers per item, leaving out items whose data starts with 'zz' and suppliers whose comment says
-- 'bad' (TPC-H's parts/supplier relationship).
-- name: q16
select i_name, substring(i_data, 1, 3) as brand, i_price, count(distinct ((s_w_id * s_i_id) % 10000)) as supplier_cnt
from stock, item
where i_id = s_i_id and i_data not like 'zz%'
  and ((s_w_id * s_i_id) % 10000 not in (select su_suppkey from supplier where su_comment like '%bad%'))
group by i_name, substring(i_data, 1, 3), i_price
order by supplier_cnt desc;
-- Q17: the amount of the lines below their item's mean quantity, of items whose data ends in 'b' (TPC-H's
-- small-quantity-order revenue). The mean is of 1.0 * ol_quantity, so that no engine takes an integer mean.
-- Empty (NULL) at the load, where every line's quantity is 5.
-- name: q17
select sum(ol_amount) / 2.0 as avg_yearly
from order_line, (select i_id, avg(1.0 * ol_quantity) as a
                  from item, order_line
                  where i_data like '%b' and ol_i_id = i_id
                  group by i_id) t
where ol_i_id = t.i_id and ol_quantity < t.a;
-- Q18: orders whose lines amount to more than 200, with their customer (TPC-H's large volume customer).
-- name: q18
select c_last, c_id, o_id, o_entry_d, o_ol_cnt, sum(ol_amount) as amount_sum
from customer, orders, order_line
where c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id and ol_w_id = o_w_id and ol_d_id = o_d_id
  and ol_o_id = o_id
group by o_id, o_w_id, o_d_id, c_id, c_last, o_entry_d, o_ol_cnt
having sum(ol_amount) > 200
order by amount_sum desc, o_entry_d;
-- Q19: the amount of lines of items whose data ends in 'a', 'b' or 'c', each from its own warehouses (TPC-H's
-- discounted revenue).
-- name: q19
select sum(ol_amount) as revenue
from order_line, item
where (ol_i_id = i_id and i_data like '%a' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 2, 3))
   or (ol_i_id = i_id and i_data like '%b' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 2, 4))
   or (ol_i_id = i_id and i_data like '%c' and ol_quantity >= 1 and ol_quantity <= 10 and i_price between 1 and 400000
       and ol_w_id in (1, 5, 3));
-- Q20: German suppliers with a stock of more than half what was delivered of items whose data starts with 'c'
-- (TPC-H's potential part promotion). The paper's 'co%' matches one item in 3,844, and the few suppliers of
-- those are German one time in 62: at a small number of warehouses nothing matches, so it is 'c%'.
-- name: q20
select su_name, su_address
from supplier, nation
where su_suppkey in (select (s_i_id * s_w_id) % 10000
                     from stock inner join item on i_id = s_i_id inner join order_line on ol_i_id = s_i_id
                     where ol_delivery_d > '2010-05-23 12:00:00' and i_data like 'c%'
                     group by s_i_id, s_w_id, s_quantity
                     having 2 * s_quantity > sum(ol_quantity))
  and su_nationkey = n_nationkey and n_name = 'Germany'
order by su_name;
-- Q21: German suppliers by how many of their lines were the last of their order delivered, after the order was
-- entered (TPC-H's suppliers who kept orders waiting). Empty at the load, where lines are delivered as they
-- are entered.
-- name: q21
select su_name, count(*) as numwait
from supplier, order_line l1, orders, stock, nation
where ol_o_id = o_id and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_w_id = s_w_id and ol_i_id = s_i_id
  and (s_w_id * s_i_id) % 10000 = su_suppkey and l1.ol_delivery_d > o_entry_d
  and not exists (select * from order_line l2
                  where l2.ol_o_id = l1.ol_o_id and l2.ol_w_id = l1.ol_w_id and l2.ol_d_id = l1.ol_d_id
                    and l2.ol_delivery_d > l1.ol_delivery_d)
  and su_nationkey = n_nationkey and n_name = 'Germany'
group by su_name
order by numwait desc, su_name;
-- Q22: customers with phones starting 1-7, a balance above the positive mean and no orders, by the first
-- character of their state (TPC-H's global sales opportunity). Empty at the load, where every customer has an
-- order and no balance is positive.
-- name: q22
select substring(c_state, 1, 1) as country, count(*) as numcust, sum(c_balance) as totacctbal
from customer
where substring(c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7')
  and c_balance > (select avg(c_balance) from customer
                   where c_balance > 0.00 and substring(c_phone, 1, 1) in ('1', '2', '3', '4', '5', '6', '7'))
  and not exists (select * from orders where o_c_id = c_id and o_w_id = c_w_id and o_d_id = c_d_id)
group by substring(c_state, 1, 1)
order by country;
