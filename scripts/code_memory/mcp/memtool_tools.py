"""memtool as MCP tools: store, recall, contextual search, assess knowledge, knowledge map, review due.

All tools share one :class:`MemoryStore` (the server context's memtool database), used under a lock
because the SDK may run tools on worker threads. Reads are tracked as in the CLI; the buffered
access counts are flushed after every call.
"""

# No ``from __future__ import annotations``: the SDK builds each tool's input schema from these
# annotations, so they must be real objects, not strings to resolve in another module.
from typing import List, Literal, Optional

from ..memtool import knowledge_map, metacognition, recall
from .answer import compact, without_content

ItemType = Literal["project", "feature", "run"]
Confidence = Literal["high", "medium", "low"]
Emotion = Literal["positive", "negative", "urgent"]


def tools(ctx) -> list:
    def memory_store(content: str, type: Optional[ItemType] = None, key: Optional[str] = None,
                     task_id: Optional[str] = None, step_id: Optional[str] = None,
                     tags: Optional[List[str]] = None, source: Optional[str] = None,
                     confidence: Optional[Confidence] = None, weight: Optional[float] = None,
                     item_id: Optional[str] = None) -> dict:
        """Store a structured memory (memtool). Layers: project = lasting facts (glossary, invariants,
        boundaries); feature = one requirement (goal_scope, contract, business_rules, scenarios,
        risk_notes); run = one execution (reproduction, stacktrace, logs_excerpt, diff_summary).
        With item_id the item is updated (version + 1) and keeps its type unless type is given; with
        key it is upserted on (type, key, task_id, step_id); otherwise a new item is created. type
        defaults to project for new items. Markdown content works best. Returns the id, version and
        the item's fields (not the content: content_chars), related items and possible duplicates."""
        layer = type if type is not None or item_id is not None else "project"
        return compact(without_content(ctx.memtool(lambda store: store.put(
            content=content, item_id=item_id, type=layer, key=key, task_id=task_id, step_id=step_id,
            tags=tags, source=source, weight=weight, confidence=confidence))))

    def memory_recall(context: Optional[str] = None, item_id: Optional[str] = None,
                      task_id: Optional[str] = None, tags: Optional[List[str]] = None,
                      key_prefix: Optional[str] = None, type: Optional[ItemType] = None,
                      limit: int = 10, include_stale: bool = False) -> dict:
        """Recall structured memories (memtool). With item_id: that one item in full. Otherwise the
        memories most worth reading for what you are doing: describe it in context and/or
        narrow by task_id, tags, key_prefix, type. Each item comes with recommend_score and
        recommend_reasons (context_match, high_confidence, recent, high_weight)."""
        if item_id:
            return compact(ctx.memtool(lambda store: {"item": store.get(item_id)}))
        return compact(ctx.memtool(lambda store: recall.recommend(
            store, context=context, task_id=task_id, tags=tags, key_prefix=key_prefix, type=type,
            limit=limit, include_stale=include_stale)))

    def memory_contextual_search(query: Optional[str] = None, context_tags: Optional[List[str]] = None,
                                 emotional_filter: Optional[Emotion] = None,
                                 type: Optional[ItemType] = None, limit: int = 10) -> dict:
        """Search memories by situation as well as words (memtool). context_tags: work_hours,
        late_night, weekend, positive, negative, urgent, calm, debugging, testing, api_design,
        data_model, performance, deployment, security. E.g. "the bug I debugged late last night" →
        context_tags ["late_night", "debugging"]; "how did I solve this last time" →
        emotional_filter "positive"."""
        return compact(ctx.memtool(lambda store: recall.contextual_search(
            store, query, context_tags=context_tags, emotional_filter=emotional_filter, type=type,
            limit=limit)))

    def memory_assess_knowledge(topic: str, type: Optional[ItemType] = None) -> dict:
        """How much do I reliably remember about a topic (memtool)? Returns confidence
        high / medium / low / very_low / none, a score, a message, suggestions (e.g. to look it up
        first), the best evidence and stats. Use it before relying on memory for a decision."""
        return compact(ctx.memtool(lambda store: metacognition.assess_knowledge(store, topic, type=type)))

    def memory_knowledge_map(center_topic: str, depth: int = 2, min_score: float = 0.3,
                             type: Optional[ItemType] = None) -> dict:
        """Map of related memories around a topic (memtool): nodes, edges, clusters and a Mermaid
        graph. depth counts layers of nodes (2 = the topic's memories and their neighbours)."""
        def run(store):
            graph = knowledge_map.build(store, center_topic, depth=depth, min_score=min_score, type=type)
            graph["mermaid"] = knowledge_map.to_mermaid(graph)
            return graph
        return compact(ctx.memtool(run))

    def memory_review_due(type: Optional[ItemType] = None, min_importance: float = 0.5,
                          limit: int = 10) -> dict:
        """Important memories due for review by spaced repetition (memtool): interval 1 day, then
        2^reads days (at most 90) after the last read; ranked by importance and days overdue."""
        return compact(ctx.memtool(lambda store: metacognition.review_due(
            store, type=type, min_importance=min_importance, limit=limit)))

    return [memory_store, memory_recall, memory_contextual_search, memory_assess_knowledge,
            memory_knowledge_map, memory_review_due]
