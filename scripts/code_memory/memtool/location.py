"""Which memtool database a command uses — the same rule for the ``memtool`` CLI, the MCP server and
the search over every store (docs/stores.md § memtool):

1. ``--db PATH`` (the CLI, the MCP server's ``--db``);
2. ``$MEMTOOL_DB``;
3. config ``memtool.db``;
4. ``<memory root>/memtool.db`` — so what a user saves from a shell is what Claude's tools see.

An old ``./memtool.db`` in the working directory (memtool's default before it followed the memory
root) is not used unless named, and never silently: :func:`stray_local_db` finds it so the CLI can
say how to use or move it.
"""

from __future__ import annotations

import os

DB_NAME = "memtool.db"


def resolve_db(cfg, explicit: str | None = None, env=None) -> tuple:
    """``(absolute path, how it was chosen)`` — how: ``--db``, ``MEMTOOL_DB``, ``config memtool.db``
    or ``memory root``. *cfg* is only read when neither ``--db`` nor ``$MEMTOOL_DB`` names the file."""
    env = os.environ if env is None else env
    for value, how in ((explicit, "--db"), (env.get("MEMTOOL_DB"), "MEMTOOL_DB")):
        if value:
            return os.path.abspath(os.path.expanduser(str(value))), how
    configured = cfg.get_path("memtool.db")
    if configured:
        return os.path.abspath(os.path.expanduser(str(configured))), "config memtool.db"
    return os.path.join(cfg.root, DB_NAME), "memory root"


def stray_local_db(cwd: str, chosen: str) -> str | None:
    """``<cwd>/memtool.db`` when it exists and is not the database in use, else None."""
    local = os.path.join(cwd, DB_NAME)
    if not os.path.isfile(local):
        return None
    try:
        if os.path.samefile(local, chosen):
            return None
    except OSError:
        pass
    return local


def stray_notice(local: str, chosen: str) -> str:
    return (f"{local} is not used: memtool's database is {chosen} (under the memory root — the one Claude's "
            f"MCP tools use). To use the old file name it: --db {local}; to move its items into the shared "
            f"database: memtool --db {local} export | memtool import")
