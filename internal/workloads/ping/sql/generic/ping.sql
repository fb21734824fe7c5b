-- The cheapest statement an engine answers: one round trip, no table, one row of one value. Engines whose
-- cheapest statement differs override it in sql/ENGINE/ping.sql.
-- name: ping()
SELECT 1
