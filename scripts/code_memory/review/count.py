"""How many proposals wait: a directory listing, no file read, no ``json`` — SessionStart's hot path."""

from __future__ import annotations

import os

ID_PREFIX = "p-"


def pending_dir(root: str) -> str:
    return os.path.join(root, "review", "pending")


def pending_count(root: str) -> int:
    try:
        names = os.listdir(pending_dir(root))
    except OSError:
        return 0
    return sum(1 for n in names if n.endswith(".json") and n.startswith(ID_PREFIX))
