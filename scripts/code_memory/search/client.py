"""Ask the warm search server (search/server.py): the hot path's way to search (docs/search.md §
The warm search server).

Standard library only and cheap to import (``_socket``, not ``socket``; JSON through
``code_memory.jsonlite``; no ``json``, ``re`` or ``hashlib``), so a hook can call it.

The contract
------------
``call(root, op, request, timeout) -> dict | None``

* Sends ``request`` (a JSON object) for operation ``op`` to the server of memory root ``root`` and
  returns the op's answer — for ``"search"`` exactly what ``memory-search.py`` prints (the answer of
  :func:`code_memory.search.unified.search_all`), including ``{"ok": false, "error": CODE, …}``
  answers for bad requests.
* Returns None when no server answers within ``timeout`` seconds (not running, starting, busy,
  hung, stale after an upgrade, the socket directory not private). When none is running it starts
  one, detached and without waiting — at most once per process and, across processes, once per
  :data:`START_GRACE_SECONDS` — so the next call finds it warm. Never raises.
* The caller resolves the scope as every door does (search/access.py) and passes explicit
  ``project`` / ``workspace``; the server serves project-scoped requests only (``--scope all``
  stays in the caller's process). ``request`` keys for ``search``: ``query`` (required), ``mode``,
  ``top_k``, ``project``, ``workspace``, ``sources``, ``signals`` (each hit then carries its raw
  evidence, :func:`code_memory.search.signals.hit_signals`), ``memtool_db``.
* ``start(root)`` only starts a server (SessionStart uses it so the first prompt finds one warm).

The ops a server performs are ONE allow-list table, ``OPS`` in ``code_memory/cli/search_server.py``
(op name → ``function(warm, request) -> dict``); adding an op is one line there.

Trust: the socket lives in a directory of this user that nobody else may enter (``/tmp/cm-<uid>``,
mode 0700; ``$CODE_MEMORY_SOCKET_DIR`` overrides it), one server per memory root; the server also
checks the peer's uid. A directory that is not private is not used (the call returns None).

Wire format: one JSON line each way. The request carries the protocol, this code's version
(:func:`code_version`, from the package files' sizes and mtimes) and the root; a server of another
version answers ``restart`` and exits, and the caller starts a new one.
"""

from __future__ import annotations

import _socket
import os
import sys
import time

from ..jsonlite import dumps, loads

PROTOCOL = 1
SOCKET_DIR_ENV = "CODE_MEMORY_SOCKET_DIR"
SERVER_MODULE = "code_memory.cli.search_server"
START_GRACE_SECONDS = 20.0        # a start marker this young means a server is starting: no second one
MAX_ANSWER_BYTES = 8 * 1024 * 1024
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# variables of one Claude Code session (or secrets) that a server shared by every session must not keep
_DROPPED_ENV = ("CLAUDE", "ANTHROPIC_")

_version: str | None = None
_started: set = set()


def socket_dir() -> str:
    return os.environ.get(SOCKET_DIR_ENV) or f"/tmp/cm-{os.getuid()}"


def _fnv64(text: str) -> str:
    h = 0xcbf29ce484222325
    for byte in text.encode("utf-8", "surrogateescape"):
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def socket_path(root: str) -> str:
    """The socket of the server of memory root ``root`` (its real path)."""
    return os.path.join(socket_dir(), f"search-{_fnv64(os.path.realpath(root))}.sock")


def code_version() -> str:
    """This code's version: the count, sizes and mtimes of the package's ``.py`` files (an upgrade or
    an edit changes it). ~0.5 ms, once per process."""
    global _version
    if _version is None:
        total, count, stack = 0, 0, [PACKAGE_DIR]
        while stack:
            try:
                items = list(os.scandir(stack.pop()))
            except OSError:
                continue
            for item in items:
                if item.name.endswith(".py"):
                    st = item.stat()
                    total = (total + st.st_mtime_ns * 31 + st.st_size) & 0xFFFFFFFFFFFFFFFF
                    count += 1
                elif item.is_dir(follow_symlinks=False) and item.name != "__pycache__":
                    stack.append(item.path)
        _version = f"{PROTOCOL}.{count}.{total:x}"
    return _version


def private_dir(path: str) -> bool:
    """``path`` is a directory of this user that nobody else may enter (not a symlink)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (st.st_mode & 0o170000) == 0o040000 and st.st_uid == os.getuid() and not st.st_mode & 0o077


def ensure_socket_dir() -> str | None:
    """The warm processes' socket directory, created private (0700) if missing; None when it
    cannot be, or exists and is not a private directory of this user (a symlink included)."""
    directory = socket_dir()
    if os.path.lexists(directory) and not private_dir(directory):
        return None
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return directory if private_dir(directory) else None


_NOT_RUNNING = object()


def _exchange(path: str, data: bytes, deadline: float):
    """The answer object, ``_NOT_RUNNING`` (nothing listens there), or None (no answer in time)."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(max(0.001, deadline - time.monotonic()))
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError):
            return _NOT_RUNNING
        sock.sendall(data)
        buf = bytearray()
        while not buf.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            sock.settimeout(left)
            part = sock.recv(262144)
            if not part:
                return None
            buf += part
            if len(buf) > MAX_ANSWER_BYTES:
                return None
        return loads(bytes(buf))
    except (OSError, ValueError):
        return None
    finally:
        sock.close()


def call(root: str, op: str, request: dict, timeout: float, *, start_server: bool = True) -> dict | None:
    """The answer of ``op`` from the warm server of ``root``, or None (see the module docstring);
    ``start_server=False``: only ask (``status`` does)."""
    try:
        deadline = time.monotonic() + float(timeout)
        real = os.path.realpath(root)
        if not os.path.isdir(real):
            return None
        if not private_dir(socket_dir()):
            if start_server and not os.path.lexists(socket_dir()):
                start(real)             # the server creates the directory
            return None
        message = dumps({"protocol": PROTOCOL, "version": code_version(), "root": real, "op": op,
                         "request": request, "deadline": time.time() + float(timeout)},
                        compact=True).encode("utf-8") + b"\n"
        reply = _exchange(socket_path(real), message, deadline)
        if reply is _NOT_RUNNING or (isinstance(reply, dict) and reply.get("restart")):
            if start_server:
                start(real)
            return None
        if isinstance(reply, dict) and reply.get("ok") and isinstance(reply.get("answer"), dict):
            return reply["answer"]
        return None
    except Exception:  # noqa: BLE001 — the hot path never fails because of the server
        return None


def start(root: str) -> bool:
    """Start the server of ``root`` detached, without waiting; False when it was not started (one
    is starting already, this process started one, ``root`` is not a memory root, or the spawn
    failed). Never raises."""
    try:
        from ..paths import is_memory_root

        real = os.path.realpath(root)
        if real in _started or not os.path.isdir(real) or not is_memory_root(real):
            return False            # never a server (and its log, its index) in a foreign directory
        if ensure_socket_dir() is None:
            return False
        path = socket_path(real)
        if _listening(path):
            return False
        marker = path + ".starting"
        try:
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            if time.time() - os.stat(marker).st_mtime < START_GRACE_SECONDS:
                return False
            os.utime(marker)
        _started.add(real)
        spawn([sys.executable, "-m", SERVER_MODULE, "--root", real])
        return True
    except Exception:  # noqa: BLE001
        return False


def _listening(path: str) -> bool:
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(0.05)
        sock.connect(path)
        return True
    except OSError:
        return False
    finally:
        sock.close()


def spawn(argv: list, drop_env: tuple = _DROPPED_ENV) -> None:
    """Run ``argv`` (a ``python -m`` of this package) in a new session, in ``/``, with this
    package's ``scripts/`` first on ``PYTHONPATH``, stdio on /dev/null and no other inherited
    descriptor: nothing of the caller's (a hook's stdout pipe, anything Claude Code left open) is
    kept, and the caller never waits for it. Environment variables starting with one of
    ``drop_env`` are not passed on. (``subprocess`` is imported here only: spawning is rare.)"""
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith(drop_env)}
    scripts = os.path.dirname(PACKAGE_DIR)
    env["PYTHONPATH"] = scripts + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True, cwd="/", env=env)
