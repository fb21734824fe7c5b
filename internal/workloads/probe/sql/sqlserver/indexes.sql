-- name: primary_key
ALTER TABLE {{part}} ADD CONSTRAINT pk_{{part}} PRIMARY KEY CLUSTERED (id);
