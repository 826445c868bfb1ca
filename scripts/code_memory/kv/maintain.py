"""Keeping the kv store tidy (docs/stores.md § Agent key-value memory): consistency check/repair and compaction.

:func:`check` rebuilds the live view from the whole history (archives + log, the later line wins),
merges what the snapshot and the index files alone still hold, and reports drift — missing,
stale, orphaned index files, unsafe entries (symlinks), temp leftovers, foreign files, a snapshot
cut short, keys only the snapshot or an index file knows, symlinks among the store's own paths;
with ``repair`` it appends those keys to the log, rewrites the index and writes a fresh
state.jsonl + digest. Deleting any derived file (state.jsonl, digest.bin, kv/index) and repairing
gives back the same store.

:func:`compact` is the same merge plus the history policy: it writes state.jsonl atomically (temp +
fsync + rename: a crash leaves the old or the new snapshot, never a torn one), then
- policy A (default): the log is kept; once it holds ``rotate_lines`` lines it is moved, whole, to
  ``archive/`` (history is never deleted);
- policy B: the log is moved to ``archive/log_<seq>_<date>-<time>.jsonl`` at every compaction, so
  only state.jsonl + the newest writes stay online;
and repairs the index. Both hold the writer lock, so writes wait (they are not lost).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
import uuid

from ..errors import CodeMemoryError
from ..fsutil import atomic_write_bytes, ensure_dir, file_lock, open_regular
from .keys import FILE_SUFFIX, index_relpath, normalize_key
from .layout import KVLayout, KVOptions
from .logfile import (
    STATE_VERSION,
    count_lines,
    format_ts,
    log_position,
    next_archive_name,
    read_state_checked,
    resume_offset,
    write_state,
)
from .view import digest_of, expiry_epoch, materialize, rebuild, save_digest
from .write import append_envelope, index_document, prune_empty_dirs

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
        with open_regular(path) as fh:
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


def _fresh_state(layout: KVLayout, entries: dict, info: dict, policy: str, end: int) -> dict:
    previous = info.get("state") or {}
    max_ts = max(filter(None, [previous.get("max_ts"), info.get("max_ts")]), default=None)
    header = {"version": STATE_VERSION, "id": uuid.uuid4().hex, "compacted_at": format_ts(dt.datetime.now(dt.timezone.utc)),
              "keys": len(entries), "max_ts": max_ts, "policy": policy,
              "log": log_position(layout.log, end)}
    write_state(layout.state, header, entries)
    return header


def _lines_after(layout: KVLayout, header: dict) -> int:
    """Log lines written after the snapshot's position."""
    try:
        return count_lines(layout.log, resume_offset(layout.log, header.get("log")))[1]
    except FileNotFoundError:
        return 0


def salvage_index(layout: KVLayout, entries: dict, last_op: dict, snapshot: dict) -> dict:
    """``{key: envelope}`` of index files whose key no log line, archive or snapshot knows — the
    only copy left on disk (a log cut short). Index files of deleted keys are not among them."""
    found = {}

    def walk(directory: str) -> None:
        try:
            items = list(os.scandir(directory))
        except (FileNotFoundError, NotADirectoryError):
            return
        for item in items:
            if item.is_symlink():
                continue
            if item.is_dir(follow_symlinks=False):
                walk(item.path)
            elif item.name.endswith(FILE_SUFFIX) and "@" in item.name:
                try:
                    with open_regular(item.path) as fh:
                        doc = json.loads(fh.read())
                except (OSError, ValueError):
                    continue
                key = doc.get("key") if isinstance(doc, dict) else None
                if (not isinstance(key, str) or not isinstance(doc.get("ts"), str) or key in entries
                        or key in last_op or key in snapshot):
                    continue
                try:
                    if normalize_key(key) != key or index_relpath(key) != os.path.relpath(item.path, layout.index):
                        continue
                except CodeMemoryError:
                    continue
                envelope = {"key": key, "ts": doc["ts"], "valid": True, "source": doc.get("source"),
                            "content": doc.get("content")}
                if doc.get("quarantine"):
                    envelope["quarantine"] = doc["quarantine"]
                found[key] = envelope

    walk(layout.index)
    return found


def restore_into_log(layout: KVLayout, options: KVOptions, restored: dict, origin: dict) -> int | None:
    """Append each envelope known only to the snapshot or an index file to the log (its ts kept,
    ``"restored": "state"|"index"`` added), so the log holds every live key again. Returns the
    log's new end, or None when nothing was appended."""
    end = None
    for key in sorted(restored):
        envelope = {k: v for k, v in restored[key].items() if k != "index_stale"}
        envelope["restored"] = origin.get(key, "state")
        _before, end, _ts = append_envelope(layout, envelope, options, keep_ts=True)
        restored[key] = envelope
    return end


def check(root_or_paths, options: KVOptions | None = None, *, repair: bool = False) -> dict:
    """Report (and with ``repair`` fix) drift between the log and its archives, state.jsonl and
    kv/index. The live store is rebuilt from the whole history and merged with the snapshot and
    index files (:func:`~.view.rebuild`, :func:`salvage_index`), so a repair never drops a key
    that exists anywhere on disk; keys only the snapshot or an index file held are appended to
    the log first. Symlinks among the store's own paths are reported, and refuse a repair."""
    options = options or KVOptions()
    layout = KVLayout.of(root_or_paths)
    started = time.perf_counter()
    symlinks = layout.symlinked_paths()
    if repair:
        layout.require_safe()
    with file_lock(layout.lock, timeout=COMPACT_LOCK_TIMEOUT):
        header, snapshot, intact = read_state_checked(layout.state)
        entries, info = rebuild(layout, header, snapshot)
        salvaged = salvage_index(layout, entries, info["last_op"], snapshot)
        restored = {**info["restored"], **salvaged}
        origin = {**{k: "state" for k in info["restored"]}, **{k: "index" for k in salvaged}}
        entries.update(salvaged)
        report = {"keys": len(entries), "state_missing": header is None and info["lines"] > 0,
                  "state_intact": intact, "state_behind_lines": _lines_after(layout, header) if intact else None,
                  "history_lines": info["lines"], "bad_log_lines": info["bad_lines"],
                  "only_in_state": sorted(info["restored"])[:SAMPLE], "only_in_index": sorted(salvaged)[:SAMPLE],
                  "symlinks": symlinks, "repaired": False}
        expected = {index_relpath(k): e for k, e in entries.items()}
        scan = scan_index(layout, expected)
        damaged = header is not None and not intact
        report["state_damaged"] = damaged
        report.update(index=_summary(scan), drift=_drift_count(scan) + len(restored) + int(damaged))
        if repair:
            end = restore_into_log(layout, options, restored, origin)
            entries.update(restored)
            expected = {index_relpath(k): e for k, e in entries.items()}
            scan = scan_index(layout, expected)
            repair_index(layout, scan, expected)
            end = info["end"] if end is None else end
            state_header = _fresh_state(layout, entries, info, (header or {}).get("policy") or options.history_policy,
                                        end)
            save_digest(layout, state_header["id"], digest_of(entries), end)
            report["repaired"] = True
            report["restored_to_log"] = len(restored)
    report["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    layout.record({"t": format_ts(dt.datetime.now(dt.timezone.utc)), "op": "check", "keys": len(entries),
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


def compact(root_or_paths, options: KVOptions | None = None, *, policy: str | None = None,
            dry_run: bool = False, now: dt.datetime | None = None) -> dict:
    """Merge the history into state.jsonl (the later log line wins), apply the history policy,
    repair the index. Keys with a past ``expired_at`` dropped by ``drop_expired_on_compact`` get a
    tombstone line, and keys only a damaged snapshot still held are written back to the log, so
    the log and its archives always rebuild the same state."""
    options = options or KVOptions()
    policy = policy or options.history_policy
    layout = KVLayout.of(root_or_paths)
    started = time.perf_counter()
    moment = now or dt.datetime.now(dt.timezone.utc)
    if not dry_run:
        layout.require_safe()
    with file_lock(layout.lock, timeout=COMPACT_LOCK_TIMEOUT):
        entries, info = materialize(layout)
        expired = []
        if options.drop_expired_on_compact:
            cutoff = moment.timestamp()
            expired = sorted(k for k, e in entries.items() if (expiry_epoch(e.get("content")) or float("inf")) < cutoff)
        log_lines = _count_lines(layout.log)
        rotate = policy == "B" or log_lines >= options.rotate_lines
        report = {"policy": policy, "keys": len(entries) - len(expired), "log_lines": log_lines,
                  "merged_lines": info["lines"], "bad_log_lines": info["bad_lines"],
                  "dropped_expired": len(expired), "restored_to_log": len(info["restored"]),
                  "rotated_to": None, "dry_run": dry_run}
        if dry_run:
            scan = scan_index(layout, {index_relpath(k): e for k, e in entries.items() if k not in expired})
        else:
            end = restore_into_log(layout, options, info["restored"], {})
            entries.update(info["restored"])
            for key in expired:
                tombstone = {"key": key, "ts": "", "valid": False, "source": {"kind": "system", "name": "kv compact"},
                             "content": None, "reason": "expired"}
                _before, end, _ts = append_envelope(layout, tombstone, options, moment)
                entries.pop(key)
            end = info["end"] if end is None else end
            expected = {index_relpath(k): e for k, e in entries.items()}
            scan = scan_index(layout, expected)
            header = _fresh_state(layout, entries, info, policy, end)
            offset = end
            if rotate and os.path.exists(layout.log) and os.path.getsize(layout.log) > 0:
                ensure_dir(layout.archive, 0o700)
                archived = next_archive_name(layout.archive, moment.strftime("%Y%m%d-%H%M%S"))
                os.replace(layout.log, archived)
                report["rotated_to"] = os.path.relpath(archived, layout.root)
                offset = 0
            save_digest(layout, header["id"], digest_of(entries), offset)
            repair_index(layout, scan, expected)
            _remove_stale_temp_files(layout)
            report["state_id"] = header["id"]
        report.update(index=_summary(scan), drift=_drift_count(scan))
    report["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    layout.record({"t": format_ts(dt.datetime.now(dt.timezone.utc)), "op": "compact", "policy": policy,
                   "keys": report["keys"], "log_lines": log_lines, "rotated": bool(report["rotated_to"]),
                   "dry_run": dry_run, "ms": report["elapsed_ms"]})
    return report
