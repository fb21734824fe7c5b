-- dbdyno TPC-E-derived workload: the statements outside the build's files.
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
SELECT se_t_id, 'no trade' FROM settlement WHERE NOT EXISTS (SELECT 1 FROM trade WHERE t_id = se_t_id);
-- A completed cash trade has one cash transaction of its settlement's amount; a margin trade has none (-1: no settlement).
-- name: check_cash
SELECT t_id, t_is_cash FROM trade JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE (t_is_cash = 1 AND (ct_t_id IS NULL OR ct_amt <> se_amt)) OR (t_is_cash = 0 AND ct_t_id IS NOT NULL)
UNION ALL
SELECT ct_t_id, -1 FROM cash_transaction WHERE NOT EXISTS (SELECT 1 FROM settlement WHERE se_t_id = ct_t_id);
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
-- ---- the transactions (--mode sql): each frame's statements, as docs/tpce.md describes them ----
-- Broker-Volume: the pending orders' value per broker (a range of 20-40 brokers) in one sector.
-- name: bv(b_lo, b_hi, sc_name)
SELECT b_name, sum(tr_qty * tr_bid_price) AS vol FROM trade_request
JOIN security ON s_symb = tr_s_symb JOIN company ON co_id = s_co_id JOIN industry ON in_id = co_in_id
JOIN sector ON sc_id = in_sc_id JOIN broker ON b_id = tr_b_id
WHERE b_id BETWEEN :b_lo AND :b_hi AND sc_name = :sc_name GROUP BY b_name ORDER BY vol DESC;
-- Customer-Position frame 1: the customer, by id or tax id, and up to 10 accounts with their assets.
-- name: cp_customer(c_id)
SELECT c_id, c_st_id, c_l_name, c_f_name, c_tier, c_dob, c_email_1 FROM customer WHERE c_id = :c_id;
-- name: cp_customer_tax(tax_id)
SELECT c_id, c_st_id, c_l_name, c_f_name, c_tier, c_dob, c_email_1 FROM customer WHERE c_tax_id = :tax_id;
-- name: cp_accounts(c_id)
SELECT ca_id, ca_bal, coalesce(sum(hs_qty * lt_price), 0) AS assets FROM customer_account
LEFT JOIN holding_summary ON hs_ca_id = ca_id LEFT JOIN last_trade ON lt_s_symb = hs_s_symb
WHERE ca_c_id = :c_id GROUP BY ca_id, ca_bal ORDER BY assets LIMIT 10;
-- Customer-Position frame 2: the account's 10 latest trades and their history.
-- name: cp_history(ca_id)
SELECT t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT t_id AS id FROM trade WHERE t_ca_id = :ca_id ORDER BY t_dts DESC, t_id DESC LIMIT 10) x
JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name LIMIT 30;
-- Market-Watch: the market capitalisation now and on the start day of a watch list, an account's holdings or an industry's companies.
-- name: mw_watch(c_id, day)
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM watch_list
JOIN watch_item ON wi_wl_id = wl_id JOIN last_trade ON lt_s_symb = wi_s_symb JOIN security ON s_symb = wi_s_symb
JOIN daily_market ON dm_s_symb = wi_s_symb AND dm_date = :day WHERE wl_c_id = :c_id;
-- name: mw_account(ca_id, day)
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM holding_summary
JOIN last_trade ON lt_s_symb = hs_s_symb JOIN security ON s_symb = hs_s_symb
JOIN daily_market ON dm_s_symb = hs_s_symb AND dm_date = :day WHERE hs_ca_id = :ca_id;
-- name: mw_industry(in_name, co_lo, co_hi, day)
SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM industry
JOIN company ON co_in_id = in_id JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
JOIN daily_market ON dm_s_symb = s_symb AND dm_date = :day WHERE in_name = :in_name AND co_id BETWEEN :co_lo AND :co_hi;
-- Security-Detail: the security, its company, addresses and exchange; competitors, financials, prices, news.
-- name: sd_security(symb)
SELECT s_name, co_id, co_name, co_sp_rate, co_ceo, co_desc, co_open_date, ca.ad_line1, zca.zc_town, zca.zc_div,
  ex_name, ex_open, ex_close, ex_num_symb, ea.ad_line1, zea.zc_town
FROM security JOIN company ON co_id = s_co_id JOIN address ca ON ca.ad_id = co_ad_id JOIN zip_code zca ON zca.zc_code = ca.ad_zc_code
JOIN exchange ON ex_id = s_ex_id JOIN address ea ON ea.ad_id = ex_ad_id JOIN zip_code zea ON zea.zc_code = ea.ad_zc_code
WHERE s_symb = :symb;
-- name: sd_competitors(co_id)
SELECT co_name, in_name FROM company_competitor JOIN company ON co_id = cp_comp_co_id JOIN industry ON in_id = cp_in_id
WHERE cp_co_id = :co_id ORDER BY cp_comp_co_id LIMIT 3;
-- name: sd_financial(co_id)
SELECT fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin
FROM financial WHERE fi_co_id = :co_id ORDER BY fi_year, fi_qtr LIMIT 20;
-- name: sd_daily(symb, day)
SELECT dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market WHERE dm_s_symb = :symb AND dm_date >= :day ORDER BY dm_date LIMIT 20;
-- name: sd_last(symb)
SELECT lt_price, lt_open_price, lt_vol FROM last_trade WHERE lt_s_symb = :symb;
-- name: sd_news(co_id)
SELECT ni_headline, ni_summary, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id WHERE nx_co_id = :co_id ORDER BY ni_id LIMIT 2;
-- name: sd_news_lob(co_id)
SELECT ni_item, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id WHERE nx_co_id = :co_id ORDER BY ni_id LIMIT 2;
-- Trade-Lookup and Trade-Update: trades with their settlement and cash transaction; their history.
-- name: tl_ids(t_lo, t_hi)
SELECT t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price, se_amt, se_cash_due_date, se_cash_type, ct_amt, ct_dts, ct_name
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_id BETWEEN :t_lo AND :t_hi ORDER BY t_id LIMIT 20;
-- name: tl_history(t_lo, t_hi)
SELECT th_t_id, th_dts, th_st_id FROM trade_history WHERE th_t_id BETWEEN :t_lo AND :t_hi ORDER BY th_t_id, th_dts;
-- name: tl_account(ca_id, t_start, t_end)
SELECT t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price, se_amt, se_cash_type, ct_amt, ct_name
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_ca_id = :ca_id AND t_dts BETWEEN :t_start AND :t_end ORDER BY t_dts, t_id LIMIT 20;
-- name: tl_symbol(symb, t_start, t_end)
SELECT t_id, t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_tt_id, se_amt, ct_amt
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_s_symb = :symb AND t_dts BETWEEN :t_start AND :t_end ORDER BY t_dts, t_id LIMIT 20;
-- name: tl_first(ca_id, t_start)
SELECT t_id FROM trade WHERE t_ca_id = :ca_id AND t_dts >= :t_start ORDER BY t_dts, t_id LIMIT 1;
-- name: tl_lots(t_id)
SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = :t_id) ORDER BY hh_t_id LIMIT 20;
-- name: tu_exec(t_lo, t_hi)
UPDATE trade SET t_exec_name = CASE WHEN replace(t_exec_name, ' X ', '') <> t_exec_name THEN replace(t_exec_name, ' X ', ' ')
  ELSE replace(t_exec_name, ' ', ' X ') END WHERE t_id BETWEEN :t_lo AND :t_hi;
-- name: tu_cash_type(t_id)
UPDATE settlement SET se_cash_type = CASE se_cash_type WHEN 'Cash Account' THEN 'Cash' WHEN 'Cash' THEN 'Cash Account'
  WHEN 'Margin' THEN 'Margin Account' ELSE 'Margin' END WHERE se_t_id = :t_id;
-- name: tu_ct_name(t_id)
UPDATE cash_transaction SET ct_name = CASE WHEN replace(ct_name, ' shares of ', '') <> ct_name THEN replace(ct_name, ' shares of ', ' Shares of ')
  ELSE replace(ct_name, ' Shares of ', ' shares of ') END WHERE ct_t_id = :t_id;
-- Trade-Status: the account's 50 latest trades, the customer's and broker's names.
-- name: ts(ca_id)
SELECT t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
WHERE t_ca_id = :ca_id ORDER BY t_dts DESC, t_id DESC LIMIT 50;
-- name: ts_names(ca_id)
SELECT c_l_name, c_f_name, b_name FROM customer_account JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = :ca_id;
-- Trade-Order frames 1-3: the account, customer and broker; another executor's permission; the security.
-- name: to_account(ca_id)
SELECT ca_b_id, ca_c_id, ca_tax_st, ca_bal, c_f_name, c_l_name, c_tier, c_tax_id, b_name FROM customer_account
JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = :ca_id;
-- name: to_permission(ca_id, tax_id)
SELECT ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = :ca_id AND ap_tax_id <> :tax_id ORDER BY ap_tax_id LIMIT 1;
-- name: to_security(symb)
SELECT s_ex_id, s_name, lt_price FROM security JOIN last_trade ON lt_s_symb = s_symb WHERE s_symb = :symb;
-- name: to_security_name(co_name, issue)
SELECT s_symb, s_ex_id, s_name, lt_price FROM company JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
WHERE co_name = :co_name AND s_issue = :issue;
-- name: to_holding(ca_id, symb)
SELECT coalesce(sum(hs_qty), 0) FROM holding_summary WHERE hs_ca_id = :ca_id AND hs_s_symb = :symb;
-- name: to_lots(ca_id, symb)
SELECT h_qty, h_price FROM holding WHERE h_ca_id = :ca_id AND h_s_symb = :symb ORDER BY h_dts DESC, h_t_id DESC;
-- name: to_charge(tt_id, tier)
SELECT ch_chrg FROM charge WHERE ch_tt_id = :tt_id AND ch_c_tier = :tier;
-- name: to_comm(tier, tt_id, ex_id, qty, qty2)
SELECT cr_rate FROM commission_rate WHERE cr_c_tier = :tier AND cr_tt_id = :tt_id AND cr_ex_id = :ex_id AND cr_from_qty <= :qty AND cr_to_qty >= :qty2;
-- name: to_tax(c_id)
SELECT coalesce(sum(tx_rate), 0) FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = :c_id;
-- name: to_assets(ca_id)
SELECT coalesce(sum(hs_qty * lt_price), 0) FROM holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb WHERE hs_ca_id = :ca_id;
-- Trade-Order frame 4: the trade (no price yet), the pending limit order, the first history row.
-- name: to_trade(t_id, dts, st_id, tt_id, is_cash, symb, qty, bid, ca_id, exec_name, chrg, comm, lifo)
INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price, t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
VALUES (:t_id, :dts, :st_id, :tt_id, :is_cash, :symb, :qty, :bid, :ca_id, :exec_name, NULL, :chrg, :comm, 0, :lifo);
-- name: to_request(t_id, tt_id, symb, qty, bid, b_id)
INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id) VALUES (:t_id, :tt_id, :symb, :qty, :bid, :b_id);
-- name: th_insert(t_id, dts, st_id)
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (:t_id, :dts, :st_id);
-- name: max_trade
SELECT coalesce(max(t_id), 0) FROM trade;
-- Trade-Result frames 1-6. Two Trade-Results of one account's position take turns: the position's summary and
-- lots are read with a lock (FOR UPDATE: the rows as committed, held to the end), so the second waits for the
-- first's commit and works from its rows instead of writing its own figures over them. PostgreSQL locks the
-- account in frame 1 too (its tx.sql), for a position not held yet, where there is no row to lock.
-- name: tr_trade(t_id)
SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name
FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
JOIN security ON s_symb = t_s_symb WHERE t_id = :t_id;
-- name: tr_hs(ca_id, symb)
SELECT hs_qty FROM holding_summary WHERE hs_ca_id = :ca_id AND hs_s_symb = :symb FOR UPDATE;
-- name: tr_lots_lifo(ca_id, symb)
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = :ca_id AND h_s_symb = :symb ORDER BY h_dts DESC, h_t_id DESC FOR UPDATE;
-- name: tr_lots_fifo(ca_id, symb)
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = :ca_id AND h_s_symb = :symb ORDER BY h_dts, h_t_id FOR UPDATE;
-- name: tr_hh(h_t_id, t_id, before_qty, after_qty)
INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (:h_t_id, :t_id, :before_qty, :after_qty);
-- name: tr_lot_update(h_t_id, qty)
UPDATE holding SET h_qty = :qty WHERE h_t_id = :h_t_id;
-- name: tr_lot_delete(h_t_id)
DELETE FROM holding WHERE h_t_id = :h_t_id;
-- name: tr_lot_insert(t_id, ca_id, symb, dts, price, qty)
INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (:t_id, :ca_id, :symb, :dts, :price, :qty);
-- name: tr_hs_insert(ca_id, symb, qty)
INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (:ca_id, :symb, :qty);
-- name: tr_hs_update(ca_id, symb, qty)
UPDATE holding_summary SET hs_qty = :qty WHERE hs_ca_id = :ca_id AND hs_s_symb = :symb;
-- name: tr_hs_delete(ca_id, symb)
DELETE FROM holding_summary WHERE hs_ca_id = :ca_id AND hs_s_symb = :symb;
-- name: tr_tax(t_id, tax)
UPDATE trade SET t_tax = :tax WHERE t_id = :t_id;
-- name: tr_complete(t_id, comm, dts, price)
UPDATE trade SET t_comm = :comm, t_dts = :dts, t_st_id = 'CMPT', t_trade_price = :price WHERE t_id = :t_id;
-- name: tr_broker(b_id, comm)
UPDATE broker SET b_comm_total = b_comm_total + :comm, b_num_trades = b_num_trades + 1 WHERE b_id = :b_id;
-- name: tr_settlement(t_id, cash_type, due, amt)
INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt) VALUES (:t_id, :cash_type, :due, :amt);
-- name: tr_balance(ca_id, amt)
UPDATE customer_account SET ca_bal = ca_bal + :amt WHERE ca_id = :ca_id;
-- name: tr_bal(ca_id)
SELECT ca_bal FROM customer_account WHERE ca_id = :ca_id;
-- name: tr_cash(t_id, dts, amt, ct_name)
INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES (:t_id, :dts, :amt, :ct_name);
-- Market-Feed: the ticker's prices, and the limit orders they trigger.
-- name: mf_last(symb, price, qty, dts)
UPDATE last_trade SET lt_price = :price, lt_vol = lt_vol + :qty, lt_dts = :dts WHERE lt_s_symb = :symb;
-- name: mf_triggered(symb, p1, p2, p3)
SELECT tr_t_id FROM trade_request WHERE tr_s_symb = :symb
  AND ((tr_tt_id = 'TSL' AND tr_bid_price >= :p1) OR (tr_tt_id = 'TLS' AND tr_bid_price <= :p2) OR (tr_tt_id = 'TLB' AND tr_bid_price >= :p3))
ORDER BY tr_t_id;
-- name: mf_submit(t_id, dts)
UPDATE trade SET t_st_id = 'SBMT', t_dts = :dts WHERE t_id = :t_id;
-- name: mf_request_done(t_id)
DELETE FROM trade_request WHERE tr_t_id = :t_id;
-- Trade-Cleanup, before a run: pending orders and submitted ones left by an earlier run are cancelled; those
-- whose trade id is the residue modulo the shards (a shard's own ids; all: 1, 0).
-- name: tc_pending_sbmt(dts, shards, residue)
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, :dts, 'SBMT' FROM trade_request
WHERE tr_t_id % :shards = :residue AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = tr_t_id AND th_st_id = 'SBMT');
-- name: tc_pending_cncl(dts, shards, residue)
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, :dts, 'CNCL' FROM trade_request WHERE tr_t_id % :shards = :residue;
-- name: tc_pending_trades(shards, residue)
UPDATE trade SET t_st_id = 'CNCL' WHERE t_id IN (SELECT tr_t_id FROM trade_request WHERE tr_t_id % :shards = :residue);
-- name: tc_pending_done(shards, residue)
DELETE FROM trade_request WHERE tr_t_id % :shards = :residue;
-- name: tc_submitted_cncl(dts, first, shards, residue)
INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT t_id, :dts, 'CNCL' FROM trade
WHERE t_id >= :first AND t_st_id = 'SBMT' AND t_id % :shards = :residue;
-- name: tc_submitted(first, shards, residue)
UPDATE trade SET t_st_id = 'CNCL' WHERE t_id >= :first AND t_st_id = 'SBMT' AND t_id % :shards = :residue;
-- Data-Maintenance: one table a call, in turn.
-- name: dm_account_permission(ca_id)
UPDATE account_permission SET ap_acl = CASE WHEN ap_acl = '1111' THEN '0011' ELSE '1111' END WHERE ap_ca_id = :ca_id;
-- name: dm_address(ad_id, line2)
UPDATE address SET ad_line2 = :line2 WHERE ad_id = :ad_id;
-- name: dm_company(co_id, rate)
UPDATE company SET co_sp_rate = :rate WHERE co_id = :co_id;
-- name: dm_customer(c_id, email)
UPDATE customer SET c_email_2 = :email WHERE c_id = :c_id;
-- name: dm_customer_taxrate(c_id, old_id, new_id)
UPDATE customer_taxrate SET cx_tx_id = :new_id WHERE cx_c_id = :c_id AND cx_tx_id = :old_id;
-- name: dm_taxrate_of(c_id)
SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = :c_id AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
-- name: dm_daily_market(symb, day, vol)
UPDATE daily_market SET dm_vol = dm_vol + :vol WHERE dm_s_symb = :symb AND dm_date = :day;
-- name: dm_exchange(ex_id, descr)
UPDATE exchange SET ex_desc = :descr WHERE ex_id = :ex_id;
-- name: dm_financial(co_id, day)
UPDATE financial SET fi_qtr_start_date = :day WHERE fi_co_id = :co_id AND fi_year = 2000 AND fi_qtr = 1;
-- name: dm_news_item(ni_id, dts)
UPDATE news_item SET ni_dts = :dts WHERE ni_id = :ni_id;
-- name: dm_security(symb, day)
UPDATE security SET s_exch_date = :day WHERE s_symb = :symb;
-- name: dm_taxrate(tx_id, tx_name)
UPDATE taxrate SET tx_name = :tx_name WHERE tx_id = :tx_id;
-- name: dm_watch_has(c_id, symb)
SELECT count(*) FROM watch_item WHERE wi_wl_id = :c_id AND wi_s_symb = :symb;
-- name: dm_watch_first(c_id)
SELECT min(wi_s_symb) FROM watch_item WHERE wi_wl_id = :c_id;
-- name: dm_watch_item(c_id, old_symb, new_symb)
UPDATE watch_item SET wi_s_symb = :new_symb WHERE wi_wl_id = :c_id AND wi_s_symb = :old_symb;
-- A virtual user's transaction: begin, commit, rollback on its connection (its statements prepared there).
-- name: begin_write
BEGIN;
-- name: commit
COMMIT;
-- name: rollback
ROLLBACK;
