package engine

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// SchemaWay is how a session of the engine works in a schema other than its default (--schema), so that
// several workloads' datasets, TPC-C's and the web store's orders among them, live side by side in one
// database (an Azure SQL Database is paid per database; a DBA is often given one).
type SchemaWay int

const (
	// NoSchemas: the engine has none to choose (the embedded engines: one file per dataset costs nothing).
	NoSchemas SchemaWay = iota
	// SchemaSearchPath: every connection sets its search_path to the schema (PostgreSQL), so every unqualified
	// name, and current_schema() in the catalog statements, is the schema's.
	SchemaSearchPath
	// SchemaDatabase: a schema is a database on the same server (MySQL: CREATE SCHEMA is CREATE DATABASE).
	SchemaDatabase
	// SchemaDefault: a session's schema is its user's default schema, which no session statement changes
	// (SQL Server: ALTER USER ... WITH DEFAULT_SCHEMA; dbo's is always dbo), so the target's user must have it.
	SchemaDefault
)

// maxSchema is the longest schema name every engine takes as it is (PostgreSQL's NAMEDATALEN - 1; MySQL's
// database names are up to 64).
const maxSchema = 63

// SetSchema makes the target's sessions work in schema name (--schema): one clear line when the engine has no
// schemas or the name is not a plain lower-case identifier (the one form every engine spells alike, unquoted).
func (t *Target) SetSchema(name string) error {
	if name == "" || name == t.Schema {
		return nil
	}
	if t.Schema != "" {
		return fmt.Errorf("--schema %s and the target URL's schema=%s differ: give one of them", name, t.Schema)
	}
	ok := len(name) <= maxSchema && name[0] >= 'a' && name[0] <= 'z'
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("schema %q is not a plain name: use lower-case letters, digits and _ (starting with a letter, at most %d)", name, maxSchema)
	}
	switch t.Engine.Schemas {
	case NoSchemas:
		return fmt.Errorf("--schema: %s has no schemas to choose: give each dataset its own file instead (--target %s://OTHER_FILE)", t.Engine.Title, t.Engine.Name)
	case SchemaDatabase:
		t.Database = name // MySQL's schema is its database
	}
	t.Schema = name
	return nil
}

// EnsureSchema creates the target's schema when it is missing (a build's, as the build creates its tables),
// and says whether it did. Nothing to do without --schema; on MySQL the schema is the database, created as
// --create-database creates one; on SQL Server the user's default schema, created when missing (the user must
// be allowed to).
func (t *Target) EnsureSchema(ctx context.Context) (bool, error) {
	switch {
	case t.Schema == "":
		return false, nil
	case t.Engine.Schemas == SchemaDatabase:
		return t.CreateDatabase(ctx)
	}
	c := *t
	c.Schema = "" // the schema may not be there yet: the session opens in the default one
	db, err := c.Open(ctx)
	if err != nil {
		return false, err
	}
	defer db.Close()
	if ok, err := t.schemaExists(ctx, db); err != nil || ok {
		return false, err
	}
	if _, err := db.ExecContext(ctx, strings.ReplaceAll(t.Engine.stmt("create_schema").SQL, "{name}", ident(t.Schema))); err != nil {
		return false, fmt.Errorf("creating schema %s in database %s: %s", t.Schema, t.Database, t.Scrub(err.Error()))
	}
	return true, nil
}

// checkSchema makes sure an opened target's sessions are in its schema: PostgreSQL's must exist (a search_path
// naming none leaves every unqualified table missing, and a CREATE TABLE with nowhere to go), and SQL Server's
// user must have it as the default schema.
func (t *Target) checkSchema(ctx context.Context, db *sql.DB) error {
	if t.Schema == "" {
		return nil
	}
	switch t.Engine.Schemas {
	case SchemaSearchPath:
		ok, err := t.schemaExists(ctx, db)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("schema %s does not exist in database %s: build into it first (the build's --schema %s creates it), or name another", t.Schema, t.Database, t.Schema)
		}
	case SchemaDefault:
		var cur sql.NullString
		if err := db.QueryRowContext(ctx, t.Engine.stmt("current_schema").SQL).Scan(&cur); err != nil {
			return err
		}
		if cur.String != t.Schema {
			return fmt.Errorf("--schema %s: a %s session works in its user's default schema, and %s's is %s: connect as a user whose default schema is %s "+
				"(as an administrator: CREATE LOGIN NAME WITH PASSWORD = '...'; CREATE USER NAME FOR LOGIN NAME WITH DEFAULT_SCHEMA = %s; CREATE SCHEMA %s AUTHORIZATION NAME); dbo's is always dbo",
				t.Schema, t.Engine.Title, t.User, cur.String, t.Schema, t.Schema, t.Schema)
		}
	}
	return nil
}

// schemaExists says whether the database holds the target's schema.
func (t *Target) schemaExists(ctx context.Context, db *sql.DB) (bool, error) {
	var n int
	st := t.Engine.stmt("schema_exists")
	if err := db.QueryRowContext(ctx, st.SQL, st.Args([]any{t.Schema})...).Scan(&n); err != nil {
		return false, fmt.Errorf("looking for schema %s: %s", t.Schema, t.Scrub(err.Error()))
	}
	return n > 0, nil
}
