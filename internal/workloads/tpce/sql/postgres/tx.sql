-- PostgreSQL: Trade-Result's frame 1 locks the account's row (FOR UPDATE OF customer_account), so that two
-- Trade-Results of one account take turns even for a position it does not hold yet (no summary row to lock:
-- the second would insert one beside the first's); each later statement then reads what the first committed.
-- name: tr_trade(t_id)
SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name
FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
JOIN security ON s_symb = t_s_symb WHERE t_id = :t_id FOR UPDATE OF customer_account;
