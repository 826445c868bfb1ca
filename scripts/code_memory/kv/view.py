"""Reading the kv store: the live view by last-write-wins over state.jsonl + the log after it.

Two views:
- :func:`materialize` — every live key's full envelope (compaction, check, get fallback);
- :func:`digest_view` — every live key's ranking fields (:class:`~.digest.Digest`), cached in
  ``kv/digest.bin`` with the log position it covers, so the default read loads one compact file plus
  only the log lines written since, and reads type + summary from the index files of just the keys
  it shows (:func:`describe`). The digest is rebuilt from state.jsonl when missing or stale.
"""

from __future__ import annotations

import datetime as dt
import os

from ..errors import CodeMemoryError
from ..fsutil import open_regular
from ..jsonlite import dumps, loads
from ..timeutil import parse_datetime, parse_ts
from .digest import Digest
from .layout import KVLayout, KVOptions
from .logfile import (
    archive_files,
    format_ts,
    iter_lines_with_end,
    log_position,
    parse_envelope,
    read_complete_lines,
    read_state_checked,
    read_state_header,
    resume_offset,
    same_file,
)

DIGEST_SAVE_MIN_LINES = 200      # re-save the digest once this many log lines had to be replayed
_SUMMARY_FIELDS = ("summary", "title", "text", "description", "name", "note", "value", "content")
_META_FIELDS = {"type", "tags", "importance", "expired_at", "summary"}


def is_live(envelope: dict) -> bool:
    return bool(envelope.get("valid", envelope.get("content") is not None))


def apply_lww(entries: dict, envelope: dict) -> None:
    """Fold one log envelope into ``{key: envelope}``: the later line wins (log order — a writer's
    ``ts`` is informational, so a line with a bogus or future ts cannot outlive later writes)."""
    key = envelope["key"]
    if is_live(envelope):
        entries[key] = envelope
    else:
        entries.pop(key, None)


def replay_log(layout: KVLayout, start: int, apply) -> dict:
    """``apply(envelope)`` for the log's complete lines from ``start``; returns
    ``{end, lines, bad_lines, max_ts}``."""
    lines, end = read_complete_lines(layout.log, start)
    bad, max_ts = 0, None
    for raw in lines:
        envelope = parse_envelope(raw)
        if envelope is None:
            bad += raw.strip() != b""
            continue
        apply(envelope)
        if max_ts is None or envelope["ts"] > max_ts:
            max_ts = envelope["ts"]
    return {"end": end or start, "lines": len(lines), "bad_lines": bad, "max_ts": max_ts}


def materialize(layout: KVLayout, *, full: bool = False) -> tuple[dict, dict]:
    """``({key: envelope}, info)``: the live store.

    Normally state.jsonl + the log after the position it covers. When the snapshot is missing,
    cut short or damaged, or covers a log that is neither the current one nor the newest archive
    (or with ``full``), the whole history is replayed instead — every archive, then the log —
    and merged with what the snapshot still holds (:func:`rebuild`); ``info["restored"]`` then
    lists the envelopes only the snapshot knew."""
    header, entries, intact = read_state_checked(layout.state)
    position = (header or {}).get("log")
    if intact and not full and _snapshot_is_current(layout, position):
        start = resume_offset(layout.log, position)
        replay = replay_log(layout, start, lambda envelope: apply_lww(entries, envelope))
        return entries, {"state": header, "log_start": start, "rebuilt": False, "restored": {}, **replay}
    return rebuild(layout, header, entries)


def _snapshot_is_current(layout: KVLayout, position) -> bool:
    if not position or position.get("inode") is None:
        return True
    if same_file(layout.log, position):
        return True
    archives = archive_files(layout.archive)
    return bool(archives) and same_file(archives[-1], position)


def replay_history(layout: KVLayout) -> dict:
    """Every line of the archives and the log in order: ``{files, entries, last_op, end, lines,
    bad_lines, max_ts}`` (``last_op[key]`` = (file index, offset after the line))."""
    files = archive_files(layout.archive) + [layout.log]
    entries, last_op = {}, {}
    lines = bad = end = 0
    max_ts = None
    for index, path in enumerate(files):
        for raw, offset in iter_lines_with_end(path):
            lines += 1
            if index == len(files) - 1:
                end = offset
            envelope = parse_envelope(raw)
            if envelope is None:
                bad += raw.strip() != b""
                continue
            apply_lww(entries, envelope)
            last_op[envelope["key"]] = (index, offset)
            if max_ts is None or envelope["ts"] > max_ts:
                max_ts = envelope["ts"]
    return {"files": files, "entries": entries, "last_op": last_op, "end": end, "lines": lines,
            "bad_lines": bad, "max_ts": max_ts}


def rebuild(layout: KVLayout, header: dict | None, snapshot: dict) -> tuple[dict, dict]:
    """The live store from the whole history, merged with a snapshot that may be stale, cut short
    or ahead of a history whose archives were deleted: a snapshot entry wins for a key that no
    line after the snapshot's position touched (it is the later knowledge), and a key found only
    in the snapshot is kept; history wins everywhere else. Nothing that exists on disk is lost."""
    history = replay_history(layout)
    entries, last_op = history["entries"], history["last_op"]
    position = (header or {}).get("log")
    located = None
    for index, path in enumerate(history["files"]):
        if same_file(path, position):
            located = (index, int(position.get("offset") or 0))
            break
    restored = {}
    for key, envelope in snapshot.items():
        op = last_op.get(key)
        later = op is not None and (located is None or op > located)
        if not later and entries.get(key) != envelope:
            entries[key] = envelope
            restored[key] = envelope
    return entries, {"state": header, "log_start": 0, "rebuilt": True, "restored": restored,
                     "end": history["end"], "lines": history["lines"], "bad_lines": history["bad_lines"],
                     "max_ts": history["max_ts"], "last_op": last_op}


# ------------------------------------------------------------------------------ content fields

def ts_epoch(ts: str) -> float:
    """Epoch seconds of an envelope ts (any ISO 8601; 0.0 when it is not one)."""
    return parse_ts(ts) or 0.0


def _epoch(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) / 1000.0 if value > 1e12 else float(value)
    parsed = parse_datetime(value)
    return parsed.timestamp() if parsed else None


def expiry_epoch(content) -> float | None:
    """``content.expired_at`` as epoch seconds (ISO 8601, or epoch s/ms), None if absent/unreadable."""
    return _epoch(content.get("expired_at")) if isinstance(content, dict) else None


def _one_line(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: max(1, limit - 1)] + "…"


def describe_content(content, limit: int) -> tuple:
    """``(type, summary)`` of any JSON content: ``content.type`` and ``content.summary`` (else
    title/text/description/…, else the compact JSON of the other fields), one line, capped."""
    if not isinstance(content, dict):
        text = content if isinstance(content, str) else dumps(content)
        return None, _one_line(text, limit)
    kind = content.get("type")
    kind = _one_line(kind, 40) if isinstance(kind, str) and kind.strip() else None
    summary = next((content[f] for f in _SUMMARY_FIELDS if isinstance(content.get(f), str) and content[f].strip()), None)
    if summary is None:
        rest = {k: v for k, v in content.items() if k not in _META_FIELDS}
        summary = dumps(rest, compact=True) if rest else ""
    return kind, _one_line(summary, limit)


# ------------------------------------------------------------------------------ digest

def digest_row(envelope: dict) -> tuple:
    return Digest.row_of(envelope, ts_epoch(envelope["ts"]), expiry_epoch(envelope.get("content")))


def fold_into_digest(digest: Digest, envelope: dict) -> None:
    digest.apply(envelope["key"], ts_epoch(envelope["ts"]), digest_row(envelope) if is_live(envelope) else None)


def digest_of(envelopes: dict) -> Digest:
    """The digest of ``{key: live envelope}``."""
    return Digest.from_rows((key, *digest_row(envelope)) for key, envelope in envelopes.items())


def save_digest(layout: KVLayout, state_id, digest: Digest, log_offset: int) -> None:
    from ..fsutil import atomic_write_bytes
    if os.path.islink(layout.kv) or os.path.islink(layout.digest):
        return                    # a cache: never written through a symlink
    try:
        atomic_write_bytes(layout.digest, digest.to_bytes(state_id, log_position(layout.log, log_offset)),
                           mode=0o600, durable=False)
    except OSError:
        pass                      # a cache: the next read rebuilds it


def digest_view(layout: KVLayout) -> tuple[Digest, dict]:
    """``(digest, info)`` of every live key, refreshing ``kv/digest.bin`` when the log moved on by
    ``DIGEST_SAVE_MIN_LINES`` lines or more (or it had to be rebuilt)."""
    header = read_state_header(layout.state) or {}
    state_id = header.get("id")
    digest, digest_header = Digest.load(layout.digest, state_id)
    rebuilt = digest is None
    if rebuilt:
        envelopes, info = materialize(layout)
        digest = digest_of(envelopes)
        save_digest(layout, state_id, digest, info["end"])
        return digest, {"rebuilt_digest": True, "replayed_lines": info["lines"], "bad_lines": info["bad_lines"]}
    start = resume_offset(layout.log, digest_header.get("log"))
    replay = replay_log(layout, start, lambda envelope: fold_into_digest(digest, envelope))
    if replay["lines"] >= DIGEST_SAVE_MIN_LINES:
        save_digest(layout, state_id, digest, replay["end"])
    return digest, {"rebuilt_digest": False, "replayed_lines": replay["lines"], "bad_lines": replay["bad_lines"]}


# ------------------------------------------------------------------------------ index files

def read_index_doc(layout: KVLayout, key: str) -> dict | None:
    """The index file of ``key`` as a dict, or None when missing or unreadable."""
    from .keys import index_relpath
    try:
        with open_regular(layout.index_file(index_relpath(key))) as fh:
            doc = loads(fh.read())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("key") == key and isinstance(doc.get("ts"), str) else None


def describe(layout: KVLayout, keys, digest: Digest, limit: int) -> dict:
    """``{key: (type, summary)}`` for live ``keys``, from their index files; keys whose index file
    is missing or older than the digest (drift) are answered from the log instead."""
    described, drifted = {}, []
    for key in keys:
        row = digest.row(key)
        if row is None:
            continue
        doc = read_index_doc(layout, key)
        if doc is None or ts_epoch(doc["ts"]) != row[0]:
            drifted.append(key)
        else:
            described[key] = describe_content(doc.get("content"), limit)
    if drifted:
        envelopes, _info = materialize(layout)
        for key in drifted:
            envelope = envelopes.get(key)
            if envelope is not None:
                described[key] = describe_content(envelope.get("content"), limit)
    return described


# ------------------------------------------------------------------------------ get / ls

def current_envelope(layout: KVLayout, key: str) -> dict | None:
    """The live envelope of canonical ``key`` (its index file when it matches the log's last
    write, else from the log), or None."""
    digest, _info = digest_view(layout)
    row = digest.row(key)
    if row is None:
        return None
    doc = read_index_doc(layout, key)
    if doc is not None and ts_epoch(doc["ts"]) == row[0]:
        return {**doc, "valid": True}
    envelopes, _info = materialize(layout)           # the index drifted: answer from the log
    envelope = envelopes.get(key)
    return None if envelope is None else {**envelope, "index_stale": True}


def get(root_or_paths, key: str) -> dict:
    """The live envelope of ``key`` (``NOT_FOUND`` when absent or tombstoned) and its index path."""
    from .keys import index_relpath, normalize_key
    layout = KVLayout.of(root_or_paths)
    key = normalize_key(key)
    envelope = current_envelope(layout, key)
    if envelope is None:
        raise CodeMemoryError("NOT_FOUND", "no live value for this key",
                              hint="`code-memory kv ls` lists the keys; a tombstoned key is gone")
    path = os.path.relpath(layout.index_file(index_relpath(key)), layout.root)
    return {**envelope, "path": path}


def ls(root_or_paths, prefix: str | None = None, options: KVOptions | None = None,
       limit: int | None = None, include_untrusted: bool = True) -> dict:
    """The live keys under ``prefix`` (a folder of the key tree), sorted by key, with type and summary;
    without quarantined ``/untrusted/…`` keys unless ``include_untrusted``."""
    from .keys import normalize_prefix, prefix_reldir
    options = options or KVOptions()
    layout = KVLayout.of(root_or_paths)
    prefix = normalize_prefix(prefix)
    digest, _info = digest_view(layout)
    rows = sorted((r[0], r[1]) for r in digest.rows() if (not prefix or r[0] == prefix or r[0].startswith(prefix + "/"))
                  and (include_untrusted or not r[4]))
    total = len(rows)
    if limit is not None:
        rows = rows[:limit]
    described = describe(layout, [key for key, _ts in rows], digest, options.summary_chars)
    index_dir = os.path.join(layout.index, *prefix_reldir(prefix).split("/")) if prefix else layout.index
    listing = []
    for key, written in rows:
        kind, summary = described.get(key, (None, ""))
        listing.append({"key": key, "ts": format_ts(dt.datetime.fromtimestamp(written, dt.timezone.utc)),
                        "type": kind, "summary": summary})
    return {"prefix": prefix or "/", "index_dir": os.path.relpath(index_dir, layout.root), "total": total,
            "keys": listing}
