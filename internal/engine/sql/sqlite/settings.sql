-- The settings recorded with every result, one statement each, named as the setting.
-- name: journal_mode()
PRAGMA journal_mode
-- name: synchronous()
PRAGMA synchronous
-- name: page_size()
PRAGMA page_size
-- name: cache_size()
PRAGMA cache_size
