"""MemoryStore: memtool's SQLite store — put (three update modes), get, list, search, delete,
cleanup — with access tracking, context extraction and related-item linking on the way.

Item objects (what every command returns) carry the stored fields :data:`ITEM_FIELDS`; list, get,
search and recommend add the computed ranking fields of :func:`ranking.scores`.

Writes run in ``BEGIN IMMEDIATE`` transactions, so concurrent writers are serialized by SQLite:
writers of different items never lose a write; writers of one id each add 1 to its version and the
last one's content wins. A lock not granted within 5 s raises DB_ERROR (exit 4) with a retry hint.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import re
import sqlite3
import uuid

from ..names import refusal, valid_utf8
from ..redact import redact
from ..text.query import like_pattern
from . import context as context_mod
from . import linking, ranking, schema
from .access import AccessTracker
from .errors import MemtoolError, db_error, not_found, param_error
from .tokens import build_content_search, fts_expression, parse_query, terms

ITEM_FIELDS = ("id", "type", "task_id", "step_id", "key", "content", "tags", "source", "weight",
               "version", "created_at", "updated_at", "confidence_level", "access_count",
               "last_accessed_at", "consolidation_score", "context_tags", "emotional_weight",
               "related_ids", "project")
_JSON_COLUMNS = {"tags": "tags_json", "context_tags": "context_tags_json",
                 "related_ids": "related_ids_json"}
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,127}$")
MAX_CONTENT_BYTES = 1 << 20        # checked before redaction, tokenizing or the write lock
FIELD_LIMITS = {"key": 512, "task_id": 256, "step_id": 256, "source": 2000, "tag": 200, "project": 200}
MAX_TAGS = 50
MAX_LIMIT = 10000
COMMON_REFRESH_WRITES = 200
TYPE_HINT = "Use --type project|feature|run"


def new_id() -> str:
    return uuid.uuid4().hex


def _json_list(text) -> list:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def row_to_item(row: sqlite3.Row) -> dict:
    keys = row.keys()
    item = {}
    for field in ITEM_FIELDS:
        column = _JSON_COLUMNS.get(field, field)
        item[field] = row[column] if column in keys else None
        if field in _JSON_COLUMNS:
            item[field] = _json_list(item[field])
    return item


def normalize_tags(values) -> list:
    """Tags from repeated and comma-separated values: trimmed, de-duplicated, order kept."""
    out = []
    for value in values or []:
        for part in str(value).split(","):
            part = part.strip()
            if part and part not in out:
                out.append(part)
    return out


def set_tags(conn: sqlite3.Connection, item_id: str, tags: list) -> None:
    """Make ``tags`` the memory_tags rows of ``item_id`` (put and import)."""
    conn.execute("DELETE FROM memory_tags WHERE item_id = ?", (item_id,))
    conn.executemany("INSERT OR IGNORE INTO memory_tags(tag, item_id) VALUES (?, ?)",
                     [(tag, item_id) for tag in tags])


def check_text(name: str, value, limit: int | None = None, *, name_like: bool = True):
    """PARAM_ERROR for a string that is not valid UTF-8 (a lone surrogate from undecodable bytes),
    too long, or — for names (keys, ids, tags, sources) — holding control or invisible characters."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise param_error(f"{name} must be a string")
    if not valid_utf8(value):
        raise param_error(f"{name} is not valid UTF-8 text (undecodable bytes or a lone surrogate)",
                          "Send UTF-8 text")
    if limit is not None and len(value) > limit:
        raise param_error(f"{name} is longer than {limit} characters", limit=limit)
    if name_like:
        problem = refusal(value, name)
        if problem:
            raise param_error(problem)
    return value


def check_content(content):
    """The content's size (bytes) and UTF-8, before any other work."""
    if content is None:
        return None
    check_text("content", content, name_like=False)
    size = len(content.encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        raise param_error(f"Content is {size} bytes; the limit is {MAX_CONTENT_BYTES}",
                          "Store an excerpt (logs_excerpt, diff_summary) and where the rest lives", limit=MAX_CONTENT_BYTES)
    return content


def clean_metadata(fields: dict, tags, context_tags):
    """Validate the metadata of a write and redact it (keys, ids, tags and sources are stored,
    indexed and shown like content)."""
    for name in ("key", "task_id", "step_id", "source"):
        check_text(name, fields.get(name), FIELD_LIMITS[name], name_like=name != "source")
        if fields.get(name) is not None:
            fields[name] = redact(fields[name])
    out = []
    for tag_list in (tags, context_tags):
        if tag_list is None:
            out.append(None)
            continue
        if len(tag_list) > MAX_TAGS:
            raise param_error(f"at most {MAX_TAGS} tags")
        for tag in tag_list:
            check_text("tag", tag, FIELD_LIMITS["tag"])
        out.append([redact(t) for t in tag_list])
    return out


def check_type(value, required: bool = True):
    if value is None:
        if required:
            raise param_error("Required parameter --type is missing", TYPE_HINT)
        return None
    if value not in schema.ITEM_TYPES:
        raise param_error(f"Invalid type: {value}", TYPE_HINT, type=value)
    return value


def check_id(value: str) -> str:
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        raise param_error(f"Invalid id: {value!r}",
                          "An id is 1-128 characters: letters, digits, and _ . : - (not first)")
    return value


def check_confidence(value):
    if value is None:
        return None
    level = str(value).lower()
    if level not in ranking.CONFIDENCE_LEVELS:
        raise param_error(f"Invalid confidence level: {value}", "Use --confidence high|medium|low")
    return level


def check_number(name: str, value, low=None, high=None):
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise param_error(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(number) or (low is not None and number < low) or (high is not None and number > high):
        bounds = f" in [{low}, {high}]" if high is not None else (f" ≥ {low}" if low is not None else "")
        raise param_error(f"{name} must be a finite number{bounds}, got {value!r}")
    return number


def check_sort(value):
    if value is not None and value not in ranking.SORT_KEYS:
        raise param_error(f"Invalid sort key: {value}", "Use --sort-by " + "|".join(ranking.SORT_KEYS))
    return value


def check_limit(value, default: int = 20) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LIMIT:
        raise param_error(f"limit must be an integer between 1 and {MAX_LIMIT}, got {value!r}")
    return value


class Filters:
    """WHERE clauses shared by list, search, recommend and cleanup (column prefix ``m.``).
    ``visible``: the projects whose items may be read (global items always; None: every item)."""

    def __init__(self, type=None, task_id=None, step_id=None, key=None, tags=None, key_prefix=None,
                 visible=None):
        self.clauses, self.params = [], []
        if visible is not None:
            names = sorted(visible)
            self.add("(m.project IS NULL" + (f" OR m.project IN ({', '.join('?' * len(names))}))" if names else ")"),
                     *names)
        if type is not None:
            self.add("m.type = ?", check_type(type))
        for column, value in (("task_id", task_id), ("step_id", step_id), ("key", key)):
            if value is not None:
                self.add(f"m.{column} = ?", value)
        if key_prefix:
            self.add("m.key LIKE ? ESCAPE '\\'", like_pattern(key_prefix)[1:])
        for tag in normalize_tags(tags):
            self.add("m.id IN (SELECT item_id FROM memory_tags WHERE tag = ?)", tag)

    def add(self, clause: str, *params) -> None:
        self.clauses.append(clause)
        self.params.extend(params)

    def sql(self, prefix: str = "WHERE") -> str:
        return f" {prefix} " + " AND ".join(self.clauses) if self.clauses else ""


# The logical key of put and get alike: (type, key, task_id, step_id), an absent id matching only an
# absent id; the newest match.
LOGICAL_KEY_SQL = ("SELECT * FROM memory_items WHERE type = ? AND key = ? AND task_id IS ? AND step_id IS ? "
                   "ORDER BY updated_at DESC, rowid DESC")   # every match: the caller keeps the first it may see


class MemoryStore:
    """One database file. ``create=False`` refuses to create a missing file (read commands).

    ``visible``: the projects whose items this caller may read, update or delete — global items
    (``project`` NULL) always; None (the user at a terminal, the memory browser) sees every item.
    ``owner``: the project new items are written to (None: global). The edges set both from the
    access policy (search/access.py): a session sees its own project's items, never another's."""

    def __init__(self, db_path: str, *, create: bool = True, use_fts: bool = True,
                 track_access: bool = True, clock=ranking.utcnow, local_clock=None,
                 tracker: AccessTracker | None = None, visible=None, owner: str | None = None):
        self.db_path = db_path
        self.visible = frozenset(visible) if visible is not None else None
        self.owner = owner
        self._clock = clock
        self._local_clock = local_clock or (lambda: dt.datetime.now())
        if not create and not os.path.exists(db_path):
            raise MemtoolError("DB_ERROR", f"Database file not found: {db_path}",
                               "Run `memtool init` (or put something), or pass --db / set MEMTOOL_DB",
                               db=db_path)
        parent = os.path.dirname(os.path.abspath(db_path))
        if not os.path.isdir(parent):
            raise MemtoolError("DB_ERROR", f"Directory does not exist: {parent}",
                               "Create it first or choose another --db", db=db_path)
        self.tracker = (tracker or AccessTracker(clock)) if track_access else None
        self.conn = None
        self.read_only = False
        self._common_terms = None
        self._writes_since_common = 0
        writable = os.access(db_path, os.W_OK) and os.access(parent, os.W_OK) if os.path.exists(db_path) else True
        try:
            if not create and not writable:
                self._open_read_only()
            else:
                self.conn = schema.connect(db_path)
                self.journal_mode = schema.enable_wal(self.conn)
                self.migration = schema.migrate(self.conn)
            self.fts5 = use_fts and schema.has_fts(self.conn)
        except sqlite3.Error as exc:
            if self.conn is not None:
                self.conn.close()
                self.conn = None
            if create or not schema.is_read_only_error(exc):
                raise db_error(exc, db_path) from exc
            try:                      # a read on a read-only file or directory: open it read-only
                self._open_read_only()
                self.fts5 = use_fts and schema.has_fts(self.conn)
            except sqlite3.Error as exc2:
                raise db_error(exc2, db_path) from exc2

    def _open_read_only(self) -> None:
        """Reads of a database that cannot be written (file or directory read-only): no WAL switch,
        no migration, no access tracking."""
        self.conn = schema.connect_read_only(self.db_path)
        if schema.needs_migration(self.conn, read_only=True):
            self.conn.close()
            self.conn = None
            raise MemtoolError("DB_ERROR", "The database needs an upgrade but is read-only",
                               "Open it once with write access (any memtool command) to upgrade it", db=self.db_path)
        self.read_only = True
        self.tracker = None
        self.journal_mode = "read-only"
        self.migration = {"applied": [], "resegmented": 0}

    # --- plumbing ---------------------------------------------------------------------------

    def close(self) -> None:
        if self.conn is None:
            return
        try:
            self.flush_access()
        finally:
            self.conn.close()
            self.conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def now(self) -> dt.datetime:
        return self._clock()

    def transaction(self, work):
        """Run ``work()`` inside one IMMEDIATE transaction, translating SQLite errors."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise db_error(exc, self.db_path) from exc
        try:
            result = work()
            self.conn.execute("COMMIT")
            return result
        except BaseException as exc:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            if isinstance(exc, sqlite3.Error):
                raise db_error(exc, self.db_path) from exc
            raise

    def fetch(self, sql: str, params=()) -> list:
        """Rows of a query, without items this caller may not see (when the rows are items)."""
        try:
            return self.only_visible(self.conn.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise db_error(exc, self.db_path) from exc

    def can_see(self, row) -> bool:
        if self.visible is None or "project" not in row.keys():
            return True
        return row["project"] is None or row["project"] in self.visible

    def only_visible(self, rows) -> list:
        return rows if self.visible is None else [row for row in rows if self.can_see(row)]

    def filters(self, *args, **kwargs) -> Filters:
        """:class:`Filters` with this caller's visibility."""
        return Filters(*args, **kwargs, visible=self.visible)

    def track(self, items) -> None:
        if self.tracker is None:
            return
        self.tracker.record(item["id"] for item in items)
        if self.tracker.due():
            self.flush_access()

    def flush_access(self) -> int:
        if self.tracker is None or self.conn is None:
            return 0
        return self.tracker.flush(self.conn)

    def common_terms(self) -> frozenset:
        """linking.common_terms, recomputed every COMMON_REFRESH_WRITES writes of this store."""
        if self._common_terms is None or self._writes_since_common >= COMMON_REFRESH_WRITES:
            self._common_terms = linking.common_terms(self.conn)
            self._writes_since_common = 0
        self._writes_since_common += 1
        return self._common_terms

    def scored(self, items) -> list:
        now = self.now()
        return [ranking.with_scores(item, now) for item in items]

    def info(self) -> dict:
        count = self.fetch("SELECT count(*) FROM memory_items")[0][0]
        return {"db": os.path.abspath(self.db_path), "fts5": self.fts5, "journal_mode": self.journal_mode,
                "read_only": self.read_only,
                "items": count, "migrations_applied": self.migration["applied"],
                "resegmented": self.migration["resegmented"]}

    # --- put --------------------------------------------------------------------------------

    def put(self, *, content=None, item_id=None, type=None, key=None, task_id=None, step_id=None,
            tags=None, source=None, weight=None, confidence=None, context_tags=None,
            emotional_weight=None, auto_link: bool = True) -> dict:
        """Create or update one item (docs/stores.md § memtool):

        1. ``item_id`` given: update that item (NOT_FOUND if it does not exist), version + 1;
        2. else ``key`` given: upsert on the logical key (type, key, task_id, step_id) — update the
           newest match (version + 1) or create;
        3. else: create a new item (``type`` required).
        Fields not given keep their stored values on update.
        """
        fields = {
            "type": check_type(type, required=False), "key": key, "task_id": task_id,
            "step_id": step_id, "source": source,
            "weight": check_number("weight", weight, low=0.0),
            "confidence_level": check_confidence(confidence),
        }
        if item_id is not None:
            check_id(item_id)
        check_content(content)
        # redacted before comma-splitting, so a secret's label and value are not torn apart
        tag_list = normalize_tags([redact(str(t)) for t in tags]) if tags is not None else None
        ctx_tags = normalize_tags([redact(str(t)) for t in context_tags]) if context_tags is not None else None
        tag_list, ctx_tags = clean_metadata(fields, tag_list, ctx_tags)
        redacted = False
        if content is not None:
            clean = redact(content)
            redacted = clean != content
            content = clean
        emotion = check_number("emotional_weight", emotional_weight, low=-1.0, high=1.0)
        if item_id is None and fields["type"] is None:
            raise param_error("Required parameter --type is missing", TYPE_HINT)
        # tokenizing and context extraction happen here, outside the write transaction, so a big
        # write never holds the lock while it segments text
        prepared = None
        if content:
            search_text = build_content_search(content)
            prepared = (content, search_text, terms(search_text), self._context(content, ctx_tags, emotion))

        def work():
            existing = self._find_for_put(item_id, fields)
            if existing is None:
                if not content or not content.strip():
                    raise param_error("Content is empty",
                                      "Give the content with --content, --file or on stdin")
                return self._insert(content, fields, tag_list, ctx_tags, emotion, auto_link, prepared)
            return self._update(existing, content, fields, tag_list, ctx_tags, emotion, auto_link, prepared)

        result = self.transaction(work)
        if redacted:
            result["redacted"] = True
        return result

    def _find_for_put(self, item_id, fields):
        if item_id is not None:
            row = self.conn.execute("SELECT * FROM memory_items WHERE id = ?", (item_id,)).fetchone()
            if row is None or not self.can_see(row):
                raise not_found(item_id)
            return row
        if fields["key"] is None:
            return None
        rows = self.only_visible(self.conn.execute(
            LOGICAL_KEY_SQL, (fields["type"], fields["key"], fields["task_id"], fields["step_id"])).fetchall())
        return rows[0] if rows else None

    def _context(self, content, ctx_tags, emotion):
        tags, weight = context_mod.extract(content, self._local_clock())
        return (ctx_tags if ctx_tags is not None else tags), (emotion if emotion is not None else weight)

    def _insert(self, content, fields, tag_list, ctx_tags, emotion, auto_link, prepared) -> dict:
        item_id = new_id()
        now = self.now().isoformat(timespec="microseconds")
        _content, search_text, search_terms, (context_tags, emotional) = prepared
        related, duplicates = ([], [])
        if auto_link:
            related, duplicates = linking.find_links(self.conn, search_text, fields["type"], item_id, self.fts5,
                                                     self.common_terms())
            related, duplicates = self._visible_links(related), self._visible_links(duplicates)
        related_ids = [r["id"] for r in related]
        tags = tag_list or []
        self.conn.execute(
            "INSERT INTO memory_items (id, type, task_id, step_id, key, content, content_search, "
            "tags_json, source, weight, version, created_at, updated_at, confidence_level, "
            "context_tags_json, emotional_weight, related_ids_json, project) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)",
            (item_id, fields["type"], fields["task_id"], fields["step_id"], fields["key"], content,
             search_text, json.dumps(tags, ensure_ascii=False), fields["source"],
             1.0 if fields["weight"] is None else fields["weight"], now, now,
             fields["confidence_level"] or "medium", json.dumps(context_tags, ensure_ascii=False),
             emotional, json.dumps(related_ids), self.owner))
        linking.count_terms(self.conn, search_terms, +1)
        set_tags(self.conn, item_id, tags)
        linking.sync_back_links(self.conn, item_id, [], related_ids)
        return self._put_result("created", item_id, related, duplicates)

    def _update(self, row, content, fields, tag_list, ctx_tags, emotion, auto_link, prepared) -> dict:
        item = row_to_item(row)
        merged = {name: (value if value is not None else item[name]) for name, value in fields.items()}
        new_content = content if content else item["content"]
        content_changed = new_content != item["content"]
        search_text = prepared[1] if content_changed else row["content_search"]
        context_tags, emotional = item["context_tags"], item["emotional_weight"]
        if content_changed:
            context_tags, emotional = prepared[3]
        elif ctx_tags is not None or emotion is not None:
            context_tags, emotional = self._context(new_content, ctx_tags, emotion)
        related_ids, related, duplicates = item["related_ids"], [], []
        if content_changed:
            linking.count_terms(self.conn, terms(row["content_search"]), -1)
            if auto_link:
                related, duplicates = linking.find_links(self.conn, search_text, merged["type"], item["id"],
                                                         self.fts5, self.common_terms())
                related, duplicates = self._visible_links(related), self._visible_links(duplicates)
                related_ids = [r["id"] for r in related]
            linking.count_terms(self.conn, prepared[2], +1)
        tags = tag_list if tag_list is not None else item["tags"]
        now = self.now().isoformat(timespec="microseconds")
        self.conn.execute(
            "UPDATE memory_items SET type = ?, task_id = ?, step_id = ?, key = ?, content = ?, "
            "content_search = ?, tags_json = ?, source = ?, weight = ?, version = version + 1, "
            "updated_at = ?, confidence_level = ?, context_tags_json = ?, emotional_weight = ?, "
            "related_ids_json = ? WHERE id = ?",
            (merged["type"], merged["task_id"], merged["step_id"], merged["key"], new_content, search_text,
             json.dumps(tags, ensure_ascii=False), merged["source"], merged["weight"], now,
             merged["confidence_level"], json.dumps(context_tags, ensure_ascii=False), emotional,
             json.dumps(related_ids), item["id"]))
        if tag_list is not None:
            set_tags(self.conn, item["id"], tags)
        if related_ids != item["related_ids"]:
            linking.sync_back_links(self.conn, item["id"], item["related_ids"], related_ids)
        return self._put_result("updated", item["id"], related, duplicates)

    def _visible_links(self, links: list) -> list:
        """Related or duplicate items this caller may see (another project's are not linked)."""
        if self.visible is None or not links:
            return links
        seen = {row["id"] for row in self.only_visible(
            schema.select_in(self.conn, "SELECT id, project FROM memory_items WHERE id", [r["id"] for r in links]))}
        return [r for r in links if r["id"] in seen]

    def _put_result(self, action, item_id, related, duplicates) -> dict:
        row = self.conn.execute("SELECT * FROM memory_items WHERE id = ?", (item_id,)).fetchone()
        item = ranking.with_scores(row_to_item(row), self.now())
        out = {"action": action, "id": item_id, "version": item["version"], "item": item}
        if related:
            out["related"] = related
        if duplicates:
            out["possible_duplicates"] = duplicates
        return out

    # --- reads ------------------------------------------------------------------------------

    def get(self, item_id=None, *, type=None, key=None, task_id=None, step_id=None,
            track: bool = True) -> dict:
        """By id, or the newest item (by updated_at) matching type + key (+ task_id, step_id)."""
        if item_id is not None:
            rows = self.fetch("SELECT * FROM memory_items WHERE id = ?", (item_id,))
            if not rows:
                raise not_found(item_id)
        else:
            if type is None or key is None:
                raise param_error("get needs --id, or --type and --key (plus optional --task-id/--step-id)",
                                  TYPE_HINT)
            check_type(type)
            rows = self.fetch(LOGICAL_KEY_SQL, (type, key, task_id, step_id))[:1]
            if not rows:
                raise MemtoolError("NOT_FOUND", f"No memory item found with type={type} key={key}"
                                   + (f" task_id={task_id}" if task_id else "")
                                   + (f" step_id={step_id}" if step_id else ""),
                                   "Use list or search to see what exists", type=type, key=key)
        item = self.scored([row_to_item(rows[0])])[0]
        if track:
            self.track([item])
        return item

    def rows_by_id(self, ids) -> list:
        """The stored rows of the ids that exist, in the order given (duplicates dropped)."""
        ids = list(dict.fromkeys(ids))
        try:
            rows = schema.select_in(self.conn, "SELECT * FROM memory_items WHERE id", ids)
        except sqlite3.Error as exc:
            raise db_error(exc, self.db_path) from exc
        found = {row["id"]: row for row in self.only_visible(rows)}
        return [found[i] for i in ids if i in found]

    def get_many(self, ids) -> dict:
        """id → scored item for the ids that exist (no access tracking)."""
        return {item["id"]: item for item in self.scored(row_to_item(r) for r in self.rows_by_id(ids))}

    def list(self, *, type=None, task_id=None, step_id=None, key=None, tags=None, key_prefix=None,
             limit=None, sort_by: str = "updated", include_stale: bool = True) -> list:
        limit = check_limit(limit, 50)
        check_sort(sort_by)
        filters = self.filters(type, task_id, step_id, key, tags, key_prefix)
        ranked = sort_by != "updated" or not include_stale
        sql = "SELECT * FROM memory_items m" + filters.sql() + " ORDER BY m.updated_at DESC, m.rowid DESC"
        rows = self.fetch(sql + ("" if ranked else " LIMIT ?"), filters.params + ([] if ranked else [limit]))
        items = self.scored(row_to_item(r) for r in rows)
        if not include_stale:
            items = [it for it in items if not it["is_stale"]]
        return ranking.sort_items(items, sort_by)[:limit]

    def scan(self, *, type=None, include_content: bool = False) -> list:
        """Every item (optionally of one type) with scores, newest first — for lifecycle sweeps."""
        columns = "*" if include_content else ", ".join(
            c for c in schema.columns(self.conn, "memory_items") if c not in ("content", "content_search"))
        filters = self.filters(type=type)
        rows = self.fetch(f"SELECT {columns} FROM memory_items m" + filters.sql() +
                          " ORDER BY m.updated_at DESC", filters.params)
        return self.scored(row_to_item(r) for r in rows)

    def search(self, query: str, *, type=None, task_id=None, step_id=None, key=None, tags=None,
               limit=None, sort_by=None, include_stale: bool = True, track: bool = True) -> dict:
        """Full-text search: FTS5 MATCH (all words, then any word to fill up) ranked by BM25, or
        LIKE over the content when FTS5 is unavailable or the query has no indexable word."""
        if not query or not str(query).strip():
            raise param_error("Required parameter --query is missing", "Use --query \"words to find\"")
        limit = check_limit(limit, 20)
        check_sort(sort_by)
        fts_tokens, like_terms = parse_query(query)
        use_fts = self.fts5 and bool(fts_tokens)
        fetch = limit if (sort_by is None and include_stale) else max(limit * 5, 100)
        if use_fts:
            rows = self._fts_rows(fts_tokens, like_terms, fetch, type, task_id, step_id, key, tags)
        else:
            rows = self._like_rows(query.split(), fetch, type, task_id, step_id, key, tags)
        items = []
        for rank, (row, score, match) in enumerate(rows, 1):
            item = row_to_item(row)
            item.update({"search_rank": rank, "search_score": score, "match": match})
            items.append(item)
        items = self.scored(items)
        if not include_stale:
            items = [it for it in items if not it["is_stale"]]
        if sort_by is not None:
            items = ranking.sort_items(items, sort_by)
        items = items[:limit]
        if track:
            self.track(items)
        return {"fts5": use_fts, "query": query, "items": items}

    def _fts_rows(self, tokens, like_terms, limit, *filter_args) -> list:
        out, seen = [], set()
        modes = ("all", "any") if len(tokens) > 1 else ("all",)
        for mode in modes:
            filters = self.filters(*filter_args)
            for term in like_terms:
                filters.add("m.content LIKE ? ESCAPE '\\'", like_pattern(term))
            rows = self.fetch(
                "SELECT m.*, bm25(memory_fts) AS rank FROM memory_fts JOIN memory_items m "
                "ON m.rowid = memory_fts.rowid WHERE memory_fts MATCH ?" + filters.sql("AND") +
                " ORDER BY rank LIMIT ?", [fts_expression(tokens, mode)] + filters.params + [limit])
            for row in rows:
                if row["id"] not in seen:
                    seen.add(row["id"])
                    out.append((row, round(-row["rank"], 6), mode))
            if len(out) >= limit:
                break
        return out[:limit]

    def _like_rows(self, terms, limit, *filter_args) -> list:
        filters = self.filters(*filter_args)
        for term in terms:
            filters.add("m.content LIKE ? ESCAPE '\\'", like_pattern(term))
        rows = self.fetch("SELECT m.* FROM memory_items m" + filters.sql() +
                          " ORDER BY m.updated_at DESC, m.rowid DESC LIMIT ?", filters.params + [limit])
        return [(row, None, "like") for row in rows]

    # --- delete / cleanup -------------------------------------------------------------------

    def _delete_row(self, item_id: str):
        """Delete one item (uncounting its terms, dropping its back-links); its version and
        content_search as they were, or None when there is no such item. Inside a transaction."""
        row = self.conn.execute("SELECT version, content_search, project FROM memory_items WHERE id = ?",
                                (item_id,)).fetchone()
        if row is not None and not self.can_see(row):
            return None
        if row is not None:
            self.conn.execute("DELETE FROM memory_items WHERE id = ?", (item_id,))
            linking.forget(self.conn, item_id, row["content_search"])
        return row

    def delete(self, item_id: str) -> dict:
        def work():
            row = self._delete_row(item_id)
            if row is None:
                raise not_found(item_id)
            return {"id": item_id, "deleted": True, "version": row["version"]}
        return self.transaction(work)

    def cleanup(self, *, type=None, older_than_days=None, stale_threshold=None, apply: bool = False) -> dict:
        """Items past their useful life: decay ≤ stale_threshold (default 0.2), or — when given —
        not updated for ``older_than_days``. Lists them (dry run) unless ``apply``."""
        older = check_number("older_than_days", older_than_days, low=0.0)
        threshold = check_number("stale_threshold", stale_threshold, low=0.0, high=1.0)
        threshold = ranking.STALE_THRESHOLD if threshold is None else threshold
        candidates = []
        for item in self.scan(type=type):
            reasons = []
            if item["decay_score"] <= threshold:
                reasons.append("stale")
            if older is not None and item["age_days"] is not None and item["age_days"] >= older:
                reasons.append("older_than")
            if reasons:
                candidates.append({k: item[k] for k in ("id", "type", "key", "task_id", "step_id",
                                                        "updated_at", "age_days", "decay_score",
                                                        "half_life_days", "consolidation_score")}
                                  | {"reasons": reasons})
        deleted = 0
        if apply and candidates:
            def work():
                deleted = 0
                for cand in candidates:
                    if self._delete_row(cand["id"]) is not None:
                        deleted += 1
                return deleted
            deleted = self.transaction(work)
        return {"dry_run": not apply, "stale_threshold": threshold, "older_than_days": older,
                "count": len(candidates), "deleted": deleted, "candidates": candidates}
