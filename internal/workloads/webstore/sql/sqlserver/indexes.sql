-- SQL Server: DVD Store 3's RESTOCK trigger, after the load. A sale (sales grow) that leaves a product's stock
-- below 3 brings it back to 250, or 2,500 for a hot seller (every 10,000th product, the ones DVD Store 3's
-- driver picks ten times as often), and records the restock in reorder; set-based, for updates of many rows.
-- A reset's restore of the loaded stock is no sale.
-- name: restock
CREATE TRIGGER dbdyno_ws_restock ON inventory AFTER UPDATE
AS
BEGIN
  SET NOCOUNT ON;
  INSERT INTO reorder (prod_id, date_low, quan_low, quan_reordered)
    SELECT i.prod_id, CAST(GETDATE() AS date), i.quan_in_stock,
           CASE WHEN i.prod_id % 10000 = 0 THEN 2500 ELSE 250 END - i.quan_in_stock
    FROM inserted i JOIN deleted d ON d.prod_id = i.prod_id
    WHERE i.sales > d.sales AND i.quan_in_stock < 3;
  UPDATE inventory SET quan_in_stock = CASE WHEN prod_id % 10000 = 0 THEN 2500 ELSE 250 END
  WHERE prod_id IN (SELECT i.prod_id FROM inserted i JOIN deleted d ON d.prod_id = i.prod_id
                    WHERE i.sales > d.sales AND i.quan_in_stock < 3);
END
