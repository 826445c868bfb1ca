"""Turning memory files into injected context: fenced, labelled as recalled memory, capped.

Recalled memory is data (docs/design.md § Design notes): every block sits inside a ``<recalled-memory>`` fence that
names its source file, under a header that says it is stored memory and not a message from the
user. Text that would close the fence early is neutralised. Sizes are in UTF-8 bytes; cuts fall on
line boundaries and say how much was left out and where to read it.
"""

from __future__ import annotations

import os

from ..markdown import has_content  # noqa: F401 — re-exported for the hook modules
from ..paths import Frozen

FENCE_TAG = "recalled-memory"
PARTIAL_LINE_MIN = 80          # characters of a long line worth showing when the rest is cut


def unverified_note(blocks) -> str:
    """A sentence for the header when any block holds a hypothesis (docs/browser.md § Verified vs hypothesis)."""
    from ..memory.verification import HYPOTHESIS_MARK
    if any(HYPOTHESIS_MARK in b.text for b in blocks):
        return (f" Lines marked {HYPOTHESIS_MARK} are hypotheses nobody has proven yet: check them before "
                "relying on them.")
    return ""


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


def _cut_bytes(line: str, budget: int) -> str:
    return line.encode("utf-8")[:budget].decode("utf-8", "ignore")


def _cut_chars(line: str, budget: int) -> str:
    return line[:budget]


def truncate(text: str, limit: int, where: str = "", unit: str = "bytes") -> str:
    """``text`` cut to at most ``limit`` bytes (``unit="chars"``: characters) at a line boundary,
    with a note of what was cut."""
    measure, cut = (utf8_len, _cut_bytes) if unit == "bytes" else (len, _cut_chars)
    total = measure(text)
    if total <= limit:
        return text
    note_for = lambda kept: (f"[… {total - kept} more {unit} not shown"
                             + (f"; Read {where} for the rest" if where else "") + "]")
    budget = limit - measure(note_for(0)) - 1
    if budget <= 0:
        return note_for(0)[:max(0, limit)]
    kept_lines, used = [], 0
    for line in text.split("\n"):
        size = measure(line) + 1
        if used + size > budget:
            room = budget - used - 1
            # one long first line, or (counting characters) a long line with room left for a
            # useful part of it: cut inside it, on a character boundary
            if not kept_lines or (unit == "chars" and room >= PARTIAL_LINE_MIN):
                kept_lines.append(cut(line, room if kept_lines else budget))
                used += measure(kept_lines[-1]) + 1
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


def on_path(command: str, env) -> bool:
    """Is ``command`` (a program name) an executable in one of the directories of ``$PATH`` — so
    recalled text may name it and Claude's Bash tool runs it as written? (What ``shutil.which``
    answers, without importing shutil on the hook's path.)"""
    if "/" in command:
        return os.access(command, os.X_OK) and os.path.isfile(command)
    for folder in str(env.get("PATH") or os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or ".", command)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return True
    return False


def strip_boilerplate(text: str, boilerplate: str) -> str:
    """``text`` without the prose lines of the template it was made from and without headings
    whose section holds nothing (what an untouched template shows is never injected)."""
    from ..markdown import heading_level

    skip = {line.strip() for line in boilerplate.split("\n") if line.strip() and not heading_level(line)}
    lines = [line for line in text.split("\n") if line.strip() not in skip]
    keep = [True] * len(lines)
    for i, line in enumerate(lines):
        level = heading_level(line)
        if not level:
            continue
        j = i + 1
        while j < len(lines) and not (0 < heading_level(lines[j]) <= level) and not lines[j].strip():
            j += 1
        if j >= len(lines) or 0 < heading_level(lines[j]) <= level:
            keep[i] = False                       # nothing but blank lines before the next section
    out, blank = [], False
    for line, kept in zip(lines, keep):
        if not kept:
            continue
        if not line.strip():
            if blank or not out:
                continue
            blank = True
        else:
            blank = False
        out.append(line)
    return "\n".join(out).strip("\n")


def assemble_by_priority(blocks: list, limit: int, header: str, shares: dict, names: list,
                         min_chars: int = 120) -> tuple:
    """``header`` plus the fenced ``blocks`` (highest priority first) in at most ``limit``
    characters: each block first gets up to its share (``shares[name]``); what the total leaves
    over goes to the cut blocks in priority order; when even the shares do not fit, the
    lowest-priority blocks shrink first, and a block left with under ``min_chars`` is dropped.
    Returns ``(text, names of the blocks shown)``."""
    items = [(b, n, neutralise(b.text).rstrip()) for b, n in zip(blocks, names) if b.text.strip()]
    while items:
        overhead = len(header) + 1 + sum(len(render_block(b, "")) + 1 for b, _n, _t in items)
        room = limit - overhead
        sizes = [len(t) for _b, _n, t in items]
        alloc = [min(size, max(0, int(shares.get(n, 0) or 0))) for size, (_b, n, _t) in zip(sizes, items)]
        over = sum(alloc) - room
        for i in range(len(items) - 1, -1, -1):        # shrink the lowest priority first
            if over <= 0:
                break
            take = min(over, alloc[i])
            alloc[i] -= take
            over -= take
        left = room - sum(alloc)
        for i, size in enumerate(sizes):               # what is left: to the cut blocks, in order
            if left <= 0:
                break
            extra = min(left, size - alloc[i])
            alloc[i] += extra
            left -= extra
        starved = [i for i, (size, got) in enumerate(zip(sizes, alloc)) if got < min(size, min_chars)]
        if room > 0 and not starved:
            parts = [header] + [render_block(b, truncate(t, a, b.source, unit="chars"))
                                for (b, _n, t), a in zip(items, alloc)]
            return "\n".join(parts), [n for _b, n, _t in items]
        drop = starved[-1] if starved else len(items) - 1
        del items[drop]
    return "", []


def recall_settings(ctx) -> dict:
    """The ``recall`` config section of prompt- and file-time recall (defaults: the schema)."""
    from ..config import DEFAULTS, section_values

    return section_values("recall", ctx.cfg.get("recall"), DEFAULTS["recall"])


def record_recalled(ctx, text: str, known: dict, label: str) -> int:
    """Record a feedback reference (code_memory.evolution.feedback) for every known experience line —
    ``{line.strip(): experience_id}`` — that made it into the injected ``text`` (lines cut by the
    byte cap were not handed over and do not count). Off with ``feedback.record_refs: false``.
    Never raises: a failure is logged and the injection goes on."""
    if not known:
        return 0
    from ..memory.experience import ids_in

    return record_ids(ctx, ids_in(text, known), label)


def record_ids(ctx, ids: list, label: str) -> int:
    """Record feedback references of ``ids`` (experiences, or recalled items such as
    ``session:<id>``) for the session, labelled ``label``; never raises."""
    if not ids or not ctx.event.session_id or not ctx.cfg.get_path("feedback.record_refs"):
        return 0
    try:
        from ..evolution.feedback import record_refs

        count = record_refs(ctx.paths, ctx.event.session_id, ids, context=label)
    except Exception as exc:  # noqa: BLE001 — feedback must never cost the session its memory
        ctx.log.error("record-refs-failed", exc)
        return 0
    if count:
        ctx.log.info("refs", count=count, context=label)
    return count
