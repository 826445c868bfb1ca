"""Named schema migrations, the one way every SQLite file of code-memory gets its schema (the
search index, the feedback loop's derived tables, memtool's store).

A database's schema is an ordered list of ``(name, step)``; ``step(conn)`` runs once, and its name
is recorded with the time in a table of that database (``migrations`` unless the store names
another). Pending steps run in order inside one ``BEGIN IMMEDIATE`` transaction — all of them or
none — so a crash or a concurrent opener never leaves half a schema. A step is a function of the
connection, or :func:`sql` for a plain list of statements. Light imports: the hooks' feedback
recording imports the module that declares a schema.
"""

from __future__ import annotations

from .timeutil import now_iso


def sql(*statements: str):
    """A step that executes ``statements`` in order."""
    def step(conn) -> None:
        for statement in statements:
            conn.execute(statement)
    return step


def _table_exists(conn, table: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone() is not None


def applied(conn, table: str = "migrations") -> set:
    """The names already applied (empty for a new database)."""
    if not _table_exists(conn, table):
        return set()
    return {row[0] for row in conn.execute(f"SELECT name FROM {table}")}


def pending(conn, migrations: list, table: str = "migrations") -> list:
    done = applied(conn, table)
    return [name for name, _step in migrations if name not in done]


def apply(conn, migrations: list, table: str = "migrations") -> list:
    """Run the steps of ``migrations`` not applied yet and record them; returns their names.

    Opens its own IMMEDIATE transaction unless the caller already holds one (then the steps
    become part of it and the caller commits)."""
    if not pending(conn, migrations, table):
        return []
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"CREATE TABLE IF NOT EXISTS {table} (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        done = applied(conn, table)
        names = []
        for name, step in migrations:
            if name in done:
                continue
            step(conn)
            conn.execute(f"INSERT INTO {table}(name, applied_at) VALUES (?, ?)",
                         (name, now_iso()))
            names.append(name)
        if own:
            conn.execute("COMMIT")
    except BaseException:
        if own and conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return names
