"""Text → tokens for memtool: the FTS5 search column, FTS/LIKE queries and keyword sets.

* ``content_search`` = content + the search-mode words (length ≥ 2) of its Chinese runs (spec 000
  §4.2). SQLite's ``unicode61`` tokenizer splits English by itself but keeps a run of Han characters
  as one token, so the appended words are what makes Chinese findable.
* Queries are segmented by the same code, so index and query agree. The segmenter's name is stored in
  the database; when it changes (jieba installed or removed) the store re-segments every row.
* Term sets (Jaccard relevance, related-item linking) are read back from ``content_search``, so
  they need no second segmentation and match what FTS indexed.

Everything here is pure; :func:`segment` is the single place that knows how Chinese is segmented.
"""

from __future__ import annotations

import functools
import re

HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
# A word for FTS purposes: a run of letters/digits/underscore that is not Han (unicode61 semantics).
WORD = re.compile(r"[^\W\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
MIN_TOKEN_LEN = 2

STOPWORDS = frozenset("""
a an and are as at be been but by can could did do does for from had has have he her his i if in
into is it its me my no not of on or our she so than that the their them then there these they this
those to too us was we were what when where which who will with would you your
""".split())

_segmenter = None


class _Segmenter:
    """jieba search mode when jieba is installed, otherwise overlapping Han bigrams."""

    def __init__(self):
        try:
            import jieba  # noqa: F401  (probe only; imported for real on first Chinese text)
            self.name = "jieba-search"
        except ImportError:
            self.name = "bigram"
        self._cut = None

    def words(self, run: str) -> list:
        if self.name == "bigram":
            return [run[i:i + 2] for i in range(len(run) - 1)]
        if self._cut is None:
            import logging

            import jieba
            jieba.setLogLevel(logging.WARNING)
            self._cut = jieba.cut_for_search
        return list(self._cut(run))


def _get_segmenter():
    global _segmenter
    if _segmenter is None:
        _segmenter = _Segmenter()
    return _segmenter


def segmenter_name() -> str:
    """Identifies the segmentation in use; stored in the database to detect a change."""
    return _get_segmenter().name


def segment(text: str) -> list:
    """Search-mode words (length ≥ 2, first occurrence order, no duplicates) of text's Han runs."""
    runs = HAN_RUN.findall(text or "")
    if not runs:
        return []
    seg = _get_segmenter()
    out, seen = [], set()
    for run in runs:
        for word in seg.words(run):
            word = word.strip()
            if len(word) >= MIN_TOKEN_LEN and word not in seen:
                seen.add(word)
                out.append(word)
    return out


def build_content_search(content: str) -> str:
    words = segment(content)
    return f"{content}\n{' '.join(words)}" if words else content


def _quote(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def parse_query(query: str) -> tuple:
    """Split a query into FTS tokens and the pieces FTS cannot answer.

    Returns ``(fts_tokens, like_terms)``: lower-cased words and Chinese words for MATCH, and the
    Han runs that yield no word of length ≥ 2 (a single character) for a LIKE filter.
    """
    fts_tokens, like_terms, seen = [], [], set()
    for term in (query or "").split():
        tokens = [m.group(0).lower() for m in WORD.finditer(term)]
        for run in HAN_RUN.findall(term):
            words = segment(run)
            if words:
                tokens.extend(words)
            else:
                like_terms.append(run)
        for token in tokens:
            if token not in seen:
                seen.add(token)
                fts_tokens.append(token)
    return fts_tokens, like_terms


def fts_expression(tokens, mode: str = "all") -> str:
    """An FTS5 MATCH expression: every token (``all``) or any token (``any``), each quoted."""
    joiner = " AND " if mode == "all" else " OR "
    return joiner.join(_quote(t) for t in tokens)


def like_pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


@functools.lru_cache(maxsize=8192)
def terms(search_text: str) -> frozenset:
    """The distinct index terms of a ``content_search`` value: lower-cased words (≥ 2 characters,
    no stopwords, numbers only from 3 digits) and Chinese words (Han runs of 2–6 characters, i.e.
    the appended segmentation plus short runs of the original text)."""
    text = search_text or ""
    out = {w for w in WORD.findall(text.lower())
           if len(w) >= MIN_TOKEN_LEN and w not in STOPWORDS and (not w.isdigit() or len(w) >= 3)}
    out.update(run for run in HAN_RUN.findall(text) if 2 <= len(run) <= 6)
    return frozenset(out)


def keywords(text: str) -> frozenset:
    """:func:`terms` of a raw text (segments it first)."""
    return terms(build_content_search(text or ""))


def jaccard(a, b) -> float:
    if not a or not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)
