"""``kv/digest.bin``: the default read's cache of every live key's ranking fields.

For each live key: write time (epoch s), ``content.importance``, ``content.expired_at`` (epoch s),
whether it is quarantined (``/untrusted/…``) and ``content.tags`` — nothing else (type and summary
are read from the index files of the few keys a read shows). Stored column-wise (``array('d')``
bytes, one string of keys) with :mod:`marshal`, so loading 10k keys costs a few milliseconds
instead of parsing 10k JSON rows. The file starts with one JSON header line — format version,
Python's marshal version, the state.jsonl id and the log position it covers, a CRC-32 of the body —
and anything that does not match is rebuilt from state.jsonl + the log. Derived and disposable.

In memory a :class:`Digest` is the loaded columns plus ``changes``: keys written or tombstoned by
log lines replayed since (the later log line wins).
"""

from __future__ import annotations

import marshal
import math
import sys
import zlib
from array import array

from ..fsutil import open_regular
from ..jsonlite import dumps, loads
from .provenance import is_quarantined

FORMAT = 1
MARSHAL_TAG = f"{marshal.version}/{sys.version_info[0]}.{sys.version_info[1]}"
NAN = float("nan")
TAG_SEP = "\x1f"


def _number(value) -> float:
    return NAN if value is None else float(value)


class Digest:
    """Columns ``keys, ts, importance, expires, untrusted, tags`` + ``changes`` on top."""

    __slots__ = ("keys", "ts", "importance", "expires", "untrusted", "tags", "changes", "_slots")

    def __init__(self, keys=(), ts=None, importance=None, expires=None, untrusted=b"", tags=()):
        self.keys = list(keys)
        self.ts = ts if ts is not None else array("d")
        self.importance = importance if importance is not None else array("d")
        self.expires = expires if expires is not None else array("d")
        self.untrusted = untrusted
        self.tags = list(tags)
        self.changes: dict = {}       # key -> row tuple, or None when tombstoned since
        self._slots = None

    # -------------------------------------------------------------------- rows
    @staticmethod
    def row_of(envelope: dict, ts_epoch: float, expires) -> tuple:
        """``(ts, importance, expires, untrusted, tags)`` of a live envelope (NaN = absent)."""
        content = envelope.get("content")
        importance, tags = None, None
        if isinstance(content, dict):
            importance, tags = content.get("importance"), content.get("tags")
        if isinstance(importance, bool) or not isinstance(importance, (int, float)) or math.isnan(importance):
            importance = None
        if isinstance(tags, str):
            tags = [tags]
        tags = [t.strip().lower() for t in tags if isinstance(t, str) and t.strip()][:20] if isinstance(tags, list) else []
        key = envelope["key"]
        untrusted = int(is_quarantined(key))
        return (ts_epoch, _number(importance), _number(expires), untrusted,
                TAG_SEP.join(t.replace(TAG_SEP, " ") for t in tags))

    def _slot(self, key: str):
        if self._slots is None:
            self._slots = {k: i for i, k in enumerate(self.keys)}
        return self._slots.get(key)

    def row(self, key: str):
        """The current row of ``key`` or None when it is not live."""
        if key in self.changes:
            return self.changes[key]
        i = self._slot(key)
        if i is None:
            return None
        return (self.ts[i], self.importance[i], self.expires[i], self.untrusted[i], self.tags[i])

    def apply(self, key: str, ts_epoch: float, row_or_none) -> None:
        """Fold one write (a row, or None for a tombstone) in: the later log line wins."""
        self.changes[key] = row_or_none

    def rows(self):
        """``(key, ts, importance, expires, untrusted, tags)`` of every live key."""
        base = zip(self.keys, self.ts, self.importance, self.expires, self.untrusted, self.tags)
        changes = self.changes
        if changes:
            base = (r for r in base if r[0] not in changes)
        yield from base
        for key, row in changes.items():
            if row is not None:
                yield (key, *row)

    # -------------------------------------------------------------------- files
    @classmethod
    def from_rows(cls, rows) -> "Digest":
        keys, ts, importance, expires, untrusted, tags = [], array("d"), array("d"), array("d"), bytearray(), []
        for key, t, imp, exp, unt, tg in rows:
            keys.append(key)
            ts.append(t)
            importance.append(imp)
            expires.append(exp)
            untrusted.append(unt)
            tags.append(tg)
        return cls(keys, ts, importance, expires, bytes(untrusted), tags)

    def to_bytes(self, state_id, log_position: dict) -> bytes:
        merged = Digest.from_rows(self.rows()) if self.changes else self
        body = marshal.dumps({"keys": "\n".join(merged.keys), "ts": merged.ts.tobytes(),
                              "importance": merged.importance.tobytes(), "expires": merged.expires.tobytes(),
                              "untrusted": bytes(merged.untrusted), "tags": merged.tags})
        header = {"format": FORMAT, "marshal": MARSHAL_TAG, "state_id": state_id, "log": log_position,
                  "count": len(merged.keys), "crc32": zlib.crc32(body)}
        return dumps(header, compact=True).encode("utf-8") + b"\n" + body

    @classmethod
    def load(cls, path: str, state_id):
        """``(digest, header)`` from ``path``, or ``(None, None)`` when missing, foreign or stale."""
        try:
            with open_regular(path) as fh:
                header = loads(fh.readline())
                body = fh.read()
        except (OSError, ValueError):
            return None, None
        if (not isinstance(header, dict) or header.get("format") != FORMAT or header.get("marshal") != MARSHAL_TAG
                or header.get("state_id") != state_id or zlib.crc32(body) != header.get("crc32")):
            return None, None
        try:
            cols = marshal.loads(body)
            keys = cols["keys"].split("\n") if cols["keys"] else []
            arrays = []
            for name in ("ts", "importance", "expires"):
                column = array("d")
                column.frombytes(cols[name])
                arrays.append(column)
            untrusted, tags = cols["untrusted"], cols["tags"]
        except (ValueError, EOFError, TypeError, KeyError):
            return None, None
        if not all(len(c) == len(keys) for c in (*arrays, untrusted, tags)):
            return None, None
        return cls(keys, *arrays, untrusted, tags), header
