"""memtool as MCP tools: store, recall, contextual search, assess knowledge, knowledge map, review due.

All tools share one :class:`MemoryStore` (the server context's memtool database), used under a lock
because the SDK may run tools on worker threads. Reads are tracked as in the CLI; the buffered
access counts are flushed after every call.
"""

# No ``from __future__ import annotations``: the SDK builds each tool's input schema from these
# annotations, so they must be real objects, not strings to resolve in another module.
from ..memtool import knowledge_map, metacognition, recall
from ..search.unified import MEMTOOL_PREFIX
from . import params as p
from .answer import without_content


def tools(ctx) -> list:
    @p.tool("Store a structured memory", read_only=False, destructive=True, idempotent=False)
    def memory_store(content: p.Content, type: p.NewItemType = None, key: p.ItemKey = None, task_id: p.TaskId = None,
                     step_id: p.StepId = None, tags: p.ItemTags = None, source: p.ItemSource = None,
                     confidence: p.Confidence = None, weight: p.Weight = None, item_id: p.ItemId = None) -> dict:
        """Store a structured memory (memtool), in one of three layers (type). With item_id the
        item is updated (version + 1); with key it is upserted; otherwise a new item is created.
        Returns the id, version and the item's fields (not the content: content_chars), related
        items and possible duplicates."""
        layer = type if type is not None or item_id is not None else "project"
        return without_content(ctx.memtool(lambda store: store.put(
            content=content, item_id=_bare(item_id), type=layer, key=key, task_id=task_id, step_id=step_id,
            tags=tags, source=source, weight=weight, confidence=confidence)))

    @p.tool("Recall structured memories", read_only=True)
    def memory_recall(context: p.RecallContext = None, item_id: p.RecallItemId = None, task_id: p.RecallTaskId = None,
                      tags: p.FilterTags = None, key_prefix: p.KeyPrefix = None, type: p.ItemTypeFilter = None,
                      limit: p.memtool_limit("items", 10) = 10, include_stale: p.IncludeStale = False) -> dict:
        """Recall structured memories (memtool): with item_id, that one item in full; otherwise
        the memories most worth reading for what you are doing (context and the filters). Each
        item comes with recommend_score and recommend_reasons (context_match, high_confidence,
        recent, high_weight)."""
        if item_id:
            return ctx.memtool(lambda store: {"item": store.get(_bare(item_id))})
        return ctx.memtool(lambda store: recall.recommend(
            store, context=context, task_id=task_id, tags=tags, key_prefix=key_prefix, type=type,
            limit=limit, include_stale=include_stale))

    @p.tool("Search memories by situation", read_only=True)
    def memory_contextual_search(query: p.SituationQuery = None, context_tags: p.ContextTags = None,
                                 emotional_filter: p.Emotion = None, type: p.ItemTypeFilter = None,
                                 limit: p.memtool_limit("items", 10) = 10) -> dict:
        """Search memories by situation as well as words (memtool); give a query, context_tags or
        an emotional_filter. E.g. "the bug I debugged late last night" → context_tags
        ["late_night", "debugging"]; "how did I solve this last time" → emotional_filter "positive"."""
        return ctx.memtool(lambda store: recall.contextual_search(
            store, query, context_tags=context_tags, emotional_filter=emotional_filter, type=type,
            limit=limit))

    @p.tool("Assess what memory knows", read_only=True)
    def memory_assess_knowledge(topic: p.Topic, type: p.ItemTypeFilter = None) -> dict:
        """How much do I reliably remember about a topic (memtool)? Returns confidence
        high / medium / low / very_low / none, a score, a message, suggestions (e.g. to look it up
        first), the best evidence and stats. Use it before relying on memory for a decision."""
        return ctx.memtool(lambda store: metacognition.assess_knowledge(store, topic, type=type))

    @p.tool("Map related memories", read_only=True)
    def memory_knowledge_map(center_topic: p.Topic, depth: p.Depth = 2, min_score: p.MinScore = 0.3,
                             type: p.ItemTypeFilter = None) -> dict:
        """Map of related memories around a topic (memtool): nodes, edges, clusters and a Mermaid
        graph."""
        def run(store):
            graph = knowledge_map.build(store, center_topic, depth=depth, min_score=min_score, type=type)
            graph["mermaid"] = knowledge_map.to_mermaid(graph)
            return graph
        return ctx.memtool(run)

    @p.tool("Memories due for review", read_only=True)
    def memory_review_due(type: p.ItemTypeFilter = None, min_importance: p.MinImportance = 0.5,
                          limit: p.memtool_limit("items", 10) = 10) -> dict:
        """Important memories due for review by spaced repetition (memtool): interval 1 day, then
        2^reads days (at most 90) after the last read; ranked by importance and days overdue."""
        return ctx.memtool(lambda store: metacognition.review_due(
            store, type=type, min_importance=min_importance, limit=limit))

    return [memory_store, memory_recall, memory_contextual_search, memory_assess_knowledge,
            memory_knowledge_map, memory_review_due]


def _bare(item_id):
    """A memtool id as the store knows it: ``memtool:`` (memory_search's form) taken off."""
    if item_id and item_id.startswith(MEMTOOL_PREFIX):
        return item_id[len(MEMTOOL_PREFIX):]
    return item_id
