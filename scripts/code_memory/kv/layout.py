"""Where the kv store keeps its files, and the options its edges pass down (from config ``kv``)."""

from __future__ import annotations

import os

from ..config import DEFAULTS as CONFIG_DEFAULTS

HISTORY_POLICIES = ("A", "B")


class KVLayout:
    """``<root>/kv/``: log.jsonl (every write), state.jsonl (compacted snapshot), digest.bin (read
    cache), index/ (one JSON file per live key), archive/ (rotated logs), .lock (writer lock)."""

    __slots__ = ("root",)

    def __init__(self, root: str):
        self.root = root

    @classmethod
    def of(cls, root_or_paths) -> "KVLayout":
        if isinstance(root_or_paths, KVLayout):
            return root_or_paths
        root = getattr(root_or_paths, "root", root_or_paths)     # a MemoryPaths / Config, or a path
        return cls(os.path.abspath(os.path.expanduser(str(root))))

    @property
    def kv(self) -> str:
        return os.path.join(self.root, "kv")

    @property
    def log(self) -> str:
        return os.path.join(self.kv, "log.jsonl")

    @property
    def state(self) -> str:
        return os.path.join(self.kv, "state.jsonl")

    @property
    def digest(self) -> str:
        return os.path.join(self.kv, "digest.bin")

    @property
    def index(self) -> str:
        return os.path.join(self.kv, "index")

    @property
    def archive(self) -> str:
        return os.path.join(self.kv, "archive")

    @property
    def lock(self) -> str:
        return os.path.join(self.kv, ".lock")

    @property
    def oplog(self) -> str:
        return os.path.join(self.root, "logs", "kv.log")

    def index_file(self, relpath: str) -> str:
        return os.path.join(self.index, *relpath.split("/"))

    # The store's own paths: none of them may be a symlink, or a write could land outside the
    # memory root (kv/ itself, kv/index, kv/log.jsonl, …).
    OWN_PATHS = ("kv", "kv/index", "kv/log.jsonl", "kv/state.jsonl", "kv/digest.bin", "kv/archive", "kv/.lock",
                 "logs", "logs/kv.log")

    def symlinked_paths(self) -> list:
        """The store's own paths (relative to the root) that are symlinks."""
        found = []
        for rel in self.OWN_PATHS:
            if os.path.islink(os.path.join(self.root, *rel.split("/"))):
                found.append(rel)
        return found

    def require_safe(self) -> None:
        """``MEMORY_PATH_TRAVERSAL`` when a path the store writes is a symlink (refused, never followed)."""
        links = [rel for rel in self.symlinked_paths() if not rel.startswith("logs")]
        if links:
            from ..errors import CodeMemoryError
            raise CodeMemoryError("MEMORY_PATH_TRAVERSAL",
                                  f"refusing to write: {', '.join(links)} is a symlink (writes could leave the memory root)",
                                  hint="replace the symlink with a real file or directory; `code-memory kv check` lists them",
                                  symlinks=links)

    def record(self, event: dict) -> None:
        """One metadata line in logs/kv.log — skipped when logs/ or the file is a symlink."""
        if any(rel.startswith("logs") for rel in self.symlinked_paths()):
            return
        from .. import oplog
        oplog.record(self.oplog, event)


EDGE_SETTINGS = ("read_token_limit", "auto_compact")   # read by the edges themselves (kv/edge.py)


class KVOptions:
    """Behaviour switches; the edges build this from the ``kv`` config section (same names, same
    defaults: the section's, less :data:`EDGE_SETTINGS`)."""

    DEFAULTS = {k: v for k, v in CONFIG_DEFAULTS["kv"].items() if k not in EDGE_SETTINGS}
    __slots__ = tuple(DEFAULTS)

    def __init__(self, **values):
        unknown = set(values) - set(self.DEFAULTS)
        if unknown:
            raise TypeError(f"unknown kv options: {sorted(unknown)}")
        for name, default in self.DEFAULTS.items():
            setattr(self, name, values.get(name, default))
        if self.history_policy not in HISTORY_POLICIES:
            from ..errors import CodeMemoryError
            raise CodeMemoryError("CONFIG_INVALID", f"kv.history_policy must be A or B, got {self.history_policy!r}")

    @classmethod
    def from_config(cls, section: dict | None) -> "KVOptions":
        """Options from the ``kv`` config section (keys that are not options are ignored)."""
        section = section or {}
        return cls(**{k: v for k, v in section.items() if k in cls.DEFAULTS and v is not None})
