"""Text → tokens for memtool: the FTS5 search column, FTS/LIKE queries and keyword sets.

* ``content_search`` = content + the tokens (length ≥ 2) of its Chinese runs (docs/stores.md § memtool):
  jieba's search-mode words (via :mod:`code_memory.text.segment`, which reads jieba's dictionary without
  importing jieba) and the runs' character bigrams. SQLite's ``unicode61`` tokenizer splits English
  by itself but keeps a run of Han characters as one token, so the appended tokens are what makes
  Chinese findable.
* Queries use the bigrams of their Chinese runs, which every segmenter indexes, so a query needs no
  dictionary and costs no jieba import. The segmenter's name is stored in the database; when it
  changes (jieba installed) the store re-segments every row.
* Term sets (Jaccard relevance, related-item linking) are read back from ``content_search``, so
  they need no second segmentation and match what FTS indexed.

Everything here is pure; :func:`segment` is the single place that knows how Chinese is segmented.
"""

from __future__ import annotations

import functools
import re

from ..text.query import quote
from ..text.segment import HAN_RUN, BigramSegmenter, bigrams, get_segmenter

# A word for FTS purposes: a run of letters/digits/underscore that is not Han (unicode61 semantics).
WORD = re.compile(r"[^\W\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
MIN_TOKEN_LEN = 2

STOPWORDS = frozenset("""
a an and are as at be been but by can could did do does for from had has have he her his i if in
into is it its me my no not of on or our she so than that the their them then there these they this
those to too us was we were what when where which who will with would you your how why also just
some any all more most very should does did about over under via per its into onto out up down get got
""".split()) | frozenset("""的 了 是 在 和 与 及 或 吗 呢 吧 啊 怎么 如何 什么 为什么 哪些 哪个 这个 那个 一个 一些 我们 你们
他们 可以 需要 应该 是否 以及 还是 就是 怎样 关于 有没有 有关""".split())

_segmenter = None
_segmented = 0
# After this many segmentations in one process (bulk writes, imports, a long-lived MCP server) the
# whole dictionary is loaded into memory: ~0.5 s once, then ~7x faster per text than SQLite lookups.
BULK_AFTER = 200


def use_segmenter(recorded: str | None = None) -> str:
    """Choose the segmenter for writes and return its name: jieba's dictionary when installed (else
    bigrams). A database segmented with a dictionary that is still cached keeps it even if jieba
    has been removed since (never downgrade); otherwise a change means re-segmenting the rows."""
    global _segmenter, _segmented
    current = get_segmenter("auto")
    if recorded and recorded != current.name and current.name == BigramSegmenter.name:
        try:
            current = get_segmenter(recorded)
        except (LookupError, OSError):
            pass
    if _segmenter is None or _segmenter.name != current.name:
        _segmenter, _segmented = current, 0
    return current.name


def _get_segmenter():
    global _segmenter, _segmented
    if _segmenter is None:
        use_segmenter()
    _segmented += 1
    if _segmented == BULK_AFTER and _segmenter.name != BigramSegmenter.name:
        try:
            _segmenter = get_segmenter(_segmenter.name, bulk=True)
        except (LookupError, OSError):
            pass
    return _segmenter


def segmenter_name() -> str:
    return _get_segmenter().name


def segment(text: str) -> list:
    """The index tokens (length ≥ 2, first occurrence order, no duplicates) of text's Han runs:
    :mod:`code_memory.text.segment`'s search-mode words and character bigrams."""
    if not text or not HAN_RUN.search(text):
        return []
    out, seen = [], set()
    for token in _get_segmenter().tokens(text):
        if len(token) >= MIN_TOKEN_LEN and token not in seen:
            seen.add(token)
            out.append(token)
    return out


def build_content_search(content: str) -> str:
    words = segment(content)
    return f"{content}\n{' '.join(words)}" if words else content


def parse_query(query: str) -> tuple:
    """Split a query into FTS tokens and the pieces FTS cannot answer.

    Returns ``(fts_tokens, like_terms)``: lower-cased words, and the character bigrams of each Han
    run (every segmenter indexes all bigrams, so a query needs no dictionary and matches any run
    that contains it); a lone Han character has no bigram and goes to a LIKE filter.
    """
    fts_tokens, like_terms, seen = [], [], set()
    for term in (query or "").split():
        tokens = [m.group(0).lower() for m in WORD.finditer(term)]
        for run in HAN_RUN.findall(term):
            if len(run) >= MIN_TOKEN_LEN:
                tokens.extend(bigrams(run))
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
    return joiner.join(quote(t) for t in tokens)


@functools.lru_cache(maxsize=8192)
def terms(search_text: str) -> frozenset:
    """The distinct index terms of a ``content_search`` value: lower-cased words (≥ 2 characters,
    no stopwords, numbers only from 3 digits) and Chinese words (Han runs of 2–6 characters, i.e.
    the appended segmentation plus short runs of the original text)."""
    text = search_text or ""
    out = {w for w in WORD.findall(text.lower())
           if len(w) >= MIN_TOKEN_LEN and w not in STOPWORDS and (not w.isdigit() or len(w) >= 3)}
    out.update(run for run in HAN_RUN.findall(text) if 2 <= len(run) <= 6 and run not in STOPWORDS)
    return frozenset(out)


def keywords(text: str) -> frozenset:
    """:func:`terms` of a raw text (segments it first)."""
    return terms(build_content_search(text or ""))


def jaccard(a, b) -> float:
    if not a or not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)
