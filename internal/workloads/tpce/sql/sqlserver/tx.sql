-- SQL Server: TOP n where the other engines say LIMIT n, and Trade-Result's lock below; the rest is the generic
-- statements.
-- name: cp_accounts(c_id)
SELECT TOP 10 ca_id, ca_bal, coalesce(sum(hs_qty * lt_price), 0) AS assets FROM customer_account
LEFT JOIN holding_summary ON hs_ca_id = ca_id LEFT JOIN last_trade ON lt_s_symb = hs_s_symb
WHERE ca_c_id = :c_id GROUP BY ca_id, ca_bal ORDER BY assets;
-- name: cp_history(ca_id)
SELECT TOP 30 t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT TOP 10 t_id AS id FROM trade WHERE t_ca_id = :ca_id ORDER BY t_dts DESC, t_id DESC) x
JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name;
-- name: sd_competitors(co_id)
SELECT TOP 3 co_name, in_name FROM company_competitor JOIN company ON co_id = cp_comp_co_id JOIN industry ON in_id = cp_in_id
WHERE cp_co_id = :co_id ORDER BY cp_comp_co_id;
-- name: sd_financial(co_id)
SELECT TOP 20 fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin
FROM financial WHERE fi_co_id = :co_id ORDER BY fi_year, fi_qtr;
-- name: sd_daily(symb, day)
SELECT TOP 20 dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market WHERE dm_s_symb = :symb AND dm_date >= :day ORDER BY dm_date;
-- name: sd_news(co_id)
SELECT TOP 2 ni_headline, ni_summary, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id WHERE nx_co_id = :co_id ORDER BY ni_id;
-- name: sd_news_lob(co_id)
SELECT TOP 2 ni_item, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id WHERE nx_co_id = :co_id ORDER BY ni_id;
-- name: tl_ids(t_lo, t_hi)
SELECT TOP 20 t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price, se_amt, se_cash_due_date, se_cash_type, ct_amt, ct_dts, ct_name
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_id BETWEEN :t_lo AND :t_hi ORDER BY t_id;
-- name: tl_account(ca_id, t_start, t_end)
SELECT TOP 20 t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price, se_amt, se_cash_type, ct_amt, ct_name
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_ca_id = :ca_id AND t_dts BETWEEN :t_start AND :t_end ORDER BY t_dts, t_id;
-- name: tl_symbol(symb, t_start, t_end)
SELECT TOP 20 t_id, t_ca_id, t_exec_name, t_is_cash, t_trade_price, t_qty, t_dts, t_tt_id, se_amt, ct_amt
FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
WHERE t_s_symb = :symb AND t_dts BETWEEN :t_start AND :t_end ORDER BY t_dts, t_id;
-- name: tl_first(ca_id, t_start)
SELECT TOP 1 t_id FROM trade WHERE t_ca_id = :ca_id AND t_dts >= :t_start ORDER BY t_dts, t_id;
-- name: tl_lots(t_id)
SELECT TOP 20 hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = :t_id) ORDER BY hh_t_id;
-- name: ts(ca_id)
SELECT TOP 50 t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
WHERE t_ca_id = :ca_id ORDER BY t_dts DESC, t_id DESC;
-- name: to_permission(ca_id, tax_id)
SELECT TOP 1 ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = :ca_id AND ap_tax_id <> :tax_id ORDER BY ap_tax_id;
-- name: begin_write
BEGIN TRANSACTION;
-- name: commit
COMMIT TRANSACTION;
-- name: rollback
IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION;
-- Trade-Result's frame 1 locks the account (an update of nothing, held to the end) before it reads the
-- position, so that two Trade-Results of one account take turns; the lots are then read as committed.
-- (UPDLOCK would lock only a summary that exists, and Babelfish ignores it.)
-- name: tr_hs(ca_id, symb)
UPDATE customer_account SET ca_bal = ca_bal WHERE ca_id = :ca_id;
SELECT hs_qty FROM holding_summary WHERE hs_ca_id = :ca_id AND hs_s_symb = :symb;
-- name: tr_lots_lifo(ca_id, symb)
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = :ca_id AND h_s_symb = :symb ORDER BY h_dts DESC, h_t_id DESC;
-- name: tr_lots_fifo(ca_id, symb)
SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = :ca_id AND h_s_symb = :symb ORDER BY h_dts, h_t_id;
