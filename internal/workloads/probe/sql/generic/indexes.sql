-- name: primary_key
ALTER TABLE {{part}} ADD PRIMARY KEY (id);
