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
from ..jsonlite import dumps, loads
from ..timeutil import parse_datetime, parse_ts
from .digest import Digest
from .layout import KVLayout, KVOptions
from .logfile import (
    format_ts,
    log_position,
    parse_envelope,
    read_complete_lines,
    read_state,
    read_state_header,
    resume_offset,
)

DIGEST_SAVE_MIN_LINES = 200      # re-save the digest once this many log lines had to be replayed
_SUMMARY_FIELDS = ("summary", "title", "text", "description", "name", "note", "value", "content")
_META_FIELDS = {"type", "tags", "importance", "expired_at", "summary"}


def is_live(envelope: dict) -> bool:
    return bool(envelope.get("valid", envelope.get("content") is not None))


def apply_lww(entries: dict, envelope: dict) -> None:
    """Fold one log envelope into ``{key: envelope}`` (last write wins by ts, then by log order)."""
    key = envelope["key"]
    current = entries.get(key)
    if current is not None and envelope["ts"] < current["ts"]:
        return
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


def materialize(layout: KVLayout) -> tuple[dict, dict]:
    """``({key: envelope}, info)``: the live store, from state.jsonl + the log after it."""
    header, entries = read_state(layout.state)
    start = resume_offset(layout.log, (header or {}).get("log"))
    replay = replay_log(layout, start, lambda envelope: apply_lww(entries, envelope))
    return entries, {"state": header, "log_start": start, **replay}


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
        _header, envelopes = read_state(layout.state)
        digest = digest_of(envelopes)
        start = resume_offset(layout.log, header.get("log"))
    else:
        start = resume_offset(layout.log, digest_header.get("log"))
    replay = replay_log(layout, start, lambda envelope: fold_into_digest(digest, envelope))
    if rebuilt or replay["lines"] >= DIGEST_SAVE_MIN_LINES:
        save_digest(layout, state_id, digest, replay["end"])
    return digest, {"rebuilt_digest": rebuilt, "replayed_lines": replay["lines"], "bad_lines": replay["bad_lines"]}


# ------------------------------------------------------------------------------ index files

def read_index_doc(layout: KVLayout, key: str) -> dict | None:
    """The index file of ``key`` as a dict, or None when missing or unreadable."""
    from .keys import index_relpath
    try:
        with open(layout.index_file(index_relpath(key)), "rb") as fh:
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
        if doc is None or ts_epoch(doc["ts"]) < row[0]:
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

def get(root_or_paths, key: str) -> dict:
    """The live envelope of ``key`` (``NOT_FOUND`` when absent or tombstoned) and its index path."""
    from .keys import index_relpath, normalize_key
    layout = KVLayout.of(root_or_paths)
    key = normalize_key(key)
    digest, _info = digest_view(layout)
    row = digest.row(key)
    if row is None:
        raise CodeMemoryError("NOT_FOUND", "no live value for this key",
                              hint="`code-memory kv ls` lists the keys; a tombstoned key is gone")
    path = os.path.relpath(layout.index_file(index_relpath(key)), layout.root)
    doc = read_index_doc(layout, key)
    if doc is not None and ts_epoch(doc["ts"]) >= row[0]:
        return {**doc, "valid": True, "path": path}
    envelopes, _info = materialize(layout)           # the index drifted: answer from the log
    envelope = envelopes.get(key)
    if envelope is None:
        raise CodeMemoryError("NOT_FOUND", "no live value for this key")
    return {**envelope, "path": path, "index_stale": True}


def ls(root_or_paths, prefix: str | None = None, options: KVOptions | None = None,
       limit: int | None = None) -> dict:
    """The live keys under ``prefix`` (a folder of the key tree), sorted by key, with type and summary."""
    from .keys import normalize_prefix, prefix_reldir
    options = options or KVOptions()
    layout = KVLayout.of(root_or_paths)
    prefix = normalize_prefix(prefix)
    digest, _info = digest_view(layout)
    rows = sorted((r[0], r[1]) for r in digest.rows() if not prefix or r[0] == prefix or r[0].startswith(prefix + "/"))
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
