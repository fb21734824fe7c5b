-- dbdyno TPC-E-derived frames as SQL Server stored procedures (--mode procedures): one EXEC per frame, each
-- returning the frame's outputs as one result set, as the client builds them in --mode sql
-- (internal/workloads/tpce/frames.go). The client keeps the transaction. Lots and triggered orders are walked
-- through numbered table variables rather than cursors; a row is written first and read after, never read into
-- a variable by the UPDATE itself (Babelfish gives @v the new value there), and no table hint is relied on.
-- Installed by `dbdyno tpce build`; dropped by `dbdyno tpce drop`.
-- name: dbdyno_tpce_bv1
CREATE OR ALTER PROCEDURE dbdyno_tpce_bv1 @b_lo bigint, @b_hi bigint, @sc_name varchar(30)
AS
BEGIN
  SET NOCOUNT ON;
  SELECT b_name, sum(tr_qty * tr_bid_price) AS vol FROM trade_request
  JOIN security ON s_symb = tr_s_symb JOIN company ON co_id = s_co_id JOIN industry ON in_id = co_in_id
  JOIN sector ON sc_id = in_sc_id JOIN broker ON b_id = tr_b_id
  WHERE b_id BETWEEN @b_lo AND @b_hi AND sc_name = @sc_name GROUP BY b_name ORDER BY vol DESC;
END;
-- name: dbdyno_tpce_cp1
CREATE OR ALTER PROCEDURE dbdyno_tpce_cp1 @by_tax int, @c_id bigint, @tax_id varchar(20)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @c bigint;
  IF @by_tax = 1
    SELECT @c = c_id FROM customer WHERE c_tax_id = @tax_id;
  ELSE
    SELECT @c = c_id FROM customer WHERE c_id = @c_id;
  SELECT TOP 10 ca_id, ca_bal, coalesce(sum(hs_qty * lt_price), 0) AS assets FROM customer_account
    LEFT JOIN holding_summary ON hs_ca_id = ca_id LEFT JOIN last_trade ON lt_s_symb = hs_s_symb
    WHERE ca_c_id = @c GROUP BY ca_id, ca_bal ORDER BY assets;
END;
-- name: dbdyno_tpce_cp2
CREATE OR ALTER PROCEDURE dbdyno_tpce_cp2 @ca_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  SELECT TOP 30 t_id, t_s_symb, t_qty, st_name, th_dts FROM (SELECT TOP 10 t_id AS id FROM trade WHERE t_ca_id = @ca_id ORDER BY t_dts DESC, t_id DESC) x
  JOIN trade ON t_id = x.id JOIN trade_history ON th_t_id = t_id JOIN status_type ON st_id = th_st_id ORDER BY th_dts DESC, t_id DESC, st_name;
END;
-- name: dbdyno_tpce_mw1
CREATE OR ALTER PROCEDURE dbdyno_tpce_mw1 @kind int, @c_id bigint, @ca_id bigint, @in_name varchar(50), @co_lo bigint, @co_hi bigint, @day date
AS
BEGIN
  SET NOCOUNT ON;
  IF @kind = 0
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM watch_list
      JOIN watch_item ON wi_wl_id = wl_id JOIN last_trade ON lt_s_symb = wi_s_symb JOIN security ON s_symb = wi_s_symb
      JOIN daily_market ON dm_s_symb = wi_s_symb AND dm_date = @day WHERE wl_c_id = @c_id;
  ELSE IF @kind = 1
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM holding_summary
      JOIN last_trade ON lt_s_symb = hs_s_symb JOIN security ON s_symb = hs_s_symb
      JOIN daily_market ON dm_s_symb = hs_s_symb AND dm_date = @day WHERE hs_ca_id = @ca_id;
  ELSE
    SELECT coalesce(sum(lt_price * s_num_out), 0), coalesce(sum(dm_close * s_num_out), 0) FROM industry
      JOIN company ON co_in_id = in_id JOIN security ON s_co_id = co_id JOIN last_trade ON lt_s_symb = s_symb
      JOIN daily_market ON dm_s_symb = s_symb AND dm_date = @day WHERE in_name = @in_name AND co_id BETWEEN @co_lo AND @co_hi;
END;
-- name: dbdyno_tpce_sd1
CREATE OR ALTER PROCEDURE dbdyno_tpce_sd1 @symb varchar(15), @co_id bigint, @day date, @lob int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @s_name varchar(70), @co varchar(60), @comp bigint, @fin bigint, @days bigint, @news bigint, @lt numeric(12,2);
  DECLARE @sp varchar(4), @ceo varchar(46), @desc varchar(150), @open date, @line varchar(80), @town varchar(80), @div varchar(80);
  DECLARE @ex_name varchar(100), @ex_open int, @ex_close int, @ex_num int, @ex_line varchar(80), @ex_town varchar(80);
  SELECT @s_name = s_name, @co = co_name, @sp = co_sp_rate, @ceo = co_ceo, @desc = co_desc, @open = co_open_date, @line = ca.ad_line1,
    @town = zca.zc_town, @div = zca.zc_div, @ex_name = ex_name, @ex_open = ex_open, @ex_close = ex_close, @ex_num = ex_num_symb,
    @ex_line = ea.ad_line1, @ex_town = zea.zc_town
  FROM security JOIN company ON co_id = s_co_id JOIN address ca ON ca.ad_id = co_ad_id JOIN zip_code zca ON zca.zc_code = ca.ad_zc_code
  JOIN exchange ON ex_id = s_ex_id JOIN address ea ON ea.ad_id = ex_ad_id JOIN zip_code zea ON zea.zc_code = ea.ad_zc_code
  WHERE s_symb = @symb;
  SELECT @comp = count(*) FROM (SELECT TOP 3 co_name, in_name FROM company_competitor JOIN company ON co_id = cp_comp_co_id
    JOIN industry ON in_id = cp_in_id WHERE cp_co_id = @co_id ORDER BY cp_comp_co_id) x;
  SELECT @fin = count(*) FROM (SELECT TOP 20 fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin
    FROM financial WHERE fi_co_id = @co_id ORDER BY fi_year, fi_qtr) x;
  SELECT @days = count(*) FROM (SELECT TOP 20 dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market
    WHERE dm_s_symb = @symb AND dm_date >= @day ORDER BY dm_date) x;
  SELECT @lt = lt_price FROM last_trade WHERE lt_s_symb = @symb;
  IF @lob = 1
    SELECT @news = count(*) FROM (SELECT TOP 2 ni_item, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id
      WHERE nx_co_id = @co_id ORDER BY ni_id) x;
  ELSE
    SELECT @news = count(*) FROM (SELECT TOP 2 ni_headline, ni_summary, ni_dts, ni_source, ni_author FROM news_xref JOIN news_item ON ni_id = nx_ni_id
      WHERE nx_co_id = @co_id ORDER BY ni_id) x;
  SELECT @s_name AS s_name, @co AS co_name, @comp AS comp, @fin AS fin, @days AS days, @lt AS lt_price, @news AS news WHERE @s_name IS NOT NULL;
END;
-- name: dbdyno_tpce_tl1
CREATE OR ALTER PROCEDURE dbdyno_tpce_tl1 @update int, @t_lo bigint, @t_hi bigint
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint, @amt numeric(14,2), @hist bigint;
  IF @update = 1
    UPDATE trade SET t_exec_name = CASE WHEN replace(t_exec_name, ' X ', '') <> t_exec_name THEN replace(t_exec_name, ' X ', ' ')
      ELSE replace(t_exec_name, ' ', ' X ') END WHERE t_id BETWEEN @t_lo AND @t_hi;
  SELECT @n = count(*), @amt = coalesce(sum(se_amt), 0) FROM (SELECT TOP 20 t_id, t_bid_price, t_exec_name, t_is_cash, t_trade_price,
    se_amt, se_cash_due_date, se_cash_type, ct_amt, ct_dts, ct_name
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_id BETWEEN @t_lo AND @t_hi ORDER BY t_id) x;
  SELECT @hist = count(*) FROM trade_history WHERE th_t_id BETWEEN @t_lo AND @t_hi;
  SELECT @n AS trades, @amt AS amt, @hist AS hist;
END;
-- name: dbdyno_tpce_tl2
CREATE OR ALTER PROCEDURE dbdyno_tpce_tl2 @update int, @ca_id bigint, @start datetime2(0), @end datetime2(0)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint, @amt numeric(14,2);
  SELECT @n = count(*), @amt = coalesce(sum(se_amt), 0) FROM (SELECT TOP 20 t_id, t_bid_price, t_exec_name,
    t_is_cash, t_trade_price, se_amt, se_cash_type, ct_amt, ct_name
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_ca_id = @ca_id AND t_dts BETWEEN @start AND @end ORDER BY t_dts, t_id) x;
  IF @update = 1
    UPDATE settlement SET se_cash_type = CASE se_cash_type WHEN 'Cash Account' THEN 'Cash' WHEN 'Cash' THEN 'Cash Account'
      WHEN 'Margin' THEN 'Margin Account' ELSE 'Margin' END
    WHERE se_t_id IN (SELECT TOP 20 t_id FROM trade WHERE t_ca_id = @ca_id AND t_dts BETWEEN @start AND @end ORDER BY t_dts, t_id);
  SELECT @n AS trades, @amt AS amt;
END;
-- name: dbdyno_tpce_tl3
CREATE OR ALTER PROCEDURE dbdyno_tpce_tl3 @update int, @symb varchar(15), @start datetime2(0), @end datetime2(0)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint, @qty bigint;
  SELECT @n = count(*), @qty = coalesce(sum(CAST(t_qty AS bigint)), 0) FROM (SELECT TOP 20 t_id, t_ca_id, t_exec_name,
    t_is_cash, t_trade_price, t_qty, t_dts, t_tt_id, se_amt, ct_amt
    FROM trade LEFT JOIN settlement ON se_t_id = t_id LEFT JOIN cash_transaction ON ct_t_id = t_id
    WHERE t_s_symb = @symb AND t_dts BETWEEN @start AND @end ORDER BY t_dts, t_id) x;
  IF @update = 1
    UPDATE cash_transaction SET ct_name = CASE WHEN replace(ct_name, ' shares of ', '') <> ct_name THEN replace(ct_name, ' shares of ', ' Shares of ')
      ELSE replace(ct_name, ' Shares of ', ' shares of ') END
    WHERE ct_t_id IN (SELECT TOP 20 t_id FROM trade WHERE t_s_symb = @symb AND t_dts BETWEEN @start AND @end ORDER BY t_dts, t_id);
  SELECT @n AS trades, @qty AS qty;
END;
-- name: dbdyno_tpce_tl4
CREATE OR ALTER PROCEDURE dbdyno_tpce_tl4 @ca_id bigint, @start datetime2(0)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @id bigint, @lots bigint;
  SET @lots = 0;
  SELECT TOP 1 @id = t_id FROM trade WHERE t_ca_id = @ca_id AND t_dts >= @start ORDER BY t_dts, t_id;
  IF @id IS NULL
    SET @id = 0;
  ELSE
    SELECT @lots = count(*) FROM (SELECT TOP 20 hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history
      WHERE hh_h_t_id IN (SELECT hh_h_t_id FROM holding_history WHERE hh_t_id = @id) ORDER BY hh_t_id) x;
  SELECT @id AS t_id, @lots AS lots;
END;
-- name: dbdyno_tpce_ts1
CREATE OR ALTER PROCEDURE dbdyno_tpce_ts1 @ca_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint;
  SELECT @n = count(*) FROM (SELECT TOP 50 t_id, t_dts, st_name, tt_name, t_s_symb, t_qty, t_exec_name, t_chrg, s_name, ex_name FROM trade
    JOIN status_type ON st_id = t_st_id JOIN trade_type ON tt_id = t_tt_id JOIN security ON s_symb = t_s_symb JOIN exchange ON ex_id = s_ex_id
    WHERE t_ca_id = @ca_id ORDER BY t_dts DESC, t_id DESC) x;
  SELECT @n AS trades, c_l_name, c_f_name, b_name FROM customer_account
    JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = @ca_id;
END;
-- name: dbdyno_tpce_to1
CREATE OR ALTER PROCEDURE dbdyno_tpce_to1 @ca_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  SELECT ca_b_id, ca_c_id, ca_tax_st, ca_bal, c_f_name, c_l_name, c_tier, c_tax_id, b_name FROM customer_account
  JOIN customer ON c_id = ca_c_id JOIN broker ON b_id = ca_b_id WHERE ca_id = @ca_id;
END;
-- name: dbdyno_tpce_to2
CREATE OR ALTER PROCEDURE dbdyno_tpce_to2 @ca_id bigint, @tax_id varchar(20)
AS
BEGIN
  SET NOCOUNT ON;
  SELECT TOP 1 ap_f_name, ap_l_name, ap_acl FROM account_permission WHERE ap_ca_id = @ca_id AND ap_tax_id <> @tax_id ORDER BY ap_tax_id;
END;
-- name: dbdyno_tpce_to3
CREATE OR ALTER PROCEDURE dbdyno_tpce_to3 @by_name int, @symb varchar(15), @co_name varchar(60), @issue varchar(6), @ca_id bigint, @c_id bigint,
  @tier int, @tt_id varchar(3), @qty int, @tax int, @margin int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @s varchar(15), @ex_id varchar(6), @s_name varchar(70), @lt numeric(12,2), @held bigint, @lots bigint;
  DECLARE @chrg numeric(10,2), @rate numeric(5,2), @tx numeric(8,5), @assets numeric(20,2);
  IF @by_name = 1
    SELECT @s = s_symb, @ex_id = s_ex_id, @s_name = s_name, @lt = lt_price FROM company JOIN security ON s_co_id = co_id
      JOIN last_trade ON lt_s_symb = s_symb WHERE co_name = @co_name AND s_issue = @issue;
  ELSE
    SELECT @s = s_symb, @ex_id = s_ex_id, @s_name = s_name, @lt = lt_price FROM security
      JOIN last_trade ON lt_s_symb = s_symb WHERE s_symb = @symb;
  SELECT @held = coalesce(sum(hs_qty), 0) FROM holding_summary WHERE hs_ca_id = @ca_id AND hs_s_symb = @s;
  SELECT @lots = count(*) FROM holding WHERE h_ca_id = @ca_id AND h_s_symb = @s;
  SELECT @chrg = ch_chrg FROM charge WHERE ch_tt_id = @tt_id AND ch_c_tier = @tier;
  SELECT @rate = cr_rate FROM commission_rate WHERE cr_c_tier = @tier AND cr_tt_id = @tt_id AND cr_ex_id = @ex_id
    AND cr_from_qty <= @qty AND cr_to_qty >= @qty;
  SET @tx = 0;
  SET @assets = 0;
  IF @tax = 1
    SELECT @tx = coalesce(sum(tx_rate), 0) FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = @c_id;
  IF @margin = 1
    SELECT @assets = coalesce(sum(hs_qty * lt_price), 0) FROM holding_summary JOIN last_trade ON lt_s_symb = hs_s_symb WHERE hs_ca_id = @ca_id;
  SELECT @s AS symb, @ex_id AS ex_id, @s_name AS s_name, @lt AS lt_price, @held AS held, @lots AS lots, @chrg AS chrg, @rate AS rate,
    @tx AS tax, @assets AS assets WHERE @s IS NOT NULL;
END;
-- name: dbdyno_tpce_to4
CREATE OR ALTER PROCEDURE dbdyno_tpce_to4 @t_id bigint, @dts datetime2(0), @st_id varchar(4), @tt_id varchar(3), @is_cash int, @symb varchar(15),
  @qty int, @bid numeric(12,2), @ca_id bigint, @exec_name varchar(49), @chrg numeric(10,2), @comm numeric(10,2), @lifo int, @pending int, @b_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  INSERT INTO trade (t_id, t_dts, t_st_id, t_tt_id, t_is_cash, t_s_symb, t_qty, t_bid_price, t_ca_id, t_exec_name, t_trade_price, t_chrg, t_comm, t_tax, t_lifo)
    VALUES (@t_id, @dts, @st_id, @tt_id, @is_cash, @symb, @qty, @bid, @ca_id, @exec_name, NULL, @chrg, @comm, 0, @lifo);
  IF @pending = 1
    INSERT INTO trade_request (tr_t_id, tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id) VALUES (@t_id, @tt_id, @symb, @qty, @bid, @b_id);
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@t_id, @dts, @st_id);
  SELECT @t_id AS t_id;
END;
-- name: dbdyno_tpce_tr1
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr1 @t_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @ca bigint, @symb varchar(15), @hs int, @has int;
  SELECT @ca = t_ca_id, @symb = t_s_symb FROM trade WHERE t_id = @t_id;
  UPDATE customer_account SET ca_bal = ca_bal WHERE ca_id = @ca; -- the account's Trade-Results take turns
  SET @has = 0;
  SELECT @hs = hs_qty, @has = 1 FROM holding_summary WHERE hs_ca_id = @ca AND hs_s_symb = @symb;
  SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash, tt_name, tt_is_sell, ca_b_id, ca_c_id, ca_tax_st, c_tier, s_ex_id, s_name,
      @has AS has_hs, coalesce(@hs, 0) AS hs_qty
    FROM trade JOIN trade_type ON tt_id = t_tt_id JOIN customer_account ON ca_id = t_ca_id JOIN customer ON c_id = ca_c_id
    JOIN security ON s_symb = t_s_symb WHERE t_id = @t_id;
END;
-- name: dbdyno_tpce_tr2
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr2 @t_id bigint, @ca_id bigint, @symb varchar(15), @qty int, @sell int, @lifo int, @price numeric(12,2),
  @dts datetime2(0), @hs_qty int, @has_hs int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @sign int, @left int, @take int, @after int, @new int, @i int, @n int, @id bigint, @lq int, @lp numeric(12,2);
  DECLARE @buy numeric(20,2), @sellv numeric(20,2);
  -- a sell closes long lots, a buy short ones, in LIFO or FIFO order; the rest opens a lot of its own
  DECLARE @lots TABLE (n int NOT NULL PRIMARY KEY, id bigint NOT NULL, qty int NOT NULL, price numeric(12,2) NOT NULL);
  INSERT INTO @lots (n, id, qty, price)
    SELECT ROW_NUMBER() OVER (ORDER BY CASE WHEN @lifo = 1 THEN h_dts END DESC, CASE WHEN @lifo = 1 THEN h_t_id END DESC, h_dts, h_t_id),
      h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = @ca_id AND h_s_symb = @symb;
  SET @sign = CASE WHEN @sell = 1 THEN -1 ELSE 1 END;
  SET @left = @qty;
  SET @buy = 0;
  SET @sellv = 0;
  SET @i = 1;
  SELECT @n = count(*) FROM @lots;
  WHILE @i <= @n AND @left > 0
  BEGIN
    SELECT @id = id, @lq = qty, @lp = price FROM @lots WHERE n = @i;
    IF @lq * @sign >= 0
      BREAK;
    SET @take = CASE WHEN @left < abs(@lq) THEN @left ELSE abs(@lq) END;
    SET @after = @lq + @sign * @take;
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (@id, @t_id, @lq, @after);
    IF @after = 0
      DELETE FROM holding WHERE h_t_id = @id;
    ELSE
      UPDATE holding SET h_qty = @after WHERE h_t_id = @id;
    -- selling a long lot: bought at its price; covering a short lot: sold at its price
    SET @buy = @buy + @take * CASE WHEN @sign < 0 THEN @lp ELSE @price END;
    SET @sellv = @sellv + @take * CASE WHEN @sign < 0 THEN @price ELSE @lp END;
    SET @left = @left - @take;
    SET @i = @i + 1;
  END;
  IF @left > 0
  BEGIN
    INSERT INTO holding_history (hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty) VALUES (@t_id, @t_id, 0, @sign * @left);
    INSERT INTO holding (h_t_id, h_ca_id, h_s_symb, h_dts, h_price, h_qty) VALUES (@t_id, @ca_id, @symb, @dts, @price, @sign * @left);
  END;
  SET @new = @hs_qty + @sign * @qty;
  IF @has_hs = 0
    INSERT INTO holding_summary (hs_ca_id, hs_s_symb, hs_qty) VALUES (@ca_id, @symb, @new);
  ELSE IF @new = 0
    DELETE FROM holding_summary WHERE hs_ca_id = @ca_id AND hs_s_symb = @symb;
  ELSE
    UPDATE holding_summary SET hs_qty = @new WHERE hs_ca_id = @ca_id AND hs_s_symb = @symb;
  SELECT @buy AS buy_value, @sellv AS sell_value;
END;
-- name: dbdyno_tpce_tr3
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr3 @t_id bigint, @c_id bigint, @gain numeric(20,2)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @tax numeric(20,2);
  SELECT @tax = round(@gain * coalesce(sum(tx_rate), 0), 2) FROM taxrate JOIN customer_taxrate ON cx_tx_id = tx_id WHERE cx_c_id = @c_id;
  UPDATE trade SET t_tax = @tax WHERE t_id = @t_id;
  SELECT @tax AS tax;
END;
-- name: dbdyno_tpce_tr4
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr4 @tier int, @tt_id varchar(3), @ex_id varchar(6), @qty int
AS
BEGIN
  SET NOCOUNT ON;
  SELECT cr_rate FROM commission_rate WHERE cr_c_tier = @tier AND cr_tt_id = @tt_id AND cr_ex_id = @ex_id AND cr_from_qty <= @qty AND cr_to_qty >= @qty;
END;
-- name: dbdyno_tpce_tr5
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr5 @t_id bigint, @comm numeric(10,2), @dts datetime2(0), @price numeric(12,2), @b_id bigint
AS
BEGIN
  SET NOCOUNT ON;
  UPDATE trade SET t_comm = @comm, t_dts = @dts, t_st_id = 'CMPT', t_trade_price = @price WHERE t_id = @t_id;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@t_id, @dts, 'CMPT');
  UPDATE broker SET b_comm_total = b_comm_total + @comm, b_num_trades = b_num_trades + 1 WHERE b_id = @b_id;
  SELECT @t_id AS t_id;
END;
-- name: dbdyno_tpce_tr6
CREATE OR ALTER PROCEDURE dbdyno_tpce_tr6 @t_id bigint, @is_cash int, @due date, @amt numeric(10,2), @ca_id bigint, @dts datetime2(0), @ct_name varchar(100)
AS
BEGIN
  SET NOCOUNT ON;
  INSERT INTO settlement (se_t_id, se_cash_type, se_cash_due_date, se_amt)
    VALUES (@t_id, CASE WHEN @is_cash = 1 THEN 'Cash Account' ELSE 'Margin' END, @due, @amt);
  IF @is_cash = 1
  BEGIN
    UPDATE customer_account SET ca_bal = ca_bal + @amt WHERE ca_id = @ca_id;
    INSERT INTO cash_transaction (ct_t_id, ct_dts, ct_amt, ct_name) VALUES (@t_id, @dts, @amt, @ct_name);
  END;
  SELECT ca_bal FROM customer_account WHERE ca_id = @ca_id;
END;
-- name: dbdyno_tpce_mf1
CREATE OR ALTER PROCEDURE dbdyno_tpce_mf1 @symb varchar(15), @price numeric(12,2), @qty int, @dts datetime2(0)
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @i int, @n int, @id bigint, @done int;
  DECLARE @hits TABLE (n int NOT NULL PRIMARY KEY, id bigint NOT NULL);
  DECLARE @out TABLE (id bigint NOT NULL);
  UPDATE last_trade SET lt_price = @price, lt_vol = lt_vol + @qty, lt_dts = @dts WHERE lt_s_symb = @symb;
  INSERT INTO @hits (n, id) SELECT ROW_NUMBER() OVER (ORDER BY tr_t_id), tr_t_id FROM trade_request WHERE tr_s_symb = @symb
    AND ((tr_tt_id = 'TSL' AND tr_bid_price >= @price) OR (tr_tt_id = 'TLS' AND tr_bid_price <= @price) OR (tr_tt_id = 'TLB' AND tr_bid_price >= @price));
  SELECT @n = count(*) FROM @hits;
  SET @i = 1;
  WHILE @i <= @n
  BEGIN
    SELECT @id = id FROM @hits WHERE n = @i;
    -- the request is taken out first: a concurrent feed that took it already leaves it to that feed
    DELETE FROM trade_request WHERE tr_t_id = @id;
    SET @done = @@ROWCOUNT;
    IF @done > 0
    BEGIN
      UPDATE trade SET t_st_id = 'SBMT', t_dts = @dts WHERE t_id = @id;
      INSERT INTO trade_history (th_t_id, th_dts, th_st_id) VALUES (@id, @dts, 'SBMT');
      INSERT INTO @out (id) VALUES (@id);
    END;
    SET @i = @i + 1;
  END;
  SELECT id AS t_id FROM @out ORDER BY id;
END;
-- Data-Maintenance's frame: the change on one table (@tbl, the round-robin's turn 0-11), the rows it changed. Each
-- table's statement names its turn in its WHERE (only that one matches rows), so the rows changed add up without
-- ELSE IF blocks (beyond sqlglot's T-SQL) or @@ROWCOUNT read after an IF. Babelfish checks each SET's value against
-- its column even where no row matches: the text is cut to the column's width (the table's own fits it).
-- name: dbdyno_tpce_dm1
CREATE OR ALTER PROCEDURE dbdyno_tpce_dm1 @tbl int, @id bigint, @key varchar(15), @txt varchar(150), @day date, @dts datetime2(0), @vol int
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @n bigint = 0;
  DECLARE @old varchar(4);
  DECLARE @first varchar(15);
  UPDATE account_permission SET ap_acl = CASE WHEN ap_acl = '1111' THEN '0011' ELSE '1111' END WHERE @tbl = 0 AND ap_ca_id = @id;
  SET @n = @n + @@ROWCOUNT;
  UPDATE address SET ad_line2 = left(@txt, 80) WHERE @tbl = 1 AND ad_id = @id;
  SET @n = @n + @@ROWCOUNT;
  UPDATE company SET co_sp_rate = left(@txt, 4) WHERE @tbl = 2 AND co_id = @id;
  SET @n = @n + @@ROWCOUNT;
  UPDATE customer SET c_email_2 = left(@txt, 50) WHERE @tbl = 3 AND c_id = @id;
  SET @n = @n + @@ROWCOUNT;
  SELECT TOP 1 @old = cx_tx_id FROM customer_taxrate WHERE @tbl = 4 AND cx_c_id = @id AND (cx_tx_id LIKE 'US%' OR cx_tx_id LIKE 'CN%');
  UPDATE customer_taxrate SET cx_tx_id = CASE @old WHEN 'US1' THEN 'US2' WHEN 'US2' THEN 'US3' WHEN 'US3' THEN 'US4' WHEN 'US4' THEN 'US5' WHEN 'US5' THEN 'US1' WHEN 'CN1' THEN 'CN2' WHEN 'CN2' THEN 'CN3' WHEN 'CN3' THEN 'CN4' ELSE 'CN1' END
    WHERE @tbl = 4 AND cx_c_id = @id AND cx_tx_id = @old;
  SET @n = @n + @@ROWCOUNT;
  UPDATE daily_market SET dm_vol = dm_vol + @vol WHERE @tbl = 5 AND dm_s_symb = @key AND dm_date = @day;
  SET @n = @n + @@ROWCOUNT;
  UPDATE exchange SET ex_desc = @txt WHERE @tbl = 6 AND ex_id = @key;
  SET @n = @n + @@ROWCOUNT;
  UPDATE financial SET fi_qtr_start_date = @day WHERE @tbl = 7 AND fi_co_id = @id AND fi_year = 2000 AND fi_qtr = 1;
  SET @n = @n + @@ROWCOUNT;
  UPDATE news_item SET ni_dts = @dts WHERE @tbl = 8 AND ni_id = @id;
  SET @n = @n + @@ROWCOUNT;
  UPDATE security SET s_exch_date = @day WHERE @tbl = 9 AND s_symb = @key;
  SET @n = @n + @@ROWCOUNT;
  UPDATE taxrate SET tx_name = left(@txt, 50) WHERE @tbl = 10 AND tx_id = @key;
  SET @n = @n + @@ROWCOUNT;
  SELECT @first = min(wi_s_symb) FROM watch_item WHERE @tbl = 11 AND wi_wl_id = @id;
  UPDATE watch_item SET wi_s_symb = @key WHERE @tbl = 11 AND wi_wl_id = @id AND wi_s_symb = @first
    AND NOT EXISTS (SELECT 1 FROM watch_item w WHERE w.wi_wl_id = @id AND w.wi_s_symb = @key);
  SET @n = @n + @@ROWCOUNT;
  SELECT @n AS o_rows;
END;
-- Trade-Cleanup's frame, before a run: pending orders and the submitted ones an earlier run left are cancelled.
-- name: dbdyno_tpce_tc1
CREATE OR ALTER PROCEDURE dbdyno_tpce_tc1 @dts datetime2(0), @first bigint, @shards bigint, @residue bigint
AS
BEGIN
  SET NOCOUNT ON;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, @dts, 'SBMT' FROM trade_request
  WHERE tr_t_id % @shards = @residue AND NOT EXISTS (SELECT 1 FROM trade_history WHERE th_t_id = tr_t_id AND th_st_id = 'SBMT');
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT tr_t_id, @dts, 'CNCL' FROM trade_request WHERE tr_t_id % @shards = @residue;
  UPDATE trade SET t_st_id = 'CNCL' WHERE t_id IN (SELECT tr_t_id FROM trade_request WHERE tr_t_id % @shards = @residue);
  DELETE FROM trade_request WHERE tr_t_id % @shards = @residue;
  INSERT INTO trade_history (th_t_id, th_dts, th_st_id) SELECT t_id, @dts, 'CNCL' FROM trade WHERE t_id >= @first AND t_st_id = 'SBMT' AND t_id % @shards = @residue;
  UPDATE trade SET t_st_id = 'CNCL' WHERE t_id >= @first AND t_st_id = 'SBMT' AND t_id % @shards = @residue;
  SELECT 1 AS o_done;
END;
