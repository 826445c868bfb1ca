"""The kv store's files: the append-only log, the compacted state snapshot, and log positions.

History = the rotated logs in ``kv/archive/`` (oldest first) followed by log.jsonl; *log order*
in that history is the one rule for "last write" (a writer's clock is never trusted).

A *log position* says how far a derived file (state.jsonl, digest.bin) has read log.jsonl:
``{"inode", "head", "head_len", "offset"}``. It only resumes at ``offset`` while the log is the same
file (same inode and the same first bytes); a rotated, replaced or truncated log is replayed from
its start instead. Replay is idempotent (the later line wins), so replaying more than needed never
changes the result.

state.jsonl = one header line ``{"_kv_state": {...}}`` (with the key count and a CRC-32 of the
body) followed by the live envelopes sorted by key, written atomically (temp + fsync + rename).
"""

from __future__ import annotations

import datetime as dt
import os
import zlib

from ..fsutil import NotRegularFile, open_regular
from ..jsonlite import loads
from ..timeutil import parse_datetime, utc_stamp

HEAD_BYTES = 256
STATE_HEADER = "_kv_state"
STATE_VERSION = 1


def format_ts(moment: dt.datetime) -> str:
    return utc_stamp(moment)


def parse_ts(ts: str) -> dt.datetime | None:
    """The datetime of a canonical envelope ts (``YYYY-MM-DDTHH:MM:SS.ffffffZ``), else None."""
    if not isinstance(ts, str) or not ts.endswith("Z"):
        return None
    return parse_datetime(ts)


def encode_envelope(envelope: dict) -> bytes:
    import json  # the write path only: readers (SessionStart) avoid importing json
    return (json.dumps(envelope, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")


# ------------------------------------------------------------------------------ log positions

def _head_digest(fh, length: int) -> str:
    fh.seek(0)
    return format(zlib.crc32(fh.read(length)), "08x")


def log_position(path: str, offset: int) -> dict:
    """The position ``offset`` in the current log file (an empty position when there is no log)."""
    try:
        with open_regular(path) as fh:
            st = os.fstat(fh.fileno())
            head_len = min(HEAD_BYTES, offset)
            return {"inode": st.st_ino, "head": _head_digest(fh, head_len), "head_len": head_len, "offset": offset}
    except (FileNotFoundError, NotRegularFile):
        return {"inode": None, "head": None, "head_len": 0, "offset": 0}


def resume_offset(path: str, position: dict | None) -> int:
    """Where to continue reading the log for a derived file recorded at ``position``."""
    if not position or not position.get("offset"):
        return 0
    try:
        with open_regular(path) as fh:
            st = os.fstat(fh.fileno())
            if st.st_ino != position.get("inode") or st.st_size < position["offset"]:
                return 0
            if _head_digest(fh, int(position.get("head_len") or 0)) != position.get("head"):
                return 0
            return int(position["offset"])
    except (FileNotFoundError, NotRegularFile, TypeError, ValueError):
        return 0


def count_lines(path: str, start: int = 0) -> tuple[int, int]:
    """``(lines in the file, lines after byte start)``, read in 1 MiB blocks; FileNotFoundError
    when there is no file (NotRegularFile when it is a FIFO or a device)."""
    total = tail = position = 0
    with open_regular(path) as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            count = block.count(b"\n")
            total += count
            if position >= start:
                tail += count
            elif position + len(block) > start:
                tail += block[start - position:].count(b"\n")
            position += len(block)
    return total, tail


def read_complete_lines(path: str, start: int):
    """``(lines, end)``: the complete lines of the log from byte ``start``, and the offset after the
    last complete line (a line still being written by a concurrent writer is left for later)."""
    try:
        with open_regular(path) as fh:
            fh.seek(start)
            data = fh.read()
    except (FileNotFoundError, NotRegularFile):
        return [], 0
    cut = data.rfind(b"\n")
    if cut < 0:
        return [], start
    return data[: cut + 1].splitlines(), start + cut + 1


def parse_envelope(raw: bytes) -> dict | None:
    """One log line as an envelope, or None for a torn / foreign line."""
    raw = raw.strip()
    if not raw:
        return None
    try:
        obj = loads(raw)
    except ValueError:
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("key"), str) or not isinstance(obj.get("ts"), str):
        return None
    return obj


def last_line_ts(fd: int, size: int) -> tuple[str | None, bool]:
    """``(ts of the last complete log line, whether the log ends with a newline)`` read from an open
    descriptor; used under the writer lock to keep ``ts`` monotonic and to fence off a torn tail."""
    if size <= 0:
        return None, True
    ends_clean = os.pread(fd, 1, size - 1) == b"\n"
    buf, pos = b"", size
    while pos > 0:
        step = min(65536, pos)
        pos -= step
        buf = os.pread(fd, step, pos) + buf
        last_nl = buf.rfind(b"\n")
        if last_nl >= 0 and buf.rfind(b"\n", 0, last_nl) >= 0:
            break
    last_nl = buf.rfind(b"\n")
    if last_nl < 0:
        return None, ends_clean
    envelope = parse_envelope(buf[buf.rfind(b"\n", 0, last_nl) + 1:last_nl])
    return (envelope or {}).get("ts"), ends_clean


# ------------------------------------------------------------------------------ state snapshot

def read_state_header(path: str) -> dict | None:
    try:
        with open_regular(path) as fh:
            first = fh.readline()
    except (FileNotFoundError, NotRegularFile):
        return None
    try:
        obj = loads(first)
    except ValueError:
        return None
    header = obj.get(STATE_HEADER) if isinstance(obj, dict) else None
    return header if isinstance(header, dict) else None


def read_state(path: str) -> tuple[dict | None, dict]:
    """``(header, {key: envelope})`` of state.jsonl (``(None, {})`` when there is none)."""
    header, entries, _intact = read_state_checked(path)
    return header, entries


def read_state_checked(path: str) -> tuple[dict | None, dict, bool]:
    """``(header, {key: envelope}, intact)``: intact when the header's key count and body CRC-32
    (written since the header has them) match what was read — a snapshot cut short or damaged
    is not intact, and readers then rebuild from the log and its archives."""
    entries: dict = {}
    try:
        with open_regular(path) as fh:
            data = fh.read()
    except (FileNotFoundError, NotRegularFile):
        return None, entries, False
    first, _sep, body = data.partition(b"\n")
    header = None
    try:
        obj = loads(first)
    except ValueError:
        obj = None
    if isinstance(obj, dict) and isinstance(obj.get(STATE_HEADER), dict):
        header = obj[STATE_HEADER]
    else:
        body = data
    for raw in body.splitlines():
        envelope = parse_envelope(raw)
        if envelope is not None and envelope.get("valid", True):
            entries[envelope["key"]] = envelope
    intact = (header is not None and header.get("keys") == len(entries)
              and header.get("crc32", zlib.crc32(body)) == zlib.crc32(body))
    return header, entries, intact


def write_state(path: str, header: dict, entries: dict) -> None:
    import json

    from ..fsutil import atomic_write_bytes
    body = b"".join(encode_envelope(entries[key]) for key in sorted(entries))
    header = {**header, "keys": len(entries), "crc32": zlib.crc32(body)}
    head = json.dumps({STATE_HEADER: header}, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
    atomic_write_bytes(path, head + body, mode=0o600)


# ------------------------------------------------------------------------------ history

def _archive_order(name: str) -> tuple:
    """Sort key of an archive name: ``log_<seq>_<stamp>.jsonl`` by sequence, after the older
    ``log_<stamp>[-n].jsonl`` names by stamp and n."""
    stem = name[len("log_"):-len(".jsonl")]
    head, _sep, rest = stem.partition("_")
    if head.isdigit() and rest:
        return (1, int(head), rest, 0)
    base, dash, n = stem.rpartition("-")
    if dash and n.isdigit() and len(n) < 6 and "-" in base:
        return (0, 0, base, int(n))
    return (0, 0, stem, 1)


def archive_files(archive_dir: str) -> list:
    """The rotated logs in history order (oldest first)."""
    try:
        names = [n for n in os.listdir(archive_dir) if n.startswith("log_") and n.endswith(".jsonl")]
    except (FileNotFoundError, NotRegularFile):
        return []
    return [os.path.join(archive_dir, n) for n in sorted(names, key=_archive_order)]


def next_archive_name(archive_dir: str, stamp: str) -> str:
    """``log_<seq>_<stamp>.jsonl`` with a sequence after every archive there."""
    seq = 0
    for path in archive_files(archive_dir):
        seq = max(seq, _archive_order(os.path.basename(path))[1])
    return os.path.join(archive_dir, f"log_{seq + 1:06d}_{stamp}.jsonl")


def iter_lines_with_end(path: str):
    """``(raw line, offset after it)`` for the complete lines of a log file."""
    try:
        with open_regular(path) as fh:
            offset = 0
            for raw in fh:
                if not raw.endswith(b"\n"):
                    return                     # a line still being written
                offset += len(raw)
                yield raw, offset
    except (FileNotFoundError, NotRegularFile):
        return


def same_file(path: str, position: dict | None) -> bool:
    """Whether ``path`` is the file a log ``position`` was taken in (same inode and first bytes)."""
    if not position or position.get("inode") is None:
        return False
    try:
        with open_regular(path) as fh:
            st = os.fstat(fh.fileno())
            if st.st_ino == position.get("inode"):
                return True
            head_len = int(position.get("head_len") or 0)
            return head_len > 0 and st.st_size >= head_len and _head_digest(fh, head_len) == position.get("head")
    except (OSError, TypeError, ValueError):
        return False
