"""memtool: a structured SQLite memory store for agents (docs/stores.md § memtool).

Items have a layer (project / feature / run), an optional task_id / step_id / key, Markdown or JSON
content, tags, a source, a weight and a confidence; they are versioned, searchable with FTS5
(+ Chinese segmentation, LIKE fallback), ranked by confidence and a forgetting curve, consolidated
by use, tagged with their context and linked to related items.

Modules, one concern each: ``errors`` (memtool's codes) · ``tokens`` (segmentation, queries,
keywords) · ``schema`` (connection + named migrations) · ``ranking`` (scores, decay, consolidation)
· ``context`` (context extraction) · ``access`` (batched access tracking) · ``linking`` (related
ids) · ``store`` (MemoryStore) · ``transfer`` (export/import) · ``recall`` (recommend, contextual
search) · ``metacognition`` (assess-knowledge, review-due) · ``knowledge_map`` · ``cli``.
"""
