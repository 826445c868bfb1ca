"""Nearest-neighbour search over the chunk vectors of an index (numpy dot products).

Used in-process (``--batch``, daemon disabled) and by the embedding daemon, which keeps the matrix
of each index in memory between requests and reloads it when the index's generation changes.
"""

from __future__ import annotations

import sqlite3

from .index import scope_filter


class VectorMatrix:
    """All vectors of one model in one index, with the chunk ids they belong to."""

    def __init__(self, model_key: str):
        self.model_key = model_key
        self.stamp = None
        self.chunk_ids = None
        self.matrix = None
        self.id_pos = {}
        self.allowed = {}           # (scope, project, workspace) → row positions inside it

    @staticmethod
    def _stamp(conn) -> tuple:
        meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('generation', 'vector_generation')"))
        return meta.get("generation"), meta.get("vector_generation")

    def ensure_loaded(self, conn: sqlite3.Connection) -> None:
        import numpy as np

        stamp = self._stamp(conn)
        if stamp == self.stamp and self.matrix is not None:
            return
        rows = conn.execute(
            "SELECT c.chunk_id, v.vec FROM chunks c JOIN vectors v ON v.digest = c.digest AND v.model = ?",
            (self.model_key,)).fetchall()
        if rows:
            self.chunk_ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            self.matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
        else:
            self.chunk_ids = np.zeros(0, dtype=np.int64)
            self.matrix = np.zeros((0, 1), dtype=np.float32)
        self.id_pos = {int(cid): i for i, cid in enumerate(self.chunk_ids)}
        self.allowed = {}
        self.stamp = stamp

    def search(self, conn: sqlite3.Connection, qvec, k: int, scope: str = "project",
               project: str | None = None, workspace: str | None = None) -> list:
        """[(chunk_id, cosine)] best first, among chunks inside the scope."""
        import numpy as np

        self.ensure_loaded(conn)
        if self.matrix.shape[0] == 0 or self.matrix.shape[1] != len(qvec):
            return []
        scores = self.matrix @ np.asarray(qvec, dtype=np.float32)
        ids = self.chunk_ids
        if scope != "all" or project or workspace:
            idx = self.allowed.get((scope, project, workspace))
            if idx is None:         # kept until the index changes: ~0.1 s at 10k chunks on a busy machine
                if len(self.allowed) >= 64:
                    self.allowed.clear()
                where, params = scope_filter(scope, project, workspace)
                idx = self.allowed[(scope, project, workspace)] = np.asarray(
                    [self.id_pos[r[0]] for r in conn.execute(f"SELECT c.chunk_id FROM chunks c WHERE {where}", params)
                     if r[0] in self.id_pos], dtype=np.int64)
            if not len(idx):
                return []
            scores, ids = scores[idx], ids[idx]
        take = min(k, len(scores))
        top = np.argpartition(-scores, take - 1)[:take]
        top = top[np.argsort(-scores[top])]
        return [(int(ids[i]), float(scores[i])) for i in top]

    def scores_for(self, qvec, chunk_ids) -> dict:
        """Cosine of the query with each given chunk (those that have a vector)."""
        import numpy as np

        if self.matrix is None or self.matrix.shape[0] == 0:
            return {}
        pos = [(cid, self.id_pos[cid]) for cid in chunk_ids if cid in self.id_pos]
        if not pos:
            return {}
        sims = self.matrix[[p for _, p in pos]] @ np.asarray(qvec, dtype=np.float32)
        return {cid: float(s) for (cid, _), s in zip(pos, sims)}
