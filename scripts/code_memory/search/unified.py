"""One search over every store, and one get for what it returns (docs/search.md).

:func:`search_all` asks the memory index — the Markdown tree, the agent key-value keys and the
session's workspace (:func:`code_memory.search.engine.search_memory`, with its isolation: global
memory + this project + this workspace, never a quarantined key) — and memtool's database, and
merges the two ranked lists by reciprocal rank (memtool items that match only some of the words
count half). Every hit carries ``source`` (``memory``, ``workspace``, ``kv``, ``memtool``) and an
``id`` that :func:`get_by_id` (``memory_get`` / ``memory-search.py get --id``) reads back:

* a file's path (``memory``, ``workspace``) — read with its lines, as before;
* ``kv:<key>`` — the live value of the key;
* ``memtool:<item id>`` — the whole item.

Stores fail on their own: a corrupt memtool database leaves the Markdown results standing, and
``stores`` says which store failed and why; only when every asked store fails is the search an error.

With ``signals=True`` every hit carries ``signals`` — its raw evidence for a relevance gate
(:func:`code_memory.search.signals.hit_signals`). For memtool hits ``bm25`` is memtool's own BM25
score (not comparable with the index's), ``bm25_norm`` and ``cosine`` are None, and the terms are
matched as lower-cased substrings of the item's key and content.
"""

from __future__ import annotations

import os
import sqlite3

from ..errors import CodeMemoryError, invalid
from .index import INDEX_SOURCES

SOURCES = INDEX_SOURCES + ("memtool",)
RRF_K = 60
PARTIAL_MATCH_WEIGHT = 0.5      # a memtool item matching only some of the query's words
SNIPPET_CHARS = 700
KV_PREFIX, MEMTOOL_PREFIX = "kv:", "memtool:"


def parse_sources(values) -> tuple:
    """The sources asked for (``--source memtool,kv`` or a list), in canonical order; all when empty."""
    names = []
    for value in values or []:
        names += [v.strip() for v in str(value).split(",") if v.strip()]
    unknown = sorted(set(names) - set(SOURCES))
    if unknown:
        raise invalid(f"unknown source {', '.join(unknown)}", hint=f"one or more of {', '.join(SOURCES)}")
    return tuple(s for s in SOURCES if s in names) if names else SOURCES


class MemtoolAccess:
    """How the search reaches memtool: the database path, and optionally a runner that executes
    ``work(store)`` on an already open store (the MCP server's shared one, under its lock, and
    scoped by it). ``visible``: the projects whose items may be read (None: every project) — a
    search's scope, as the access policy set it."""

    def __init__(self, db_path: str, runner=None, visible=None):
        self.db_path = db_path
        self.runner = runner
        self.visible = visible

    def run(self, work):
        if self.runner is not None:
            return self.runner(work)
        from ..memtool.store import MemoryStore

        store = MemoryStore(self.db_path, create=False, visible=self.visible)
        try:
            return work(store)
        finally:
            store.flush_access()
            store.close()

    def exists(self) -> bool:
        return os.path.isfile(self.db_path)


def project_memtool(cfg, project: str | None, db_path: str | None = None) -> MemtoolAccess:
    """memtool's store (``db_path``: a caller's own, else by the shared rule) read within
    ``project``'s scope: global items and those of the project and its groups (none of a
    project's without one) — as the access policy scopes a project search."""
    from ..memtool.location import resolve_db
    from ..projects import readable_areas

    return MemtoolAccess(db_path or resolve_db(cfg)[0], visible=readable_areas(project, cfg.get("project_groups")))


def _memtool_hit(item: dict) -> dict:
    content = item.get("content") or ""
    snippet = content if len(content) <= SNIPPET_CHARS else content[:SNIPPET_CHARS - 1] + "…"
    heading = item.get("key") or f"{item.get('type')} item"
    return {"source": "memtool", "id": MEMTOOL_PREFIX + item["id"], "heading": heading, "snippet": snippet,
            "score": round(float(item.get("search_score") or 0.0), 6), "match": item.get("match"),
            "item": {k: item.get(k) for k in ("type", "key", "task_id", "step_id", "tags", "confidence_level",
                                              "updated_at")}}


def _query_terms(cfg, query: str, warm) -> list:
    """The query's terms as the index search makes them (when the index was not searched)."""
    from ..text.query import query_terms
    from ..text.segment import get_segmenter

    segmenter = warm.handle.segmenter if warm is not None and warm.handle is not None else get_segmenter()
    q = query_terms(query, segmenter)
    return q["terms"] + [p + "*" for p in q["prefixes"]]


def _memtool_signals(hits: list, items: list, terms: list) -> None:
    from .signals import hit_signals

    for hit, item in zip(hits, items):
        text = f"{item.get('key') or ''}\n{item.get('content') or ''}".lower()
        matched = [t for t in terms if t.rstrip("*").lower() in text]
        hit["signals"] = hit_signals(item.get("search_score"), None, matched, len(terms), None)


def _store_error(exc: Exception) -> dict:
    if isinstance(exc, CodeMemoryError):
        out = {"ok": False, "error": exc.code, "message": exc.message}
        if exc.hint:
            out["hint"] = exc.hint
        return out
    return {"ok": False, "error": "DB_ERROR", "message": f"the memtool database cannot be read ({type(exc).__name__})",
            "hint": "check it with `memtool list`; restore it from an export if it is corrupted"}


def _fuse(lists: list, top_k: int) -> list:
    """Reciprocal-rank merge of ``[(hits, weight_of(hit))]``; earlier lists win ties."""
    scored = []
    for order, (hits, weight) in enumerate(lists):
        for rank, hit in enumerate(hits, 1):
            scored.append((-weight(hit) / (RRF_K + rank), order, rank, hit))
    scored.sort(key=lambda row: row[:3])
    return [row[3] for row in scored[:top_k]]


def search_all(cfg, query: str, *, memtool: MemtoolAccess | None, sources=None, mode: str | None = None,
               top_k: int | None = None, scope: str = "project", project: str | None = None,
               workspace: str | None = None, refresh_index: bool = True, signals: bool = False,
               warm=None) -> dict:
    """Search every store asked for (``sources``, default all); the answer is the index search's
    (mode, degraded, index report, …) with the merged ``results`` and a ``stores`` report.
    ``signals``: each hit's raw evidence; ``warm``: the warm server's open index (see
    :func:`.engine.search_memory`)."""
    from .engine import MAX_TOP_K, search_memory

    wanted = parse_sources(sources)
    if not isinstance(query, str) or not query.strip():
        raise invalid("the query is empty", hint="pass the text to search for")
    if top_k is not None and not 1 <= int(top_k) <= MAX_TOP_K:
        raise invalid(f"top_k must be between 1 and {MAX_TOP_K}")
    limit = int(top_k or cfg.get_path("search.top_k") or 6)
    answer: dict = {"ok": True}
    stores: dict = {}
    errors: list = []               # (store, exception) of the stores that failed
    index_hits: list = []
    index_sources = [s for s in wanted if s in INDEX_SOURCES]
    if index_sources:
        try:
            found = search_memory(cfg, query, mode=mode, top_k=limit, scope=scope, project=project,
                                  workspace=workspace, refresh_index=refresh_index, sources=index_sources,
                                  signals=signals, warm=warm)
            index_hits = found.pop("results")
            answer.update({k: v for k, v in found.items() if k != "ok"})
            stores["index"] = {"ok": True, "sources": index_sources, "count": len(index_hits)}
        except CodeMemoryError as exc:
            if exc.code == "INVALID_ARGUMENT":
                raise
            stores["index"] = {**_store_error(exc), "sources": index_sources}
            errors.append(exc)
    memtool_hits: list = []
    if "memtool" in wanted:
        if memtool is None or not memtool.exists():
            stores["memtool"] = {"ok": True, "count": 0, "searched": False, "note": "no memtool database yet"}
        else:
            try:
                found = memtool.run(lambda store: store.search(query, limit=limit))
                memtool_hits = [_memtool_hit(item) for item in found["items"]]
                if signals:
                    _memtool_signals(memtool_hits, found["items"], answer.get("query_terms_list")
                                     or _query_terms(cfg, query, warm))
                stores["memtool"] = {"ok": True, "count": len(memtool_hits), "fts5": found.get("fts5")}
            except (CodeMemoryError, sqlite3.Error) as exc:
                if isinstance(exc, CodeMemoryError) and exc.code in ("INVALID_ARGUMENT", "PARAM_ERROR"):
                    raise
                stores["memtool"] = _store_error(exc)
                errors.append(exc)
    failed = [name for name, report in stores.items() if not report["ok"]]
    if failed and not any(r["ok"] and r.get("searched", True) for r in stores.values()):
        first = errors[0]   # nothing answered: the (first) store's own error, with every store's report
        if isinstance(first, CodeMemoryError):
            raise CodeMemoryError(first.code, first.message, hint=first.hint, **first.extra, stores=stores)
        raise CodeMemoryError("MEMORY_SEARCH_FAILED", "no store could be searched", stores=stores)
    if failed:
        answer.setdefault("degraded", {})["stores"] = f"not searched: {', '.join(failed)} (see stores)"
    answer["results"] = _fuse([(index_hits, lambda hit: 1.0),
                               (memtool_hits, lambda hit: 1.0 if hit["match"] in (None, "all") else PARTIAL_MATCH_WEIGHT)],
                              limit)
    answer["sources"] = list(wanted)
    answer["stores"] = stores
    answer.setdefault("scope", scope)
    answer.setdefault("project", project)
    return answer


def kind_of(item_id: str) -> str:
    """``kv``, ``memtool`` or ``file`` for an id as returned by :func:`search_all`."""
    if item_id.startswith(KV_PREFIX):
        return "kv"
    if item_id.startswith(MEMTOOL_PREFIX):
        return "memtool"
    return "file"


def get_by_id(cfg, item_id: str, memtool: MemtoolAccess | None) -> dict:
    """The whole value behind a ``kv:`` or ``memtool:`` id (files are read by the edges, which
    know the session's allowed roots). A quarantined key is never served."""
    if not isinstance(item_id, str) or not item_id.strip():
        raise invalid("the id is empty", hint="pass an id as memory_search returned it")
    kind = kind_of(item_id)
    if kind == "kv":
        from ..kv.keys import normalize_key
        from ..kv.provenance import is_quarantined
        from ..kv.view import get

        key = normalize_key(item_id[len(KV_PREFIX):])
        if is_quarantined(key):
            raise CodeMemoryError("NOT_FOUND", "quarantined keys are not served here",
                                  hint="they hold content without provenance; `code-memory kv get KEY` shows it "
                                       "to you in a terminal")
        return {"ok": True, "source": "kv", "id": KV_PREFIX + key, "entry": get(cfg.root, key)}
    if kind == "memtool":
        if memtool is None or not memtool.exists():
            raise CodeMemoryError("NOT_FOUND", "there is no memtool database yet")
        ident = item_id[len(MEMTOOL_PREFIX):]
        return {"ok": True, "source": "memtool", "id": item_id, "item": memtool.run(lambda store: store.get(ident))}
    raise invalid("not a kv: or memtool: id", hint="read files with their path")
