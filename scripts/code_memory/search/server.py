"""The warm search server: one process per memory root that keeps the index open and up to date,
so a search costs a socket round trip instead of a new process's imports and a walk of the tree
(docs/search.md § The warm search server). Callers use search/client.py.

* **Per root, per user.** The socket is ``<socket dir>/search-<hash of the root>.sock`` in a
  directory only this user may enter (0700, checked; the socket itself 0600), and every peer's uid
  is checked (``SO_PEERCRED``). One server per root: an ``flock`` on ``<socket>.lock``. A request
  for another root is refused.
* **One allow-list of operations**, handed in by the process's edge (``cli/search_server.py``
  ``OPS``: op name → ``function(warm, request) -> dict``). Ops get the :class:`WarmRoot`: its
  ``cfg``, its open index (``handle``, already caught up) and :meth:`WarmRoot.memtool`.
* **Fresh without walking.** Before each op (but one whose function says ``reads_index = False``,
  such as ``related``) the index catches up (search/freshness.py) from the
  change journal and the paths the inotify watcher (search/watch.py) reported; in idle time it
  catches up on its own and sweeps every ``index.sweep_seconds``. At start it sweeps once. Without
  a watcher, directory mtimes are checked before each op instead.
* **Never stale, never stuck.** A request from other code (an upgrade: :func:`client.code_version`
  differs) gets ``restart`` and the server exits; so does a request after the root was deleted or
  replaced. A corrupt or deleted index is reopened (rebuilt) and the op retried once. Requests
  whose caller has given up (``deadline`` passed) are dropped unanswered. A connection that sends
  nothing is cut after :data:`READ_SECONDS`. The server exits after ``search.server_idle_seconds``
  without requests. Errors are logged as metadata in ``<root>/logs/search-server.jsonl``.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import socket
import sqlite3
import struct
import time

from .. import journal, oplog
from ..errors import CodeMemoryError
from .client import PROTOCOL, code_version, ensure_socket_dir, socket_path
from .daemon import listen_private, recv_json, send_json

MAX_REQUEST_BYTES = 1024 * 1024
READ_SECONDS = 2.0            # a connection must deliver its request within this
LOCK_WAIT_SECONDS = 10.0      # a server of older code may still be shutting down
TICK_SECONDS = 1.0
QUIET_SECONDS = 0.5           # catch up in idle time once nothing arrived for this long
SWEEP_QUIET_SECONDS = 5.0     # sweep in idle time only after this long without a request
BUSY_MS = 100                 # how long a catch-up before an op waits for another writer


class WarmRoot:
    """One memory root kept warm: its configuration (reloaded when its file changes), its index
    (open, caught up before every op) and the watcher of its files."""

    def __init__(self, root: str, load_config):
        self.root = root
        self._load_config = load_config
        self.identity = _identity(root)
        self._cfg = None
        self._cfg_stamp = None
        self.handle = None
        self._index_stamp = None
        self.watcher = None
        self.dirty: set = set()
        self.swept_at = 0.0
        self.stale: str | None = None       # why the index may lag behind the files right now
        self.report: dict = {}              # what the last catch-up did (the answer's ``index``)

    # -- configuration ----------------------------------------------------------------------

    def _loaded(self) -> tuple:
        """(config, sources, search options), loaded again after the config file changed."""
        if self._cfg is None:
            from .engine import index_sources, options_from_config

            self._cfg_stamp = _stamp(self._config_path())
            cfg = self._load_config(self.root)
            self._cfg = (cfg, index_sources(cfg), options_from_config(cfg))
        return self._cfg

    @property
    def cfg(self):
        return self._loaded()[0]

    @property
    def opts(self):
        return self._loaded()[2]

    def _config_path(self) -> str:
        from ..config import user_config_path
        return user_config_path(self.root)

    def config_changed(self) -> bool:
        return self._cfg is not None and _stamp(self._config_path()) != self._cfg_stamp

    # -- the index ----------------------------------------------------------------------------

    def sources(self) -> list:
        """What the index covers (the memory root, the registered workspaces), as configured."""
        return self._loaded()[1]

    def open(self, sweep: bool = False) -> None:
        """Open the index (rebuilding a missing or corrupted one); ``sweep``: walk every file."""
        from ..text.segment import get_segmenter
        from .engine import ensure_index

        self.close()
        self._watch()           # first: nothing that changes while the index opens is missed
        opts = self.opts
        handle = ensure_index(self.cfg.paths.index_db, self.sources(), opts, sweep=sweep)
        if handle.segmenter is None:
            handle.segmenter = get_segmenter(handle.db.segmenter_name, cache_dir=opts.cache_dir)
        self.handle = handle
        self._index_stamp = _identity(self.cfg.paths.index_db)
        self.report = handle.report
        handle.report = {}
        if sweep or self.report.get("rebuilt"):
            self.swept_at = time.monotonic()

    def close(self) -> None:
        if self.handle is not None:
            try:
                self.handle.db.close()
            except sqlite3.Error:
                pass
            self.handle = None

    def _watch(self) -> None:
        from .freshness import locate
        from .index import walked_dir
        from .watch import open_watcher

        if self.watcher is not None:
            self.watcher.close()
        sources = self.sources()

        def walked(directory: str) -> bool:
            found = locate(sources, directory)
            return found is not None and walked_dir(found[0], found[2])

        self.watcher = open_watcher(walked)
        if self.watcher is not None:
            for n, source in enumerate(sources):
                if os.path.isdir(source.root):
                    self.watcher.watch_tree(os.path.realpath(source.root), root=n == 0)

    def prepare(self) -> None:
        """Before an op: reload a changed config, reopen a replaced index, catch up. ``report``
        then says what changed for this op (the answer's ``index``, as a search in its own process
        reports its refresh)."""
        self.report = {}
        if self.config_changed():
            self._cfg = None
            self.close()
        if self.handle is None:
            self.open()
        elif _identity(self.cfg.paths.index_db) != self._index_stamp:    # deleted or replaced under us
            self.open()
        self.catch_up(BUSY_MS)

    def catch_up(self, busy_ms: int | None = None, sweep: bool = False, idle: bool = False) -> None:
        """Index what changed (``sweep``: walk every file). Directory mtimes are checked when there
        is no healthy watcher — and in ``idle`` time for directories read too soon after they
        changed, so that a search in a process of its own need not list them again."""
        from .engine import refresh_failure
        from .freshness import catch_up, racy_dirs, refresh

        watcher = self.watcher
        if watcher is not None:
            self.dirty |= watcher.drain()
        check_dirs = watcher is None or watcher.incomplete or (idle and racy_dirs(self.handle.db) > 0)
        opts = self.opts
        paths, self.dirty = self.dirty, set()
        stats: dict = {}
        try:
            if sweep or (watcher is not None and watcher.trouble):
                if watcher is not None:
                    watcher.trouble = None
                stats = refresh(self.handle.db, self.sources(), window_lines=opts.window_lines,
                                max_file_bytes=opts.max_file_bytes, cache_dir=opts.cache_dir, busy_ms=busy_ms)
                self.swept_at = time.monotonic()
            else:
                stats = catch_up(self.handle.db, self.sources(), paths=paths, check_dirs=check_dirs,
                                 window_lines=opts.window_lines, max_file_bytes=opts.max_file_bytes,
                                 cache_dir=opts.cache_dir, busy_ms=busy_ms)
            self.stale = None
            if stats.get("changed") or "files" in stats:        # a catch-up that did something, a sweep
                self.report["refresh"] = {k: v for k, v in stats.items() if v or k == "elapsed_ms"}
        except sqlite3.OperationalError as exc:
            self.dirty |= set(paths)          # try again next time
            self.handle.db.conn.rollback()
            self.stale = refresh_failure(exc, self.cfg.paths.index_db)

    def pending(self) -> bool:
        """Is there anything to catch up on (without reading it)?"""
        if self.handle is None:
            return False
        if self.dirty:
            return True
        from .freshness import racy_dirs

        offset = int(self.handle.db.meta("journal_offset", "0"))
        return journal.size(self.root) != offset or racy_dirs(self.handle.db) > 0

    def memtool(self, db_path: str | None = None, project: str | None = None):
        """memtool's store for this root, read within ``project``'s scope (:func:`.unified.project_memtool`)."""
        from .unified import project_memtool

        return project_memtool(self.cfg, project, db_path)

    def shut(self) -> None:
        self.close()
        if self.watcher is not None:
            self.watcher.close()
            self.watcher = None


def _stamp(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def _identity(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


# ---------------------------------------------------------------------------------------------
# the built-in ops

def op_ping(warm: WarmRoot, request: dict) -> dict:
    """What the server is: pid, code version, root, watcher state, index counts (metadata only)."""
    db = warm.handle.db if warm.handle is not None else None
    return {"ok": True, "pid": os.getpid(), "version": code_version(), "root": warm.root,
            "watcher": ({"watched_dirs": warm.watcher.watched, "incomplete": warm.watcher.incomplete}
                        if warm.watcher is not None else None),
            "index": db.counts() if db is not None else None, "stale": warm.stale}


def op_shutdown(warm: WarmRoot, request: dict) -> dict:
    return {"ok": True, "bye": True, "pid": os.getpid()}


SEARCH_KEYS = {"query", "mode", "top_k", "project", "workspace", "sources", "signals", "memtool_db", "scope",
               "snippet_chars"}


def op_search(warm: WarmRoot, request: dict) -> dict:
    """The one search over every store (:func:`.unified.search_all`), project-scoped; the answer
    is what ``memory-search.py`` prints. Validated here: this is a trust boundary."""
    from .unified import search_all

    unknown = sorted(set(request) - SEARCH_KEYS)
    if unknown:
        raise CodeMemoryError("INVALID_ARGUMENT", f"unknown request field(s): {', '.join(unknown)}")
    if request.get("scope", "project") != "project":
        raise CodeMemoryError("INVALID_ARGUMENT", "the warm server answers project-scoped searches only",
                              hint="search every project in your own process: memory-search.py --scope all --force")
    for key in ("query", "mode", "project", "workspace", "memtool_db"):
        if request.get(key) is not None and not isinstance(request[key], str):
            raise CodeMemoryError("INVALID_ARGUMENT", f"{key} must be a string")
    sources = request.get("sources")
    if sources is not None and not (isinstance(sources, list) and all(isinstance(x, str) for x in sources)):
        raise CodeMemoryError("INVALID_ARGUMENT", "sources must be a list of store names")
    top_k = request.get("top_k")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int)):
        raise CodeMemoryError("INVALID_ARGUMENT", "top_k must be an integer")
    memtool_db = request.get("memtool_db")
    if memtool_db is not None and not os.path.isabs(memtool_db):
        raise CodeMemoryError("INVALID_ARGUMENT", "memtool_db must be an absolute path")
    cfg = warm.cfg
    snippet = request.get("snippet_chars")
    if snippet is not None:         # a project's own .claude/code-memory.json may set it
        if isinstance(snippet, bool) or not isinstance(snippet, int) or not 1 <= snippet <= 700:
            raise CodeMemoryError("INVALID_ARGUMENT", "snippet_chars must be an integer from 1 to 700")
        cfg = type(cfg)({**cfg, "search": {**cfg["search"], "snippet_chars": snippet}}, cfg.sources, cfg.warnings)
    answer = search_all(cfg, request.get("query") or "", memtool=warm.memtool(memtool_db, request.get("project")),
                        sources=request.get("sources"), mode=request.get("mode"), top_k=top_k, scope="project",
                        project=request.get("project"), workspace=request.get("workspace"),
                        signals=bool(request.get("signals")), warm=warm)
    if warm.stale:
        answer.setdefault("degraded", {})["index"] = warm.stale
    answer["warm"] = True
    return answer


RECALL_KEYS = {"prompt": str, "project": str, "workspace": str, "mode": str, "threshold": float,
               "threshold_work": float, "max_chars": int, "max_items": int, "candidates": int,
               "exclude_keys": list, "exclude_lines": list, "signals": bool}
MAX_EXCLUDED = 20000          # ledger entries a session may name (keys + line digests)


def op_recall(warm: WarmRoot, request: dict) -> dict:
    """Prompt-time recall (:func:`.recall.prompt_recall`: the search, the relevance gate, the
    lines) for the prompt-recall hook, which then needs nothing but this answer. ``mode`` ``auto``
    is decided here: ``hybrid`` when the embedding daemon is up, else ``bm25`` (a hook never waits
    for a model). Validated here: this is a trust boundary."""
    from .recall import prompt_recall

    for key, value in request.items():
        kind = RECALL_KEYS.get(key)
        if kind is None:
            raise CodeMemoryError("INVALID_ARGUMENT", f"unknown request field: {key[:40]}")
        if value is None and key != "prompt":
            continue
        numeric = kind in (int, float) and isinstance(value, (int, float))
        if isinstance(value, bool) != (kind is bool) or not (numeric or isinstance(value, kind)):
            raise CodeMemoryError("INVALID_ARGUMENT", f"{key} must be of type {kind.__name__}")
        if kind is int and not 0 <= value <= 100000:
            raise CodeMemoryError("INVALID_ARGUMENT", f"{key} is out of range")
        if kind is list and (len(value) > MAX_EXCLUDED or not all(isinstance(x, str) for x in value)):
            raise CodeMemoryError("INVALID_ARGUMENT", f"{key} must be a list of at most {MAX_EXCLUDED} strings")
    if request.get("mode") not in (None, "bm25", "hybrid", "auto"):
        raise CodeMemoryError("INVALID_ARGUMENT", "mode must be bm25, hybrid or auto")
    mode = recall_mode(warm.cfg, request.get("mode"))
    answer = prompt_recall(warm.cfg, {**request, "mode": mode, "refresh": False}, warm)   # caught up already
    answer["mode"] = mode
    return answer


def recall_mode(cfg, mode: str | None) -> str:
    """``bm25`` or ``hybrid`` as asked; ``auto`` (or none): ``hybrid`` when the embedding daemon of
    the configured model is up already (no start, no wait), else ``bm25``."""
    if mode in ("bm25", "hybrid"):
        return mode
    from ..config import setting
    from .daemon import running
    from .embed import spec_from_config

    ecfg = cfg.get("embedding") or {}
    try:
        return "hybrid" if setting(ecfg, "embedding.enabled") and running(spec_from_config(ecfg)) else "bm25"
    except Exception:  # noqa: BLE001 — no vectors: words alone
        return "bm25"


# ---------------------------------------------------------------------------------------------
# the process

class _Exit(Exception):
    pass


class Server:
    def __init__(self, root: str, ops: dict, load_config, listener: socket.socket):
        self.warm = WarmRoot(root, load_config)
        self.ops = ops
        self.listener = listener
        self.version = code_version()
        self.last_request = time.monotonic()
        self.log_path = os.path.join(root, "logs", "search-server.jsonl")

    def log(self, event: str, **fields) -> None:
        if _identity(self.warm.root) != self.warm.identity:
            return                      # never recreate a root that was deleted or moved
        oplog.record(self.log_path, {"at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "event": event,
                                     "pid": os.getpid(), **fields}, max_bytes=256 * 1024)

    def idle_seconds(self) -> float:
        return float(self.warm.cfg.get_path("search.server_idle_seconds"))

    def run(self) -> str:
        self.warm.open(sweep=True)
        self.log("started", watched_dirs=self.warm.watcher.watched if self.warm.watcher else None)
        while True:
            watcher = self.warm.watcher
            fds = [self.listener] + ([watcher.fd] if watcher is not None else [])
            ready, _, _ = select.select(fds, [], [], TICK_SECONDS)
            if watcher is not None and watcher.fd in ready:
                self.warm.dirty |= watcher.drain()
                if watcher.gone_roots:
                    return "the memory root was deleted or moved"
            if self.listener in ready:
                try:
                    conn, _ = self.listener.accept()
                except OSError:
                    continue
                try:
                    with conn:
                        self.serve_connection(conn)
                except _Exit as exc:
                    return str(exc)
                continue
            reason = self.idle_work()
            if reason:
                return reason

    def idle_work(self) -> str | None:
        quiet = time.monotonic() - self.last_request
        if _identity(self.warm.root) != self.warm.identity:
            return "the memory root was deleted or replaced"
        if quiet > self.idle_seconds():
            return "idle"
        if self.warm.config_changed():
            self.warm.prepare()
        sweep_every = float(self.warm.cfg.get_path("index.sweep_seconds"))
        if quiet > SWEEP_QUIET_SECONDS and time.monotonic() - self.warm.swept_at > sweep_every:
            self.warm.catch_up(sweep=True)
        elif quiet > QUIET_SECONDS and self.warm.pending():
            self.warm.catch_up(idle=True)
        return None

    def serve_connection(self, conn: socket.socket) -> None:
        conn.settimeout(READ_SECONDS)
        try:
            pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                                 struct.calcsize("3i")))
        except (OSError, AttributeError):
            uid = os.getuid()           # no SO_PEERCRED here: the 0700 directory is the boundary
        if uid != os.getuid():
            return
        try:
            message = recv_json(conn, MAX_REQUEST_BYTES)
        except (OSError, ValueError):
            return
        if message is None:             # a caller that only checked the server is there
            return
        reply, leave = self.dispatch(message)
        if reply is not None:
            try:
                send_json(conn, reply)
            except OSError:
                pass
        if leave:
            raise _Exit(leave)

    def dispatch(self, message) -> tuple:
        """``(reply or None, why to exit or None)`` for one request."""
        if not isinstance(message, dict) or message.get("protocol") != PROTOCOL:
            return {"ok": False, "reason": "not a request of this protocol", "restart": True}, "another protocol"
        if message.get("version") != self.version:
            return {"ok": False, "reason": "the server runs other code", "restart": True}, "another code version"
        if message.get("root") != self.warm.root:
            return {"ok": False, "reason": "this server serves another memory root"}, None
        now_identity = _identity(self.warm.root)
        if now_identity != self.warm.identity:
            return ({"ok": False, "reason": "the memory root was replaced", "restart": now_identity is not None},
                    "the memory root was deleted or replaced")
        deadline = message.get("deadline")
        if isinstance(deadline, (int, float)) and time.time() > deadline:
            return None, None           # its caller has given up already
        self.last_request = time.monotonic()
        op = self.ops.get(message.get("op"))
        request = message.get("request")
        if op is None or not isinstance(request, dict):
            return {"ok": False, "reason": "unknown op or malformed request"}, None
        answer = self.run_op(op, request, message.get("op"))
        return {"ok": True, "answer": answer}, "shutdown requested" if answer.get("bye") else None

    def run_op(self, op, request: dict, name: str) -> dict:
        for attempt in (1, 2):
            try:
                if getattr(op, "reads_index", True):     # an op that reads no index does not wait for a catch-up
                    self.warm.prepare()
                return op(self.warm, request)
            except CodeMemoryError as exc:
                return exc.to_dict()
            except sqlite3.DatabaseError as exc:
                self.log("index error", op=name, error=type(exc).__name__, attempt=attempt)
                self.warm.close()           # reopened — and rebuilt if corrupted — by prepare()
                if attempt == 2:
                    return {"ok": False, "error": "MEMORY_SEARCH_FAILED",
                            "message": f"the index could not be read ({type(exc).__name__})",
                            "hint": "run: memory-search.py index --full"}
            except Exception as exc:  # noqa: BLE001 — one bad request must not stop the server
                self.log("op failed", op=name, error=type(exc).__name__)
                return {"ok": False, "error": "MEMORY_SEARCH_FAILED",
                        "message": f"the warm search server failed ({type(exc).__name__})"}
        return {"ok": False, "error": "MEMORY_SEARCH_FAILED", "message": "unreachable"}


def _lock(path: str):
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except OSError:
            if time.monotonic() > deadline:
                os.close(fd)
                return None
            time.sleep(0.05)


def serve(root: str, ops: dict, load_config) -> int:
    """Run the server of memory root ``root`` until it is idle, stopped or stale. ``ops``: the
    allow-list of operations; ``load_config(root)`` gives the root's configuration. Returns the
    process's exit status."""
    from ..paths import is_memory_root

    real = os.path.realpath(root)
    if not os.path.isdir(real) or not is_memory_root(real):
        return 1            # nothing is written into a directory that is not a memory root
    if ensure_socket_dir() is None:
        return 1
    path = socket_path(real)
    lock_fd = _lock(path + ".lock")
    if lock_fd is None:
        return 0            # another server of this root is running
    listener = None
    try:
        os.chdir("/")
        listener = listen_private(path, 64)
        try:
            os.unlink(path + ".starting")
        except FileNotFoundError:
            pass
        signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(_Exit("terminated")))
        server = Server(real, ops, load_config, listener)
        try:
            why = server.run()
        except _Exit as exc:
            why = str(exc)
        except Exception as exc:  # noqa: BLE001
            why = f"failed: {type(exc).__name__}"
        server.log("stopped", reason=why)
        server.warm.shut()
        return 0
    finally:
        if listener is not None:
            listener.close()
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        fcntl.flock(lock_fd, fcntl.LOCK_UN)
        os.close(lock_fd)
