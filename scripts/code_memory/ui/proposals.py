"""A review proposal as the memory browser shows it (docs/browser.md § Memory browser, Review):
where it came from (:func:`provenance`; :func:`origin` in one line for the list) and what approving
it would change (:func:`change`: the writers' dry-run before/after from
``summary/review.py`` :func:`~code_memory.summary.review.preview`, as a unified diff). Reads only.
"""

from __future__ import annotations

import difflib
import json
import os

from ..errors import CodeMemoryError
from ..paths import safe_name


def _session_link(paths, sid) -> dict | None:
    """A proposal's session, and whether the browser has its note (then /session/<id> opens it)."""
    if not isinstance(sid, str) or not sid:
        return None
    return {"id": sid, "note": sid == safe_name(sid) and os.path.isfile(paths.session_note(sid))}


def _quarantined_source(paths, prop: dict):
    """The source of a kv proposal written before proposals carried it: the quarantined copy's,
    while that copy still holds the proposed value."""
    from ..kv.view import get

    key = (prop.get("payload") or {}).get("quarantined_as")
    if not key:
        return None
    try:
        entry = get(paths.root, key)
        same_value = entry.get("content") == json.loads(prop["text"])
    except (CodeMemoryError, ValueError):
        return None
    return entry.get("source") if same_value else None


def provenance(paths, prop: dict) -> dict:
    """Where a proposal came from — whatever it carries: the extractor that proposed it, the
    session, and per kind the kv write's source (URL, tool, …), a fact's evidence, a Skill's pattern."""
    payload = prop.get("payload") or {}
    history = prop.get("history") or [{}]
    out = {"proposed_by": prop.get("source") or history[0].get("by"), "created": prop.get("created"),
           "session": _session_link(paths, prop.get("session"))}
    kind = prop["kind"]
    if kind == "kv":
        out.update(source=payload.get("source") or _quarantined_source(paths, prop),
                   quarantined_as=payload.get("quarantined_as"), reason=payload.get("reason"))
    elif kind == "fact":
        out.update(evidence=payload.get("evidence"), category=payload.get("category"))
    elif kind == "rule":
        out.update(category=payload.get("category"))
    elif kind == "skill":
        out.update({k: payload.get(k) for k in ("trigger", "pattern", "pattern_count", "backend")})
    return {k: v for k, v in out.items() if v not in (None, "", [], {})}


def origin(paths, prop: dict, source) -> dict:
    """One line for the list: the session (linked when its note exists) or the kv write's source."""
    if isinstance(source, dict):
        where = source.get("locator") or source.get("name") or ""
        where = where if isinstance(where, str) else json.dumps(where, ensure_ascii=False, sort_keys=True)
        label = f"{source.get('kind') or 'source'}: {where}"
    elif isinstance(source, str):
        label = source
    else:
        label = prop.get("source") or ""
    return {"label": label[:200], "session": _session_link(paths, prop.get("session"))}


def change(kind: str, found: dict) -> dict:
    """The preview with its unified diff (``[{op: "+"|"-"|" "|"@", text}]``): three lines of context
    in a file (rules.md, MEMORY.md), the whole value for a kv key or a fact. ``unchanged``: approving
    would write nothing new (the line, or a near-duplicate, is there already)."""
    if "error" in found or found.get("before") is None:
        return {**found, "diff": None, "unchanged": False}
    context = 3 if kind in ("rule", "pitfall") else 10 ** 6
    lines = list(difflib.unified_diff(found["before"].splitlines(), found["after"].splitlines(), lineterm="",
                                      n=context))[2:]
    diff = [{"op": "@", "text": line} if line.startswith("@@") else {"op": line[:1], "text": line[1:]}
            for line in lines]
    return {**found, "diff": diff, "unchanged": not diff}
