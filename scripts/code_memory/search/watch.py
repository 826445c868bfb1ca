"""The warm search server's file watcher: Linux inotify through ``ctypes`` (docs/search.md §
Keeping the index fresh).

It watches every directory of the indexed sources that a sweep walks (not hidden ones, not the
memory root's ``logs/``, ``evolution/``, ``.index/``) and reports the paths whose files were
written, created, deleted or renamed — also files edited *in place* by another program, which
neither the change journal nor directory mtimes see. New directories are watched as they appear.

Limits: when the kernel's event queue overflowed (``IN_Q_OVERFLOW``) :attr:`Watcher.trouble` says
so and the server sweeps; when a directory could not be watched (the per-user watch limit,
``/proc/sys/fs/inotify/max_user_watches``) :attr:`Watcher.incomplete` is set and the server checks
directory mtimes before every search as if it had no watcher. Where inotify is unavailable (not Linux, no
``inotify_init1``, the per-user instance limit reached) :func:`open_watcher` returns None and the
server relies on the journal, directory mtimes and its periodic sweep. Network file systems do not
report other machines' changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import struct

IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE = 0x2, 0x4, 0x8
IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x40, 0x80, 0x100, 0x200
IN_DELETE_SELF, IN_MOVE_SELF, IN_Q_OVERFLOW, IN_IGNORED = 0x400, 0x800, 0x4000, 0x8000
IN_ONLYDIR, IN_DONT_FOLLOW, IN_ISDIR = 0x01000000, 0x02000000, 0x40000000
MASK = (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)
_HEADER = struct.Struct("iIII")     # struct inotify_event: wd, mask, cookie, len (+ name)


def _libc():
    for name in ("libc.so.6", ctypes.util.find_library("c")):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name, use_errno=True)
            lib.inotify_init1, lib.inotify_add_watch  # noqa: B018 — both must exist
            return lib
        except (OSError, AttributeError):
            continue
    return None


class Watcher:
    """Watches directories; :meth:`drain` returns what changed since the last call."""

    def __init__(self, libc, fd: int, walked):
        self._libc = libc
        self.fd = fd
        self._walked = walked           # walked(path) → bool: is this directory indexed at all?
        self._dirs: dict = {}           # wd → directory
        self._roots: set = set()
        self.trouble: str | None = None     # why a sweep is needed now (events were lost)
        self.incomplete: str | None = None  # why some directories are not watched (for good)
        self.gone_roots: set = set()

    def watch_tree(self, top: str, root: bool = False) -> None:
        """Watch ``top`` and every directory below it that is walked (symlinks not followed)."""
        if root:
            self._roots.add(top)
        stack = [top]
        while stack:
            directory = stack.pop()
            if not self._add(directory):
                continue
            try:
                with os.scandir(directory) as items:
                    for item in items:
                        if item.is_dir(follow_symlinks=False) and self._walked(item.path):
                            stack.append(item.path)
            except OSError:
                continue

    def _add(self, directory: str) -> bool:
        wd = self._libc.inotify_add_watch(self.fd, os.fsencode(directory), MASK)
        if wd < 0:
            err = ctypes.get_errno()
            if err == errno.ENOSPC:
                self.incomplete = "the inotify watch limit is reached (fs.inotify.max_user_watches)"
            return False
        self._dirs[wd] = directory
        return True

    @property
    def watched(self) -> int:
        return len(self._dirs)

    def drain(self) -> set:
        """The paths (files or directories) that changed since the last call. New directories are
        watched on the way; ``trouble`` / ``gone_roots`` are set when a sweep or a restart is due."""
        changed: set = set()
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            except OSError:
                self.trouble = "the watcher failed"
                break
            if not data:
                break
            self._parse(data, changed)
        return changed

    def _parse(self, data: bytes, changed: set) -> None:
        at = 0
        while at + _HEADER.size <= len(data):
            wd, mask, _cookie, length = _HEADER.unpack_from(data, at)
            name = data[at + _HEADER.size:at + _HEADER.size + length].rstrip(b"\0")
            at += _HEADER.size + length
            if mask & IN_Q_OVERFLOW:
                self.trouble = "the watcher's event queue overflowed"
                continue
            directory = self._dirs.get(wd)
            if directory is None:
                continue
            if mask & (IN_DELETE_SELF | IN_MOVE_SELF):
                if directory in self._roots:
                    self.gone_roots.add(directory)
                changed.add(directory)
                continue
            if mask & IN_IGNORED:
                self._dirs.pop(wd, None)
                continue
            if not name or name.startswith(b"."):
                continue
            path = os.path.join(directory, os.fsdecode(name))
            changed.add(path)
            if mask & IN_ISDIR and mask & (IN_CREATE | IN_MOVED_TO) and self._walked(path):
                self.watch_tree(path)

    def close(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass


def open_watcher(walked) -> Watcher | None:
    """A :class:`Watcher` (``walked(directory)`` says which directories to watch), or None where
    inotify is unavailable."""
    libc = _libc()
    if libc is None:
        return None
    fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0:
        return None
    return Watcher(libc, fd, walked)
