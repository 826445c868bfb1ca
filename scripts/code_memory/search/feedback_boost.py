"""Feedback in search: which experiences a hit hands to Claude, the ranking boost they earn, and the
references a search records.

Experiences in a hit are recognised in what Claude is shown (the snippet, or the lines of a ``get``):
  MEMORY.md                          list items of the Pitfalls section   → ``pitfall:<hash>``
  areas/projects/<name>/rules.md     list items                           → ``rule:<name>:<hash>``
  areas/*/<name>/facts.json          facts whose text appears             → ``fact:<id>``

Boost (``feedback.search_boost``, 0.2): among the first candidates, a hit holding a high-value
experience (score > ``feedback.high_value_threshold``) ranks as if its retrieval score were 20 %
higher; a hit whose scored experiences are all archive candidates as if it were 10 % lower. Hits
without scored experiences keep their score. Nothing changes while no experience has a score.
"""

from __future__ import annotations

import os
import re

from ..config import setting
from ..evolution.feedback import cached_score
from ..fsutil import read_text
from ..memory.experience import candidates, fact_ref_id, ids_in, pitfall_lines, rule_lines

_RULES = re.compile(r"^areas/projects/([^/]+)/rules\.md$")
_FACTS = re.compile(r"^areas/(?:projects|patterns|tools)/[^/]+/facts\.json$")


class ExperienceFinder:
    """Maps (memory file, shown text) → experience ids; each file is read once per search."""

    def __init__(self, root: str):
        self.root = root
        self._known: dict = {}

    def _rel(self, path: str) -> str:
        try:
            rel = os.path.relpath(os.path.realpath(path), os.path.realpath(self.root))
        except ValueError:
            return ""
        return "" if rel.startswith("..") else rel.replace(os.sep, "/")

    def _lines_known(self, rel: str) -> dict:
        if rel not in self._known:
            path = os.path.join(self.root, rel)
            if rel == "MEMORY.md":
                self._known[rel] = candidates(pitfall_lines(read_text(path, "")))
            else:
                match = _RULES.match(rel)
                self._known[rel] = candidates(rule_lines(match.group(1), read_text(path, ""))) if match else {}
        return self._known[rel]

    def _facts(self, rel: str) -> list:
        if rel not in self._known:
            from ..errors import CodeMemoryError
            from ..memory.facts import load_facts
            try:
                facts = load_facts(os.path.join(self.root, rel))
            except CodeMemoryError:
                facts = []
            self._known[rel] = [(fact_ref_id(f["id"]), f["fact"].strip()) for f in facts
                                if f.get("id") and f.get("status", "active") == "active" and f.get("fact", "").strip()]
        return self._known[rel]

    def ids(self, path: str, shown: str) -> list:
        rel = self._rel(path)
        if not rel or not shown:
            return []
        if _FACTS.match(rel):
            return [eid for eid, text in self._facts(rel) if text in shown]
        return ids_in(shown, self._lines_known(rel))


def _multiplier(ids: list, cache: dict, boost: float, now: float | None) -> float:
    scores = [s for s in (cached_score(cache, eid, now) for eid in ids) if s is not None]
    if not scores:
        return 1.0
    if max(scores) > setting(cache, "feedback.high_value_threshold"):
        return 1.0 + boost
    if max(scores) < setting(cache, "feedback.archive_threshold"):
        return 1.0 - boost / 2
    return 1.0


def annotate_and_rerank(hits: list, root: str, cache: dict, boost: float, now: float | None = None) -> list:
    """Add ``experiences`` (ids shown in each hit's snippet) and, when a cached score moves a hit,
    ``feedback_boost``; return the hits ordered by the boosted score (stable for ties)."""
    finder = ExperienceFinder(root)
    ranked = []
    for position, hit in enumerate(hits):
        ids = finder.ids(hit.get("path", ""), hit.get("snippet", ""))
        if ids:
            hit["experiences"] = ids
        factor = _multiplier(ids, cache, boost, now) if ids and boost and cache.get("experiences") else 1.0
        if factor != 1.0:
            hit["feedback_boost"] = round(factor, 3)
        score = float(hit.get("score") or 0.0)
        ranked.append((-(score + abs(score) * (factor - 1.0)), position, hit))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [hit for _s, _p, hit in ranked]


def result_ids(results: list) -> list:
    out = []
    for hit in results:
        for eid in hit.get("experiences", []):
            if eid not in out:
                out.append(eid)
    return out


def record_shown(cfg, session_id: str | None, experience_ids: list, context: str) -> int:
    """Record refs for the experiences a search (or get) showed in ``session_id`` — the CLI takes
    it from ``CLAUDE_CODE_SESSION_ID`` (set in Claude's Bash tool), an MCP server from its own
    environment. Honours ``feedback.record_refs``; never raises (feedback never fails a search)."""
    if not session_id or not session_id.strip() or not experience_ids or not cfg.get_path("feedback.record_refs"):
        return 0
    from ..errors import CodeMemoryError
    from ..evolution.feedback import record_refs

    try:
        return record_refs(cfg.paths, session_id.strip(), experience_ids, context=context)
    except (CodeMemoryError, OSError):         # a full disk, a FIFO in the log's place: the read goes on
        return 0
