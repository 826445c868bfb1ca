"""Keeping the kv store tidy (README § Agent key-value memory): consistency check/repair and compaction.

:func:`check` compares the live view (state.jsonl + log, last write wins) with ``kv/index/`` and
reports drift — missing, stale, orphaned index files, unsafe entries (symlinks), temp leftovers,
foreign files — and how far state.jsonl lags behind the log; with ``repair`` it rewrites the index
from the live view and writes a fresh state.jsonl + digest.

:func:`compact` is the same merge plus the history policy: it writes state.jsonl atomically (temp +
fsync + rename: a crash leaves the old or the new snapshot, never a torn one), then
- policy A (default): the log is kept; once it holds ``rotate_lines`` lines it is moved, whole, to
  ``archive/`` (history is never deleted);
- policy B: the log is moved to ``archive/log_<date>-<time>.jsonl`` at every compaction, so only
  state.jsonl + the newest writes stay online;
and repairs the index. Both hold the writer lock, so writes wait (they are not lost).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
import uuid

from .. import oplog
from ..fsutil import atomic_write_bytes, ensure_dir, file_lock
from .keys import FILE_SUFFIX, index_relpath
from .layout import KVLayout, KVOptions
from .logfile import STATE_VERSION, count_lines, format_ts, log_position, write_state
from .view import digest_of, expiry_epoch, materialize, save_digest
from .write import index_document, prune_empty_dirs

SAMPLE = 20
COMPACT_LOCK_TIMEOUT = 120.0


def _count_lines(path: str) -> int:
    try:
        return count_lines(path)[0]
    except FileNotFoundError:
        return 0


def scan_index(layout: KVLayout, expected: dict) -> dict:
    """Compare the files below kv/index with ``expected`` ({relpath: envelope})."""
    found = {"missing": [], "stale": [], "orphans": [], "unsafe": [], "leftovers": [], "foreign": []}
    seen = set()

    def walk(directory: str, rel: str) -> None:
        try:
            items = list(os.scandir(directory))
        except FileNotFoundError:
            return
        for item in items:
            relpath = f"{rel}/{item.name}" if rel else item.name
            if item.is_symlink():
                found["unsafe"].append(relpath)
            elif item.is_dir(follow_symlinks=False):
                walk(item.path, relpath)
            elif item.name.startswith(".") and item.name.endswith(".tmp"):
                found["leftovers"].append(relpath)
            elif relpath in expected:
                seen.add(relpath)
                if not _matches(item.path, expected[relpath]):
                    found["stale"].append(relpath)
            elif item.name.endswith(FILE_SUFFIX) and "@" in item.name:
                found["orphans"].append(relpath)
            else:
                found["foreign"].append(relpath)

    walk(layout.index, "")
    found["missing"] = sorted(set(expected) - seen)
    return found


def _matches(path: str, envelope: dict) -> bool:
    try:
        with open(path, "rb") as fh:
            doc = json.loads(fh.read())
    except (OSError, ValueError):
        return False
    return (isinstance(doc, dict) and doc.get("key") == envelope["key"] and doc.get("ts") == envelope["ts"]
            and doc.get("content") == envelope.get("content"))


def repair_index(layout: KVLayout, scan: dict, expected: dict) -> None:
    for relpath in scan["unsafe"] + scan["leftovers"] + scan["orphans"]:
        try:
            os.unlink(layout.index_file(relpath))
        except FileNotFoundError:
            pass
        prune_empty_dirs(layout.index, os.path.dirname(layout.index_file(relpath)))
    for relpath in scan["missing"] + scan["stale"]:
        atomic_write_bytes(layout.index_file(relpath), index_document(expected[relpath]), mode=0o600, durable=False)


def _summary(scan: dict) -> dict:
    return {name: {"count": len(items), "sample": items[:SAMPLE]} for name, items in scan.items()}


def _drift_count(scan: dict) -> int:
    return sum(len(v) for k, v in scan.items() if k != "foreign")


def _fresh_state(layout: KVLayout, entries: dict, info: dict, policy: str) -> dict:
    previous = info.get("state") or {}
    max_ts = max(filter(None, [previous.get("max_ts"), info.get("max_ts")]), default=None)
    header = {"version": STATE_VERSION, "id": uuid.uuid4().hex, "compacted_at": format_ts(dt.datetime.now(dt.timezone.utc)),
              "keys": len(entries), "max_ts": max_ts, "policy": policy,
              "log": log_position(layout.log, info["end"])}
    write_state(layout.state, header, entries)
    return header


def check(root_or_paths, options: KVOptions | None = None, *, repair: bool = False) -> dict:
    """Report (and with ``repair`` fix) drift between the log, state.jsonl and kv/index."""
    options = options or KVOptions()
    layout = KVLayout.of(root_or_paths)
    started = time.perf_counter()
    with file_lock(layout.lock, timeout=COMPACT_LOCK_TIMEOUT):
        entries, info = materialize(layout)
        expected = {index_relpath(k): e for k, e in entries.items()}
        scan = scan_index(layout, expected)
        state_missing = info["state"] is None and info["lines"] > 0
        report = {"keys": len(entries), "state_behind_lines": info["lines"] if info["state"] else None,
                  "state_missing": state_missing, "bad_log_lines": info["bad_lines"],
                  "index": _summary(scan), "drift": _drift_count(scan), "repaired": False}
        if repair:
            repair_index(layout, scan, expected)
            header = _fresh_state(layout, entries, info, (info["state"] or {}).get("policy") or options.history_policy)
            save_digest(layout, header["id"], digest_of(entries), info["end"])
            report["repaired"] = True
    report["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    oplog.record(layout.oplog, {"t": format_ts(dt.datetime.now(dt.timezone.utc)), "op": "check", "keys": len(entries),
                                "drift": report["drift"], "repaired": report["repaired"], "ms": report["elapsed_ms"]})
    return report


def _writer_alive(temp_name: str) -> bool:
    """Whether the process that names itself in ``.<file>.<pid>.<random>.tmp`` still runs."""
    parts = temp_name.split(".")
    try:
        pid = int(parts[-3])
    except (IndexError, ValueError):
        return True                     # unknown naming: assume a live writer
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _remove_stale_temp_files(layout: KVLayout, max_age: float = 60.0) -> None:
    """Temp files of writers killed mid-write. state.jsonl is written only under the lock this
    holds; digest.bin also by lock-free readers, so only those of dead (or long-gone) writers go."""
    now = time.time()
    for name in os.listdir(layout.kv):
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        path = os.path.join(layout.kv, name)
        try:
            if (name.startswith(".state.jsonl.") or not _writer_alive(name)
                    or now - os.path.getmtime(path) > max_age):
                os.unlink(path)
        except OSError:
            pass


def _archive_path(layout: KVLayout, moment: dt.datetime) -> str:
    ensure_dir(layout.archive, 0o700)
    base = os.path.join(layout.archive, "log_" + moment.strftime("%Y%m%d-%H%M%S"))
    candidate, n = base + ".jsonl", 2
    while os.path.exists(candidate):
        candidate, n = f"{base}-{n}.jsonl", n + 1
    return candidate


def compact(root_or_paths, options: KVOptions | None = None, *, policy: str | None = None,
            dry_run: bool = False, now: dt.datetime | None = None) -> dict:
    """LWW-merge the log into state.jsonl, apply the history policy, repair the index."""
    options = options or KVOptions()
    policy = policy or options.history_policy
    layout = KVLayout.of(root_or_paths)
    started = time.perf_counter()
    moment = now or dt.datetime.now(dt.timezone.utc)
    with file_lock(layout.lock, timeout=COMPACT_LOCK_TIMEOUT):
        entries, info = materialize(layout)
        expired = []
        if options.drop_expired_on_compact:
            cutoff = moment.timestamp()
            expired = [k for k, e in entries.items() if (expiry_epoch(e.get("content")) or float("inf")) < cutoff]
            for key in expired:
                entries.pop(key)
        log_lines = _count_lines(layout.log)
        rotate = log_lines > 0 and (policy == "B" or log_lines >= options.rotate_lines)
        expected = {index_relpath(k): e for k, e in entries.items()}
        scan = scan_index(layout, expected)
        report = {"policy": policy, "keys": len(entries), "log_lines": log_lines,
                  "merged_lines": info["lines"], "bad_log_lines": info["bad_lines"],
                  "dropped_expired": len(expired), "rotated_to": None, "index": _summary(scan),
                  "drift": _drift_count(scan), "dry_run": dry_run}
        if not dry_run:
            header = _fresh_state(layout, entries, info, policy)
            offset = info["end"]
            if rotate:
                archived = _archive_path(layout, moment)
                os.replace(layout.log, archived)
                report["rotated_to"] = os.path.relpath(archived, layout.root)
                offset = 0
            save_digest(layout, header["id"], digest_of(entries), offset)
            repair_index(layout, scan, expected)
            _remove_stale_temp_files(layout)
            report["state_id"] = header["id"]
    report["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    oplog.record(layout.oplog, {"t": format_ts(dt.datetime.now(dt.timezone.utc)), "op": "compact", "policy": policy,
                                "keys": len(entries), "log_lines": log_lines, "rotated": bool(rotate and not dry_run),
                                "dry_run": dry_run, "ms": report["elapsed_ms"]})
    return report
