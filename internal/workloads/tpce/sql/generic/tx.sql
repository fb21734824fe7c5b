-- dbdyno TPC-E-derived workload: the statements outside the build's files.
-- After the load: each broker's completed trades and the sum of their commissions, as the specification loads them.
-- name: broker_totals
UPDATE broker SET
  b_num_trades = (SELECT count(*) FROM trade JOIN customer_account ON ca_id = t_ca_id WHERE ca_b_id = b_id AND t_st_id = 'CMPT'),
  b_comm_total = (SELECT coalesce(sum(t_comm), 0) FROM trade JOIN customer_account ON ca_id = t_ca_id WHERE ca_b_id = b_id AND t_st_id = 'CMPT');
-- Consistency conditions (`tpce check`): each returns the rows that break it, as (key, detail).
-- Each broker's b_num_trades and b_comm_total are its accounts' completed trades and their commissions.
-- name: check_brokers
SELECT b_id, b_num_trades FROM broker
LEFT JOIN (SELECT ca_b_id, count(*) AS n, sum(t_comm) AS comm FROM trade JOIN customer_account ON ca_id = t_ca_id
           WHERE t_st_id = 'CMPT' GROUP BY ca_b_id) x ON x.ca_b_id = b_id
WHERE b_num_trades <> coalesce(x.n, 0) OR abs(b_comm_total - coalesce(x.comm, 0)) >= 0.005;
-- Each holding summary is the sum of its holdings (and not 0); every holding has its summary.
-- name: check_holdings
SELECT hs_ca_id, hs_s_symb FROM holding_summary
LEFT JOIN (SELECT h_ca_id, h_s_symb, sum(h_qty) AS q FROM holding GROUP BY h_ca_id, h_s_symb) h
  ON h.h_ca_id = hs_ca_id AND h.h_s_symb = hs_s_symb
WHERE h.q IS NULL OR h.q <> hs_qty OR hs_qty = 0
UNION ALL
SELECT h_ca_id, h_s_symb FROM holding WHERE NOT EXISTS (SELECT 1 FROM holding_summary WHERE hs_ca_id = h_ca_id AND hs_s_symb = h_s_symb);
-- Every completed trade has one settlement, and only completed trades have one.
-- name: check_settlements
SELECT t_id, t_st_id FROM trade LEFT JOIN settlement ON se_t_id = t_id
WHERE (t_st_id = 'CMPT' AND se_t_id IS NULL) OR (t_st_id <> 'CMPT' AND se_t_id IS NOT NULL)
UNION ALL
SELECT se_t_id, se_amt FROM settlement WHERE NOT EXISTS (SELECT 1 FROM trade WHERE t_id = se_t_id);
-- A completed cash trade has one cash transaction of its settlement's amount; a margin trade has none.
-- name: check_cash
SELECT t_id, t_is_cash FROM trade JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE (t_is_cash = 1 AND (ct_t_id IS NULL OR ct_amt <> se_amt)) OR (t_is_cash = 0 AND ct_t_id IS NOT NULL)
UNION ALL
SELECT ct_t_id, ct_amt FROM cash_transaction WHERE NOT EXISTS (SELECT 1 FROM settlement WHERE se_t_id = ct_t_id);
-- Each account's balance is its opening balance plus its cash transactions (to the cent: SQLite sums in floating point).
-- name: check_balances
SELECT ca_id, ca_bal FROM customer_account
LEFT JOIN dbdyno_tpce_opening ON ob_ca_id = ca_id
LEFT JOIN (SELECT t_ca_id, sum(ct_amt) AS s FROM cash_transaction JOIN trade ON t_id = ct_t_id GROUP BY t_ca_id) x ON x.t_ca_id = ca_id
WHERE ob_ca_id IS NULL OR abs(ca_bal - ob_bal - coalesce(x.s, 0)) >= 0.005;
-- A trade has its price exactly when it is completed, and a completed trade its CMPT history row.
-- name: check_trades
SELECT t_id, t_st_id FROM trade
WHERE (t_st_id = 'CMPT' AND t_trade_price IS NULL) OR (t_st_id <> 'CMPT' AND t_trade_price IS NOT NULL)
   OR (t_st_id = 'CMPT' AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = t_id AND th_st_id = 'CMPT'));
