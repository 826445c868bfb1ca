"""Experience ids: the unit the feedback loop scores (docs/evolution.md).

An experience is one piece of memory that code-memory hands to Claude:
  a rule line in a project's rules.md   ``rule:<project>:<sha1(line.strip())[:10]>``
  a pitfall line in MEMORY.md           ``pitfall:<sha1(line.strip())[:10]>``
  a fact in a facts.json                ``fact:<fact id>``

Pure functions, standard library only (hooks import this on the hot path). Which lines count:
Markdown list items (``- …``, ``* …``, ``+ …``, ``1. …``) with text after the marker; for
MEMORY.md only those under the Pitfalls heading.
"""

from __future__ import annotations

from ..markdown import is_list_item, section_range

try:  # the builtin module: hashlib would load OpenSSL (~3 ms on the hooks' hot path)
    from _sha1 import sha1 as _sha1
except ImportError:  # pragma: no cover — builds without the builtin
    from hashlib import sha1 as _sha1

KINDS = ("rule", "pitfall", "fact")

_ID_KIND_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def line_digest(line: str) -> str:
    return _sha1(line.strip().encode("utf-8")).hexdigest()[:10]


def rule_id(project: str, line: str) -> str:
    return f"rule:{project}:{line_digest(line)}"


def pitfall_id(line: str) -> str:
    return f"pitfall:{line_digest(line)}"


def fact_ref_id(fact_id: str) -> str:
    return f"fact:{fact_id}"


def is_valid_id(experience_id) -> bool:
    """``kind:key`` — kind ``[a-z][a-z0-9_-]{0,31}``, key 1–240 characters without whitespace.
    (Matched by hand: the hooks record refs and must not pay for importing ``re``.)"""
    if not isinstance(experience_id, str):
        return False
    kind, colon, key = experience_id.partition(":")
    return (bool(colon) and 1 <= len(kind) <= 32 and "a" <= kind[0] <= "z"
            and all(c in _ID_KIND_CHARS for c in kind) and 1 <= len(key) <= 240
            and not any(c.isspace() for c in key))


def parse_id(experience_id: str) -> tuple:
    """``(kind, project or None, key)``: ``rule:p:abc`` → ("rule", "p", "abc"),
    ``pitfall:abc`` → ("pitfall", None, "abc"), ``fact:fact-1`` → ("fact", None, "fact-1")."""
    kind, _, rest = experience_id.partition(":")
    if kind == "rule":
        project, _, key = rest.rpartition(":")
        return kind, project or None, key
    return kind, None, rest


def pitfall_lines(memory_md: str) -> list:
    """``[(line_index, line, experience_id)]`` of the pitfall list items in MEMORY.md's text."""
    lines = memory_md.split("\n")
    from .templates import PITFALLS_HEADING  # here: the hooks that only score rules skip it

    start, end = section_range(lines, PITFALLS_HEADING)
    return [(i, lines[i], pitfall_id(lines[i])) for i in range(start, end) if is_list_item(lines[i])]


def rule_lines(project: str, rules_md: str) -> list:
    """``[(line_index, line, experience_id)]`` of the rule list items of a project's rules.md."""
    lines = rules_md.split("\n")
    return [(i, line, rule_id(project, line)) for i, line in enumerate(lines) if is_list_item(line)]



def candidates(found: list) -> dict:
    """``{line.strip(): experience_id}`` from :func:`pitfall_lines` / :func:`rule_lines` output,
    for recognising those lines in injected or returned text (:func:`ids_in`)."""
    return {line.strip(): eid for _i, line, eid in found}


def ids_in(text: str, known: dict) -> list:
    """The experience ids of the ``known`` lines that appear (whole, as a line) in ``text``, in order."""
    out = []
    for line in text.split("\n"):
        eid = known.get(line.strip())
        if eid and eid not in out:
            out.append(eid)
    return out
