"""Keeping the index fresh without walking the tree on every search (docs/search.md § Keeping
the index fresh).

A **sweep** (:func:`refresh`) walks every file of every source and compares its mtime and size
with the index: at 50,000 files that is ~0.7 s, too slow to run before each search. Between sweeps
the index **catches up** (:func:`catch_up`) from three cheap signals:

1. **the journal** (``journal.py``): every file code-memory itself wrote — the summarizer's notes,
   ``remember``, facts, kv keys, curate edits, the hooks' daily lines — noted by ``fsutil``;
2. **directory mtimes**: a directory whose mtime moved since it was recorded gained, lost or
   renamed an entry (a note created, deleted, or saved by an editor that writes a new file and
   renames it). Its entries are listed again — names and inodes, no ``stat`` — and only new, gone
   or replaced files are read;
3. **paths a watcher reports** (the warm search server's inotify watcher, ``search/watch.py``).

What none of them sees is a file another program edits *in place* (an editor that overwrites,
``echo >>``) while no watcher runs: the sweep catches that. The warm server sweeps when it starts
and in idle time; a search in a process of its own sweeps when the last sweep is older than
``index.sweep_seconds`` (0: every search sweeps, the behaviour before the catch-up existed).
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager

from .. import journal
from .index import (
    BULK_SEGMENTER_FILES,
    KNOWN_COLUMNS,
    IndexDB,
    Source,
    _LazySegmenter,
    _now,
    apply_plan,
    discover,
    discover_all,
    file_entry,
    known_documents,
    plan_changes,
    walked_dir,
)


def refresh(db: IndexDB, sources: list, *, full: bool = False, window_lines: int = 40,
            max_file_bytes: int = 2_000_000, cache_dir: str | None = None, busy_ms: int | None = None,
            only_these: bool = False) -> dict:
    """Bring the index up to date with the files of ``sources`` by walking them all (a *sweep*).
    Returns statistics.

    Documents of sources not listed are dropped (a workspace no longer registered), unless
    ``only_these``: then only the listed sources are refreshed and the rest is left alone. A sweep
    also records what the cheap catch-up (the catch-up) starts from: every directory's mtime,
    the journal position, when and over which sources it ran."""
    labels = [s.label for s in sources] if only_these else None
    started = time.monotonic()
    journal_at = journal.size(sources[0].root) if sources and sources[0].kind == "memory" else 0
    dirs: list = []
    entries, skipped = discover_all(sources, dirs)
    stats = {"files": len(entries), "added": 0, "updated": 0, "unchanged": 0, "deleted": 0,
             "chunks_added": 0, "chunks_deleted": 0}
    with _writing(db, busy_ms):
        plan = plan_changes(entries, known_documents(db, labels), full=full)
        stats["unchanged"] = plan.unchanged
        if not plan.empty():
            _apply(db, plan, window_lines, max_file_bytes, cache_dir, skipped, stats)
            _new_generation(db)
        record_sweep(db, sources, dirs, journal_at, whole=not only_these)
    stats["skipped"] = skipped
    stats["elapsed_ms"] = round((time.monotonic() - started) * 1000, 1)
    return stats


@contextmanager
def _writing(db: IndexDB, busy_ms: int | None):
    """One ``BEGIN IMMEDIATE`` transaction on the index (waiting ``busy_ms`` for another writer),
    committed at the end, rolled back on any exception."""
    conn = db.conn
    if busy_ms is not None:
        conn.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:         # SQLite rolls back by itself on a full disk
            conn.execute("ROLLBACK")
        raise


def _apply(db: IndexDB, plan, window_lines: int, max_file_bytes: int, cache_dir: str | None, skipped: list,
           stats: dict) -> None:
    """Carry out ``plan``, with the whole-dictionary segmenter only for a large one."""
    segmenter = _LazySegmenter(db.segmenter_name, cache_dir, bulk=plan.work() >= BULK_SEGMENTER_FILES)
    apply_plan(db, plan, window_lines, max_file_bytes, segmenter, skipped, stats)


def _new_generation(db: IndexDB) -> None:
    db.set_meta("generation", int(db.meta("generation", "0")) + 1)
    db.set_meta("indexed_at", _now())


# A directory whose mtime is this close to the moment it was read may still change within the same
# mtime tick unnoticed: it is recorded as 0 (read again next time) until it is older.
RACY_NS = 2_000_000_000


def sources_key(sources: list) -> str:
    """What a sweep covered: each source's label and real root (a changed registry → sweep again)."""
    return "|".join(f"{s.label}={os.path.realpath(s.root)}" for s in sources)


def record_dirs(db: IndexDB, dirs: list) -> None:
    """Remember ``[(directory, source label, mtime_ns)]`` for the directory-mtime check."""
    now = time.time_ns()
    db.conn.executemany("INSERT OR REPLACE INTO dirs(path, source, mtime_ns) VALUES (?,?,?)",
                        [(path, label, mtime if now - mtime > RACY_NS else 0) for path, label, mtime in dirs])


def record_sweep(db: IndexDB, sources: list, dirs: list, journal_at: int, whole: bool = True) -> None:
    """After a sweep of ``sources`` (``whole``: of every source the index covers): its directories,
    and — for a whole sweep — when it ran, over what, and the journal position it covered."""
    if whole:
        db.conn.execute("DELETE FROM dirs")
    else:
        labels = [s.label for s in sources]
        db.conn.execute(f"DELETE FROM dirs WHERE source IN ({','.join('?' * len(labels)) or 'NULL'})", labels)
    record_dirs(db, dirs)
    if whole:
        db.set_meta("swept_at", time.time())
        db.set_meta("sources", sources_key(sources))
        if int(db.meta("journal_offset", "0")) < journal_at:
            db.set_meta("journal_offset", journal_at)


def sweep_due(db: IndexDB, sources: list, max_age_seconds: float | None) -> str | None:
    """Why the index needs a sweep now, or None: never swept (or swept by a version without the
    catch-up), the sources changed (a workspace registered or removed), or the last sweep is older
    than ``max_age_seconds`` (None: never by age; 0: always)."""
    swept = db.meta("swept_at")
    if swept is None:
        return "never swept"
    if db.meta("sources") != sources_key(sources):
        return "the indexed sources changed"
    if max_age_seconds is not None and time.time() - float(swept) >= max_age_seconds:
        return "the last sweep is older than index.sweep_seconds"
    return None


def _below(directory: str) -> tuple:
    """``(prefix, upper)``: every path under ``directory`` lies strictly between the two."""
    prefix = directory.rstrip(os.sep) + os.sep
    return prefix, prefix[:-1] + chr(ord(os.sep) + 1)


def _docs_under(db: IndexDB, directory: str) -> dict:
    rows = db.conn.execute(f"SELECT {KNOWN_COLUMNS} FROM documents WHERE path > ? AND path < ?", _below(directory))
    return {r[0]: r[1:] for r in rows}


def _docs_in_dir(db: IndexDB, directory: str) -> dict:
    """Known documents directly in ``directory`` (not deeper)."""
    prefix = _below(directory)[0]
    return {path: row for path, row in _docs_under(db, directory).items() if os.sep not in path[len(prefix):]}


def _docs_at(db: IndexDB, paths: list) -> dict:
    out = {}
    for i in range(0, len(paths), 500):
        part = paths[i:i + 500]
        out.update({r[0]: r[1:] for r in db.conn.execute(
            f"SELECT {KNOWN_COLUMNS} FROM documents WHERE path IN ({','.join('?' * len(part))})", part)})
    return out


def locate(sources: list, path: str) -> tuple | None:
    """``(source, real root, rel)`` of the source ``path`` lies in (through its real or its given
    root), or None. The innermost source wins."""
    best = None
    for source in sources:
        real_root = os.path.realpath(source.root)
        for base in (real_root, os.path.abspath(source.root)):
            if path.startswith(base.rstrip(os.sep) + os.sep):
                rel = path[len(base.rstrip(os.sep)) + 1:]
                if best is None or len(real_root) > len(best[1]):
                    best = (source, real_root, rel)
                break
    return best


class _CatchUp:
    """One catch-up's work list: the files to look at, the directories listed again."""

    def __init__(self, db: IndexDB, sources: list):
        self.db = db
        self.sources = sources
        self.by_label = {s.label: s for s in sources}
        self.known_dirs = {r[0] for r in db.conn.execute("SELECT path FROM dirs")}
        self.entries: dict = {}         # full path → FileEntry (exists, indexable)
        self.known: dict = {}           # full path → known row; one absent from entries is deleted
        self.checked: set = set()       # full paths looked at already
        self.rescanned: set = set()
        self.dirs: list = []            # (directory, label, mtime_ns) to record
        self.gone_dirs: list = []
        self.skipped: list = []

    def look_at(self, path: str) -> None:
        """A file (or directory) the journal or a watcher named."""
        found = locate(self.sources, os.path.abspath(path))
        if found is None:
            return
        source, real_root, rel = found
        full = os.path.join(real_root, rel)
        if full in self.checked or (os.path.dirname(rel) and not walked_dir(source, os.path.dirname(rel))):
            return
        self.checked.add(full)
        entry = None
        try:
            if os.path.realpath(os.path.dirname(full)) != os.path.dirname(full):
                return          # inside a symlinked directory, which a sweep does not follow either
            if os.path.isdir(full) and not os.path.islink(full):
                if walked_dir(source, rel):
                    self.rescan(full, source)
                return
            entry = file_entry(source, real_root, rel, full, os.path.islink(full), lambda: os.stat(full),
                               self.skipped)
        except (FileNotFoundError, NotADirectoryError):
            if full in self.known_dirs:         # a directory that went away
                self.gone_dirs.append(full)
                self.known.update(_docs_under(self.db, full))
        if entry is not None:
            self.entries[full] = entry
        self.known.update(_docs_at(self.db, [full]))

    def rescan(self, directory: str, source: Source | None) -> None:
        """List ``directory`` again: new and replaced files are looked at, gone ones dropped, new
        subdirectories walked."""
        if source is None or directory in self.rescanned:
            return
        self.rescanned.add(directory)
        try:
            mtime = os.stat(directory).st_mtime_ns
            items = list(os.scandir(directory))
        except (FileNotFoundError, NotADirectoryError):
            self.gone_dirs.append(directory)
            self.known.update(_docs_under(self.db, directory))
            return
        except OSError:
            return
        self.dirs.append((directory, source.label, mtime))
        real_root = os.path.realpath(source.root)
        base_rel = "" if directory == real_root else os.path.relpath(directory, real_root)
        docs = _docs_in_dir(self.db, directory)
        present = set()
        for item in items:
            if item.name.startswith("."):
                continue
            rel = os.path.join(base_rel, item.name) if base_rel else item.name
            old = docs.get(item.path)
            try:
                if item.is_dir(follow_symlinks=False):
                    if item.path not in self.known_dirs and walked_dir(source, rel):
                        self._walk_new(item.path, source, rel)
                    continue
                present.add(item.path)
                if (old is not None and old[4] == item.inode()) or item.path in self.checked:
                    continue        # same name, same inode: a rename did not touch it
                self.checked.add(item.path)
                entry = file_entry(source, real_root, rel, item.path, item.is_symlink(), item.stat, self.skipped)
            except FileNotFoundError:
                continue
            if entry is not None:
                self.entries[item.path] = entry
            if old is not None:
                self.known[item.path] = old
        for path, old in docs.items():
            if path not in present:
                self.known[path] = old

    def _walk_new(self, directory: str, source: Source, rel: str) -> None:
        entries, skipped = discover(source, self.dirs, under=rel)
        self.skipped += skipped
        self.rescanned.add(directory)
        for e in entries:
            self.entries[e.path] = e
            self.checked.add(e.path)
        self.known.update(_docs_under(self.db, directory))


def racy_dirs(db: IndexDB) -> int:
    """How many directories were recorded too soon after they changed (read again next time)."""
    return db.conn.execute("SELECT count(*) FROM dirs WHERE mtime_ns = 0").fetchone()[0]


def dirty_dirs(db: IndexDB) -> list:
    """``[(directory, source label)]`` whose mtime moved since it was recorded (or was recorded as
    racy, or is gone): one ``stat`` per directory the index knows."""
    out = []
    for path, label, mtime in db.conn.execute("SELECT path, source, mtime_ns FROM dirs"):
        try:
            now = os.stat(path).st_mtime_ns
        except OSError:
            now = None
        if now != mtime or not mtime:
            out.append((path, label))
    return out


def catch_up(db: IndexDB, sources: list, *, paths=(), check_dirs: bool = True, window_lines: int = 40,
             max_file_bytes: int = 2_000_000, cache_dir: str | None = None, busy_ms: int | None = None) -> dict:
    """Index what changed since the last sweep or catch-up, found by the journal, the directory
    mtimes (``check_dirs``) and ``paths`` (a watcher's). Returns statistics; ``{"changed": 0, …}``
    without taking the write lock when there is nothing to do."""
    started = time.monotonic()
    memory_root = sources[0].root if sources and sources[0].kind == "memory" else None
    offset = int(db.meta("journal_offset", "0"))
    pending = journal.size(memory_root) != offset if memory_root else False
    dirty = dirty_dirs(db) if check_dirs else []
    stats = {"changed": 0, "journal": 0, "dirs": len(dirty), "added": 0, "updated": 0, "unchanged": 0,
             "deleted": 0, "chunks_added": 0, "chunks_deleted": 0}
    if not (pending or dirty or paths):
        stats["elapsed_ms"] = round((time.monotonic() - started) * 1000, 2)
        return stats
    with _writing(db, busy_ms):
        work = _CatchUp(db, sources)
        noted, end = [], int(db.meta("journal_offset", "0"))
        if memory_root:
            noted, end, _size = journal.read(memory_root, end)
        stats["journal"] = len(noted)
        for directory, label in dirty:
            work.rescan(directory, work.by_label.get(label))
        for path in list(noted) + list(paths):
            work.look_at(path)
        for directory in work.gone_dirs:
            db.conn.execute("DELETE FROM dirs WHERE path = ? OR (path > ? AND path < ?)",
                            (directory, *_below(directory)))
        plan = plan_changes(list(work.entries.values()), work.known)
        if not plan.empty():
            _apply(db, plan, window_lines, max_file_bytes, cache_dir, work.skipped, stats)
        stats["changed"] = stats["added"] + stats["updated"] + stats["deleted"]
        if stats["changed"]:
            _new_generation(db)
        record_dirs(db, work.dirs)
        if memory_root:
            db.set_meta("journal_offset", journal.truncate_consumed(memory_root, end))
    if work.skipped:
        stats["skipped"] = work.skipped
    stats["elapsed_ms"] = round((time.monotonic() - started) * 1000, 2)
    return stats


def freshen(db: IndexDB, sources: list, *, sweep_seconds: float | None, window_lines: int = 40,
            max_file_bytes: int = 2_000_000, cache_dir: str | None = None, busy_ms: int | None = None,
            paths=(), check_dirs: bool = True) -> dict:
    """A sweep when one is due (:func:`sweep_due`), else a catch-up. Returns its statistics
    (``sweep``: why a sweep ran)."""
    reason = sweep_due(db, sources, sweep_seconds)
    if reason:
        stats = refresh(db, sources, window_lines=window_lines, max_file_bytes=max_file_bytes,
                        cache_dir=cache_dir, busy_ms=busy_ms)
        stats["sweep"] = reason
        return stats
    return catch_up(db, sources, paths=paths, check_dirs=check_dirs, window_lines=window_lines,
                    max_file_bytes=max_file_bytes, cache_dir=cache_dir, busy_ms=busy_ms)
