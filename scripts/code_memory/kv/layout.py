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
