"""The ``kv`` block of the SessionStart context (``hooks.session_start_blocks``): the default read.

Budget: ``kv.read_token_limit`` tokens (docs/stores.md § Agent key-value memory: how tokens are counted);
the session's project name is passed as a context tag. The SessionStart assembly then fits every
block into ``hooks.session_start_max_bytes`` (cutting at line boundaries). No kv store → no block
and no work beyond one ``stat`` call.
"""

from __future__ import annotations

import os


def kv_block(ctx, project):
    if not os.path.isdir(ctx.paths.kv):      # no store: not even the kv modules are imported
        return None
    from ..kv.layout import KVLayout, KVOptions
    from .recall import Block, on_path

    section = ctx.cfg.get("kv") or {}
    limit = int(ctx.cfg.get_path("kv.read_token_limit"))
    layout = KVLayout.of(ctx.paths)
    if limit <= 0 or not (os.path.exists(layout.log) or os.path.exists(layout.state)):
        return None
    from ..kv.read import default_read  # only with a store: it costs the hook ~7 ms of imports

    result = default_read(layout, limit, tags=[project.name] if project else None,
                          options=KVOptions.from_config(section))
    ctx.log.info("kv-read", lines=result["included"], candidates=result["candidates"],
                 tokens=result["token_count"], ms=result["elapsed_ms"])
    if not result["text"]:
        return None
    title = "agent key-value memory — default read"
    if on_path("code-memory", ctx.env):          # name the command only where it runs as written
        title += " (`code-memory kv get KEY` shows a value)"
    return Block(layout.kv, title, result["text"])
