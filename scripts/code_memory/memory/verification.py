"""Verification of a rule, pitfall or fact: ``verified`` (with evidence) or ``hypothesis``.

In rules.md and MEMORY.md the state rides at the end of the list item, readable by people, by the
model (injected text carries it) and by :func:`parse`:

    - Run the migrations before the tests [unverified]
    - Run the migrations before the tests [verified: pytest passed after the change; commit 1a2b3c4]

A line without a marker predates verification (state ``None``). facts.json carries
``"verification": {"state": "verified"|"hypothesis", "evidence": [...]}`` on each fact.
"""

from __future__ import annotations

HYPOTHESIS_MARK = "[unverified]"
VERIFIED_OPEN = "[verified:"
STATES = ("verified", "hypothesis")
MAX_EVIDENCE_CHARS = 200


def parse(line: str) -> tuple:
    """``(text, state, evidence list)`` of one rule/pitfall line (bullet kept off the text)."""
    body = (line or "").strip()
    bullet = ""
    if body[:2] in ("- ", "* "):
        bullet, body = body[:2], body[2:]
    del bullet
    if body.endswith(HYPOTHESIS_MARK):
        return body[:-len(HYPOTHESIS_MARK)].rstrip(), "hypothesis", []
    if body.endswith("]"):
        start = body.rfind(VERIFIED_OPEN)
        if start >= 0 and "]" not in body[start:-1]:
            evidence = [e.strip() for e in body[start + len(VERIFIED_OPEN):-1].split(";") if e.strip()]
            return body[:start].rstrip(), "verified", evidence
    return body, None, []


def _clean(text: str) -> str:
    return " ".join(str(text).replace("[", "(").replace("]", ")").replace(";", ",").split())


def mark(text: str, state: str | None, evidence=()) -> str:
    """``text`` with its verification marker (any old marker replaced)."""
    base = parse(text)[0]
    if state == "hypothesis":
        return f"{base} {HYPOTHESIS_MARK}"
    if state == "verified":
        items = [_clean(e)[:MAX_EVIDENCE_CHARS] for e in evidence if str(e).strip()] or ["approved"]
        return f"{base} {VERIFIED_OPEN} {'; '.join(items)}]"
    return base


def of_fact(fact: dict) -> tuple:
    """``(state, evidence)`` of a facts.json entry (``(None, [])`` when it predates verification)."""
    value = fact.get("verification") if isinstance(fact, dict) else None
    if isinstance(value, dict) and value.get("state") in STATES:
        return value["state"], [str(e) for e in value.get("evidence") or []]
    return None, []


def label(state: str | None) -> str:
    """The word injected text shows for a state ('' when there is nothing to warn about)."""
    return "unverified" if state == "hypothesis" else ""
