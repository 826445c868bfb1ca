"""The kv operations log (spec 004 §9 observability): ``<root>/logs/kv.log``, JSON lines, mode 0600,
capped (rotated once to ``kv.log.1`` past ``MAX_BYTES``).

It records metadata only — operation, time, a digest of the key (sha1[:12]), valid,
source kind, byte counts, timings — never a key in full, content or a source's text.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os

from ..fsutil import ensure_dir, locked_append

MAX_BYTES = 1_000_000


def key_digest(key: str) -> str:
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


def record(path: str, event: dict) -> None:
    """Append one metadata event; never raises (observability must not break a write)."""
    with contextlib.suppress(Exception):
        ensure_dir(os.path.dirname(path), 0o700)
        with contextlib.suppress(FileNotFoundError):
            if os.path.getsize(path) > MAX_BYTES:
                os.replace(path, path + ".1")
        locked_append(path, json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n", mode=0o600)
