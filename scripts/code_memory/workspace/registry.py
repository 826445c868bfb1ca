"""Registered workspaces: ids, lookup, and the workspace a session (its cwd) belongs to.

``workspaces.paths`` lists the directories; the id is the directory name (``id_strategy: name``) or
``sha256(realpath)[:12]`` (``hash``) — stable when two workspaces share a name. Two registered
directories with the same id are both left out (reported as ``conflicts``) rather than mixed in
one id: isolation is by id.
"""

from __future__ import annotations

import hashlib
import os

from ..config import setting
from ..errors import CodeMemoryError
from ..paths import is_within

ID_STRATEGIES = ("name", "hash")
MEMORY_DIR = "memory"


def workspace_id(path: str, strategy: str = "name") -> str:
    real = os.path.realpath(os.path.expanduser(path))
    if strategy == "hash":
        return hashlib.sha256(real.encode("utf-8")).hexdigest()[:12]
    return os.path.basename(real.rstrip(os.sep)) or real


class Workspace:
    """One registered workspace: ``id``, ``root`` (real path), ``memory_dir`` = root/memory."""

    __slots__ = ("id", "root")

    def __init__(self, ws_id: str, root: str):
        self.id = ws_id
        self.root = root

    @property
    def memory_dir(self) -> str:
        return os.path.join(self.root, MEMORY_DIR)

    @property
    def memory_md(self) -> str:
        return os.path.join(self.memory_dir, "MEMORY.md")

    @property
    def lock(self) -> str:
        return os.path.join(self.memory_dir, ".lock")

    def day_file(self, date: str) -> str:
        return os.path.join(self.memory_dir, f"{date}.md")

    def describe(self) -> dict:
        return {"id": self.id, "root": self.root, "exists": os.path.isdir(self.root),
                "memory_dir": self.memory_dir, "memory_dir_exists": os.path.isdir(self.memory_dir)}

    def __repr__(self) -> str:
        return f"Workspace({self.id!r}, {self.root!r})"


class Registry:
    """The registered workspaces of one configuration."""

    def __init__(self, paths, strategy: str = "name"):
        if strategy not in ID_STRATEGIES:
            raise CodeMemoryError("CONFIG_INVALID", f"workspaces.id_strategy must be name or hash, got {strategy!r}")
        self.strategy = strategy
        by_id: dict = {}
        for raw in paths or []:
            if not isinstance(raw, str) or not raw.strip():
                continue
            root = os.path.realpath(os.path.expanduser(raw))
            roots = by_id.setdefault(workspace_id(root, strategy), [])
            if root not in roots:
                roots.append(root)
        self.conflicts = {i: r for i, r in by_id.items() if len(r) > 1}
        self.workspaces = [Workspace(i, r[0]) for i, r in by_id.items() if len(r) == 1]

    def get(self, ident: str) -> Workspace:
        """A workspace by id, or by (a path inside) its directory; ``MEMORY_WORKSPACE_NOT_FOUND``."""
        if not isinstance(ident, str) or not ident.strip():
            raise CodeMemoryError("MEMORY_WORKSPACE_NOT_FOUND", "no workspace given", hint="pass --workspace ID")
        for ws in self.workspaces:
            if ws.id == ident:
                return ws
        if ident in self.conflicts:
            raise CodeMemoryError("MEMORY_WORKSPACE_NOT_FOUND", f"workspace id {ident!r} is ambiguous "
                                  f"({len(self.conflicts[ident])} registered directories share it)",
                                  hint="set workspaces.id_strategy to hash, or rename a directory")
        if os.sep in ident or ident.startswith((".", "~")):
            found = self.containing(ident)
            if found:
                return found
        raise CodeMemoryError("MEMORY_WORKSPACE_NOT_FOUND", f"no registered workspace {ident!r}",
                              hint="`code-memory workspace list` shows them; `code-memory workspace add DIR` registers one")

    def containing(self, path: str | None) -> Workspace | None:
        """The workspace whose directory holds ``path`` (the deepest one), or None."""
        if not path:
            return None
        real = os.path.realpath(os.path.expanduser(path))
        best = None
        for ws in self.workspaces:
            if is_within(real, ws.root):
                if best is None or len(ws.root) > len(best.root):
                    best = ws
        return best

    def select(self, ident: str | None = None, all_: bool = False, cwd: str | None = None) -> list:
        """The workspaces a command works on: ``--all``, ``--workspace ID``, else the one holding
        ``cwd``; ``MEMORY_WORKSPACE_NOT_FOUND`` when none applies."""
        if all_:
            return list(self.workspaces)
        if ident:
            return [self.get(ident)]
        found = self.containing(cwd)
        if found is None:
            raise CodeMemoryError("MEMORY_WORKSPACE_NOT_FOUND",
                                  "the current directory is not inside a registered workspace",
                                  hint="pass --workspace ID (or --all); `code-memory workspace list` shows them")
        return [found]

    def memory_dirs(self) -> list:
        return [ws.memory_dir for ws in self.workspaces]


def registry_from_config(cfg) -> Registry:
    """The registry of a loaded configuration (``workspaces.paths``, ``workspaces.id_strategy``)."""
    section = cfg.get("workspaces") or {}
    return Registry(section.get("paths") or [], setting(section, "workspaces.id_strategy"))


def session_workspace(cfg, cwd: str | None) -> Workspace | None:
    """The workspace a session in ``cwd`` sees (hooks, MCP, CLI default), or None."""
    return registry_from_config(cfg).containing(cwd)
