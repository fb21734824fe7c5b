-- The performance settings recorded with every result, one statement each, named as the setting.
-- name: innodb_buffer_pool_size()
SELECT @@innodb_buffer_pool_size
-- name: innodb_log_file_size()
SELECT @@innodb_log_file_size
-- name: innodb_flush_log_at_trx_commit()
SELECT @@innodb_flush_log_at_trx_commit
-- name: innodb_flush_method()
SELECT @@innodb_flush_method
-- name: innodb_io_capacity()
SELECT @@innodb_io_capacity
-- name: sync_binlog()
SELECT @@sync_binlog
-- name: max_connections()
SELECT @@max_connections
-- name: transaction_isolation()
SELECT @@tx_isolation
