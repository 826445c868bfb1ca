"""Operations logs (``<root>/logs/kv.log``, ``<root>/logs/workspace.log``, ``<root>/logs/summary.jsonl``):
JSON lines, mode 0600, capped (rotated once to ``<name>.1`` past ``MAX_BYTES`` or the caller's cap).

They record metadata only — operation, time, digests (sha1[:12]) of keys or texts, lengths,
paths, counts, timings — never memory text, a key in full or a source's text.
"""

from __future__ import annotations

import contextlib
import hashlib
import os

from .fsutil import append_jsonl, ensure_dir

MAX_BYTES = 1_000_000


def key_digest(text: str) -> str:
    """What a log may say about a key or a text: sha1[:12] of it."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def record(path: str, event: dict, max_bytes: int = MAX_BYTES) -> None:
    """Append one metadata event; never raises (observability must not break a write)."""
    with contextlib.suppress(Exception):
        ensure_dir(os.path.dirname(path), 0o700)
        with contextlib.suppress(FileNotFoundError):
            if os.path.getsize(path) > max_bytes:
                os.replace(path, path + ".1")
        append_jsonl(path, event, mode=0o600)
