"""``set_memory(key, json_content | None, source)`` — the one write verb of the kv store (docs/stores.md § Agent key-value memory).

Under the writer lock (``kv/.lock``) a write appends one envelope line ``{key, ts, valid, source,
content}`` to ``log.jsonl`` with a single ``write(2)`` on an ``O_APPEND`` descriptor, then makes the
key's index file match: written (temp + rename) for content, removed for a tombstone (``None``).
Holding the lock across both keeps the index in log order, and log order is what decides the last
write everywhere. ``ts`` is the UTC write time, kept increasing within a store (a clock that steps
back yields last ts + 1 µs; a foreign line more than a day ahead is ignored). Nothing is written
through a symlink at the top of ``kv/`` (MEMORY_PATH_TRAVERSAL).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import stat

from .. import oplog
from ..errors import CodeMemoryError
from ..fsutil import atomic_write_bytes, ensure_dir, file_kind, file_lock
from ..redact import find_secrets, redact_obj
from .keys import index_relpath, normalize_key
from .layout import KVLayout, KVOptions
from .logfile import count_lines, encode_envelope, format_ts, last_line_ts, parse_ts, read_state_header, resume_offset
from .provenance import (
    MAX_SOURCE_BYTES,
    UNTRUSTED_PREFIX,
    ProvenanceError,
    check_source,
    outranked,
    source_kind,
    trust_level,
)

COMPACTION_CHECK_BYTES = 1 << 20   # look at the line count each time the log grows by 1 MiB


MAX_CONTENT_DEPTH = 64


def _json_body(value, what: str, code: str, limit: int, hint: str) -> str:
    """The compact JSON of ``value``, checked before any other work: nesting depth, JSON-ness,
    valid Unicode (no lone surrogates) and size."""
    depth_problem = _too_deep(value, MAX_CONTENT_DEPTH)
    if depth_problem:
        raise CodeMemoryError(code, f"{what} is nested deeper than {MAX_CONTENT_DEPTH} levels", hint=hint)
    try:
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise CodeMemoryError(code, f"{what} is not JSON: {exc}", hint=hint) from None
    try:
        size = len(body.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise CodeMemoryError(code, f"{what} holds invalid Unicode (a lone surrogate at character {exc.start})",
                              hint="send UTF-8 text") from None
    if size > limit:
        raise CodeMemoryError(code, f"{what} is {size} bytes; the limit is {limit}", hint=hint, limit=limit)
    return body


def _too_deep(value, limit: int) -> bool:
    """Whether ``value`` nests lists/objects deeper than ``limit`` (iterative: no recursion)."""
    stack = [(value, 1)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limit:
            return True
        seen += 1
        if seen > 1_000_000:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def set_memory(root_or_paths, key: str, json_content, source, *, options: KVOptions | None = None,
               now: dt.datetime | None = None) -> dict:
    """Upsert (content) or tombstone (``None``) ``key``. ``{}`` is content, not a tombstone.

    Returns ``{key, ts, valid, path, quarantined, compaction_due}`` (``path`` relative to the memory
    root; ``compaction_due`` when the log has grown past ``options.compact_after_lines`` since the
    last compaction or past ``options.rotate_lines`` — the caller may run :func:`compact`).
    Sizes, nesting and Unicode are checked first — before redaction, validation or the lock.
    Raises KV_KEY_INVALID, MEMORY_PATH_TRAVERSAL, KV_SOURCE_INVALID, KV_PROVENANCE_REQUIRED,
    KV_TRUST_CONFLICT, KV_CONTENT_INVALID, MEMORY_WRITE_FAILED or LOCK_TIMEOUT; nothing is written then.
    """
    options = options or KVOptions()
    layout = KVLayout.of(root_or_paths)
    content_hint = "store a summary and a locator instead, or raise kv.max_content_bytes"
    _json_body(json_content, "content", "KV_CONTENT_INVALID", options.max_content_bytes, content_hint)
    _json_body(source, "source", "KV_SOURCE_INVALID", MAX_SOURCE_BYTES, "keep the source to its provenance fields")
    key = normalize_key(key)
    if find_secrets(key):
        raise CodeMemoryError("KV_KEY_INVALID", "the key looks like it contains a secret",
                              hint="name the memory, keep secrets out of keys")
    quarantine = None
    try:
        check_source(key, source)
    except ProvenanceError as exc:
        if not options.quarantine_untrusted or json_content is None or key.startswith(UNTRUSTED_PREFIX + "/"):
            raise
        quarantine = {"from": key, "reason": exc.message}
        key = normalize_key(UNTRUSTED_PREFIX + key)

    envelope = {"key": key, "ts": "", "valid": json_content is not None,
                "source": redact_obj(source), "content": redact_obj(json_content)}
    body = _json_body(envelope["content"], "content", "KV_CONTENT_INVALID", options.max_content_bytes, content_hint)
    content_bytes = len(body.encode("utf-8"))

    layout.require_safe()
    with file_lock(layout.lock, timeout=options.lock_timeout):
        conflict = None if quarantine else _trust_conflict(layout, key, source)
        if conflict:
            if not options.quarantine_untrusted or json_content is None:
                raise CodeMemoryError(
                    "KV_TRUST_CONFLICT", f"{key}: {conflict}",
                    hint="the user can change it from a terminal; write it under /kb/… with provenance, or turn "
                         "on kv.quarantine_untrusted to keep it under /untrusted/… for review", key=key)
            quarantine = {"from": key, "reason": conflict}
            key = envelope["key"] = normalize_key(UNTRUSTED_PREFIX + key)
        if quarantine:
            envelope["quarantine"] = quarantine
        relpath = index_relpath(key)
        target = _prepare_index_target(layout, relpath, create=envelope["valid"])
        size_before, size_after, ts = append_envelope(layout, envelope, options, now)
        _apply_to_index(layout, target, envelope)
    due = _compaction_due(layout, options, size_before, size_after)
    layout.record({"t": ts, "op": "set", "key_sha": oplog.key_digest(key),
                   "valid": envelope["valid"], "source_kind": source_kind(source),
                   "bytes": content_bytes, "quarantined": bool(quarantine)})
    return {"key": key, "ts": ts, "valid": envelope["valid"],
            "path": os.path.relpath(target, layout.root), "quarantined": bool(quarantine), "compaction_due": due,
            **({"quarantine_reason": quarantine["reason"]} if quarantine else {})}


def _trust_conflict(layout: KVLayout, key: str, source) -> str | None:
    """Why a write of ``key`` from ``source`` must not land there: the live value came from a
    source of a higher trust level (an external source cannot replace an agent's or the user's
    value; an agent cannot replace or delete the user's)."""
    from .view import current_envelope, read_index_doc
    level = trust_level(source)
    if level == "user":
        return None
    if level == "agent":               # only a user's value outranks it: the key's index file says whose
        doc = read_index_doc(layout, key)
        if doc is None or trust_level(doc.get("source")) != "user":
            return None
    current = current_envelope(layout, key)
    if current is not None and outranked(current.get("source"), source):
        return (f"the key holds a value from a {trust_level(current.get('source'))} source; "
                f"an {trust_level(source)} source cannot replace or delete it")
    return None


_MAX_TS_LEAD = dt.timedelta(days=1)


def _next_ts(last: str | None, now: dt.datetime | None) -> str:
    """Now, kept strictly increasing after the last line — unless that line's ts is more than a day
    ahead (a bogus or foreign clock): ts is informational, log order decides the last write."""
    moment = now or dt.datetime.now(dt.timezone.utc)
    previous = parse_ts(last) if last else None
    if previous is not None and moment <= previous < moment + _MAX_TS_LEAD:
        moment = previous + dt.timedelta(microseconds=1)
    return format_ts(moment)


def append_envelope(layout: KVLayout, envelope: dict, options: KVOptions, now=None,
                    keep_ts: bool = False) -> tuple[int, int, str]:
    """Append one envelope to the log with a single write(2); its ``ts`` is set here unless
    ``keep_ts`` (a restored line keeps its own). The caller holds the lock. Returns
    ``(size before, size after, ts)``."""
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(layout.log, flags, 0o600)
    except OSError as exc:
        raise CodeMemoryError("MEMORY_WRITE_FAILED", f"cannot open kv log: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CodeMemoryError("MEMORY_WRITE_FAILED", f"the kv log is a {file_kind(st.st_mode)}, not a regular "
                                  "file; nothing was written", hint="remove kv/log.jsonl, then `code-memory kv check "
                                  "--repair`")
        size = st.st_size
        last, ends_clean = last_line_ts(fd, size)
        if last is None and size == 0:
            last = (read_state_header(layout.state) or {}).get("max_ts")
        if not (keep_ts and envelope.get("ts")):
            envelope["ts"] = _next_ts(last, now)
        data = encode_envelope(envelope)
        if not ends_clean:           # a torn line from a crashed writer stays a line of its own
            data = b"\n" + data
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if options.fsync:
            os.fsync(fd)
        return size, size + len(data), envelope["ts"]
    except OSError as exc:
        raise CodeMemoryError("MEMORY_WRITE_FAILED", f"cannot append to kv log: {exc.strerror}") from None
    finally:
        os.close(fd)


def _prepare_index_target(layout: KVLayout, relpath: str, create: bool) -> str:
    """The absolute index file for ``relpath``; every directory on the way is a real directory
    inside ``kv/index`` (a symlink anywhere on the way is refused), created when ``create``."""
    current = layout.index
    ensure_dir(current)
    for part in relpath.split("/")[:-1]:
        current = os.path.join(current, part)
        try:
            if create:
                os.mkdir(current, 0o755)
                continue
        except FileExistsError:
            pass
        except OSError as exc:
            raise CodeMemoryError("MEMORY_WRITE_FAILED", f"cannot create index directory: {exc.strerror}") from None
        try:
            st = os.lstat(current)
        except FileNotFoundError:
            break                     # tombstone of a key whose directory is already gone
        if not stat.S_ISDIR(st.st_mode):
            raise CodeMemoryError("MEMORY_PATH_TRAVERSAL",
                                  "the index path of this key passes through a symlink or a file",
                                  hint="run `code-memory kv check --repair` to remove foreign entries from kv/index")
    return layout.index_file(relpath)


def index_document(envelope: dict) -> bytes:
    """The JSON document of one index file: small, with the key, ts, source and content."""
    doc = {"key": envelope["key"], "ts": envelope["ts"], "source": envelope.get("source"),
           "content": envelope.get("content")}
    if envelope.get("quarantine"):
        doc["quarantine"] = envelope["quarantine"]
    return (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _apply_to_index(layout: KVLayout, target: str, envelope: dict) -> None:
    try:
        if envelope["valid"]:
            atomic_write_bytes(target, index_document(envelope), mode=0o600, durable=False)
        else:
            try:
                os.unlink(target)
            except FileNotFoundError:
                pass
            prune_empty_dirs(layout.index, os.path.dirname(target))
    except OSError as exc:
        # the log already holds the write; the index is derived and `kv check --repair` rebuilds it
        raise CodeMemoryError("MEMORY_WRITE_FAILED",
                              f"logged, but the index file could not be updated: {exc.strerror}",
                              hint="run `code-memory kv check --repair`", logged=True) from None


def prune_empty_dirs(index_root: str, directory: str) -> None:
    """Remove ``directory`` and its parents while empty, stopping at ``index_root``."""
    index_root = os.path.abspath(index_root)
    directory = os.path.abspath(directory)
    while directory.startswith(index_root + os.sep):
        try:
            os.rmdir(directory)
        except FileNotFoundError:
            pass
        except OSError:           # not empty (or not ours to remove)
            return
        directory = os.path.dirname(directory)


def _compaction_due(layout: KVLayout, options: KVOptions, size_before: int, size_after: int) -> bool:
    if size_before // COMPACTION_CHECK_BYTES == size_after // COMPACTION_CHECK_BYTES:
        return False
    header = read_state_header(layout.state) or {}
    try:
        total, tail = count_lines(layout.log, resume_offset(layout.log, header.get("log")))
    except FileNotFoundError:
        return False
    return tail >= options.compact_after_lines or total >= options.rotate_lines
