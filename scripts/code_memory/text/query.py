"""Turning a user's question into a safe FTS5 query. Pure functions.

No user text reaches MATCH unescaped: the query is reduced to word tokens (letters and digits, plus
segmented Chinese words), each emitted as a double-quoted string, joined with OR and ranked by BM25.
Punctuation, quotes, ``AND/OR/NOT/NEAR``, ``*``, ``-``, ``:`` and unbalanced quotes are therefore
plain text, and a question never becomes a phrase or an all-terms-required query that matches
nothing. Stopwords are dropped (unless nothing else is left).
"""

from __future__ import annotations

import re

from .segment import HAN_RUN, STOP_CHARS, Segmenter

MAX_QUERY_CHARS = 2000
MAX_TERMS = 64

WORD = re.compile(r"[^\W_]+", re.UNICODE)

EN_STOPWORDS = frozenset("""
a about above after again against all am an and any are aren't as at be because been before being
below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its
itself let's me more most mustn't my myself no nor not of off on once only or other ought our ours
ourselves out over own same shan't she she'd she'll she's should shouldn't so some such than that
that's the their theirs them themselves then there there's these they they'd they'll they're they've
this those through to too under until up very was wasn't we we'd we'll we're we've were weren't what
what's when when's where where's which while who who's whom why why's with won't would wouldn't you
you'd you'll you're you've your yours yourself yourselves also just will would like get got s t d ll
m re ve kind type does anything something
""".split())

ZH_STOPWORDS = frozenset("""
什么 怎么 怎样 如何 哪些 哪个 哪里 哪儿 为什么 为何 是否 是不是 有没有 可以 能否 能不能 时候 什么时候
多少 几个 这个 那个 这些 那些 这样 那样 我们 你们 他们 她们 它们 一个 一些 没有 因为 所以 但是 还是
就是 如果 或者 以及 而且 并且 然后 其中 之后 之前 以后 以前 请问 一下 哪位 谁是 属于 通过 进行
""".split())


def _latin_tokens(text: str) -> list:
    """Word tokens outside Han runs, lowercased (unicode61 folds case the same way)."""
    return [t.lower() for t in WORD.findall(HAN_RUN.sub(" ", text))]


def query_terms(query: str, segmenter: Segmenter, words: bool = False) -> dict:
    """The query's search terms: ``{"terms": [...], "prefixes": [...], "truncated": bool}``.

    Single Han characters left over when a Han run yields no words become prefix terms (``锁*``
    finds 锁定, 锁住), so a one-character query still finds something. ``words``: a Han run gives
    its words only (:meth:`Segmenter.run_words`), not the bigrams that span two of them.
    """
    truncated = len(query) > MAX_QUERY_CHARS
    text = query[:MAX_QUERY_CHARS]
    latin = _latin_tokens(text)
    cjk, prefixes = [], []
    for m in HAN_RUN.finditer(text):
        tokens = (segmenter.run_words if words else segmenter.run_tokens)(m.group(0), ZH_STOPWORDS)
        if tokens:
            cjk.extend(tokens)
        else:
            prefixes.extend(ch for ch in m.group(0) if ch not in STOP_CHARS)
    kept = [t for t in latin if t not in EN_STOPWORDS and (len(t) > 1 or t.isdigit())]
    kept += [t for t in cjk if t not in ZH_STOPWORDS]
    if not kept and not prefixes:  # a query of stopwords only still searches them
        kept = [t for t in latin if len(t) > 1 or t.isdigit()]
        for m in HAN_RUN.finditer(text):
            kept += segmenter.run_tokens(m.group(0))
    terms = list(dict.fromkeys(kept))[:MAX_TERMS]
    prefixes = list(dict.fromkeys(prefixes))[:8]
    return {"terms": terms, "prefixes": prefixes, "truncated": truncated}


def quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def match_expression(terms: list, prefixes: list) -> str:
    """An FTS5 MATCH string: quoted terms (and quoted prefixes with ``*``) joined by OR."""
    parts = [quote(t) for t in terms] + [quote(p) + "*" for p in prefixes]
    return " OR ".join(parts)


def like_pattern(term: str) -> str:
    """A LIKE pattern (``ESCAPE '\\'``) matching ``term`` anywhere: ``\\``, ``%`` and ``_`` escaped."""
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def like_patterns(terms: list, prefixes: list) -> list:
    """LIKE patterns for the no-FTS5 fallback (``%`` and ``_`` escaped with ``\\``)."""
    return [like_pattern(t) for t in list(terms) + list(prefixes)]
