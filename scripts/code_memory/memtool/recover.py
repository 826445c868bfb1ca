"""``memtool recover``: salvage what SQLite can still read from a damaged database into a new file.

The damaged file is never written: it is copied (with its ``-wal``) to a temporary directory and
read from there. A file whose header is destroyed ("file is not a database") is read again with
a rebuilt header for each possible page size. Rows come from one full scan when that works, else
row by row (a damaged page loses only the rows on it). Every row is checked as an export line
(:func:`.transfer.parse_line`) and the good ones are imported into ``output`` (which must not
exist); the answer says how many were recovered and how many were unreadable.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile

from .errors import MemtoolError, param_error

_MAGIC = b"SQLite format 3\x00"
_PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)


def _connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    return conn


def _readable(path: str) -> bool:
    try:
        conn = _connect(path)
        try:
            conn.execute("SELECT name FROM sqlite_master").fetchall()
            return True
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def _with_rebuilt_header(path: str) -> str | None:
    """A copy of ``path`` with a fresh 100-byte header, for the first page size that reads."""
    with open(path, "rb") as fh:
        data = bytearray(fh.read())
    if len(data) < 512:
        return None
    for size in _PAGE_SIZES:
        header = bytearray(data[:100])
        header[0:16] = _MAGIC
        header[16:18] = (1 if size == 65536 else size).to_bytes(2, "big")
        header[18:20] = b"\x01\x01"             # rollback journal: no -wal needed to read
        header[20:24] = bytes((0, 64, 32, 32))
        header[28:32] = b"\x00\x00\x00\x00"     # page count from the file size
        candidate = path + f".p{size}"
        with open(candidate, "wb") as fh:
            fh.write(bytes(header) + bytes(data[100:]))
        if _readable(candidate):
            return candidate
    return None


def _rows(conn: sqlite3.Connection, file_size: int):
    """``(rows, unreadable)`` of memory_items: a full scan, else row by row."""
    try:
        return [dict(r) for r in conn.execute("SELECT * FROM memory_items")], 0
    except sqlite3.Error:
        pass
    try:
        top = conn.execute("SELECT max(rowid) FROM memory_items").fetchone()[0] or 0
    except sqlite3.Error:
        top = 0
    top = max(top, file_size // 64)
    rows, unreadable, misses = [], 0, 0
    for rowid in range(1, top + 1):
        try:
            row = conn.execute("SELECT * FROM memory_items WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.Error:
            unreadable += 1
            continue
        if row is None:
            misses += 1
            if misses > 10_000 and rows:
                break
            continue
        rows.append(dict(row))
    return rows, unreadable


def recover(db_path: str, output: str, open_store) -> dict:
    """Salvage ``db_path`` into the new database ``output`` (opened with ``open_store(path)``)."""
    from .transfer import import_lines, parse_line
    if not os.path.exists(db_path):
        raise param_error(f"Database file not found: {db_path}")
    if os.path.exists(output):
        raise param_error(f"--output {output} exists; recover writes a new file", "Choose a new file name")
    with tempfile.TemporaryDirectory(prefix="memtool-recover-") as tmp:
        work = os.path.join(tmp, "damaged.db")
        shutil.copyfile(db_path, work)
        for suffix in ("-wal",):
            if os.path.exists(db_path + suffix):
                shutil.copyfile(db_path + suffix, work + suffix)
        method = "scan"
        if not _readable(work):
            rebuilt = _with_rebuilt_header(work)
            if rebuilt is None:
                raise MemtoolError("DB_ERROR", "Nothing readable: SQLite cannot read this file even with a rebuilt header",
                                   "Restore the file from a backup or an export", db=db_path)
            work, method = rebuilt, "rebuilt-header"
        conn = _connect(work)
        try:
            rows, unreadable = _rows(conn, os.path.getsize(work))
        finally:
            conn.close()
    lines, rejected = [], 0
    for number, row in enumerate(rows, 1):
        item = {k: v for k, v in row.items() if k != "content_search"}
        for name in ("tags", "context_tags", "related_ids"):
            try:
                item[name] = json.loads(item.pop(f"{name}_json", "[]") or "[]")
            except (TypeError, ValueError):
                item[name] = []
        line = json.dumps(item, ensure_ascii=False, default=str)
        try:
            parse_line(line, number, "1970-01-01T00:00:00+00:00")
        except MemtoolError:
            rejected += 1
            continue
        lines.append(line)
    store = open_store(output)
    try:
        imported = import_lines(store, lines)["imported"] if lines else 0
    finally:
        store.close()
    return {"source": os.path.abspath(db_path), "output": os.path.abspath(output), "method": method,
            "recovered": imported, "unreadable_rows": unreadable, "rejected_rows": rejected,
            "next": f"check it (memtool list --db {output}), then replace {db_path} with it"}
