"""Prompt-time recall: what memory holds that is relevant to a prompt, behind a calibrated
relevance gate (docs/hooks.md § Recall).

:func:`measure` asks the one search over every store (:func:`code_memory.search.unified.search_all`:
session notes, MEMORY.md, areas, daily notes, facts, kv keys, the workspace, memtool) for the
prompt and measures each candidate against it (:func:`signals`); :func:`build` applies the gate
and chooses the lines to show; :func:`prompt_recall` is both, the op ``recall`` of the search side.
Requests and answers are JSON-able dicts, so the same function serves in-process or from a warm
query process; the hook fences the answer (hooks/recall.py conventions).

The relevance of a candidate is computed from the prompt's own words (a Chinese prompt's words,
not the bigrams spanning two of them), each weighted by how rare it is in this memory (BM25's IDF
over the index's chunks):

* ``coverage`` — the share of the prompt's weight the candidate holds: a CSS note shares no rare
  word with an authentication prompt, so its coverage is near zero whatever its rank;
* ``specific`` — the weight it holds relative to two words that one chunk each holds, capped at
  1: a routine prompt ("fix the failing test") matches only words every coding note uses;
* ``named`` — whether it holds anything the prompt names (text/prompt_kind.py): a candidate that
  holds none of it counts :data:`NAMED_MISS`.

``relevance = coverage × specific (× NAMED_MISS)``. Nothing is injected unless the best candidate
reaches the threshold of the prompt's kind — ``threshold`` for a question that points at nothing in
front of the model, ``threshold_work`` for work at hand (text/prompt_kind.py); the candidates
within :data:`ITEM_FLOOR` of the threshold join it. The defaults come from the measured curves
(BENCHMARKS.md § Recall, bench/bench_recall.py), not from a guess; the other signals measured there
(coverage or specificity alone, the best line, vector similarity) did no better at the same
false-injection rates.

What is already in the session's context is never returned again: the request names it by item
key (``exclude_keys``) and by the digests of its lines (``exclude_lines``, text/lines.py — the
SessionStart brief's included); such lines are skipped, and an item left with nothing new is
dropped.
"""

from __future__ import annotations

import math
import os
import sqlite3

from ..config import DEFAULTS
from ..text.lines import line_digest, line_digests, norm_line, text_digests, unseen_part
from ..text.prompt_kind import ASK, WORK, named_words, prompt_kind

_R = DEFAULTS["recall"]
FENCE_OVERHEAD = 57           # '<recalled-memory source="" title="">' + '</recalled-memory>' + newlines
LINE_MAX = 240                # a longer line is cut around the prompt's words …
LINE_SHORT = 120              # … first to this, so more lines fit; then lengthened while room is left
NEXT_LINES = True             # last pass: the line after a chosen one (a reply in a conversation)
PARENT_MAX = 90               # the label line a bullet sits under, as context
SPECIFIC_UNITS = 2.0          # "specific" is full with the weight of two words that one chunk each holds
WORDS_ONLY = True
NAMED_MISS = 0.7              # a candidate that holds none of what the prompt names counts this much
ITEM_FLOOR = 0.5              # once the best candidate passes, others within this share of the threshold join it


# ---------------------------------------------------------------------------------------------
# words and weights

_SUFFIXES = ("ingly", "edly", "ing", "ies", "ied", "ed", "es", "ly", "s")


def stem(word: str) -> str:
    """A light English stem (the index uses Porter; this only has to agree on plurals and
    -ed/-ing forms, so "failing" meets "failed")."""
    w = word.lower()
    for suffix in _SUFFIXES:
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def _has_han(term: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in term)


class Matcher:
    """Which of the prompt's terms a text contains: Han terms as substrings, other terms by their
    stem among the text's word stems."""

    def __init__(self, terms: list):
        self.terms = terms
        self.stems = {t: stem(t) for t in terms if not _has_han(t)}

    def matched(self, text: str) -> list:
        from ..text.query import WORD

        low = text.lower()
        words = {stem(w) for w in WORD.findall(low)} if self.stems else set()
        return [t for t in self.terms if (t in low if _has_han(t) else self.stems[t] in words)]


def term_weights(conn: sqlite3.Connection, terms: list) -> tuple:
    """``(chunk count, {term: idf})`` over the whole index (BM25's IDF,
    ``ln(1 + (N - df + 0.5) / (df + 0.5))``); a term no chunk holds gets the weight of df = 1."""
    from ..text.query import quote

    total = conn.execute("SELECT count(*) FROM chunks").fetchone()[0] or 1
    weights = {}
    for term in terms:
        try:
            df = conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (quote(term),)).fetchone()[0]
        except sqlite3.DatabaseError:          # no FTS5: every term counts alike
            df = 1
        df = max(1, min(df, total))
        weights[term] = math.log(1.0 + (total - df + 0.5) / (df + 0.5))
    return total, weights


def _kept(terms: list) -> list:
    """``terms`` without the ones inside another of them (a Han query yields 单元测试 and also
    单元, 测试: the weight is counted once)."""
    return [t for t in terms if not any(t != o and t in o for o in terms)]


def _mass(terms: list, weights: dict) -> float:
    return sum(weights[t] for t in _kept(terms))


def signals(text: str, matcher: Matcher, weights: dict, total: int, named=frozenset()) -> dict:
    """The raw relevance signals of one candidate text against the prompt: for the whole text
    and for its best line (where the evidence is concentrated); ``named``: whether it holds any of
    the prompt's ``named`` words (text/prompt_kind.py; true when the prompt names nothing)."""
    hit = matcher.matched(text)
    whole = _mass(list(weights), weights) or 1.0
    mass = _mass(hit, weights)
    unit = math.log(1.0 + (total - 0.5) / 1.5)          # the weight of a word only one chunk holds
    line_mass, line_hits = 0.0, 0
    if hit:
        sub = Matcher(hit)
        for line in text.split("\n"):
            found = sub.matched(line) if line.strip() else []
            m = _mass(found, weights) if found else 0.0
            if m > line_mass:
                line_mass, line_hits = m, len(_kept(found))
    return {"matched": len(_kept(hit)), "terms": len(_kept(list(weights))), "coverage": round(min(1.0, mass / whole), 4),
            "specific": round(min(1.0, mass / (SPECIFIC_UNITS * unit)), 4) if unit > 0 else 0.0, "mass": round(mass, 4),
            "unit": round(unit, 4), "line_mass": round(line_mass, 4), "line_matched": line_hits,
            "line_coverage": round(min(1.0, line_mass / whole), 4), "named": not named or bool(named & set(hit))}


def relevance(sig: dict) -> float:
    """``coverage × specific``, times :data:`NAMED_MISS` when the candidate holds none of what the
    prompt names."""
    return round(sig["coverage"] * sig["specific"] * (1.0 if sig.get("named", True) else NAMED_MISS), 4)


# ---------------------------------------------------------------------------------------------
# candidates → items

def _rel(root: str, path: str) -> str:
    try:
        rel = os.path.relpath(path, root)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _chunk_text(conn, hit: dict) -> str:
    if hit.get("source") in ("memory", "workspace") and hit.get("path"):
        row = conn.execute("SELECT c.text FROM chunks c JOIN documents d ON d.doc_id = c.doc_id WHERE d.path = ?"
                           " AND c.start_line = ? AND c.end_line = ?",
                           (hit["path"], hit.get("start_line"), hit.get("end_line"))).fetchone()
        if row:
            return row[0]
    return hit.get("snippet") or ""


def _session_fields(path: str) -> dict:
    from ..fsutil import read_text
    from ..memory.sessions import parse_note

    return parse_note(read_text(path, "") or "", path)


def describe(root: str, hit: dict) -> tuple:
    """``(key, id for get, title)`` of a search hit."""
    source = hit.get("source")
    if source in ("kv", "memtool"):
        return hit["id"], hit["id"], f"{source} {hit.get('heading') or ''}".strip()
    rel = _rel(root, hit.get("path") or hit.get("id") or "")
    key = f"{rel}#{hit.get('start_line')}"
    heading = (hit.get("heading") or "").strip()
    parts = rel.split(os.sep)
    if parts[0] == "sessions" and len(parts) == 2:
        fields = _session_fields(hit["path"])
        when = (fields.get("ended") or fields.get("time") or "")[:16].replace("T", " ")
        topic = fields.get("topic") or heading
        return key, rel, f"session {when[:10]} · {topic[:40]}".strip()
    return key, rel, f"{rel} — {heading[:80]}" if heading and heading != rel else rel


def _cut_line(line: str, matcher: Matcher, limit: int) -> str:
    if len(line) <= limit:
        return line
    from .engine import snippet_for

    return snippet_for(line, matcher.matched(line), limit)


def _parent(lines: list, i: int) -> int | None:
    """The label line a bullet belongs to (``4. **决策记录**:``, a heading), or None."""
    if not lines[i].startswith((" ", "\t")):
        return None
    for j in range(i - 1, max(-1, i - 30), -1):
        s = lines[j]
        if s.strip() and not s.startswith((" ", "\t")):
            return j
    return None


def _bare_label(line: str) -> bool:
    """A label that only introduces what follows (``2. **关键知识点**:``, ``Decisions:``)."""
    s = line.strip().replace("**", "")
    return s.endswith((":", "：")) and len(s) <= 40


EMPTY_VALUES = ("none", "n/a", "无", "暂无", "没有")


def _empty_value(line: str) -> bool:
    """A line that holds no words (``- —``, ``3. **决策记录**: 无``): a template's empty field."""
    content = norm_line(line).strip(" —–-()（）.。")
    return not any(ch.isalnum() for ch in content) or content in EMPTY_VALUES


def _next_line(lines: list, i: int) -> int | None:
    """The line that follows line ``i`` in the text (a reply in a conversation, the first point under
    a matched topic), past blank lines, fences, bare labels and empty fields; None at the end."""
    for j in range(i + 1, min(len(lines), i + 4)):
        s = lines[j].strip()
        if s and not s.startswith("```") and not _bare_label(s) and not _empty_value(s):
            return j
    return None


def candidate_lines(text: str, matcher: Matcher) -> list:
    """``[(terms found, index, line shown short, line shown long, parent index or None)]`` for the
    lines of ``text`` that hold the prompt's words (cut around them: :data:`LINE_SHORT`,
    :data:`LINE_MAX`)."""
    lines = [ln.rstrip() for ln in text.split("\n")]
    out = []
    for i, line in enumerate(lines):
        if not line.strip() or line.strip().startswith("```"):
            continue
        found = matcher.matched(line)
        if found:
            out.append((found, i, _cut_line(line.strip(), matcher, LINE_SHORT),
                        _cut_line(line.strip(), matcher, LINE_MAX), _parent(lines, i)))
    return out


def rank_lines(pool: list, weights: dict) -> list:
    """The candidate lines ``[(terms found, item weight, item, index, shown, parent)]`` best first:
    each word counts its weight in the memory times how rare it is among these lines (a name on
    every line of a conversation says little about which line answers), times the item's relevance
    relative to the best item's."""
    count: dict = {}
    for found, *_rest in pool:
        for t in found:
            count[t] = count.get(t, 0) + 1
    size = len(pool) or 1
    scored = []
    for found, item_weight, n, i, *rest in pool:
        score = sum(weights[t] * math.log(1.0 + size / count[t]) for t in _kept(found))
        scored.append((-score * item_weight, n, i, *rest))
    scored.sort(key=lambda row: row[:3])
    return [row[1:] for row in scored]


def candidates(cfg, request: dict, warm=None) -> list:
    """The search hits for the prompt, from the one search over every store: the index's (notes,
    MEMORY.md, areas, daily notes, facts, kv, the workspace) and memtool's, asked separately —
    the merged ranking puts a memtool item that matches only some of the words below every index
    hit, and a prompt seldom matches all of them; the gate measures every candidate alike.
    ``warm``: the warm server's open, caught-up index (see :func:`.engine.search_memory`)."""
    from ..errors import CodeMemoryError
    from .index import INDEX_SOURCES
    from .unified import project_memtool, search_all

    wanted = int(request.get("candidates") or _R["candidates"])
    common = {"mode": request.get("mode") or "bm25", "scope": "project", "project": request.get("project"),
              "workspace": request.get("workspace"), "refresh_index": bool(request.get("refresh", True)), "warm": warm}
    hits = search_all(cfg, request["prompt"], memtool=None, sources=INDEX_SOURCES, top_k=wanted, **common)["results"]
    memtool = project_memtool(cfg, request.get("project"))     # another project's items stay out
    if memtool.exists():
        try:
            hits += search_all(cfg, request["prompt"], memtool=memtool, sources=["memtool"],
                               top_k=max(2, wanted // 3), **common)["results"]
        except CodeMemoryError:
            pass                        # memtool unreadable: the other stores still answer
    return hits


MACHINE_PROMPTS = ("<task-notification>", "<command-name>", "<command-message>", "<local-command-stdout>",
                   "<bash-input>", "<bash-stdout>", "<system-reminder>")


def trivial(prompt: str, terms: list | None = None) -> bool:
    """Nothing to recall for: a slash command, what Claude Code itself sends as a prompt (a
    background task's ``<task-notification>``), or a short prompt of at most one word ("ok",
    "继续", "yes, go on")."""
    s = (prompt or "").strip()
    if not s or s.startswith("/") or s.startswith(MACHINE_PROMPTS):
        return True
    return terms is not None and len(terms) < 2 and len(s) < 16


class Measured:
    """A prompt's candidates with their signals: ``rows`` = [(relevance, rank, hit, text, signals)];
    ``kind``: the prompt's (text/prompt_kind.py — ``ask`` or ``work``)."""

    __slots__ = ("rows", "matcher", "weights", "terms", "skipped", "kind")

    def __init__(self, rows=(), matcher=None, weights=None, terms=(), skipped=None, kind=WORK):
        self.rows, self.matcher, self.weights, self.terms, self.skipped = list(rows), matcher, weights or {}, list(terms), skipped
        self.kind = kind


def measure(cfg, request: dict, warm=None) -> Measured:
    """Search every store for ``request["prompt"]`` and measure each candidate (no gate yet);
    ``warm`` as for :func:`candidates`."""
    prompt = str(request.get("prompt") or "")[:4000]
    if trivial(prompt):
        return Measured(skipped="trivial")
    hits = candidates(cfg, {**request, "prompt": prompt}, warm)
    if not hits:
        return Measured(skipped="no candidates")
    return measure_hits(cfg, prompt, hits)


def measure_hits(cfg, prompt: str, hits: list) -> Measured:
    """The signals of each search hit for ``prompt`` (the words and weights from the index)."""
    from ..text.query import query_terms
    from ..text.segment import get_segmenter

    conn = sqlite3.connect(f"file:{cfg.paths.index_db}?mode=ro", uri=True, timeout=0.5)
    try:
        segmenter_name = (conn.execute("SELECT value FROM meta WHERE key='segmenter'").fetchone() or ["bigram"])[0]
        terms = query_terms(prompt, get_segmenter(segmenter_name), words=WORDS_ONLY)["terms"]
        if trivial(prompt, terms):
            return Measured(terms=terms, skipped="trivial")
        total, weights = term_weights(conn, terms)
        matcher = Matcher(terms)
        named = named_words(prompt) & set(terms)
        rows = []
        for rank, hit in enumerate(hits, 1):
            text = _chunk_text(conn, hit)
            sig = signals(text, matcher, weights, total, named)
            sig["rank"] = rank
            rows.append((relevance(sig), rank, hit, text, sig))
    finally:
        conn.close()
    return Measured(rows, matcher, weights, terms, kind=prompt_kind(prompt))


def build(root: str, measured: Measured, threshold: float, budget: int, max_items: int,
          seen_keys=(), seen_lines=()) -> dict:
    """What to inject: nothing unless the most relevant candidate reaches ``threshold``; then the
    candidates within :data:`ITEM_FLOOR` of it, and of their lines the ones that hold the most of
    the prompt's weight, best first across items, in ``budget`` characters (fences included).
    Items (``seen_keys``) and lines (``seen_lines``) already in context are left out."""
    out = {"ok": True, "items": []}
    if measured.skipped:
        out["skipped"] = measured.skipped
        return out
    top = max((row[0] for row in measured.rows), default=0.0)
    if top <= 0 or top < threshold:
        out["skipped"] = "below threshold"
        return out
    seen_keys, seen_lines = set(seen_keys), set(seen_lines) - {""}     # "" is the key of no line
    floor = max(threshold * ITEM_FLOOR, 1e-9)
    items, pool = [], []
    for rel_score, _rank, hit, text, sig in sorted(measured.rows, key=lambda r: (-r[0], r[1])):
        if rel_score < floor or len(items) >= max_items:
            break
        key, ident, title = describe(root, hit)
        if key in seen_keys:
            continue
        seen_keys.add(key)
        lines = text.split("\n")
        item = {"key": key, "id": ident, "source": hit.get("source"), "title": title, "path": hit.get("path"),
                "relevance": rel_score, "signals": sig, "chosen": {}, "lines": lines,
                "overhead": FENCE_OVERHEAD + len(ident) + len(title)}
        items.append(item)
        for found, i, short, long, parent in candidate_lines(text, measured.matcher):
            pool.append((found, rel_score / top, len(items) - 1, i, short, long,
                         None if parent is None else (parent, lines[parent].strip()[:PARENT_MAX])))
    pool = rank_lines(pool, measured.weights)
    left = budget

    def take(item, i, shown, full, extra=None) -> bool:
        nonlocal left
        if i in item["chosen"]:
            return False
        rest = unseen_part(full, seen_lines)      # the sentences the context already holds go
        if rest != full:
            if not rest or not measured.matcher.matched(rest):
                return False                     # what is new in it holds none of the prompt's words
            full, shown = rest, _cut_line(rest, measured.matcher, LINE_SHORT)
        digests = set(line_digests(shown)) | set(line_digests(full))
        if digests & seen_lines:
            return False
        extra = {k: v for k, v in (extra or {}).items()
                 if k not in item["chosen"] and not set(line_digests(v)) & seen_lines}
        cost = len(shown) + 1 + sum(len(v) + 1 for v in extra.values()) + (0 if item["chosen"] else item["overhead"])
        if cost > left:
            return False
        item["chosen"].update(extra)
        item["chosen"][i] = shown
        seen_lines.update(digests, *(line_digests(v) for v in extra.values()))
        left -= cost
        return True

    for n, i, short, _long, parent in pool:
        item = items[n]
        take(item, i, short, item["lines"][i].strip(), {parent[0]: parent[1]} if parent else None)
        if left < 40:
            break
    for n, i, short, long, _label in pool:           # lengthen the lines cut short, best first
        item = items[n]
        if item["chosen"].get(i) == short and long != short and len(long) - len(short) <= left:
            item["chosen"][i] = long
            left -= len(long) - len(short)
    if NEXT_LINES:
        for n, i, *_shown in pool:
            item = items[n]
            j = _next_line(item["lines"], i) if i in item["chosen"] else None
            if j is not None:
                line, parent = item["lines"][j].strip(), _parent(item["lines"], j)
                take(item, j, _cut_line(line, measured.matcher, LINE_SHORT), line,
                     {parent: item["lines"][parent].strip()[:PARENT_MAX]} if parent is not None else None)
    by_id: dict = {}
    for item in items:
        chosen = item.pop("chosen")
        item.pop("overhead")
        source = item.pop("lines")
        if not chosen:
            continue
        text = "\n".join(chosen[i] for i in sorted(chosen))
        keys = text_digests(text) + [d for d in (line_digest(source[i].strip()) for i in sorted(chosen)) if d]
        first = by_id.get(item["id"])
        if first is not None:                    # two chunks of one note: one fence
            first["text"] += "\n" + text
            first["lines"] = list(dict.fromkeys(first["lines"] + keys))
            first.setdefault("keys", [first["key"]]).append(item["key"])
            continue
        item["text"], item["lines"] = text, list(dict.fromkeys(keys))
        by_id[item["id"]] = item
        out["items"].append(item)
    if not out["items"]:
        out["skipped"] = "already in context"
    return out


def threshold_for(kind: str, request: dict) -> float:
    """The gate's threshold for a prompt of ``kind``: ``threshold`` for a question that points at
    nothing (``ask``), ``threshold_work`` for work on what is at hand (config ``recall``)."""
    key = "threshold" if kind == ASK else "threshold_work"
    value = request.get(key)
    return float(_R[key] if value is None else value)


def prompt_recall(cfg, request: dict, warm=None) -> dict:
    """Recall for one prompt. ``request``: ``prompt``, ``project``, ``workspace``, ``threshold``
    and ``threshold_work`` (:func:`threshold_for`), ``max_chars`` (for the items, fences included),
    ``max_items``, ``exclude_keys``, ``exclude_lines``, ``mode`` (bm25 / hybrid), ``signals``
    (every candidate's signals too). Returns ``{"ok", "kind", "items": [{key, id, source, title,
    text, path, relevance, signals, lines}], "skipped": why nothing (when so), "candidates": [...]
    when asked}``. ``warm`` as for :func:`candidates`."""
    measured = measure(cfg, request, warm)
    out = build(cfg.root, measured, threshold_for(measured.kind, request),
                int(request.get("max_chars") or _R["max_chars"]), int(request.get("max_items") or _R["max_items"]),
                request.get("exclude_keys") or (), request.get("exclude_lines") or ())
    out["kind"] = measured.kind
    if request.get("signals"):
        out["candidates"] = [{"id": h.get("id"), "source": h.get("source"), "relevance": r, **s}
                             for r, _k, h, _t, s in measured.rows]
    return out
