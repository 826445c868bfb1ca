"""Safe file primitives: atomic replace, locked append, advisory locks.

Every writer in code-memory goes through these so a crash or a concurrent writer never leaves a
torn or half-written file: whole-file writes use a temp file in the same directory + fsync +
``os.replace``; appends and read-modify-write cycles hold an ``fcntl.flock`` lock. Each completed
write under a memory root is noted in the root's change journal (journal.py), which is how the
search index learns what changed without walking the tree.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import time

from .budget import lock_wait
from .errors import CodeMemoryError
from .journal import note_written
from .paths import write_escape


def confined(path: str) -> str:
    """``path`` when writing it stays inside the memory root it lies under; else
    ``MEMORY_PATH_TRAVERSAL`` — the one check every writer here makes (paths.write_escape)."""
    reason = write_escape(path)
    if reason:
        raise CodeMemoryError("MEMORY_PATH_TRAVERSAL", f"refusing to write: {reason}",
                              hint="remove the symlink or point it inside the memory root "
                                   "(`code-memory status` lists them under symlinks_outside)")
    return path


def ensure_dir(path: str, mode: int = 0o755) -> str:
    os.makedirs(confined(path), mode=mode, exist_ok=True)
    return path


def _temp_beside(directory: str, base: str) -> tuple:
    """A new, exclusively created temp file in ``directory`` (what tempfile.mkstemp does, without
    the ~20 ms import that hooks cannot afford)."""
    for _ in range(100):
        tmp = os.path.join(directory, f".{base}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temp file name", directory)


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _write_temp(path: str, data: bytes, mode: int, durable: bool) -> str:
    """A complete temp file with ``data`` beside ``path``; the caller moves it into place."""
    directory = os.path.dirname(os.path.abspath(path))
    ensure_dir(directory)
    fd, tmp = _temp_beside(directory, os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        _discard(tmp)
        raise
    return tmp


# Paths this process found in place of a memory file that are not regular files (path → what they
# are): a FIFO, a socket, a device (a symlink to /dev/zero), a directory. Readers skip them rather
# than block or read forever; the edges tell the user (hooks/runtime.py, cli/common.py).
ODD_FILES: dict = {}


class NotRegularFile(OSError):
    """A path that is not a regular file where a file was to be read (see :data:`ODD_FILES`)."""


def file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISDIR, "directory")):
        if test(mode):
            return name
    return "regular file" if stat.S_ISREG(mode) else "special file"


def note_odd(path: str, mode: int) -> str | None:
    """What ``path`` is (:func:`file_kind`, remembered in :data:`ODD_FILES`) when ``mode`` is not a
    regular file's, else None."""
    if stat.S_ISREG(mode):
        return None
    kind = ODD_FILES[path] = file_kind(mode)
    return kind


def _not_written(path: str, kind: str, outcome: str) -> CodeMemoryError:
    return CodeMemoryError("MEMORY_WRITE_FAILED", f"{path} is a {kind}, not a regular file; {outcome}",
                           path=path, hint="remove it; code-memory recreates the file")


def open_regular(path: str):
    """Open ``path`` for binary reading when it is a regular file (symlinks followed). A FIFO is
    opened without waiting for a writer (``O_NONBLOCK``) and, like a socket, a device or a
    directory, refused with :class:`NotRegularFile` and remembered in :data:`ODD_FILES` — never a
    stall, never an endless read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:          # a socket cannot be opened at all (ENXIO): still say what it is
        if exc.errno == errno.ENOENT:
            raise
        try:
            mode = os.stat(path).st_mode
        except OSError:
            raise exc from None
        kind = note_odd(path, mode)
        if kind is None:
            raise
        raise NotRegularFile(errno.EINVAL, f"a {kind}, not a regular file", path) from None
    try:
        kind = note_odd(path, os.fstat(fd).st_mode)
        if kind:
            raise NotRegularFile(errno.EINVAL, f"a {kind}, not a regular file", path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _refuse_odd(path: str) -> None:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    kind = note_odd(path, mode)
    if kind:
        raise _not_written(path, kind, "it was left alone")


def atomic_write_bytes(path: str, data: bytes, mode: int = 0o644, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so readers see the old or the new file, never a torn one.

    ``durable=False`` skips the fsync (still atomic against crashes of the writer, not of the OS);
    hooks use it for metadata on the hot path. Something that is not a regular file in ``path``'s
    place (a FIFO, a socket, a device, a directory) is left alone: ``MEMORY_WRITE_FAILED``.
    """
    _refuse_odd(confined(path))
    tmp = _write_temp(path, data, mode, durable)
    try:
        os.replace(tmp, path)
    except BaseException:
        _discard(tmp)
        raise
    note_written(path)


def create_new_text(path: str, text: str, mode: int = 0o644) -> bool:
    """Create ``path`` with ``text`` only if it does not exist; never overwrite. Returns True when
    this call created it.

    Check-then-replace is not safe: a second writer may update the file between the check and the
    replace, and the replace would wipe that update. Here the complete temp file is hard-linked into
    place, which fails atomically when the name already exists.
    """
    tmp = _write_temp(confined(path), text.encode("utf-8"), mode, durable=True)
    try:
        os.link(tmp, path)
        note_written(path)
        return True
    except FileExistsError:
        return False
    finally:
        _discard(tmp)


def atomic_write_text(path: str, text: str, mode: int = 0o644, durable: bool = True) -> None:
    """Replace the text file ``path`` with ``text`` (UTF-8). An existing file that is not UTF-8
    (GBK, UTF-16, Latin-1 …) is never replaced: its text was read with replacement characters, so
    writing it back would lose it — ``MEMORY_ENCODING_UNSUPPORTED`` instead, naming the file."""
    refuse_non_utf8(path)
    atomic_write_bytes(path, text.encode("utf-8"), mode, durable)


def not_utf8(path: str) -> bool:
    """``path`` exists and its bytes are not UTF-8 (a missing or unreadable file: False)."""
    try:
        with open_regular(path) as fh:
            data = fh.read()
    except OSError:
        return False
    try:
        data.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


def refuse_non_utf8(path: str) -> None:
    if not_utf8(path):
        raise CodeMemoryError("MEMORY_ENCODING_UNSUPPORTED",
                              f"{path} is not UTF-8 (GBK or another encoding?); it was left untouched so "
                              "none of its text is lost", path=path,
                              hint="convert it to UTF-8 (for example `iconv -f GBK -t UTF-8 FILE > FILE.new` and "
                                   "move it into place); `code-memory status` lists such files")


def atomic_write_json(path: str, obj, mode: int = 0o644) -> None:
    import json  # here, not at the top: hooks import this module and json costs them ~8 ms
    atomic_write_text(path, json.dumps(obj, ensure_ascii=False, indent=2) + "\n", mode)


# Text files read in this process that are not UTF-8 (path → the encoding they were read as); the
# SessionStart hook tells the user about them (code-memory never writes to such a file).
NOT_UTF8_READ: dict = {}
FALLBACK_ENCODING = "gb18030"   # GBK's superset: what a Chinese Windows editor saves by default


def read_text(path: str, default: str | None = None) -> str | None:
    """Read a text file; a missing file — or something that is not a regular file (a FIFO, a device:
    :func:`open_regular`) — gives ``default``. UTF-8 first; a file that is not UTF-8 is read as
    GB18030 (GBK's superset) when that decodes it, else with replacement characters — and
    remembered in :data:`NOT_UTF8_READ`. Writers never replace such a file (:func:`refuse_non_utf8`)."""
    try:
        with open_regular(path) as fh:
            data = fh.read()
    except (FileNotFoundError, NotRegularFile):
        return default
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        text, NOT_UTF8_READ[path] = data.decode(FALLBACK_ENCODING), FALLBACK_ENCODING
    except UnicodeDecodeError:
        text, NOT_UTF8_READ[path] = data.decode("utf-8", errors="replace"), "unknown"
    return text


def _flock(fd: int, op: int, timeout: float, name: str) -> None:
    """Take ``flock`` ``op`` on ``fd``, retrying with backoff; LOCK_TIMEOUT after ``timeout`` (cut
    to the process's limit, budget.py: a hook never waits beyond its budget)."""
    timeout = lock_wait(timeout)
    deadline = time.monotonic() + timeout
    delay = 0.002
    while True:
        try:
            fcntl.flock(fd, op | fcntl.LOCK_NB)
            return
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            if time.monotonic() >= deadline:
                raise CodeMemoryError("LOCK_TIMEOUT", f"could not lock {name} within {timeout:.1f}s",
                                      hint="another code-memory process is writing; retry shortly") from None
            time.sleep(delay)
            delay = min(delay * 2, 0.05)


def _unlock_and_close(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        pass
    os.close(fd)


class file_lock:  # noqa: N801 — used like a function: ``with file_lock(path):``
    """Hold an advisory ``flock`` on ``lock_path`` (created if needed) for the ``with`` block.

    Raises ``CodeMemoryError("LOCK_TIMEOUT")`` if the lock cannot be taken within ``timeout``.
    (A class rather than ``contextlib.contextmanager``: hooks take this lock and must not pay for
    importing ``contextlib``.)
    """

    def __init__(self, lock_path: str, timeout: float = 10.0, shared: bool = False):
        self.lock_path, self.timeout, self.shared = lock_path, timeout, shared
        self.fd = None

    def __enter__(self):
        ensure_dir(os.path.dirname(os.path.abspath(self.lock_path)))
        fd = os.open(confined(self.lock_path), os.O_RDWR | os.O_CREAT | os.O_NONBLOCK, 0o600)
        try:
            _flock(fd, fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX, self.timeout,
                   os.path.basename(self.lock_path))
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        return self

    def __exit__(self, *_exc) -> bool:
        _unlock_and_close(self.fd)
        self.fd = None
        return False


def locked_append(path: str, text: str, mode: int = 0o644, timeout: float = 10.0) -> None:
    """Append ``text`` to ``path`` as one write while holding an exclusive lock on the file itself.

    Concurrent appenders never interleave or tear lines.
    """
    ensure_dir(os.path.dirname(os.path.abspath(path)))
    if path.endswith(".md"):
        refuse_non_utf8(path)       # UTF-8 lines appended to a GBK note would leave it in two encodings
    data = text.encode("utf-8")
    try:     # O_NONBLOCK: a FIFO in the file's place fails at once (ENXIO) instead of waiting for a reader
        fd = os.open(confined(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, mode)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            ODD_FILES[path] = "FIFO"
            raise _not_written(path, "FIFO", "nothing was appended") from None
        raise
    try:
        kind = note_odd(path, os.fstat(fd).st_mode)
        if kind:
            raise _not_written(path, kind, "nothing was appended")
        _flock(fd, fcntl.LOCK_EX, timeout, os.path.basename(path))
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
    finally:
        _unlock_and_close(fd)
    note_written(path)


def append_jsonl(path: str, record: dict, mode: int = 0o644) -> None:
    """Append one JSON object as one line, under a lock."""
    from .jsonlite import dumps
    locked_append(path, dumps(record, compact=True) + "\n", mode)


def append_events(path: str, records: list, mode: int = 0o600) -> None:
    """Append several JSON objects as one locked write (all lines or none, for readers)."""
    if not records:
        return
    from .jsonlite import dumps
    locked_append(path, "".join(dumps(r, compact=True) + "\n" for r in records), mode)


TEXT_SUFFIXES = (".md", ".json")


def non_utf8_files(root: str, limit: int = 50) -> list:
    """Memory text files (``*.md``, ``*.json``) under ``root`` that are not UTF-8: writers leave
    them untouched (:func:`atomic_write_text`), so what they would have added is missing."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.endswith(TEXT_SUFFIXES) and not_utf8(os.path.join(folder, name)):
                found.append(os.path.relpath(os.path.join(folder, name), root))
                if len(found) >= limit:
                    return found
    return found


def symlinks_leading_outside(root: str, limit: int = 50) -> list:
    """Symlinks under ``root`` whose target lies outside it (writes through them are refused):
    ``[{"path", "target"}]`` relative path and resolved target, at most ``limit``."""
    base = os.path.realpath(root)
    found = []
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            full = os.path.join(folder, name)
            if os.path.islink(full):
                target = os.path.realpath(full)
                if not (target == base or target.startswith(base.rstrip(os.sep) + os.sep)):
                    found.append({"path": os.path.relpath(full, root), "target": target})
                    if len(found) >= limit:
                        return found
    return found


def iter_jsonl(path: str):
    """Yield the JSON objects of a JSONL file, skipping blank, torn or non-object lines."""
    from .jsonlite import loads
    try:
        fh = open_regular(path)
    except (FileNotFoundError, NotRegularFile):
        return
    with fh:
        for raw in fh:
            raw = raw.strip()
            if not raw:
                continue
            try:
                obj = loads(raw.decode("utf-8", errors="replace"))
            except ValueError:
                continue
            if isinstance(obj, dict):
                yield obj
