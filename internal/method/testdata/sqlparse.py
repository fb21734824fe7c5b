#!/usr/bin/env python3
"""Parses dbdyno's statements offline with sqlglot in one engine's dialect (TestSQLParsesOffline).

Reads a JSON list of {"id": ..., "sql": ...} on stdin; writes a JSON list of {"id": ..., "error": ...} for the
statements that do not parse, or that parse only as an opaque command (sqlglot's fallback for syntax it does
not know, which would hide any error in the text).
"""
import json
import sys

import sqlglot
from sqlglot import ErrorLevel, exp


def check(sql, dialect):
    try:
        trees = sqlglot.parse(sql, read=dialect, error_level=ErrorLevel.RAISE)
    except sqlglot.errors.ParseError as e:
        return str(e).splitlines()[0]
    for tree in trees:
        if tree is None:
            continue
        for node in tree.walk():
            if isinstance(node, exp.Command):
                return "parsed only as an opaque command: " + node.sql(dialect=dialect)[:120]
    return None


def main():
    dialect = sys.argv[1]
    out = []
    for st in json.load(sys.stdin):
        err = check(st["sql"], dialect)
        if err:
            out.append({"id": st["id"], "error": err})
    json.dump({"sqlglot": sqlglot.__version__, "errors": out}, sys.stdout)


if __name__ == "__main__":
    main()
