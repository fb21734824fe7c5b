-- Settings of a bulk-load connection, for that session only.
-- name: nocount
SET NOCOUNT ON
