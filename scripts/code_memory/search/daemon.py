"""The warm embedding process: keeps the model and each index's vector matrix in memory so a search
in a new process pays ~10 ms for vectors instead of ~1 s for ``import fastembed`` + model load.

One daemon per (model, python interpreter), shared by every memory root. It listens on a Unix
socket in a private per-user directory (``/tmp/cm-<uid>/``, mode 0700; socket 0600), answers one
JSON request per connection, embeds chunks that have no vector yet in a background thread, and
exits after ``embedding.daemon_idle_seconds`` without requests. A single instance is guaranteed by
an ``flock`` on ``<socket>.lock``; a model that cannot load leaves ``<socket>.error`` with the reason,
so clients degrade to BM25 immediately instead of waiting.

Client side (stdlib only): :class:`DaemonVectors` starts the daemon on demand and ranks through it.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import socket
import sqlite3
import sys
import threading
import time

from .client import ensure_socket_dir, socket_dir, spawn
from .embed import ModelSpec, recent_reason

PROTOCOL = 1
MAX_REQUEST_BYTES = 4 * 1024 * 1024
MAX_EMBED_TEXTS = 64            # texts one ``embed`` request may name


class DaemonUnavailable(Exception):
    model_failed = False    # True when the model itself cannot load (clients remember that)


def socket_path(spec: ModelSpec) -> str:
    ident = hashlib.sha256(f"{PROTOCOL}|{spec.key}|{sys.executable}".encode()).hexdigest()[:16]
    return os.path.join(socket_dir(), f"embed-{ident}.sock")


def _private_dir() -> str:
    d = ensure_socket_dir()
    if d is None:
        raise DaemonUnavailable(f"{socket_dir()} is not a private directory of this user")
    return d


def send_json(sock: socket.socket, obj) -> None:
    """One JSON message, one line (the protocol of the warm processes)."""
    sock.sendall(json.dumps(obj, separators=(",", ":")).encode("utf-8") + b"\n")


def recv_json(sock: socket.socket, limit: int = MAX_REQUEST_BYTES):
    """One JSON message of at most ``limit`` bytes (ValueError beyond), or None when the peer sent
    nothing."""
    buf = bytearray()
    while not buf.endswith(b"\n"):
        part = sock.recv(65536)
        if not part:
            break
        buf += part
        if len(buf) > limit:
            raise ValueError("message too large")
    return json.loads(buf.decode("utf-8")) if buf else None


# ---------------------------------------------------------------------------------------------
# client

def request(path: str, payload: dict, timeout: float = 30.0) -> dict:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
        send_json(sock, payload)
        answer = recv_json(sock)
    except (FileNotFoundError, ConnectionRefusedError) as exc:
        raise DaemonUnavailable("not running") from exc
    except (OSError, ValueError) as exc:
        raise DaemonUnavailable(f"no answer ({type(exc).__name__})") from exc
    finally:
        sock.close()
    if not isinstance(answer, dict):
        raise DaemonUnavailable("empty answer")
    return answer


ERROR_TTL_SECONDS = 300


def _raise_if_model_failed(path: str) -> None:
    """Raise DaemonUnavailable (``model_failed``) if the daemon recently failed to load the model."""
    error = recent_reason(path + ".error", ERROR_TTL_SECONDS)
    if error:
        exc = DaemonUnavailable(error)
        exc.model_failed = True
        raise exc


def _ping(path: str) -> bool:
    try:
        request(path, {"op": "ping"}, timeout=2.0)
        return True
    except DaemonUnavailable:
        return False


def running(spec: ModelSpec) -> bool:
    """A daemon for ``spec`` answers (one socket connect; no start)."""
    return _ping(socket_path(spec))


def ensure_daemon(spec: ModelSpec, idle_seconds: float = 900, wait_seconds: float = 5.0) -> str:
    """The socket path of a running daemon for ``spec``, starting one if needed.

    Raises DaemonUnavailable; ``.model_failed`` is set when the model itself cannot load.
    """
    _private_dir()
    path = socket_path(spec)
    if _ping(path):
        return path
    _raise_if_model_failed(path)
    spawn([sys.executable, "-m", "code_memory.search.daemon", "--socket", path,
           "--spec", spec.to_json(), "--idle", str(idle_seconds)], drop_env=())
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        time.sleep(0.05)
        _raise_if_model_failed(path)
        if _ping(path):
            return path
    raise DaemonUnavailable(f"the embedding daemon did not start within {wait_seconds:.1f}s")


class DaemonVectors:
    """Ranks by vectors through the warm daemon (same answers as the in-process ranker)."""

    def __init__(self, spec: ModelSpec, path: str):
        self.spec = spec
        self.path = path
        self.note = None

    @classmethod
    def connect(cls, spec: ModelSpec, idle_seconds: float = 900, wait_seconds: float = 5.0) -> "DaemonVectors":
        return cls(spec, ensure_daemon(spec, idle_seconds, wait_seconds))

    def ranked(self, db, query: str, k: int, scope, project, workspace, score_ids=()) -> tuple:
        answer = request(self.path, {"op": "search", "db": db.path, "query": query, "k": k, "scope": scope,
                                     "project": project, "workspace": workspace, "score_ids": list(score_ids)})
        if not answer.get("ok"):
            raise DaemonUnavailable(answer.get("message", "search failed"))
        missing = int(answer.get("missing", 0))
        self.note = (f"{missing} chunks are being embedded in the background; vector results are partial"
                     if missing else None)
        return ([(int(c), float(s)) for c, s in answer["top"]],
                {int(c): float(s) for c, s in answer.get("cosines", {}).items()})


# ---------------------------------------------------------------------------------------------
# server

class _Server:
    def __init__(self, path: str, spec: ModelSpec, idle_seconds: float):
        from .embed import load_model

        self.path = path
        self.idle_seconds = idle_seconds
        self.embedder = load_model(spec)
        self.spec = self.embedder.spec
        self.model_lock = threading.Lock()
        self.matrices = {}
        self.missing = {}           # index → (its generations, chunks without a vector)
        self.conns = {}
        self.jobs = {}
        self.last_request = time.monotonic()

    def conn_for(self, db_path: str) -> sqlite3.Connection:
        if db_path not in self.conns:
            if os.path.basename(db_path) != "search.sqlite" or not os.path.isfile(db_path):
                raise ValueError("not a code-memory index")
            conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5, check_same_thread=False)
            self.conns[db_path] = conn
        return self.conns[db_path]

    def embed(self, texts: list):
        with self.model_lock:
            return self.embedder.embed(texts)

    def background_embed(self, db_path: str) -> None:
        if self.jobs.get(db_path) and self.jobs[db_path].is_alive():
            return

        def job():
            import numpy as np

            from .embed import missing_vectors, store_vectors
            conn = sqlite3.connect(db_path, timeout=30)
            try:
                while True:
                    todo = missing_vectors(conn, self.spec.key, limit=64)
                    if not todo:
                        break
                    texts = [t for _, t in todo]       # the model is taken 8 texts at a time: a query waits for 8 at most
                    mat = np.vstack([self.embed(texts[i:i + 8]) for i in range(0, len(texts), 8)])
                    store_vectors(conn, self.spec.key, [d for d, _ in todo], mat)
                    self.last_request = time.monotonic()
            except sqlite3.Error:
                pass
            finally:
                conn.close()

        thread = threading.Thread(target=job, daemon=True)
        self.jobs[db_path] = thread
        thread.start()

    def handle(self, req: dict) -> dict:
        op = req.get("op")
        if op == "ping":
            return {"ok": True, "model": self.spec.key, "pid": os.getpid(), "protocol": PROTOCOL}
        if op == "search":
            from .embed import missing_count
            from .vectors import VectorMatrix

            db_path = os.path.realpath(str(req["db"]))
            conn = self.conn_for(db_path)
            matrix = self.matrices.setdefault(db_path, VectorMatrix(self.spec.key))
            qvec = self.embed([str(req.get("query", ""))])[0]
            top = matrix.search(conn, qvec, int(req.get("k", 50)), req.get("scope", "project"),
                                req.get("project"), req.get("workspace"))
            cosines = matrix.scores_for(qvec, [int(i) for i in req.get("score_ids", [])])
            stamp = VectorMatrix._stamp(conn)
            if self.missing.get(db_path, (None,))[0] != stamp:     # counted again only after a change:
                self.missing[db_path] = (stamp, missing_count(conn, self.spec.key))   # ~0.1 s at 10k chunks
            missing = self.missing[db_path][1]
            if missing:
                self.background_embed(db_path)
            return {"ok": True, "top": top, "cosines": {str(k): v for k, v in cosines.items()}, "missing": missing}
        if op == "embed":             # vectors of a few short texts (search/related.py)
            texts = req.get("texts")
            if not isinstance(texts, list) or len(texts) > MAX_EMBED_TEXTS or not all(isinstance(t, str) for t in texts):
                return {"ok": False, "message": f"texts must be a list of at most {MAX_EMBED_TEXTS} strings"}
            import base64

            mat = self.embed(texts)
            return {"ok": True, "dim": int(mat.shape[1]) if len(texts) else 0,
                    "vectors": [base64.b64encode(row.tobytes()).decode("ascii") for row in mat]}
        if op == "shutdown":
            return {"ok": True, "bye": True}
        return {"ok": False, "message": f"unknown op {op!r}"}

    def serve_forever(self, listener: socket.socket) -> None:
        listener.settimeout(1.0)
        while True:
            if time.monotonic() - self.last_request > self.idle_seconds and not any(
                    j.is_alive() for j in self.jobs.values()):
                return
            try:
                client, _ = listener.accept()
            except socket.timeout:
                continue
            self.last_request = time.monotonic()
            with client:
                client.settimeout(30)
                try:
                    req = recv_json(client)
                    answer = self.handle(req) if isinstance(req, dict) else {"ok": False, "message": "bad request"}
                except Exception as exc:  # one bad request must not stop the daemon
                    answer = {"ok": False, "message": type(exc).__name__}
                try:
                    send_json(client, answer)
                except OSError:
                    pass
                if isinstance(answer, dict) and answer.get("bye"):
                    return


def listen_private(path: str, backlog: int) -> socket.socket:
    """A Unix socket listening at ``path`` (a stale socket file there is replaced), mode 0600 from
    the start (umask), for a directory only this user may enter."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)
    try:
        listener.bind(path)
    finally:
        os.umask(old_umask)
    listener.listen(backlog)
    return listener


def serve(path: str, spec: ModelSpec, idle_seconds: float) -> int:
    _private_dir()
    lock_fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # another daemon for this model is starting or running
    try:
        try:
            os.unlink(path + ".error")
        except FileNotFoundError:
            pass
        try:
            server = _Server(path, spec, idle_seconds)
        except Exception as exc:
            from ..fsutil import atomic_write_json
            reason = str(exc) or type(exc).__name__
            atomic_write_json(path + ".error", {"reason": reason[:300], "at": time.time()}, mode=0o600)
            return 1
        listener = listen_private(path, 16)
        try:
            server.serve_forever(listener)
        finally:
            listener.close()
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        return 0
    finally:
        # remove the lock file while still holding it (at worst a daemon starting at this very
        # moment and one more after it both run; the newer takes the socket, the older idles out)
        try:
            os.unlink(path + ".lock")
        except FileNotFoundError:
            pass
        fcntl.flock(lock_fd, fcntl.LOCK_UN)
        os.close(lock_fd)


def stop(spec: ModelSpec) -> bool:
    """Ask the daemon for ``spec`` to exit. True if one was running."""
    try:
        request(socket_path(spec), {"op": "shutdown"}, timeout=5)
        return True
    except DaemonUnavailable:
        return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="code_memory.search.daemon")
    ap.add_argument("--socket", required=True)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--idle", type=float, default=900)
    args = ap.parse_args(argv)
    return serve(args.socket, ModelSpec.from_json(args.spec), args.idle)


if __name__ == "__main__":
    sys.exit(main())
