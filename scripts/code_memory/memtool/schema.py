"""The memtool database: connection settings and the schema as named, idempotent migrations.

Tables (docs/stores.md § memtool):

* ``memory_items`` — one row per memory: id (UUID4 hex), type (project|feature|run), task_id,
  step_id, key, content, content_search, tags_json, source, weight, version, created_at, updated_at
  (UTC ISO 8601); ranking adds confidence_level (high|medium|low); Phase 2 adds access_count,
  last_accessed_at, consolidation_score, context_tags_json, emotional_weight, related_ids_json;
  ``project`` (NULL: global) scopes an item to the project it was written in.
  Indexes: (type, key), (task_id, step_id), (updated_at), confidence_level, access_count,
  consolidation_score.
* ``memory_tags`` — (tag, item_id): tags normalized for exact filtering.
* ``memory_fts`` — FTS5 (``id UNINDEXED, content_search``, tokenize unicode61) whose rowid is the
  item's rowid, kept in step by insert/delete/update triggers. Absent when SQLite lacks FTS5.
* ``memory_terms`` — (term, df): document frequency of each index term (related-item linking).
* ``memtool_migrations`` (name, applied_at) and ``memtool_meta`` (key, value).

Every connection uses WAL, ``busy_timeout = 5000`` and autocommit mode: writers open their own
``BEGIN IMMEDIATE`` transaction, so read-modify-write cycles (version + 1) are serialized.

A database written by the MVP schema (no migrations table, FTS keyed by ``id``, ``key NOT NULL``)
is upgraded in place: every row and column is kept, the FTS table is rebuilt, new columns get their
defaults.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3

from .. import migrations
from .errors import BUSY_TIMEOUT_MS
from .tokens import build_content_search, segmenter_name, terms, use_segmenter

ITEM_TYPES = ("project", "feature", "run")

ITEMS_TABLE_SQL = """
CREATE TABLE IF NOT EXISTS memory_items (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL CHECK (type IN ('project','feature','run')),
  task_id TEXT,
  step_id TEXT,
  key TEXT,
  content TEXT NOT NULL,
  content_search TEXT NOT NULL DEFAULT '',
  tags_json TEXT NOT NULL DEFAULT '[]',
  source TEXT,
  weight REAL NOT NULL DEFAULT 1.0,
  version INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
)"""

# Statement lists, not scripts: ``executescript`` would commit the migration's transaction.
MVP_INDEXES = [
    "CREATE INDEX IF NOT EXISTS idx_memory_type_key ON memory_items(type, key)",
    "CREATE INDEX IF NOT EXISTS idx_memory_task_step ON memory_items(task_id, step_id)",
    "CREATE INDEX IF NOT EXISTS idx_memory_updated ON memory_items(updated_at)",
]

FTS_TRIGGERS = [
    """CREATE TRIGGER memory_fts_ai AFTER INSERT ON memory_items BEGIN
  INSERT INTO memory_fts(rowid, id, content_search) VALUES (new.rowid, new.id, new.content_search);
END""",
    """CREATE TRIGGER memory_fts_ad AFTER DELETE ON memory_items BEGIN
  DELETE FROM memory_fts WHERE rowid = old.rowid;
END""",
    """CREATE TRIGGER memory_fts_au AFTER UPDATE OF content, content_search ON memory_items BEGIN
  DELETE FROM memory_fts WHERE rowid = old.rowid;
  INSERT INTO memory_fts(rowid, id, content_search) VALUES (new.rowid, new.id, new.content_search);
END""",
]

# Triggers any earlier memtool layout may have left (the MVP keyed its FTS rows by id).
_KNOWN_FTS_TRIGGERS = ("memory_ai", "memory_ad", "memory_au", "memory_fts_ai", "memory_fts_ad",
                       "memory_fts_au")


def utcnow_iso() -> str:
    return dt.datetime.now(tz=dt.timezone.utc).isoformat(timespec="microseconds")


def connect(db_path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(db_path, timeout=BUSY_TIMEOUT_MS / 1000.0, isolation_level=None,
                           check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def connect_read_only(db_path: str) -> sqlite3.Connection:
    """A read-only connection: ``mode=ro``, or ``immutable=1`` when even the WAL's shared-memory
    file cannot be created (a read-only directory)."""
    from urllib.parse import quote
    uri = "file:" + quote(os.path.abspath(db_path))
    last = None
    for suffix in ("?mode=ro", "?immutable=1"):
        conn = sqlite3.connect(uri + suffix, uri=True, timeout=BUSY_TIMEOUT_MS / 1000.0, isolation_level=None,
                               check_same_thread=False)
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.Error as exc:
            conn.close()
            last = exc
    raise last


def is_read_only_error(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text or "unable to open" in text


def columns(conn: sqlite3.Connection, table: str) -> dict:
    return {row["name"]: row for row in conn.execute(f"PRAGMA table_info({table})")}


def table_exists(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ? AND type IN ('table','view')",
                        (name,)).fetchone() is not None


IN_CHUNK = 500   # bound values per IN (…): well under SQLite's variable limit


def select_in(conn: sqlite3.Connection, sql: str, values) -> list:
    """The rows of ``sql + " IN (?, …)"`` for every value, asked :data:`IN_CHUNK` values at a time."""
    values = list(values)
    rows = []
    for start in range(0, len(values), IN_CHUNK):
        chunk = values[start:start + IN_CHUNK]
        rows.extend(conn.execute(f"{sql} IN ({','.join('?' * len(chunk))})", chunk).fetchall())
    return rows


def fts5_available(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.memtool_fts5_probe USING fts5(x)")
        conn.execute("DROP TABLE temp.memtool_fts5_probe")
        return True
    except sqlite3.OperationalError:
        return False


def _add_column(conn, name: str, decl: str) -> None:
    if name not in columns(conn, "memory_items"):
        conn.execute(f"ALTER TABLE memory_items ADD COLUMN {name} {decl}")


# --- migrations ------------------------------------------------------------------------------

def _m001_memory_items(conn) -> None:
    """The MVP table and indexes; an MVP table whose key is NOT NULL is rebuilt with all its rows."""
    if table_exists(conn, "memory_items") and columns(conn, "memory_items")["key"]["notnull"]:
        _rebuild_items_table_with_nullable_key(conn)
    conn.execute(ITEMS_TABLE_SQL)
    for statement in MVP_INDEXES:
        conn.execute(statement)


def _rebuild_items_table_with_nullable_key(conn) -> None:
    """SQLite cannot drop NOT NULL in place: copy every column of every row into a new table."""
    old = columns(conn, "memory_items")
    decls = []
    for name, col in old.items():
        decl = f'"{name}" {col["type"]}'
        if name == "id":
            decl += " PRIMARY KEY"
        elif col["notnull"] and name != "key":
            decl += " NOT NULL"
        if col["dflt_value"] is not None:
            decl += f" DEFAULT {col['dflt_value']}"
        if name == "type":
            decl += " CHECK (type IN ('project','feature','run'))"
        decls.append(decl)
    names = ", ".join(f'"{n}"' for n in old)
    for trigger in _KNOWN_FTS_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute(f"CREATE TABLE memory_items_rebuild ({', '.join(decls)})")
    conn.execute(f"INSERT INTO memory_items_rebuild ({names}) SELECT {names} FROM memory_items")
    conn.execute("DROP TABLE memory_items")
    conn.execute("ALTER TABLE memory_items_rebuild RENAME TO memory_items")


def _m002_confidence(conn) -> None:
    _add_column(conn, "confidence_level", "TEXT NOT NULL DEFAULT 'medium'")
    conn.execute("CREATE INDEX IF NOT EXISTS idx_memory_confidence ON memory_items(confidence_level)")


def _m003_tags_table(conn) -> None:
    import json
    conn.execute("""CREATE TABLE IF NOT EXISTS memory_tags (
        tag TEXT NOT NULL, item_id TEXT NOT NULL, PRIMARY KEY (tag, item_id)) WITHOUT ROWID""")
    conn.execute("CREATE INDEX IF NOT EXISTS idx_memory_tags_item ON memory_tags(item_id)")
    conn.execute("""CREATE TRIGGER IF NOT EXISTS memory_tags_ad AFTER DELETE ON memory_items BEGIN
        DELETE FROM memory_tags WHERE item_id = old.id; END""")
    rows = conn.execute("SELECT id, tags_json FROM memory_items").fetchall()
    for row in rows:
        try:
            tags = json.loads(row["tags_json"] or "[]")
        except ValueError:
            tags = []
        conn.executemany("INSERT OR IGNORE INTO memory_tags(tag, item_id) VALUES (?, ?)",
                         [(str(t), row["id"]) for t in tags if isinstance(t, (str, int, float))])


def _m004_consolidation(conn) -> None:
    _add_column(conn, "access_count", "INTEGER NOT NULL DEFAULT 0")
    _add_column(conn, "last_accessed_at", "TEXT")
    _add_column(conn, "consolidation_score", "REAL NOT NULL DEFAULT 0.0")
    conn.execute("CREATE INDEX IF NOT EXISTS idx_memory_access_count ON memory_items(access_count)")
    conn.execute("CREATE INDEX IF NOT EXISTS idx_memory_consolidation ON memory_items(consolidation_score)")


def _m005_context(conn) -> None:
    _add_column(conn, "context_tags_json", "TEXT NOT NULL DEFAULT '[]'")
    _add_column(conn, "emotional_weight", "REAL NOT NULL DEFAULT 0.0")
    _add_column(conn, "related_ids_json", "TEXT NOT NULL DEFAULT '[]'")


def _m006_fts(conn) -> None:
    """(Re)build memory_fts keyed by the item rowid; skipped when SQLite lacks FTS5."""
    if fts5_available(conn):
        rebuild_fts(conn)


def _m007_term_stats(conn) -> None:
    """Document frequencies of index terms, for related-item linking (memtool.linking)."""
    rebuild_term_stats(conn)


def _m008_project(conn) -> None:
    """The project an item belongs to (NULL: global — items written outside any project, and every
    item written before this migration): a session reads global items and its own project's."""
    _add_column(conn, "project", "TEXT")
    conn.execute("CREATE INDEX IF NOT EXISTS idx_memory_project ON memory_items(project)")


def create_term_stats(conn) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS memory_terms (term TEXT PRIMARY KEY, df INTEGER NOT NULL) "
                 "WITHOUT ROWID")


def rebuild_term_stats(conn) -> None:
    create_term_stats(conn)
    conn.execute("DELETE FROM memory_terms")
    counts = {}
    for (search_text,) in conn.execute("SELECT content_search FROM memory_items"):
        for term in terms(search_text):
            counts[term] = counts.get(term, 0) + 1
    conn.executemany("INSERT INTO memory_terms(term, df) VALUES (?, ?)", counts.items())


MIGRATIONS_TABLE = "memtool_migrations"
MIGRATIONS = [
    ("001_memory_items", _m001_memory_items),
    ("002_confidence_level", _m002_confidence),
    ("003_memory_tags", _m003_tags_table),
    ("004_phase2_consolidation", _m004_consolidation),
    ("005_phase2_context", _m005_context),
    ("006_fts_rowid_sync", _m006_fts),
    ("007_term_stats", _m007_term_stats),
    ("008_item_project", _m008_project),
]


def rebuild_fts(conn) -> None:
    for trigger in _KNOWN_FTS_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute("DROP TABLE IF EXISTS memory_fts")
    conn.execute("CREATE VIRTUAL TABLE memory_fts USING fts5(id UNINDEXED, content_search, "
                 "tokenize='unicode61')")
    for statement in FTS_TRIGGERS:
        conn.execute(statement)
    conn.execute("INSERT INTO memory_fts(rowid, id, content_search) "
                 "SELECT rowid, id, content_search FROM memory_items")


def has_fts(conn) -> bool:
    return table_exists(conn, "memory_fts")


def _meta(conn, key: str):
    if not table_exists(conn, "memtool_meta"):
        return None
    row = conn.execute("SELECT value FROM memtool_meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def needs_migration(conn, read_only: bool = False) -> bool:
    """Whether the schema is behind (or, for a writable store, the segmenter changed)."""
    if read_only:
        return bool(migrations.pending(conn, MIGRATIONS, MIGRATIONS_TABLE))
    return (bool(migrations.pending(conn, MIGRATIONS, MIGRATIONS_TABLE))
            or _meta(conn, "segmenter") != use_segmenter(_meta(conn, "segmenter")))


def migrate(conn) -> dict:
    """Bring the schema up to date in one IMMEDIATE transaction. Returns what was done."""
    if not needs_migration(conn):
        return {"applied": [], "resegmented": 0}
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS memtool_meta (key TEXT PRIMARY KEY, value TEXT)")
        applied = migrations.apply(conn, MIGRATIONS, MIGRATIONS_TABLE)
        resegmented = 0
        if _meta(conn, "segmenter") != segmenter_name():
            resegmented = resegment_all(conn)
            if resegmented:
                _m007_term_stats(conn)
            conn.execute("INSERT OR REPLACE INTO memtool_meta(key, value) VALUES ('segmenter', ?)",
                         (segmenter_name(),))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return {"applied": applied, "resegmented": resegmented}


def resegment_all(conn) -> int:
    """Recompute content_search for every row (the FTS triggers follow)."""
    rows = conn.execute("SELECT id, content, content_search FROM memory_items").fetchall()
    updates = []
    for row in rows:
        value = build_content_search(row["content"] or "")
        if value != row["content_search"]:
            updates.append((value, row["id"]))
    conn.executemany("UPDATE memory_items SET content_search = ? WHERE id = ?", updates)
    return len(updates)


def enable_wal(conn) -> str:
    return conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
