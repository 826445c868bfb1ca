"""Ranking and lifecycle formulas (docs/stores.md § memtool). Pure functions of an item dict.

* confidence_score: high 1.0, medium 0.6, low 0.3 (unknown → medium).
* decay (the forgetting curve): ``exp(-ln2 · age_days / half_life)``, age from ``updated_at``;
  half-lives run 14 d, feature 180 d, project 365 d; the adaptive half-life multiplies that by
  ``1 + 2 · consolidation_score`` (a fully consolidated memory lives three times as long).
* recency_score = the (adaptive) decay; mixed_score = 0.6 · confidence + 0.4 · recency.
* is_stale: decay ≤ 0.2.
* consolidation = 0.5 · min(ln(1 + accesses) / ln 100, 1) + 0.2 · min(age_days / 365, 1)
  + 0.3 · decay(updated_at, feature half-life).
"""

from __future__ import annotations

import datetime as dt
import math

from ..timeutil import parse_datetime

CONFIDENCE_SCORES = {"high": 1.0, "medium": 0.6, "low": 0.3}
CONFIDENCE_LEVELS = tuple(CONFIDENCE_SCORES)
HALF_LIFE_DAYS = {"run": 14.0, "feature": 180.0, "project": 365.0}
DEFAULT_HALF_LIFE_DAYS = 180.0
STALE_THRESHOLD = 0.2
MIXED_WEIGHTS = (0.6, 0.4)  # confidence, recency
SORT_KEYS = ("updated", "confidence", "recency", "mixed")


def utcnow() -> dt.datetime:
    return dt.datetime.now(tz=dt.timezone.utc)


def parse_dt(value) -> dt.datetime | None:
    """An item's timestamp (stored as ISO 8601; naive means UTC), else None."""
    return parse_datetime(value, naive="utc") if value else None


def age_days(timestamp, now: dt.datetime) -> float | None:
    moment = parse_dt(timestamp)
    if moment is None:
        return None
    return max((now - moment).total_seconds() / 86400.0, 0.0)


def confidence_score(level) -> float:
    return CONFIDENCE_SCORES.get(str(level or "medium").lower(), CONFIDENCE_SCORES["medium"])


def half_life_days(item_type) -> float:
    return HALF_LIFE_DAYS.get(item_type, DEFAULT_HALF_LIFE_DAYS)


def adaptive_half_life(item_type, consolidation: float = 0.0) -> float:
    return half_life_days(item_type) * (1.0 + 2.0 * max(0.0, min(float(consolidation or 0.0), 1.0)))


def decay_score(updated_at, item_type, now: dt.datetime, consolidation: float = 0.0) -> float:
    return decay_of_age(age_days(updated_at, now), item_type, consolidation)


def decay_of_age(age: float | None, item_type, consolidation: float = 0.0) -> float:
    """:func:`decay_score` of an item ``age`` days old (None: unknown age, no decay)."""
    if age is None or age <= 0:
        return 1.0
    return math.exp(-math.log(2.0) * age / adaptive_half_life(item_type, consolidation))


def mixed_score(confidence: float, recency: float) -> float:
    return MIXED_WEIGHTS[0] * confidence + MIXED_WEIGHTS[1] * recency


def compute_consolidation(access_count: int, created_at, updated_at, now: dt.datetime) -> float:
    frequency = min(math.log(1 + max(int(access_count or 0), 0)) / math.log(100), 1.0)
    longevity = min((age_days(created_at, now) or 0.0) / 365.0, 1.0)
    active = decay_score(updated_at, "feature", now)
    return frequency * 0.5 + longevity * 0.2 + active * 0.3


def scores(item: dict, now: dt.datetime) -> dict:
    """The computed ranking/lifecycle fields of one item."""
    consolidation = float(item.get("consolidation_score") or 0.0)
    conf = confidence_score(item.get("confidence_level"))
    age = age_days(item.get("updated_at"), now)
    decay = decay_of_age(age, item.get("type"), consolidation)
    return {
        "confidence_score": round(conf, 6),
        "recency_score": round(decay, 6),
        "mixed_score": round(mixed_score(conf, decay), 6),
        "decay_score": round(decay, 6),
        "half_life_days": round(adaptive_half_life(item.get("type"), consolidation), 3),
        "age_days": None if age is None else round(age, 3),
        "is_stale": decay <= STALE_THRESHOLD,
    }


def with_scores(item: dict, now: dt.datetime) -> dict:
    out = dict(item)
    out.update(scores(item, now))
    return out


def sort_items(items: list, sort_by: str) -> list:
    """Sort scored items, best first; ties fall back to the newest update."""
    if sort_by not in SORT_KEYS:
        raise ValueError(sort_by)
    field = {"updated": None, "confidence": "confidence_score", "recency": "recency_score",
             "mixed": "mixed_score"}[sort_by]
    if field is None:
        return sorted(items, key=lambda it: it.get("updated_at") or "", reverse=True)
    return sorted(items, key=lambda it: (it[field], it.get("updated_at") or ""), reverse=True)
