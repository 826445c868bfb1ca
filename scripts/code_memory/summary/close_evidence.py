"""Why the summarizer closed an earlier to-do — one line of the finishing session to show with the
close, so a wrong close costs the reader one glance (docs/summaries.md § To-dos).

Output only: it runs AFTER the verdict (summary/todos.py ``finished``, or the LLM's ``done_todos``)
and never changes which to-dos close. For each closed to-do it picks:

* the statement of the finishing session that shares most of the to-do's words — a sentence of
  what it reports done first, then of its final message, then of the person's requests — each
  read in the to-do's own words where the lexicon says they are the same word in the other
  language or a synonym (summary/synonyms.py ``in_words``), so "the login page is done" backs
  "登录页还没做" — when it holds :data:`STATEMENT_SHARE` of them, or any of them and the close
  was no evidence close (a to-do naming a file the session changed and checked);
* else, when the session changed files (those the to-do names, or all) and a command passed after
  that: ``edited a.py, b.py; `pytest -q` passed``;
* else the first statement of its report.

At most :data:`MAX_CHARS` characters, one line, no typographic quotes (the brief wraps it in
“…”) and never ``[ ]`` (a brief line holding it would read as an open to-do).
"""

from __future__ import annotations

import os

from ..text import soft
from ..text.fetch_run import fetches_and_runs
from ..text.keywords import expand, names, weights
from . import progress as pg
from . import synonyms
from .todos import content, done_statements, work

MAX_CHARS = 120
MAX_COMMAND = 48
STATEMENT_SHARE = 0.5      # a statement holding this share of the to-do's words backs it whatever else


def clean(text: str, limit: int = MAX_CHARS) -> str:
    """``text`` as one line fit for “…”: no line breaks, no “ ” quotes, no ``[ ]``; cut to ``limit``."""
    text = " ".join(str(text or "").replace("“", '"').replace("”", '"').replace("[ ]", "[]").split())
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def _window(sentence: str, words: dict) -> str:
    """``sentence`` cut to :data:`MAX_CHARS` where it holds most of ``words`` (distinct)."""
    sentence = " ".join(sentence.split())
    if len(sentence) <= MAX_CHARS:
        return sentence
    low, width = sentence.lower(), MAX_CHARS - 2
    hits = []                                  # (position, word) of every occurrence
    for word in words:
        at = low.find(word.lower())
        while at >= 0:
            hits.append((at, word))
            at = low.find(word.lower(), at + 1)
    starts = [max(0, at - 20) for at, _w in hits] or [0]
    start = max(starts, key=lambda s: (len({w for at, w in hits if s <= at < s + width - len(w)}), -s))
    start = min(start, len(sentence) - width)
    cut = ("…" if start else "") + sentence[start:start + width].strip()
    return cut + ("…" if start + width < len(sentence) else "")


def _candidates(digest) -> list:
    """The session's statements, best witnesses first: work it reports done, its final message,
    the person's requests (each once)."""
    found = list(done_statements(digest))
    found += pg.statements(digest.final_message or "")
    for request in digest.user_requests or ():
        found += pg.statements(request)
    return [s for s in dict.fromkeys(" ".join(s.split()) for s in found) if s]


def _score(todo_words: dict, sentence: str) -> float:
    unit = content(sentence)
    if not unit:
        return 0.0
    own = set(todo_words)
    said = synonyms.in_words(unit, own, (), own)
    return soft.coverage(todo_words, expand(said))


def _files_and_command(todo: str, digest) -> str:
    """``edited …; `cmd` passed`` when the session changed files and a command passed after them."""
    checked = list(getattr(digest, "checked_files", None) or [])
    if not checked:
        return ""
    named = {n.lower() for n in names(weights(todo))}
    mine = [f for f in checked if f.lower() in named or os.path.basename(f).lower() in named] or checked
    passed = [c["command"] for c in digest.commands or [] if not c.get("failed") and c.get("command")]
    shown = ", ".join(os.path.basename(f) for f in mine[:3]) + (f" (+{len(mine) - 3})" if len(mine) > 3 else "")
    command = f"; `{clean(passed[-1], MAX_COMMAND)}` passed" if passed else "; a command passed"
    return clean(f"edited {shown}{command}")


def explain(todo: str, digest) -> str:
    """The evidence for closing ``todo`` that the session behind ``digest`` gives (≤ 120 chars)."""
    words = work(todo) or content(todo)
    candidates = _candidates(digest)
    best, best_score = "", 0.0
    for sentence in candidates:
        score = _score(words, sentence)
        if score > best_score:
            best, best_score = sentence, score
    by_files = _files_and_command(todo, digest) if best_score < STATEMENT_SHARE or not best else ""
    if best and (best_score >= STATEMENT_SHARE or not (by_files and _names_a_checked_file(todo, digest))):
        return clean(_window(best, words))
    if by_files:
        return by_files
    return clean(candidates[0]) if candidates else ""


def _names_a_checked_file(todo: str, digest) -> bool:
    """Does the to-do name a file the session changed and checked (an evidence close)?"""
    checked = {f.lower() for f in getattr(digest, "checked_files", None) or []}
    checked |= {os.path.basename(f) for f in checked}
    return any(n.lower() in checked or os.path.basename(n.lower()) in checked for n in names(weights(todo)))


def explain_all(done: list, digest) -> dict:
    """``{to-do text: evidence}`` of the summary's closes (``done``: ``[(earlier session id, text)]``)."""
    out = {}
    for _ref, text in done or ():
        if text not in out:
            try:
                why = explain(text, digest)
            except Exception:            # evidence is output only: never fail a summary over it
                why = ""
            # never a line that fetches code and runs it into the brief (text/fetch_run.py)
            out[text] = "" if fetches_and_runs(why) else why
    return out
