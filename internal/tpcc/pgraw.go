package tpcc

import (
	"context"
	"fmt"
	"strconv"
)

// Stored-procedure calls on PostgreSQL take the shortest path pgx offers: a statement prepared once per
// connection, executed with text-encoded parameters, its text results parsed straight into the destinations.
// This keeps the driver's own CPU per transaction small, so that on a shared machine it takes as little as
// possible from the database under test.

func (s *pgSession) rawCall(ctx context.Context, o *op) error {
	pc := s.conn.PgConn()
	if s.prepared == nil {
		s.prepared = map[string]bool{}
	}
	if !s.prepared[o.name] {
		if _, err := pc.Prepare(ctx, o.name, s.sql(o.name), nil); err != nil {
			return fmt.Errorf("prepare %s: %w", o.name, err)
		}
		s.prepared[o.name] = true
	}
	params := s.params[:0]
	buf := s.buf[:0]
	offs := s.offs[:0]
	for _, a := range o.args {
		start := len(buf)
		switch v := a.(type) {
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case float64:
			buf = strconv.AppendFloat(buf, v, 'f', -1, 64)
		case bool:
			buf = strconv.AppendBool(buf, v)
		case string:
			buf = append(buf, v...)
		case []int32:
			buf = append(buf, '{')
			for i, x := range v {
				if i > 0 {
					buf = append(buf, ',')
				}
				buf = strconv.AppendInt(buf, int64(x), 10)
			}
			buf = append(buf, '}')
		default:
			return fmt.Errorf("%s: cannot send a %T", o.name, a)
		}
		offs = append(offs, [2]int{start, len(buf)})
	}
	for _, r := range offs {
		params = append(params, buf[r[0]:r[1]])
	}
	s.params, s.buf, s.offs = params, buf, offs
	rr := pc.ExecPrepared(ctx, o.name, params, nil, nil)
	rows := 0
	var scanErr error
	for rr.NextRow() {
		rows++
		if rows == 1 && scanErr == nil {
			scanErr = scanText(rr.Values(), o.dest)
		}
	}
	if _, err := rr.Close(); err != nil {
		return fmt.Errorf("%s: %w", o.name, err)
	}
	if scanErr != nil {
		return fmt.Errorf("%s: %w", o.name, scanErr)
	}
	if rows == 0 {
		return fmt.Errorf("%s: %w", o.name, errNotFound)
	}
	return nil
}

func scanText(vals [][]byte, dest []any) error {
	if len(vals) != len(dest) {
		return fmt.Errorf("%d columns for %d destinations", len(vals), len(dest))
	}
	for i, d := range dest {
		v := vals[i]
		var err error
		switch p := d.(type) {
		case *int:
			if v == nil {
				*p = 0
				continue
			}
			*p, err = strconv.Atoi(string(v))
		case *float64:
			if v == nil {
				*p = 0
				continue
			}
			*p, err = strconv.ParseFloat(string(v), 64)
		default:
			return fmt.Errorf("cannot scan into %T", d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
