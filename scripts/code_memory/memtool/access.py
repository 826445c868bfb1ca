"""Access tracking (docs/stores.md § memtool): get, search and recommend record which items were read; the
counts, last-access times and consolidation scores are written in one batch.

Reads never wait on this: accesses are buffered in memory and flushed in a single short transaction
(at most :data:`FLUSH_BUSY_MS` of waiting for the write lock) when :data:`FLUSH_EVERY` accesses are
pending, when :data:`FLUSH_INTERVAL_S` has passed, or when the store closes. If the lock is busy the
batch stays buffered for the next flush; a process that ends with the lock still busy loses its
pending counts (best effort, documented) but never delays or fails the read that made them.
"""

from __future__ import annotations

import sqlite3
import time

from .errors import BUSY_TIMEOUT_MS
from .ranking import compute_consolidation, utcnow
from .schema import select_in

FLUSH_EVERY = 256
FLUSH_INTERVAL_S = 2.0
FLUSH_BUSY_MS = 250


class AccessTracker:
    def __init__(self, clock=utcnow, flush_every: int = FLUSH_EVERY,
                 flush_interval: float = FLUSH_INTERVAL_S):
        self._clock = clock
        self._flush_every = flush_every
        self._flush_interval = flush_interval
        self._pending = {}  # id -> [count, last access iso]
        self._last_flush = time.monotonic()

    @property
    def pending(self) -> int:
        return sum(count for count, _ in self._pending.values())

    def record(self, item_ids) -> None:
        stamp = self._clock().isoformat(timespec="microseconds")
        for item_id in item_ids:
            entry = self._pending.setdefault(item_id, [0, stamp])
            entry[0] += 1
            entry[1] = stamp

    def due(self) -> bool:
        return bool(self._pending) and (
            self.pending >= self._flush_every
            or time.monotonic() - self._last_flush >= self._flush_interval)

    def flush(self, conn: sqlite3.Connection) -> int:
        """Write the pending accesses; returns how many items were updated (0 if the lock was busy)."""
        if not self._pending:
            return 0
        batch, self._pending = self._pending, {}
        self._last_flush = time.monotonic()
        conn.execute(f"PRAGMA busy_timeout = {FLUSH_BUSY_MS}")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            self._requeue(batch)
            return 0
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        try:
            now = self._clock()
            rows = select_in(conn, "SELECT id, access_count, created_at, updated_at FROM memory_items WHERE id",
                             batch)
            updates = []
            for row in rows:
                count, stamp = batch[row["id"]]
                total = int(row["access_count"] or 0) + count
                score = compute_consolidation(total, row["created_at"], row["updated_at"], now)
                updates.append((total, stamp, round(score, 6), row["id"]))
            conn.executemany("UPDATE memory_items SET access_count = ?, last_accessed_at = ?, "
                             "consolidation_score = ? WHERE id = ?", updates)
            conn.execute("COMMIT")
            return len(updates)
        except sqlite3.Error:
            conn.execute("ROLLBACK")
            self._requeue(batch)
            return 0

    def _requeue(self, batch: dict) -> None:
        for item_id, (count, stamp) in batch.items():
            entry = self._pending.setdefault(item_id, [0, stamp])
            entry[0] += count
            entry[1] = max(entry[1], stamp)
