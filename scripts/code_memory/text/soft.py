"""Soft matching of a line's words against what another text holds: the same word in another
form, for deciding whether a later session did the work an open to-do names (summary/todos.py).

text/keywords.py gives each line its weighted words; :func:`keywords.coverage` counts a word of
the small line found in the large text. Here a word also counts when the text holds it in
another form:

* Chinese, beyond jieba's cut: a dictionary word inside it (格式化 → 格式, 停机窗口 → 停机) or,
  for a run jieba left whole or cut differently, one of its character bigrams that is a word of
  the text (字符集转换 → 转换) — each counts :data:`SOFT_SHARE` of its weight;
* English words are compared by their Snowball stems already (resumable / resuming → ``resum``).

A word of two characters or fewer is only ever matched whole: 格式 is not found in 格局.

Pure functions over the dicts and sets text/keywords.py makes.
"""

from __future__ import annotations

import functools

from .keywords import EDGE_CHARS, SUB_WORD_SHARE, sub_words
from .segment import HAN_RUN

SOFT_SHARE = SUB_WORD_SHARE     # of a word's weight when only another form of it is found


@functools.lru_cache(maxsize=8192)
def _forms(token: str) -> tuple:
    """The shorter forms of a Chinese word of three or more characters: the dictionary words
    inside it, then its character bigrams that do not start or end with a function character."""
    if len(token) < 3 or not HAN_RUN.fullmatch(token):
        return ()
    grams = [token[i:i + 2] for i in range(len(token) - 1)]
    inside = list(sub_words(token))
    return tuple(dict.fromkeys(inside + [g for g in grams if not EDGE_CHARS.intersection(g)]))


def share(token: str, large) -> float:
    """How much of ``token`` ``large`` (a set or dict of words) holds: 1.0 the word itself,
    :data:`SOFT_SHARE` another form of it (see the module docstring), else 0.0."""
    if token in large:
        return 1.0
    return SOFT_SHARE if any(form in large for form in _forms(token)) else 0.0


def coverage(small: dict, large) -> float:
    """The weighted share of ``small``'s words that ``large`` holds, in any form."""
    total = sum(small.values())
    if total <= 0:
        return 0.0
    return sum(weight * share(token, large) for token, weight in small.items()) / total


def found(small: dict, large, real=lambda token, weight: weight >= 1.0) -> int:
    """How many of ``small``'s words for which ``real(token, weight)`` holds ``large`` has, in any form."""
    return sum(1 for token, weight in small.items() if real(token, weight) and share(token, large) > 0)
