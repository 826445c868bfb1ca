"""Turning memory files into injected context: fenced, labelled as recalled memory, capped.

Recalled memory is data (README § Design notes): every block sits inside a ``<recalled-memory>`` fence that
names its source file, under a header that says it is stored memory and not a message from the
user. Text that would close the fence early is neutralised. Sizes are in UTF-8 bytes; cuts fall on
line boundaries and say how much was left out and where to read it.
"""

from __future__ import annotations

from ..markdown import has_content  # noqa: F401 — re-exported for the hook modules
from ..paths import Frozen

FENCE_TAG = "recalled-memory"


class Block(Frozen):
    """One source of recalled text: ``source`` (path shown to Claude), ``title``, ``text``."""

    __slots__ = ("source", "title", "text")


def neutralise(text: str) -> str:
    """Turn ``<`` into ``&lt;`` where it would open or close a fence (``<recalled-memory``,
    ``</ recalled-memory``, any case) — the pattern ``<(/?\\s*recalled-memory)``, matched by hand so
    the hooks need not import ``re``."""
    if "<" not in text:
        return text
    out, i, n = [], 0, len(text)
    while True:
        j = text.find("<", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        k = j + 1
        if k < n and text[k] == "/":
            k += 1
        while k < n and text[k].isspace():
            k += 1
        out.append(text[i:j])
        out.append("&lt;" if text[k:k + len(FENCE_TAG)].lower() == FENCE_TAG else "<")
        i = j + 1


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8"))


def truncate(text: str, limit: int, where: str = "") -> str:
    """``text`` cut to at most ``limit`` bytes at a line boundary, with a note of what was cut."""
    if utf8_len(text) <= limit:
        return text
    total = utf8_len(text)
    note_for = lambda kept: (f"[… {total - kept} more bytes not shown"
                             + (f"; Read {where} for the rest" if where else "") + "]")
    budget = limit - utf8_len(note_for(0)) - 1
    if budget <= 0:
        return note_for(0)[:max(0, limit)]
    kept_lines, used = [], 0
    for line in text.split("\n"):
        size = utf8_len(line) + 1
        if used + size > budget:
            if not kept_lines:  # one long first line: cut inside it, on a character boundary
                kept_lines.append(line.encode("utf-8")[:budget].decode("utf-8", "ignore"))
                used = utf8_len(kept_lines[0]) + 1
            break
        kept_lines.append(line)
        used += size
    return "\n".join(kept_lines) + "\n" + note_for(used)


def render_block(block: Block, text: str) -> str:
    title = block.title.replace('"', "'")
    source = block.source.replace('"', "'")
    return f'<{FENCE_TAG} source="{source}" title="{title}">\n{neutralise(text).rstrip()}\n</{FENCE_TAG}>'


def _fair_shares(sizes: list, budget: int) -> list:
    """Water-filling: small blocks keep everything, large ones share what is left equally."""
    shares = [0] * len(sizes)
    pending = sorted(range(len(sizes)), key=lambda i: sizes[i])
    remaining = budget
    while pending:
        fair = remaining // len(pending)
        i = pending[0]
        if sizes[i] <= fair:
            shares[i] = sizes[i]
            remaining -= sizes[i]
            pending.pop(0)
        else:
            for j in pending:
                shares[j] = fair
            break
    return shares


def assemble(blocks: list, cap: int, header: str) -> str:
    """``header`` plus the fenced ``blocks`` in order, in at most ``cap`` bytes in total.

    Each block keeps its whole text if it fits its fair share of the room left after the header and
    the fences; larger blocks are cut to equal shares. Empty blocks are dropped."""
    blocks = [b for b in blocks if b.text.strip()]
    if not blocks:
        return ""
    overhead = utf8_len(header) + 1 + sum(utf8_len(render_block(b, "")) + 1 for b in blocks)
    room = cap - overhead
    if room <= 0:
        return ""
    texts = [neutralise(b.text).rstrip() for b in blocks]
    shares = _fair_shares([utf8_len(t) for t in texts], room)
    parts = [header]
    for block, text, share in zip(blocks, texts, shares):
        if share < 80 and utf8_len(text) > share:
            continue  # not even a useful fragment fits
        parts.append(render_block(block, truncate(text, share, block.source)))
    return "\n".join(parts) if len(parts) > 1 else ""


def record_recalled(ctx, text: str, known: dict, label: str) -> int:
    """Record a feedback reference (code_memory.evolution.feedback) for every known experience line —
    ``{line.strip(): experience_id}`` — that made it into the injected ``text`` (lines cut by the
    byte cap were not handed over and do not count). Off with ``feedback.record_refs: false``.
    Never raises: a failure is logged and the injection goes on."""
    if not known or not ctx.event.session_id or not ctx.cfg.get_path("feedback.record_refs"):
        return 0
    try:
        from ..evolution.feedback import record_refs
        from ..memory.experience import ids_in

        ids = ids_in(text, known)
        count = record_refs(ctx.paths, ctx.event.session_id, ids, context=label) if ids else 0
    except Exception as exc:  # noqa: BLE001 — feedback must never cost the session its memory
        ctx.log.error("record-refs-failed", exc)
        return 0
    if count:
        ctx.log.info("refs", count=count, context=label)
    return count
