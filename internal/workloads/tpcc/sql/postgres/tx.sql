-- PostgreSQL: the district number chooses the s_dist column through a CASE on a typed parameter.
-- name: no_stock(w_id, i_id, d_id)
SELECT s_quantity, s_data,
       CASE CAST(:d_id AS int) WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                  WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                  WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
FROM stock WHERE s_w_id = :w_id AND s_i_id = :i_id FOR UPDATE;
