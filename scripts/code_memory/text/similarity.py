"""Near-duplicate detection for one-line experiences (MEMORY.md pitfalls, facts).

Two lines are duplicates when, after normalisation (case, Markdown bullets, punctuation and
whitespace removed), their character-trigram sets have
  - Jaccard similarity  |A ∩ B| / |A ∪ B|       ≥ JACCARD (0.6), or
  - containment         |A ∩ B| / min(|A|, |B|) ≥ CONTAINMENT (0.8) — one line says (almost) all of
    the other, e.g. a short pitfall restated inside a longer one.
Character trigrams work the same for Chinese and English and need no segmenter. Containment is
only trusted when the smaller line has at least MIN_CONTAINMENT_GRAMS trigrams, so two very short
lines are compared by Jaccard alone.
"""

from __future__ import annotations

import re
import unicodedata

JACCARD = 0.6
CONTAINMENT = 0.8
MIN_CONTAINMENT_GRAMS = 8

_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_NOISE = re.compile(r"[\W_]+", re.UNICODE)


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "")
    text = _BULLET.sub("", text).lower()
    return _NOISE.sub(" ", text).strip()


def trigrams(text: str) -> frozenset:
    norm = normalize(text)
    compact = norm.replace(" ", "")
    if len(compact) < 3:
        return frozenset([compact]) if compact else frozenset()
    # grams over the text with single spaces kept, so word boundaries count in English
    return frozenset(norm[i:i + 3] for i in range(len(norm) - 2))


def similarity(a: frozenset, b: frozenset) -> tuple:
    """``(jaccard, containment)`` of two trigram sets."""
    if not a or not b:
        return 0.0, 0.0
    inter = len(a & b)
    return inter / len(a | b), inter / min(len(a), len(b))


def is_near_duplicate(a: str, b: str, jaccard: float = JACCARD, containment: float = CONTAINMENT) -> bool:
    return _dup(trigrams(a), trigrams(b), jaccard, containment)


def _dup(ga: frozenset, gb: frozenset, jaccard: float, containment: float) -> bool:
    if not ga or not gb:
        return False
    if ga == gb:
        return True
    jac, con = similarity(ga, gb)
    if jac >= jaccard:
        return True
    return min(len(ga), len(gb)) >= MIN_CONTAINMENT_GRAMS and con >= containment


def filter_new(existing, candidates, jaccard: float = JACCARD, containment: float = CONTAINMENT) -> list:
    """The candidates that duplicate neither an existing line nor an earlier candidate."""
    kept_grams = [trigrams(line) for line in existing]
    out = []
    for candidate in candidates:
        grams = trigrams(candidate)
        if not grams or any(_dup(grams, g, jaccard, containment) for g in kept_grams):
            continue
        kept_grams.append(grams)
        out.append(candidate)
    return out
