"""session-summary (SessionEnd): snapshot what the summarizer needs, start it detached, return.

SessionEnd hooks are cancelled after about 1.5 s (seen with the real binary), so nothing slow happens
here: one small atomic write and one spawn. The session's flags are removed too.
"""

from __future__ import annotations

from .pending import hand_off


def handle(event, ctx):
    if not event.session_id:
        return None
    cleared = ctx.flags.clear()
    if ctx.root_ready():
        result = hand_off(ctx, event)
        ctx.log.info("session-end", cleared=cleared, reason=event.reason[:30], **result)
    return None
