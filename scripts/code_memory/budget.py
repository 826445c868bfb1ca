"""Process-wide time limits: how long this process may wait for a lock.

A hook must answer within its budget whatever another process holds (its time budget): the hook runtime
calls :func:`limit_lock_waits` once, and every ``fsutil`` lock wait in that process is cut to the
limit — a held ``daily/.lock`` costs the hook at most that long, then ``LOCK_TIMEOUT``, which the
runtime turns into failing open. Other processes (the CLI, the summarizer) keep their own
timeouts. A module of its own, near-empty, so the hooks' hot path pays nothing for it.
"""

from __future__ import annotations

_lock_wait_limit: float | None = None


def limit_lock_waits(seconds: float | None) -> None:
    global _lock_wait_limit
    _lock_wait_limit = seconds


def lock_wait(timeout: float) -> float:
    """``timeout``, cut to this process's limit when one is set."""
    return timeout if _lock_wait_limit is None else min(timeout, _lock_wait_limit)
