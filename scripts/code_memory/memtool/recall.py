"""Recall services over the store: recommend and contextual search (docs/stores.md § memtool).

recommend — candidates are the newest items matching task_id / tags / key prefix / type (up to
:data:`RECOMMEND_CANDIDATES`), plus, when a context text is given, the best full-text matches for it.
Each candidate is scored::

    relevance = Jaccard(terms(context), terms(item))                (0 without a context)
    score     = (0.5 · relevance + 0.3 · confidence + 0.2 · recency) · weight

and explained by reasons: ``context_match`` (Jaccard ≥ 0.3, or at least half of the context's
keywords occur in the item), ``high_confidence`` (confidence ≥ 0.9), ``recent`` (recency ≥ 0.7),
``high_weight`` (weight > 1). Stale items are left out unless asked for.

contextual search — a search (3 × limit candidates; without a query, the newest items carrying one
of the tags) filtered by context tags (at least one shared; ``context_match`` = shared / asked) and
an emotional filter (positive: weight > 0, negative: weight < 0, urgent: the ``urgent`` tag),
best context match first.
"""

from __future__ import annotations

import json

from . import context as context_mod
from .errors import param_error
from .store import check_limit, normalize_tags, row_to_item
from .tokens import jaccard, keywords, terms

RECOMMEND_CANDIDATES = 200
RECOMMEND_WEIGHTS = (0.5, 0.3, 0.2)  # relevance, confidence, recency
CONTEXT_MATCH_JACCARD = 0.3
CONTEXT_MATCH_COVERAGE = 0.5


def recommend(store, *, context=None, task_id=None, tags=None, key_prefix=None, type=None,
              limit=None, include_stale: bool = False, track: bool = True) -> dict:
    limit = check_limit(limit, 10)
    filters = store.filters(type=type, task_id=task_id, tags=tags, key_prefix=key_prefix)
    rows = store.fetch(
        "SELECT m.* FROM memory_items m" + filters.sql() + " ORDER BY m.updated_at DESC, m.rowid DESC LIMIT ?",
        filters.params + [RECOMMEND_CANDIDATES])
    if context and context.strip():
        found = store.search(context, type=type, task_id=task_id, tags=tags, limit=50, track=False)
        seen = {row["id"] for row in rows}
        rows += store.rows_by_id(it["id"] for it in found["items"] if it["id"] not in seen
                                 and (not key_prefix or (it["key"] or "").startswith(key_prefix)))
    wanted = keywords(context or "")
    w_rel, w_conf, w_rec = RECOMMEND_WEIGHTS
    ranked = []
    for row in rows:
        item = store.scored([row_to_item(row)])[0]
        if item["is_stale"] and not include_stale:
            continue
        mine = terms(row["content_search"])
        relevance = jaccard(wanted, mine) if wanted else 0.0
        shared = wanted & mine
        weight = float(item["weight"] if item["weight"] is not None else 1.0)
        score = (w_rel * relevance + w_conf * item["confidence_score"] + w_rec * item["recency_score"]) * weight
        reasons = []
        if wanted and (relevance >= CONTEXT_MATCH_JACCARD or len(shared) >= CONTEXT_MATCH_COVERAGE * len(wanted)):
            reasons.append("context_match")
        if item["confidence_score"] >= 0.9:
            reasons.append("high_confidence")
        if item["recency_score"] >= 0.7:
            reasons.append("recent")
        if weight > 1.0:
            reasons.append("high_weight")
        out = dict(item)
        out.update({"relevance": round(relevance, 6), "recommend_score": round(score, 6),
                    "recommend_reasons": reasons})
        if wanted:
            out["matched_keywords"] = sorted(shared)[:10]
        ranked.append(out)
    ranked.sort(key=lambda it: (it["recommend_score"], it["updated_at"] or ""), reverse=True)
    ranked = ranked[:limit]
    if track:
        store.track(ranked)
    return {"items": ranked, "candidates": len(rows), "context": context}


def contextual_search(store, query=None, *, context_tags=None, emotional_filter=None, type=None,
                      limit=None, track: bool = True) -> dict:
    limit = check_limit(limit, 10)
    wanted = normalize_tags(context_tags) if context_tags else []
    if emotional_filter is not None and emotional_filter not in context_mod.EMOTIONAL_FILTERS:
        raise param_error(f"Invalid emotional filter: {emotional_filter}",
                          "Use positive, negative or urgent")
    if not (query and query.strip()) and not wanted and emotional_filter is None:
        raise param_error("Give a query, context tags or an emotional filter",
                          "e.g. --context-tag late_night --context-tag debugging")
    fts5 = None
    if query and query.strip():
        found = store.search(query, type=type, limit=min(limit * 3, 10000), track=False)
        candidates, fts5 = found["items"], found["fts5"]
    else:
        candidates = _tagged_recent(store, wanted, type, limit * 3 if wanted else 1000)
    results = []
    for item in candidates:
        out = dict(item)
        if wanted:
            overlap = len(set(wanted) & set(item["context_tags"]))
            if overlap == 0:
                continue
            out["context_match"] = round(overlap / len(wanted), 6)
        if emotional_filter and not context_mod.matches_emotion(item, emotional_filter):
            continue
        results.append(out)
    if wanted:
        results.sort(key=lambda it: -it["context_match"])
    results = results[:limit]
    if track:
        store.track(results)
    out = {"items": results, "context_tags": wanted, "emotional_filter": emotional_filter, "query": query}
    if fts5 is not None:
        out["fts5"] = fts5
    unknown = [t for t in wanted if t not in context_mod.KNOWN_TAGS]
    if unknown:
        out["unknown_context_tags"] = unknown
    return out


def _tagged_recent(store, tags, type, limit) -> list:
    filters = store.filters(type=type)
    if tags:
        filters.add("(" + " OR ".join("m.context_tags_json LIKE ?" for _ in tags) + ")",
                    *[f"%{json.dumps(t, ensure_ascii=False)}%" for t in tags])
    rows = store.fetch("SELECT * FROM memory_items m" + filters.sql() +
                       " ORDER BY m.updated_at DESC, m.rowid DESC LIMIT ?", filters.params + [limit])
    return store.scored(row_to_item(r) for r in rows)
