-- The settings recorded with every result, one statement each, named as the setting.
-- name: threads()
SELECT current_setting('threads')
-- name: memory_limit()
SELECT current_setting('memory_limit')
