"""The hooks' log: ``<root>/logs/hooks.log``, one JSON object per line, mode 0600, capped.

Metadata only — hook, event, decision, project, path, sizes, error class — never memory text or
file contents. When the file passes the cap it is moved to ``hooks.log.1`` (one generation kept).
Logging never raises: a missing or read-only memory root simply means no log line.
"""

from __future__ import annotations

import os
import time

from ..jsonlite import dumps

LOG_NAME = "hooks.log"
DEFAULT_MAX_BYTES = 1_000_000
_DETAIL_CHARS = 300


class HookLog:
    def __init__(self, logs_dir: str, hook: str, max_bytes: int = DEFAULT_MAX_BYTES, level: str = "info",
                 started: float | None = None):
        self.logs_dir = logs_dir
        self.hook = hook
        self.max_bytes = max(4096, int(max_bytes or DEFAULT_MAX_BYTES))
        self.level = level
        self.started = time.monotonic() if started is None else started

    @property
    def path(self) -> str:
        return os.path.join(self.logs_dir, LOG_NAME)

    def info(self, action: str, **meta) -> None:
        if self.level == "info":
            self._write("info", action, meta)

    def warning(self, action: str, **meta) -> None:
        """Written at every level: something was skipped that the user should fix."""
        self._write("warning", action, meta)

    def error(self, action: str, exc: BaseException | None = None, **meta) -> None:
        if exc is not None:
            meta["error"] = type(exc).__name__
            if isinstance(exc, OSError) and exc.errno:
                meta["errno"] = exc.errno
            code = getattr(exc, "code", None)
            if isinstance(code, str):
                meta["code"] = code
            meta["detail"] = _detail(exc)
        self._write("error", action, meta)

    def _write(self, level: str, action: str, meta: dict) -> None:
        try:
            root = os.path.dirname(self.logs_dir)
            if not os.path.isdir(root):
                return  # no memory root: nowhere to log, and we never create one from here
            os.makedirs(self.logs_dir, mode=0o700, exist_ok=True)
            record = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "level": level, "hook": self.hook,
                      "action": action, "ms": round((time.monotonic() - self.started) * 1000, 1)}
            record.update(meta)
            line = dumps(record, default=str) + "\n"
            self._rotate_if_needed()
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o600)  # a FIFO: ENXIO, not a stall
            try:
                os.write(fd, line.encode("utf-8", "replace"))
            finally:
                os.close(fd)
        except Exception:  # noqa: BLE001 — the log must never break a hook
            pass

    def _rotate_if_needed(self) -> None:
        try:
            if os.stat(self.path).st_size >= self.max_bytes:
                os.replace(self.path, self.path + ".1")
        except OSError:
            pass


def _detail(exc: BaseException) -> str:
    """The exception text, shortened, with anything secret-shaped redacted. Exception texts hold
    paths and positions, not memory contents, but redaction keeps an odd one from leaking a key."""
    text = str(exc)[:_DETAIL_CHARS]
    try:
        from ..redact import redact
        return redact(text)
    except Exception:  # noqa: BLE001
        return "(detail withheld)"
