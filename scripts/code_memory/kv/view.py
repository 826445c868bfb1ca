"""Reading the kv store: the live view by last-write-wins over state.jsonl + the log after it.

Two views:
- :func:`materialize` — every live key's full envelope (compaction, check, get fallback);
- :func:`digest_view` — every live key's *digest*: ``[ts_epoch, importance, tags, expires_epoch,
  untrusted]`` (what ranking needs, nothing else), cached in ``kv/digest.json`` with the log position
  it covers, so the default read parses one compact file plus only the log lines written since, and
  reads type + summary from the index files of just the keys it shows (:func:`describe`).
  The digest is derived and disposable; it is rebuilt from state.jsonl when missing or stale.
"""

from __future__ import annotations

import datetime as dt
import json
import os

from ..errors import CodeMemoryError
from .layout import KVLayout, KVOptions
from .logfile import (log_position, parse_envelope, read_complete_lines, read_state, read_state_header,
                      resume_offset)
from .provenance import UNTRUSTED_PREFIX, parse_iso8601

DIGEST_VERSION = 3
DIGEST_SAVE_MIN_LINES = 200      # re-save the digest once this many log lines had to be replayed
TS_EPOCH, IMPORTANCE, TAGS, EXPIRES, UNTRUSTED = range(5)
_ENTRY_FIELDS = 5
_SUMMARY_FIELDS = ("summary", "title", "text", "description", "name", "note", "value", "content")
_META_FIELDS = {"type", "tags", "importance", "expired_at", "summary"}


def is_live(envelope: dict) -> bool:
    return bool(envelope.get("valid", envelope.get("content") is not None))


def apply_lww(entries: dict, envelope: dict, convert=None) -> None:
    """Fold one log envelope into ``entries`` (last write wins by ts, then by log order)."""
    key = envelope["key"]
    current = entries.get(key)
    if current is not None:
        if isinstance(current, dict):
            if envelope["ts"] < current["ts"]:
                return
        elif ts_epoch(envelope["ts"]) < current[TS_EPOCH]:
            return
    if is_live(envelope):
        entries[key] = convert(envelope) if convert else envelope
    else:
        entries.pop(key, None)


def replay_log(layout: KVLayout, start: int, entries: dict, convert=None) -> dict:
    """Apply the log's complete lines from ``start``; returns ``{end, lines, bad_lines, max_ts}``."""
    lines, end = read_complete_lines(layout.log, start)
    bad, max_ts = 0, None
    for raw in lines:
        envelope = parse_envelope(raw)
        if envelope is None:
            bad += raw.strip() != b""
            continue
        apply_lww(entries, envelope, convert)
        if max_ts is None or envelope["ts"] > max_ts:
            max_ts = envelope["ts"]
    return {"end": end or start, "lines": len(lines), "bad_lines": bad, "max_ts": max_ts}


def materialize(layout: KVLayout) -> tuple[dict, dict]:
    """``({key: envelope}, info)``: the live store, from state.jsonl + the log after it."""
    header, entries = read_state(layout.state)
    start = resume_offset(layout.log, (header or {}).get("log"))
    replay = replay_log(layout, start, entries)
    return entries, {"state": header, "log_start": start, **replay}


# ------------------------------------------------------------------------------ digest

def ts_epoch(ts: str) -> float:
    """Epoch seconds of an envelope ts (the canonical ``…Z`` form fast, anything ISO 8601 else)."""
    try:
        return dt.datetime.fromisoformat(ts[:-1]).replace(tzinfo=dt.timezone.utc).timestamp()
    except (TypeError, ValueError):
        parsed = parse_iso8601(ts)
        return parsed.timestamp() if parsed else 0.0


def _epoch(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) / 1000.0 if value > 1e12 else float(value)
    parsed = parse_iso8601(value)
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
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        return None, _one_line(text, limit)
    kind = content.get("type")
    kind = _one_line(kind, 40) if isinstance(kind, str) and kind.strip() else None
    summary = next((content[f] for f in _SUMMARY_FIELDS if isinstance(content.get(f), str) and content[f].strip()), None)
    if summary is None:
        rest = {k: v for k, v in content.items() if k not in _META_FIELDS}
        summary = json.dumps(rest, ensure_ascii=False, separators=(",", ":")) if rest else ""
    return kind, _one_line(summary, limit)


def digest_entry(envelope: dict) -> list:
    """The ranking fields of one live envelope."""
    content = envelope.get("content")
    importance = tags = None
    if isinstance(content, dict):
        importance = content.get("importance")
        tags = content.get("tags")
    if isinstance(importance, bool) or not isinstance(importance, (int, float)):
        importance = None
    if isinstance(tags, str):
        tags = [tags]
    tags = [t.strip().lower() for t in tags if isinstance(t, str) and t.strip()][:20] if isinstance(tags, list) else []
    key = envelope["key"]
    untrusted = int(key == UNTRUSTED_PREFIX or key.startswith(UNTRUSTED_PREFIX + "/"))
    return [ts_epoch(envelope["ts"]), importance, tags, expiry_epoch(content), untrusted]


def _load_digest(layout: KVLayout, state_id) -> dict | None:
    try:
        with open(layout.digest, "rb") as fh:
            digest = json.loads(fh.read())
    except (FileNotFoundError, ValueError):
        return None
    if (not isinstance(digest, dict) or digest.get("version") != DIGEST_VERSION
            or digest.get("state_id") != state_id or not isinstance(digest.get("entries"), dict)):
        return None
    if any(type(e) is not list or len(e) != _ENTRY_FIELDS for e in digest["entries"].values()):
        return None
    return digest


def save_digest(layout: KVLayout, state_id, entries: dict, log_offset: int) -> None:
    digest = {"version": DIGEST_VERSION, "state_id": state_id, "log": log_position(layout.log, log_offset),
              "entries": entries}
    from ..fsutil import atomic_write_bytes
    try:
        atomic_write_bytes(layout.digest, json.dumps(digest, ensure_ascii=False, separators=(",", ":")).encode("utf-8"),
                           mode=0o600, durable=False)
    except OSError:
        pass                      # a cache: the next read rebuilds it


def digest_view(layout: KVLayout) -> tuple[dict, dict]:
    """``({key: digest entry}, info)`` of every live key, refreshing ``kv/digest.json`` when the log
    moved on by ``DIGEST_SAVE_MIN_LINES`` lines or more (or it had to be rebuilt)."""
    header = read_state_header(layout.state) or {}
    state_id = header.get("id")
    digest = _load_digest(layout, state_id)
    rebuilt = digest is None
    if rebuilt:
        _header, envelopes = read_state(layout.state)
        entries = {k: digest_entry(e) for k, e in envelopes.items()}
        start = resume_offset(layout.log, header.get("log"))
    else:
        entries = digest["entries"]
        start = resume_offset(layout.log, digest.get("log"))
    replay = replay_log(layout, start, entries, digest_entry)
    if rebuilt or replay["lines"] >= DIGEST_SAVE_MIN_LINES:
        save_digest(layout, state_id, entries, replay["end"])
    return entries, {"rebuilt_digest": rebuilt, "replayed_lines": replay["lines"], "bad_lines": replay["bad_lines"]}


def read_index_doc(layout: KVLayout, key: str) -> dict | None:
    """The index file of ``key`` as a dict, or None when missing or unreadable."""
    from .keys import index_relpath
    try:
        with open(layout.index_file(index_relpath(key)), "rb") as fh:
            doc = json.loads(fh.read())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("key") == key and isinstance(doc.get("ts"), str) else None


def describe(layout: KVLayout, keys, entries: dict, limit: int) -> dict:
    """``{key: (type, summary)}`` for ``keys``, from their index files; keys whose index file is
    missing or older than the digest (drift) are answered from the log instead."""
    described, drifted = {}, []
    for key in keys:
        doc = read_index_doc(layout, key)
        if doc is None or ts_epoch(doc["ts"]) < entries[key][TS_EPOCH]:
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
    entries, _info = digest_view(layout)
    entry = entries.get(key)
    if entry is None:
        raise CodeMemoryError("NOT_FOUND", "no live value for this key",
                              hint="`code-memory kv ls` lists the keys; a tombstoned key is gone")
    path = os.path.relpath(layout.index_file(index_relpath(key)), layout.root)
    doc = read_index_doc(layout, key)
    if doc is not None and ts_epoch(doc["ts"]) >= entry[TS_EPOCH]:
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
    entries, _info = digest_view(layout)
    keys = sorted(k for k in entries if not prefix or k == prefix or k.startswith(prefix + "/"))
    total = len(keys)
    if limit is not None:
        keys = keys[:limit]
    described = describe(layout, keys, entries, options.summary_chars)
    index_dir = os.path.join(layout.index, *prefix_reldir(prefix).split("/")) if prefix else layout.index
    rows = []
    for k in keys:
        kind, summary = described.get(k, (None, ""))
        rows.append({"key": k, "ts": _iso(entries[k][TS_EPOCH]), "type": kind, "summary": summary})
    return {"prefix": prefix or "/", "index_dir": os.path.relpath(index_dir, layout.root), "total": total,
            "keys": rows}


def _iso(epoch: float) -> str:
    return dt.datetime.fromtimestamp(epoch, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
