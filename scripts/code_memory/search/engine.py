"""Search over the memory index: BM25 (FTS5), vectors (fastembed), and their fusion.

``search_memory(cfg, query, …)`` is the one entry point the CLI, the MCP server and the hooks use.
It opens the index (rebuilding a missing or corrupted one and saying so), brings it up to date
cheaply (search/freshness.py: the change journal and directory mtimes, a full sweep only when one
is due), ranks, and returns hits with path + line range + snippet. Degradations (no model, no FTS5)
are reported in the answer, never raised. A long-lived process (the warm search server) passes
``warm=``: an index it keeps open and up to date itself.

With ``signals=True`` every hit also carries the raw evidence a relevance gate needs
(search/signals.py): the raw BM25 score, that score as a share of the query's ideal score, which
query terms the chunk matches, and the cosine when vectors ranked.

Fusion (hybrid mode): see :func:`fuse` — the BM25 list leads, the vector list contributes through
weighted reciprocal rank fusion plus a bonus for agreement, because on real data (LoCoMo) plain
RRF of a strong BM25 list and a weak vector list is worse than BM25 alone.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass, field

from ..config import DEFAULTS, section_values, setting
from ..errors import CodeMemoryError
from ..fsutil import open_regular
from ..paths import is_memory_root, resolve_inside
from ..text import query as querytext
from ..text.segment import Segmenter, get_segmenter
from .freshness import freshen, refresh
from .index import (
    IndexCorrupted,
    IndexDB,
    Source,
    chunk_source,
    desired_segmenter,
    index_writable,
    open_index,
    open_read_only,
    remove_index_files,
    scope_filter,
    source_filter,
)
from .signals import QuerySignals

MODES = ("auto", "bm25", "vector", "hybrid")
MAX_GET_LINES = 200
MAX_TOP_K = 100           # the most hits one search returns (every door: CLI, MCP, hooks)
DEFAULT_GET_LINES = 40


_SEARCH, _INDEX = DEFAULTS["search"], DEFAULTS["index"]


@dataclass
class SearchOptions:
    """The ``search`` and ``index`` config sections as values (defaults: config.DEFAULTS)."""

    top_k: int = _SEARCH["top_k"]
    rrf_k: int = _SEARCH["rrf_k"]
    candidates: int = _SEARCH["candidates"]
    snippet_chars: int = _SEARCH["snippet_chars"]
    heading_weight: float = _SEARCH["heading_weight"]
    title_weight: float = _SEARCH["title_weight"]
    fusion: str = _SEARCH["fusion"]
    fusion_alpha: float = _SEARCH["fusion_alpha"]
    vector_weight: float = _SEARCH["vector_weight"]
    window_lines: int = _INDEX["window_lines"]
    max_file_bytes: int = _INDEX["max_file_bytes"]
    auto_rebuild: bool = _INDEX["auto_rebuild"]
    sweep_seconds: float = _INDEX["sweep_seconds"]
    cache_dir: str | None = None
    memory_root: str | None = None      # set: hits are annotated with the experiences they show
    feedback_boost: float = 0.0         # feedback.search_boost (docs/evolution.md); 0 = off


def options_from_config(cfg) -> SearchOptions:
    fields = SearchOptions.__dataclass_fields__
    values = {**section_values("search", cfg.get("search"), fields), **section_values("index", cfg.get("index"), fields)}
    values["snippet_chars"] = min(700, values["snippet_chars"])
    return SearchOptions(**values, memory_root=cfg.root,
                         feedback_boost=float(cfg.get_path("feedback.search_boost") or 0.0))


# ---------------------------------------------------------------------------------------------
# index lifecycle

@dataclass
class IndexHandle:
    db: IndexDB
    report: dict = field(default_factory=dict)
    segmenter: Segmenter | None = None     # the index's segmenter, when checking it loaded it


def ensure_index(index_path: str, sources: list, opts: SearchOptions, *, full: bool = False,
                 refresh_now: bool = True, busy_ms: int | None = None, upgrade: bool = False,
                 sweep: bool = False) -> IndexHandle:
    """Open the index, rebuilding it when missing, corrupted or built with an unavailable
    segmenter, then bring it up to date: a sweep of every file when ``sweep`` or ``full`` (the
    ``index`` command) or when one is due, else the cheap catch-up (``refresh_now``; see
    search/freshness.py). ``report`` says what happened (``rebuilt`` with a reason).

    ``upgrade`` (the ``index`` command) also rebuilds when a better segmenter is now available
    (jieba installed after the index was built with bigrams); searches keep the recorded one."""
    report: dict = {}
    if opts.memory_root and not is_memory_root(opts.memory_root):
        return _read_only_index(index_path, sources, opts, why=f"{opts.memory_root} is not a memory root "
                                "(code-memory init makes one); nothing is written there")
    if not index_writable(index_path):
        return _read_only_index(index_path, sources, opts)
    existed = os.path.exists(index_path)
    segmenter = None
    try:
        db = open_index(index_path)
    except IndexCorrupted as exc:
        if disk_full(exc, index_path):    # not corrupted: the disk is full — never delete it for that
            return _read_only_index(index_path, sources, opts, why="the disk is full")
        if existed and _cannot_write(str(exc)):     # nor for any other failure to write (EFBIG, EIO)
            return _read_only_index(index_path, sources, opts, why=f"the index cannot be written ({str(exc)[:80]})")
        if not opts.auto_rebuild:
            raise CodeMemoryError("MEMORY_INDEX_CORRUPTED", f"the index is unusable ({exc})",
                                  hint="run: memory-search.py index --full") from None
        remove_index_files(index_path)
        db = open_index(index_path)
        report["rebuilt"] = f"index was corrupted or incompatible ({str(exc)[:80]})"
        full = True
    if not existed:
        report["rebuilt"] = "index was missing"
    if db.meta("segmenter") is None:
        db.set_meta("segmenter", desired_segmenter(opts.cache_dir))
        db.conn.commit()
    else:
        new = desired_segmenter(opts.cache_dir) if upgrade else None
        try:
            segmenter = get_segmenter(db.segmenter_name, cache_dir=opts.cache_dir)
            # only ever towards a jieba dictionary: a plain checkout without jieba must not downgrade
            # an index the venv built (and the two must not rebuild it back and forth)
            stale = upgrade and new != db.segmenter_name and new.startswith("jieba-dict:")
        except LookupError:
            new = new or desired_segmenter(opts.cache_dir)
            stale = True
        if stale:
            segmenter = None
            report["rebuilt"] = f"segmenter changed from {db.segmenter_name} to {new}"
            db.close()
            remove_index_files(index_path)
            db = open_index(index_path)
            db.set_meta("segmenter", new)
            db.conn.commit()
            full = True
    if refresh_now or full or sweep or report.get("rebuilt"):
        try:
            if full or sweep or report.get("rebuilt"):
                stats = refresh(db, sources, full=full, window_lines=opts.window_lines,
                                max_file_bytes=opts.max_file_bytes, cache_dir=opts.cache_dir, busy_ms=busy_ms)
            else:
                stats = freshen(db, sources, sweep_seconds=opts.sweep_seconds, window_lines=opts.window_lines,
                                max_file_bytes=opts.max_file_bytes, cache_dir=opts.cache_dir, busy_ms=busy_ms)
            report["refresh"] = {k: v for k, v in stats.items() if v or k == "elapsed_ms"}
        except sqlite3.OperationalError as exc:
            if disk_full(exc, index_path):   # a read must not fail for want of space: the index as it is
                db.conn.rollback()
                if report.get("rebuilt"):
                    db.close()
                    return _read_only_index(index_path, sources, opts, why="the disk is full")
            report["refresh"] = {"skipped": refresh_failure(exc, index_path)}
    return IndexHandle(db, report, segmenter)


def refresh_failure(exc: sqlite3.OperationalError, index_path: str | None = None) -> str:
    """Why the index could not be brought up to date, when that is a passing condition — another
    process is writing it, the disk is full — and a search answers from the index as it is;
    anything else is re-raised."""
    if disk_full(exc, index_path):
        return "the disk is full: searching the index as it was"
    text = str(exc)
    if "locked" in text or "busy" in text:
        return "the index is being updated by another process"
    if "readonly" in text:
        return f"the index could not be updated ({text}); searching it as it is"
    raise exc


def disk_full(exc: BaseException, path: str | None = None) -> bool:
    """Whether ``exc`` says the disk (or the quota) is full: ENOSPC / EDQUOT, SQLite's words — or,
    for an I/O error (what SQLite says when it cannot grow its shared-memory file), no free block
    left where ``path`` lives."""
    import errno
    text = str(exc).lower()
    if getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT) or "disk is full" in text \
            or "no space left" in text:
        return True
    if path and "i/o error" in text:
        try:
            st = os.statvfs(os.path.dirname(path) or ".")
        except OSError:
            return False
        return st.f_bavail == 0 or st.f_favail == 0
    return False


# what SQLite says when it cannot write (a file size limit, an I/O error, no room for the WAL's
# shared memory), as opposed to a file that is not a usable index
_WRITE_FAILURES = ("disk i/o error", "database or disk is full", "unable to open database file", "readonly")


def _cannot_write(message: str) -> bool:
    return any(text in message.lower() for text in _WRITE_FAILURES)


def _read_only_index(index_path: str, sources: list, opts: SearchOptions,
                     why: str = "the memory root is not writable") -> IndexHandle:
    """A memory root that cannot be written (read-only, or a full disk) still answers: the index
    as it is, never deleted or rebuilt in place; without a usable one, an index built in memory for
    this search. Reported as ``read_only`` in the answer."""
    db, how = open_read_only(index_path)
    report = {"read_only": f"{why}: searching the index {how}"}
    if how == "in memory":
        db.set_meta("segmenter", desired_segmenter(opts.cache_dir))
        db.conn.commit()
        refresh(db, sources, full=True, window_lines=opts.window_lines, max_file_bytes=opts.max_file_bytes,
                cache_dir=opts.cache_dir)
    return IndexHandle(db, report, None)


# ---------------------------------------------------------------------------------------------
# ranking

def bm25_ranked(db: IndexDB, terms: list, prefixes: list, opts: SearchOptions, limit: int,
                scope: str, project: str | None, workspace: str | None, sources=None) -> list:
    """[(chunk_id, score)] best first; score = -bm25 (higher is better)."""
    if not terms and not prefixes:
        return []
    where, params = scope_filter(scope, project, workspace)
    only = source_filter(sources)
    if only:
        where = f"{where} AND {only}"
    if db.fts:
        expr = querytext.match_expression(terms, prefixes)
        sql = (f"SELECT c.chunk_id, bm25(chunks_fts, ?, ?, 1.0) AS s FROM chunks_fts"
               f" JOIN chunks c ON c.chunk_id = chunks_fts.rowid"
               f" WHERE chunks_fts MATCH ? AND {where} ORDER BY s LIMIT ?")
        rows = db.conn.execute(sql, [opts.heading_weight, opts.title_weight, expr, *params, limit]).fetchall()
        return [(cid, -s) for cid, s in rows]
    return like_ranked(db, terms, prefixes, limit, where, params)


def like_ranked(db: IndexDB, terms: list, prefixes: list, limit: int, where: str, params: list) -> list:
    """The no-FTS5 fallback: chunks containing any term, ranked by how many distinct terms match
    (headings count double)."""
    patterns = querytext.like_patterns(terms, prefixes)[:16]
    if not patterns:
        return []
    score_sql = " + ".join(["(CASE WHEN c.text LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END)"
                            " + (CASE WHEN c.heading LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END)"] * len(patterns))
    any_sql = " OR ".join(["c.text LIKE ? ESCAPE '\\' OR c.heading LIKE ? ESCAPE '\\'"] * len(patterns))
    score_params = [p for pat in patterns for p in (pat, pat)]
    sql = (f"SELECT c.chunk_id, ({score_sql}) AS s FROM chunks c WHERE ({any_sql}) AND {where}"
           f" ORDER BY s DESC, c.chunk_id LIMIT ?")
    return [(cid, float(s)) for cid, s in db.conn.execute(sql, score_params + score_params + params + [limit])]


def fuse(bm25: list, vector: list, cosines: dict, opts: SearchOptions) -> list:
    """Fuse the BM25 and vector lists. Returns [(chunk_id, score, bm25 rank, vector rank)] best first.

    ``convex`` (default): over the union of both candidate lists, min-max normalise each signal and
    score ``alpha * bm25 + (1 - alpha) * cosine`` (alpha = ``search.fusion_alpha``, 0.5). A
    candidate BM25 did not match gets 0 for BM25; every candidate gets its real cosine
    (``cosines``), so agreement between the two signals lifts a chunk — a reranking within the
    candidates rather than a vote between ranks. On LoCoMo this protects the stronger BM25 list
    where plain RRF loses to BM25 alone (see BENCHMARKS.md).
    ``rrf``: reciprocal rank fusion, ``1/(k + rank_bm25) + vector_weight/(k + rank_vector)``.
    """
    ranks_b = {cid: r for r, (cid, _) in enumerate(bm25, 1)}
    ranks_v = {cid: r for r, (cid, _) in enumerate(vector, 1)}
    cands = list(dict.fromkeys([c for c, _ in bm25] + [c for c, _ in vector]))
    if not cands:
        return []
    fused = {}
    if opts.fusion == "rrf":
        k, w = opts.rrf_k, opts.vector_weight
        for cid in cands:
            fused[cid] = ((1.0 / (k + ranks_b[cid]) if cid in ranks_b else 0.0)
                          + (w / (k + ranks_v[cid]) if cid in ranks_v else 0.0))
    else:
        b = dict(bm25)
        cos = {c: cosines.get(c, 0.0) for c in cands}
        cos.update(dict(vector))
        b_lo, b_hi = (min(b.values()), max(b.values())) if b else (0.0, 0.0)
        c_lo, c_hi = min(cos.values()), max(cos.values())
        alpha = opts.fusion_alpha
        for cid in cands:
            nb = 0.0 if cid not in b else ((b[cid] - b_lo) / (b_hi - b_lo) if b_hi > b_lo else 1.0)
            nc = (cos[cid] - c_lo) / (c_hi - c_lo) if c_hi > c_lo else 1.0
            fused[cid] = alpha * nb + (1 - alpha) * nc
    order = sorted(cands, key=lambda c: (-fused[c], ranks_b.get(c, 10**9), ranks_v.get(c, 10**9)))
    return [(c, fused[c], ranks_b.get(c), ranks_v.get(c)) for c in order]


# ---------------------------------------------------------------------------------------------
# vectors: in-process or through the warm daemon

INLINE_EMBED_LIMIT = 64


class InProcessVectors:
    """Loads the model in this process (``--batch``, or the daemon disabled). Chunks not embedded
    yet are embedded inline when they are few; otherwise ``note`` says to run ``index``."""

    def __init__(self, spec):
        from .embed import load_model

        self.embedder = load_model(spec)
        self.spec = self.embedder.spec
        self._matrices = {}

    def ranked(self, db: IndexDB, query: str, k: int, scope, project, workspace, score_ids=()) -> tuple:
        """([(chunk_id, cosine)] best first within the scope, {chunk_id: cosine} for ``score_ids``)."""
        from .vectors import VectorMatrix

        matrix = self._matrices.setdefault(db.path, VectorMatrix(self.spec.key))
        from .embed import missing_count

        missing = missing_count(db.conn, self.spec.key)
        self.note = None
        if missing and missing <= INLINE_EMBED_LIMIT:
            from .embed import update_vectors
            update_vectors(db, self.embedder)
        elif missing:
            self.note = f"{missing} chunks have no vector yet; run: memory-search.py index"
        qvec = self.embedder.embed_query(query)
        top = matrix.search(db.conn, qvec, k, scope, project, workspace)
        return top, matrix.scores_for(qvec, list(score_ids))


# ---------------------------------------------------------------------------------------------
# hits

def snippet_for(text: str, terms: list, limit: int) -> str:
    if len(text) <= limit:
        return text
    low = text.lower()
    first = min((p for p in (low.find(t.lower()) for t in terms if t) if p >= 0), default=0)
    start = max(0, first - limit // 4)
    if start:
        nl = text.rfind("\n", start - 80, first)
        start = nl + 1 if nl >= 0 and first - nl < limit // 2 else start
    piece = text[start:start + limit]
    if start:
        piece = "…" + piece[1:]
    if start + limit < len(text):
        piece = piece[:-1] + "…"
    return piece


def hits_for(db: IndexDB, ranked: list, terms: list, opts: SearchOptions, signals=None) -> list:
    """``ranked`` = [(chunk_id, score, bm25_rank, vector_rank)] → result dicts in that order
    (``signals``: the query's :class:`QuerySignals`, whose evidence is added to each hit)."""
    if not ranked:
        return []
    ids = [r[0] for r in ranked]
    marks = ",".join("?" * len(ids))
    rows = {r[0]: r for r in db.conn.execute(
        f"SELECT c.chunk_id, d.path, c.start_line, c.end_line, c.heading, c.text, c.category, c.project,"
        f" c.workspace_id, d.rel_path FROM chunks c JOIN documents d ON d.doc_id = c.doc_id"
        f" WHERE c.chunk_id IN ({marks})", ids)}
    out = []
    for cid, score, rank_b, rank_v in ranked:
        row = rows.get(cid)
        if not row:
            continue
        _, path, start, end, heading, text, category, project, workspace, rel = row
        source = chunk_source(category, workspace)
        out.append({
            "source": source, "id": f"kv:{heading}" if source == "kv" else path,
            "path": path, "rel_path": rel, "start_line": start, "end_line": end, "heading": heading,
            "snippet": snippet_for(text, terms, opts.snippet_chars), "score": round(float(score), 6),
            "ranks": {"bm25": rank_b, "vector": rank_v}, "category": category, "project": project,
            "workspace": workspace,
        })
        if signals is not None:
            out[-1]["signals"] = signals.per_chunk[cid]
    return out


# ---------------------------------------------------------------------------------------------
# the entry points

def _only_sources(db: IndexDB, ranked: list, sources) -> list:
    """``ranked`` [(chunk_id, …)] without the chunks of sources not asked for (the vector list is
    ranked over every source; BM25 filters in SQL)."""
    only = source_filter(sources)
    if not only or not ranked:
        return ranked
    ids = [r[0] for r in ranked]
    keep = {row[0] for row in db.conn.execute(
        f"SELECT c.chunk_id FROM chunks c WHERE c.chunk_id IN ({','.join('?' * len(ids))}) AND {only}", ids)}
    return [r for r in ranked if r[0] in keep]


def run_query(db: IndexDB, query: str, mode: str, opts: SearchOptions, scope: str, project: str | None,
              workspace: str | None, vectors=None, segmenter: Segmenter | None = None, sources=None,
              signals: bool = False) -> dict:
    """Rank one query against an open index. ``vectors`` ranks by embedding (or is None);
    ``segmenter`` is the index's (``IndexHandle.segmenter``), loaded here when None; ``sources``
    keeps only the chunks of those index sources (``memory``, ``workspace``, ``kv``; None = all);
    ``signals`` adds each hit's raw evidence (search/signals.py) and the query's terms."""
    if not isinstance(query, str) or not query.strip():
        raise CodeMemoryError("INVALID_ARGUMENT", "the query is empty", hint="pass the text to search for")
    started = time.monotonic()
    if segmenter is None:
        segmenter = get_segmenter(db.segmenter_name, cache_dir=opts.cache_dir)
    q = querytext.query_terms(query, segmenter)
    answer: dict = {"ok": True, "query_terms": len(q["terms"]) + len(q["prefixes"])}
    if q["truncated"]:
        answer["query_truncated"] = querytext.MAX_QUERY_CHARS
    if not db.fts:
        answer.setdefault("degraded", {})["fts"] = "FTS5 is not available in this SQLite; using LIKE"
    depth = max(opts.candidates, opts.top_k)
    bm25 = [] if mode == "vector" and vectors else bm25_ranked(db, q["terms"], q["prefixes"], opts, depth,
                                                               scope, project, workspace, sources)
    vec, cosines = [], {}
    if mode in ("vector", "hybrid") and vectors is not None:
        vec, cosines = vectors.ranked(db, query[:querytext.MAX_QUERY_CHARS], depth, scope, project, workspace,
                                      [c for c, _ in bm25] if mode == "hybrid" else ())
        vec = _only_sources(db, vec, sources)
    if getattr(vectors, "note", None):
        answer.setdefault("degraded", {})["vector"] = vectors.note
    if mode == "hybrid":
        ranked = fuse(bm25, vec, cosines, opts)
    elif mode == "vector":
        ranked = [(cid, s, None, r) for r, (cid, s) in enumerate(vec, 1)]
    else:
        ranked = [(cid, s, r, None) for r, (cid, s) in enumerate(bm25, 1)]
    answer["mode_used"] = mode
    evidence = QuerySignals(db, q["terms"], q["prefixes"], bm25, vec, cosines) if signals else None
    answer["results"] = _with_feedback(db, ranked, q["terms"] + q["prefixes"], opts, evidence)
    if evidence is not None:
        answer["query_terms_list"] = evidence.terms
    if not q["terms"] and not q["prefixes"]:
        answer["note"] = "the query has no searchable words"
    answer["elapsed_ms"] = round((time.monotonic() - started) * 1000, 1)
    return answer


def _with_feedback(db: IndexDB, ranked: list, terms: list, opts: SearchOptions,
                   evidence: QuerySignals | None = None) -> list:
    """The top hits, annotated with the experiences they show and re-ranked by their feedback
    scores (search_feedback); exactly ``hits_for(ranked[:top_k])`` when nothing is scored.
    ``evidence``: add each hit's signals."""
    if not opts.memory_root:
        if evidence is not None:
            evidence.compute([r[0] for r in ranked[:opts.top_k]])
        return hits_for(db, ranked[:opts.top_k], terms, opts, evidence)
    from ..evolution.feedback import load_score_cache
    from ..paths import MemoryPaths
    from .feedback_boost import annotate_and_rerank

    cache = load_score_cache(MemoryPaths(opts.memory_root)) if opts.feedback_boost else {}
    pool = opts.top_k + (max(opts.top_k, 10) if cache.get("experiences") else 0)
    if evidence is not None:
        evidence.compute([r[0] for r in ranked[:pool]])
    hits = hits_for(db, ranked[:pool], terms, opts, evidence)
    return annotate_and_rerank(hits, opts.memory_root, cache, opts.feedback_boost)[:opts.top_k]


def get_lines(allowed_roots: list, path: str, from_line: int = 1, lines: int = DEFAULT_GET_LINES,
              base: str | None = None) -> dict:
    """Exact lines of a memory file. ``path`` must resolve (symlinks included) inside one of
    ``allowed_roots``; 1-based ``from_line``; at most 200 lines."""
    if not isinstance(path, str) or not path:
        raise CodeMemoryError("INVALID_ARGUMENT", "--path is required")
    if from_line < 1:
        raise CodeMemoryError("INVALID_ARGUMENT", "--from is 1-based and must be ≥ 1")
    if lines < 1:
        raise CodeMemoryError("INVALID_ARGUMENT", "--lines must be ≥ 1")
    real = resolve_inside(path, allowed_roots, base=base)
    if not os.path.isfile(real):
        raise CodeMemoryError("MEMORY_FILE_NOT_FOUND", "no such memory file", path=path)
    clamped = lines > MAX_GET_LINES
    lines = min(lines, MAX_GET_LINES)
    try:
        with open_regular(real) as fh:
            data = fh.read()
    except OSError as exc:
        raise CodeMemoryError("MEMORY_READ_FAILED", f"cannot read the file ({exc.strerror})", path=path) from None
    all_lines = data.decode("utf-8", errors="replace").split("\n")
    if all_lines and all_lines[-1] == "":
        all_lines.pop()
    chosen = all_lines[from_line - 1:from_line - 1 + lines]
    out = {"ok": True, "path": real, "from_line": from_line, "lines": len(chosen),
           "total_lines": len(all_lines), "text": "\n".join(chosen)}
    if clamped:
        out["clamped_to"] = MAX_GET_LINES
    return out


# ---------------------------------------------------------------------------------------------
# the service entry points used by the CLI, MCP server and hooks

def index_sources(cfg) -> list:
    """What the index covers: the memory root and every registered workspace (workspaces.paths)."""
    from ..workspace.registry import registry_from_config
    return [Source(cfg.root)] + [Source.of_workspace(ws) for ws in registry_from_config(cfg).workspaces]


def resolve_mode(requested: str | None, cfg) -> str:
    mode = requested or cfg.get_path("search.default_mode")
    if mode not in MODES:
        raise CodeMemoryError("INVALID_ARGUMENT", f"unknown mode {mode!r}", hint="bm25, vector, hybrid or auto")
    return mode


def vector_backend(cfg, index_dir: str):
    """The vector ranker for this configuration, or (None, reason) when vectors are unavailable.

    Never slow when the model is missing: a model that failed before is remembered and answered at
    once (its background retry started at most once an hour), and a hub model that is not in the
    cache at all is not waited for — its download starts in the background."""
    from . import embed

    ecfg = cfg.get("embedding", {})
    if not setting(ecfg, "embedding.enabled"):
        return None, "vectors are disabled (embedding.enabled = false)"
    spec = embed.spec_from_config(ecfg)
    reason = embed.quick_check(spec)
    if reason:
        return None, reason
    endpoint = ecfg.get("endpoint")
    daemon_on = setting(ecfg, "embedding.daemon")
    record = embed.failure_record(index_dir, spec)
    if record is None and not embed.model_cached(spec):
        embed.remember_failure(index_dir, spec, f"model {spec.name} is not downloaded yet")
        record = embed.failure_record(index_dir, spec)
        record["at"] = 0    # not an attempt: fetch it now
    if record is not None:
        from .daemon import running
        if daemon_on and running(spec):     # a retry (or `model fetch`) brought it back
            embed.forget_failure(index_dir, spec)
        else:
            if embed.retry_due(record) and embed.start_background_fetch(index_dir, spec, endpoint):
                return None, f"{record['reason']} — trying again in the background now (downloading if needed)"
            return None, (f"{record['reason']} — vectors are off; retried in the background at most once an "
                          f"hour, `code-memory model fetch` tries now")
    if daemon_on:
        from .daemon import DaemonUnavailable, DaemonVectors
        try:
            return DaemonVectors.connect(spec, idle_seconds=float(setting(ecfg, "embedding.daemon_idle_seconds")),
                                         wait_seconds=setting(ecfg, "embedding.daemon_start_wait_seconds")), None
        except DaemonUnavailable as exc:
            if exc.model_failed:
                embed.remember_failure(index_dir, spec, str(exc))
                return None, str(exc)
    try:
        return InProcessVectors(spec), None
    except embed.EmbeddingUnavailable as exc:
        embed.remember_failure(index_dir, spec, str(exc))
        return None, str(exc)


def pick_backend(cfg, requested: str) -> tuple:
    """(vectors or None, the mode to run, the reason vectors are missing or None) for a resolved
    mode: ``auto`` runs hybrid with vectors; without vectors every mode but ``bm25`` runs bm25 and
    says why (the reason is in every answer while vectors are off)."""
    if requested not in ("auto", "vector", "hybrid"):
        return None, requested, None
    vectors, reason = vector_backend(cfg, cfg.paths.index_dir)
    if vectors is None:
        return None, "bm25", reason     # auto too: every answer says why vectors are off
    return vectors, "hybrid" if requested == "auto" else requested, None


def search_memory(cfg, query: str, *, mode: str | None = None, top_k: int | None = None, scope: str = "project",
                  project: str | None = None, workspace: str | None = None, refresh_index: bool = True,
                  sources=None, signals: bool = False, warm=None) -> dict:
    """Search the memory index; the answer is exactly what ``memory-search.py`` prints.

    ``scope="project"`` sees global memory + ``project`` (+ ``workspace``); ``scope="all"`` sees
    everything and is for the CLI's explicit ``--scope all --force`` only. ``signals``: each hit's
    raw evidence (search/signals.py). ``warm``: an object whose ``handle`` (:class:`IndexHandle`)
    is an index kept open and up to date by a long-lived process (search/server.py) — used as it
    is, neither refreshed nor closed here.
    """
    if not isinstance(query, str) or not query.strip():
        raise CodeMemoryError("INVALID_ARGUMENT", "the query is empty", hint="pass the text to search for")
    if scope not in ("project", "all"):
        raise CodeMemoryError("INVALID_ARGUMENT", f"unknown scope {scope!r}", hint="project or all")
    opts = options_from_config(cfg)
    if top_k is not None:
        if top_k < 1 or top_k > MAX_TOP_K:
            raise CodeMemoryError("INVALID_ARGUMENT", f"top_k must be between 1 and {MAX_TOP_K}")
        opts.top_k = top_k
    requested = resolve_mode(mode, cfg)
    handle = warm.handle if warm is not None else open_for_search(cfg.paths.index_db, index_sources(cfg), opts,
                                                                   refresh_index)
    vectors, used, degraded = pick_backend(cfg, requested)
    try:
        try:
            answer = run_query(handle.db, query, used, opts, scope, project, workspace, vectors, handle.segmenter,
                               sources, signals)
        except _vector_failures() as exc:      # the embedding daemon went away mid-search: BM25 now
            degraded = f"vectors failed during the search ({exc}); BM25 only"
            answer = run_query(handle.db, query, "bm25", opts, scope, project, workspace, None, handle.segmenter,
                               sources, signals)
    except sqlite3.DatabaseError as exc:
        if warm is not None:
            raise       # the warm server reopens (or rebuilds) its index and asks again
        raise CodeMemoryError("MEMORY_SEARCH_FAILED", f"search failed ({type(exc).__name__})",
                              hint="run: memory-search.py index --full") from None
    finally:
        if warm is None:
            handle.db.close()
    if degraded is not None:
        answer.setdefault("degraded", {})["vector"] = degraded
    answer["mode_requested"] = requested
    answer["scope"] = scope
    answer["project"] = project
    if workspace:
        answer["workspace"] = workspace
    report = warm.report if warm is not None else handle.report
    if report:
        answer["index"] = report
    return {"ok": True, **{k: v for k, v in answer.items() if k != "ok"}}


def _vector_failures() -> tuple:
    from .daemon import DaemonUnavailable
    return (DaemonUnavailable,)


def open_for_search(index_path: str, sources: list, opts: SearchOptions, refresh_index: bool) -> IndexHandle:
    try:
        return ensure_index(index_path, sources, opts, refresh_now=refresh_index, busy_ms=200)
    except (sqlite3.DatabaseError, OSError) as exc:
        if disk_full(exc, index_path):   # a search is a read: on a full disk it answers from what is there
            return _read_only_index(index_path, sources, opts, why="the disk is full")
        if isinstance(exc, OSError):
            raise
        raise CodeMemoryError("MEMORY_INDEX_FAILED", f"the index could not be prepared ({type(exc).__name__})",
                              hint="run: memory-search.py index --full") from None
