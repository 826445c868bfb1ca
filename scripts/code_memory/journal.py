"""The journal of changed memory files (docs/search.md § Keeping the index fresh).

Every write code-memory makes under a memory root goes through ``fsutil`` (atomic replace, create,
locked append), and ``fsutil`` calls :func:`note_written` after it: the path is appended, one line,
to ``<root>/.index/changes.log``. The search index reads the journal from where it stopped
(``search/freshness.py``) and re-indexes just those files, so a search never has to walk the tree to
find what code-memory itself wrote — also writes made by layers below search (memory/, kv/, the
hooks' daily lines), which cannot call the indexer.

Only files the index could hold are noted: ``*.md`` and ``*.json`` outside hidden directories,
``logs/`` and ``evolution/``. Nothing is noted while the root has no ``.index/`` (the first search
builds the index from the files anyway). Noting never fails a write: an error (a full disk, a
read-only ``.index/``) is swallowed, and the directory-mtime check and the periodic sweep of the
index catch the file instead.

The journal is append-only for writers (one ``write`` under an ``flock``, so lines never tear or
interleave) and truncated only by a reader that has consumed all of it, under the same lock.
Standard library only, and cheap: hooks write daily lines through it.
"""

from __future__ import annotations

import fcntl
import os

NAME = "changes.log"
TRUNCATE_AT = 64 * 1024           # a consumed journal larger than this is emptied
MAX_READ = 4 * 1024 * 1024        # one catch-up reads at most this much (the rest: the next one)
_NOT_INDEXED_TOP = ("logs", "evolution")
_SUFFIXES = (".md", ".json")


def journal_path(root: str) -> str:
    return os.path.join(root, ".index", NAME)


def _indexable(rel: str) -> bool:
    parts = rel.split(os.sep)
    if parts[0] in _NOT_INDEXED_TOP or any(p.startswith(".") for p in parts):
        return False
    return parts[-1].endswith(_SUFFIXES)


def _lock(fd: int, tries: int = 50) -> bool:
    """``flock`` without blocking for long: readers hold it for one truncate only."""
    for _ in range(tries):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            os.sched_yield()
    return False


def note(root: str, paths) -> bool:
    """Append ``paths`` (absolute, inside ``root``) to the journal of ``root``. True when written.
    Never raises."""
    lines = "".join(p + "\n" for p in paths if p and "\n" not in p)
    if not lines:
        return False
    try:
        fd = os.open(journal_path(root), os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError:                     # no .index/ yet, read-only, full disk …
        return False
    try:
        locked = _lock(fd)
        data = lines.encode("utf-8", "surrogateescape")
        try:
            return os.write(fd, data) == len(data)
        finally:
            if locked:
                fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        return False
    finally:
        os.close(fd)


def note_written(path: str) -> None:
    """``fsutil``'s hook after a write: note ``path`` in the journal of the memory root it lies
    under (the roots this process confined its writes to, ``paths.confine_writes``)."""
    from .paths import _WRITE_ROOTS, is_within

    lexical = os.path.abspath(path)
    for base, real_base in _WRITE_ROOTS:
        for root in (base, real_base):
            if lexical != root and is_within(lexical, root):
                rel = lexical[len(root.rstrip(os.sep)) + 1:]
                if _indexable(rel):
                    note(root, [lexical])
                return


def read(root: str, offset: int) -> tuple:
    """``(paths, end, size)``: the paths noted since byte ``offset`` (complete lines only), the
    offset after them, and the journal's size. A journal shorter than ``offset`` was truncated by
    another reader: it is read from the start."""
    try:
        fd = os.open(journal_path(root), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return [], 0, 0
    try:
        size = os.fstat(fd).st_size
        if offset > size:
            offset = 0
        if offset == size:
            return [], offset, size
        os.lseek(fd, offset, os.SEEK_SET)
        data = os.read(fd, min(size - offset, MAX_READ))
    except OSError:
        return [], offset, offset
    finally:
        os.close(fd)
    complete = data[:data.rfind(b"\n") + 1]
    paths = list(dict.fromkeys(p for p in complete.decode("utf-8", "surrogateescape").split("\n") if p))
    return paths, offset + len(complete), size


def size(root: str) -> int:
    try:
        return os.stat(journal_path(root)).st_size
    except OSError:
        return 0


def truncate_consumed(root: str, offset: int) -> int:
    """Empty the journal when all of it (``offset`` bytes) was consumed and it has grown past
    :data:`TRUNCATE_AT`; returns the reader's new offset (0 when emptied)."""
    if offset < TRUNCATE_AT:
        return offset
    try:
        fd = os.open(journal_path(root), os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return offset
    try:
        if not _lock(fd):
            return offset
        try:
            if os.fstat(fd).st_size != offset:    # a writer appended meanwhile: keep it for now
                return offset
            os.ftruncate(fd, 0)
            return 0
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        return offset
    finally:
        os.close(fd)
