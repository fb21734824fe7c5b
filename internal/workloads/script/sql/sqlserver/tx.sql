-- name: begin
BEGIN TRANSACTION;
-- name: commit
COMMIT TRANSACTION;
-- name: rollback
IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION;
