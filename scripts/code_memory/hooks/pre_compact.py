"""pre-compact (PreCompact): forget this session's flags, so the rules (and the schema) are
injected again after compaction, and snapshot the session for the summarizer (pending.py)."""

from __future__ import annotations

from .pending import hand_off


def handle(event, ctx):
    cleared = ctx.flags.clear() if event.session_id else 0
    if event.session_id and ctx.root_ready():
        result = hand_off(ctx, event)
        ctx.log.info("pre-compact", cleared=cleared, trigger=event.trigger[:20], **result)
    return None
