"""Export and import: JSONL, one complete item object per line (docs/stores.md § memtool).

Export writes every stored field of every item (oldest first). Import validates every line first,
then upserts by id in batches of short transactions: an existing id is overwritten with the line's fields, a new id is inserted, a line
without an id gets a fresh one. Versions, timestamps, access statistics, context tags and related ids
are kept as exported, so export → import into an empty database reproduces the objects exactly.
Any malformed line rejects the whole import (PARAM_ERROR with its line number); nothing is written.
"""

from __future__ import annotations

import json

from ..redact import redact
from . import linking, ranking, schema
from .errors import param_error
from .store import (
    FIELD_LIMITS,
    ITEM_FIELDS,
    check_confidence,
    check_content,
    check_id,
    check_number,
    check_text,
    new_id,
    normalize_tags,
    row_to_item,
    set_tags,
)
from .tokens import build_content_search, terms

_OPTIONAL_TEXT = ("key", "task_id", "step_id", "source", "last_accessed_at", "project")


def iter_export(store):
    cursor = store.conn.execute("SELECT * FROM memory_items ORDER BY created_at, rowid")
    for row in cursor:
        if store.can_see(row):
            yield row_to_item(row)


def _fail(line_no: int, message: str):
    return param_error(f"line {line_no}: {message}", "Each line must be one item object as written by export",
                       line=line_no)


def _timestamp(obj, name, line_no, default):
    value = obj.get(name)
    if value is None:
        return default
    if ranking.parse_dt(value) is None:
        raise _fail(line_no, f"{name} is not an ISO 8601 time: {value!r}")
    return str(value)


def _string_list(obj, name, line_no) -> list:
    value = obj.get(name)
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(line_no, f"{name} must be a list of strings")
    for v in value:
        check_text(name, v, None, name_like=False)
    return normalize_tags([redact(v) for v in value]) if name != "related_ids" else list(dict.fromkeys(value))


def parse_line(text: str, line_no: int, now_iso: str) -> dict:
    try:
        obj = json.loads(text)
    except RecursionError:
        raise _fail(line_no, "JSON nested too deeply") from None
    except ValueError as exc:
        raise _fail(line_no, f"invalid JSON ({getattr(exc, 'msg', exc)})") from None
    if not isinstance(obj, dict):
        raise _fail(line_no, "not a JSON object")
    unknown = set(obj) - set(ITEM_FIELDS) - {"content_search"}
    item = {"id": obj.get("id") or new_id()}
    try:
        check_id(item["id"])
        item["type"] = obj.get("type")
        if item["type"] not in schema.ITEM_TYPES:
            raise _fail(line_no, f"type must be one of {', '.join(schema.ITEM_TYPES)}")
        content = obj.get("content")
        if not isinstance(content, str) or not content.strip():
            raise _fail(line_no, "content must be a non-empty string")
        item["content"] = check_content(content)
        for name in _OPTIONAL_TEXT:
            value = obj.get(name)
            if value is not None and not isinstance(value, str):
                raise _fail(line_no, f"{name} must be a string or null")
            item[name] = check_text(name, value, FIELD_LIMITS.get(name), name_like=name in FIELD_LIMITS
                                    and name != "source")
        if item["last_accessed_at"] is not None:
            _timestamp(obj, "last_accessed_at", line_no, None)
        item["weight"] = check_number("weight", obj.get("weight", 1.0), low=0.0)
        version = obj.get("version", 1)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise _fail(line_no, "version must be an integer ≥ 1")
        item["version"] = version
        item["created_at"] = _timestamp(obj, "created_at", line_no, now_iso)
        item["updated_at"] = _timestamp(obj, "updated_at", line_no, item["created_at"])
        item["confidence_level"] = check_confidence(obj.get("confidence_level")) or "medium"
        count = obj.get("access_count", 0) or 0
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise _fail(line_no, "access_count must be an integer ≥ 0")
        item["access_count"] = count
        item["consolidation_score"] = check_number("consolidation_score",
                                                   obj.get("consolidation_score", 0.0) or 0.0, 0.0, 1.0)
        item["emotional_weight"] = check_number("emotional_weight",
                                                obj.get("emotional_weight", 0.0) or 0.0, -1.0, 1.0)
        for name in ("tags", "context_tags", "related_ids"):
            item[name] = _string_list(obj, name, line_no)
            for value in item[name]:
                check_text(name, value, FIELD_LIMITS["tag"] if name != "related_ids" else 128)
    except Exception as exc:
        if getattr(exc, "code", None) == "PARAM_ERROR" and not str(exc).startswith("line "):
            raise _fail(line_no, str(exc)) from None
        raise
    if unknown:
        item["_unknown"] = sorted(unknown)
    return item


_COLUMNS = ("id", "type", "task_id", "step_id", "key", "content", "content_search", "tags_json",
            "source", "weight", "version", "created_at", "updated_at", "confidence_level",
            "access_count", "last_accessed_at", "consolidation_score", "context_tags_json",
            "emotional_weight", "related_ids_json", "project")


def _values(item: dict) -> tuple:
    row = dict(item)
    row["content_search"] = build_content_search(item["content"])
    for name in ("tags", "context_tags", "related_ids"):
        row[f"{name}_json"] = json.dumps(item[name], ensure_ascii=False)
    return tuple(row[c] for c in _COLUMNS)


IMPORT_BATCH = 200       # items per write transaction: other writers get the lock between batches


def import_lines(store, lines) -> dict:
    """Validate every line (a bad one rejects the file before anything is written), redact, then
    upsert in batches of :data:`IMPORT_BATCH` items: each batch is tokenized outside the write
    transaction and written in one short transaction, so no other writer waits long. Re-running
    an interrupted import converges (upserts by id)."""
    now_iso = store.now().isoformat(timespec="microseconds")
    items, ignored_fields = [], set()
    for line_no, text in enumerate(lines, 1):
        if not text.strip():
            continue
        item = parse_line(text, line_no, now_iso)
        ignored_fields.update(item.pop("_unknown", ()))
        items.append(item)
    redacted = 0
    for item in items:
        if store.visible is not None:      # a restricted caller imports into its own project only
            item["project"] = store.owner
        clean = redact(item["content"])
        for name in ("key", "task_id", "step_id", "source"):
            if item.get(name):
                item[name] = redact(item[name])
        item["tags"] = [redact(t) for t in item["tags"]]
        if clean != item["content"]:
            item["content"] = clean
            redacted += 1

    created = updated = batches = 0
    for start in range(0, len(items), IMPORT_BATCH):
        batch = [(item, _values(item)) for item in items[start:start + IMPORT_BATCH]]
        batch = [(item, values, terms(values[_COLUMNS.index("content_search")])) for item, values in batch]

        def work(batch=batch):
            created = updated = 0
            conn = store.conn
            assignments = ", ".join(f"{c} = ?" for c in _COLUMNS[1:])
            for item, values, new_terms in batch:
                old = conn.execute("SELECT content_search, project FROM memory_items WHERE id = ?",
                                   (item["id"],)).fetchone()
                if old is not None and not store.can_see(old):
                    raise param_error(f"item {item['id']} belongs to another project",
                                      "import it without an id (a new one is made), or run the import yourself")
                linking.count_terms(conn, new_terms, +1)
                if old is not None:
                    linking.count_terms(conn, terms(old[0]), -1)
                    conn.execute(f"UPDATE memory_items SET {assignments} WHERE id = ?", values[1:] + values[:1])
                    updated += 1
                else:
                    conn.execute(f"INSERT INTO memory_items ({', '.join(_COLUMNS)}) "
                                 f"VALUES ({', '.join('?' * len(_COLUMNS))})", values)
                    created += 1
                set_tags(conn, item["id"], item["tags"])
            return created, updated

        c, u = store.transaction(work)
        created, updated, batches = created + c, updated + u, batches + 1
    out = {"imported": len(items), "created": created, "updated": updated, "batches": batches}
    if redacted:
        out["redacted"] = redacted
    if ignored_fields:
        out["ignored_fields"] = sorted(ignored_fields)
    return out
