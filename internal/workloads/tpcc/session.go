package tpcc

import "database/sql"

// eachRow scans every row of a query's result (or returns the query's error) into dest and calls each after it.
func eachRow(rows *sql.Rows, err error, dest []any, each func() error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if err := each(); err != nil {
			return err
		}
	}
	return rows.Err()
}
