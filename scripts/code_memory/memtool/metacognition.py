"""Metacognition (docs/stores.md § memtool): how well do I know a topic, and what should be reviewed.

assess_knowledge(topic) takes the topic's content words (stop words dropped, English and Chinese),
searches up to 50 memories and keeps those holding at least half of them (one for a one-word
topic), then scores::

    meta = 0.35 · avg(confidence) + 0.25 · min(count / 10, 1) + 0.20 · avg(recency)
         + 0.20 · avg(consolidation)

→ level ``high`` (≥ 0.8), ``medium`` (≥ 0.5), ``low`` (≥ 0.2), ``very_low``; ``none`` without any
memory. Each level has the design's message and suggestions; evidence = the five most confident
memories (snippet = first 100 characters); stats = count and the averages.

review_due() applies the spaced-repetition rule: the next review is due ``interval`` days after the
last access (or update), ``interval = 1`` for a never-read memory, else ``min(2^access_count, 90)``;
importance = 0.4 · confidence + 0.3 · consolidation + 0.3 · |emotional weight|. Due memories with
importance ≥ min_importance (stale ones excluded) are ranked by importance · (1 + days overdue).
"""

from __future__ import annotations

import datetime as dt
import math

from . import ranking
from .errors import param_error
from .store import check_limit, check_number
from .tokens import keywords

ASSESS_SEARCH_LIMIT = 50
META_WEIGHTS = (0.35, 0.25, 0.20, 0.20)  # confidence, coverage, recency, consolidation
FULL_COVERAGE = 10
SNIPPET_CHARS = 100
MAX_INTERVAL_DAYS = 90


def _level(topic: str, meta: float, count: int) -> tuple:
    if meta >= 0.8:
        return "high", f"我对「{topic}」很有把握，有 {count} 条相关记忆", ["可以直接使用这些记忆回答问题"]
    if meta >= 0.5:
        return "medium", f"我对「{topic}」有一些了解，但不完全确定", [
            "建议交叉验证这些记忆", "如果是关键决策，最好查询最新资料"]
    if meta >= 0.2:
        return "low", f"我对「{topic}」的记忆比较模糊", [
            "记忆可能过时或不完整", "建议重新学习或查询外部资源", f"找到 {count} 条记忆但质量较低"]
    return "very_low", f"我对「{topic}」几乎没有可靠记忆", ["强烈建议查询外部资源", "获取新信息后更新记忆库"]


def _snippet(content: str) -> str:
    content = content or ""
    return content if len(content) <= SNIPPET_CHARS else content[:SNIPPET_CHARS] + "..."


def assess_knowledge(store, topic: str, *, type=None) -> dict:
    if not topic or not topic.strip():
        raise param_error("Required parameter --topic is missing", "Use --topic \"what to assess\"")
    topic_terms = keywords(topic)
    if not topic_terms:
        return {"topic": topic, "confidence": "none", "score": 0.0,
                "message": f"「{topic}」只有停用词，无法评估", "suggestions": ["用具体的词描述主题"],
                "evidence": [], "stats": {"total_memories": 0, "topic_terms": []}, "fts5": store.fts5}
    found = store.search(" ".join(sorted(topic_terms)), type=type, limit=ASSESS_SEARCH_LIMIT, track=False)
    needed = max(1, math.ceil(len(topic_terms) / 2))
    items = [it for it in found["items"] if len(topic_terms & keywords(it["content"] or "")) >= needed]
    if not items:
        return {"topic": topic, "confidence": "none", "score": 0.0, "message": f"我对「{topic}」没有记忆",
                "suggestions": ["建议通过 web_search 或查阅文档获取信息", "获取信息后用 memory_store 记录"],
                "evidence": [], "stats": {"total_memories": 0}, "fts5": found["fts5"]}
    count = len(items)
    avg_conf = sum(it["confidence_score"] for it in items) / count
    coverage = min(count / FULL_COVERAGE, 1.0)
    avg_recency = sum(it["recency_score"] for it in items) / count
    avg_consolidation = sum(float(it["consolidation_score"] or 0.0) for it in items) / count
    w_conf, w_cov, w_rec, w_cons = META_WEIGHTS
    meta = avg_conf * w_conf + coverage * w_cov + avg_recency * w_rec + avg_consolidation * w_cons
    level, message, suggestions = _level(topic, meta, count)
    evidence = sorted(items, key=lambda it: it["confidence_score"], reverse=True)[:5]
    return {
        "topic": topic, "confidence": level, "score": round(meta, 4), "message": message,
        "suggestions": suggestions,
        "evidence": [{"id": e["id"], "key": e["key"], "type": e["type"],
                      "confidence_level": e["confidence_level"], "access_count": e["access_count"],
                      "updated_at": e["updated_at"], "snippet": _snippet(e["content"])} for e in evidence],
        "stats": {"total_memories": count, "avg_confidence": round(avg_conf, 3),
                  "avg_recency": round(avg_recency, 3), "avg_consolidation": round(avg_consolidation, 3),
                  "coverage": round(coverage, 3)},
        "fts5": found["fts5"],
    }


def review_interval_days(access_count: int) -> int:
    count = int(access_count or 0)
    return 1 if count <= 0 else min(2 ** min(count, 7), MAX_INTERVAL_DAYS)


def importance(item: dict) -> float:
    return (item["confidence_score"] * 0.4 + float(item["consolidation_score"] or 0.0) * 0.3
            + abs(float(item["emotional_weight"] or 0.0)) * 0.3)


def review_due(store, *, type=None, min_importance=None, limit=None) -> dict:
    limit = check_limit(limit, 10)
    threshold = check_number("min_importance", min_importance, 0.0, 1.0)
    threshold = 0.5 if threshold is None else threshold
    now = store.now()
    due = []
    for item in store.scan(type=type):
        if item["is_stale"]:
            continue
        score = importance(item)
        if score < threshold:
            continue
        last = ranking.parse_dt(item["last_accessed_at"] or item["updated_at"]) or now
        interval = review_interval_days(item["access_count"])
        next_review = last + dt.timedelta(days=interval)
        if now >= next_review:
            overdue = (now - next_review).total_seconds() / 86400.0
            due.append(dict(item, next_review=next_review.isoformat(), days_overdue=round(overdue, 1),
                            importance=round(score, 3), interval_days=interval))
    due.sort(key=lambda it: it["importance"] * (1 + it["days_overdue"]), reverse=True)
    selected = due[:limit]
    if selected:
        contents = store.get_many(it["id"] for it in selected)
        for it in selected:
            it["content"] = contents.get(it["id"], {}).get("content")
    return {"items": selected, "total_due": len(due), "limit": limit, "min_importance": threshold}
