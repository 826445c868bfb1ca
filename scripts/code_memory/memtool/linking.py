"""Related-memory linking (docs/stores.md § memtool): a new or rewritten memory is linked to existing memories
of the same type that are similar but not duplicates.

Terms are the item's index terms (:func:`tokens.terms` of ``content_search``). ``memory_terms``
keeps each term's document frequency, so common words can be told from telling ones:

* candidates — every item of the same type containing one of the item's rarest terms that occur
  elsewhere (at most :data:`QUERY_TERMS` terms, together in at most :data:`DF_BUDGET` items, so the
  lookup stays cheap whatever the size of the store; an item with no such term has nothing
  distinctive to link by);
* similarity — the cosine of the two term sets, ``|A ∩ B| / sqrt(|A| · |B|)``, over informative
  terms: once the store holds :data:`COMMON_MIN_ITEMS` items, a term found in more than
  :data:`COMMON_SHARE` of them (a project-wide word like the product's name) is ignored;
* a pair sharing at least :data:`MIN_SHARED` informative terms is *related* when
  ``RELATED_MIN ≤ similarity < DUPLICATE_MIN`` and reported as a likely duplicate at
  ``≥ DUPLICATE_MIN`` (not linked).

Without FTS5 the candidates are the most recent items of the type. Links are symmetric: the other
item gets a back-link (each list capped at :data:`MAX_RELATED`).
"""

from __future__ import annotations

import json
import math

from .schema import select_in
from .tokens import fts_expression, terms

RELATED_MIN = 0.3
DUPLICATE_MIN = 0.8
MIN_SHARED = 2
MAX_RELATED = 10
QUERY_TERMS = 4
DF_BUDGET = 40
RECENT_WITHOUT_FTS = 100
COMMON_SHARE = 0.5
COMMON_MIN_ITEMS = 20


# --- term statistics (the memory_terms table: schema.rebuild_term_stats) ----------------------

def count_terms(conn, item_terms, delta: int) -> None:
    """Add ``delta`` (+1 / −1) to the document frequency of each term."""
    if delta > 0:
        conn.executemany("INSERT INTO memory_terms(term, df) VALUES (?, 1) "
                         "ON CONFLICT(term) DO UPDATE SET df = df + 1", ((t,) for t in item_terms))
    else:
        conn.executemany("UPDATE memory_terms SET df = df - 1 WHERE term = ?", ((t,) for t in item_terms))
        conn.execute("DELETE FROM memory_terms WHERE df <= 0")


def _document_frequencies(conn, wanted) -> dict:
    return dict(select_in(conn, "SELECT term, df FROM memory_terms WHERE term", wanted))


# --- similarity ------------------------------------------------------------------------------

def cosine(mine: frozenset, theirs: frozenset) -> float:
    if not mine or not theirs:
        return 0.0
    return len(mine & theirs) / math.sqrt(len(mine) * len(theirs))


def common_terms(conn) -> frozenset:
    """Terms found in more than COMMON_SHARE of the items (none below COMMON_MIN_ITEMS items)."""
    total = conn.execute("SELECT count(*) FROM memory_items").fetchone()[0]
    if total < COMMON_MIN_ITEMS:
        return frozenset()
    return frozenset(r[0] for r in conn.execute("SELECT term FROM memory_terms WHERE df > ?",
                                                (COMMON_SHARE * total,)))


def _query_terms(mine, df) -> list:
    chosen, budget = [], 0
    for term in sorted((t for t in mine if df.get(t)), key=lambda t: (df[t], t)):
        if len(chosen) >= QUERY_TERMS or budget + df[term] > DF_BUDGET:
            break
        chosen.append(term)
        budget += df[term]
    return chosen


def find_links(conn, search_text: str, item_type: str, exclude_id, use_fts: bool,
               common: frozenset = frozenset()) -> tuple:
    """(related, duplicates) for an item whose content_search is ``search_text``: lists of
    ``{"id", "similarity"}``, most similar first. ``common`` = :func:`common_terms` (may be a
    slightly stale cached value). Call before the item's own terms are counted."""
    mine = terms(search_text) - common
    if len(mine) < MIN_SHARED:
        return [], []
    if use_fts:
        known = _query_terms(mine, _document_frequencies(conn, mine))
        if not known:
            return [], []
        rowids = [r[0] for r in conn.execute("SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?",
                                             (fts_expression(known, "any"), 2 * DF_BUDGET))]
        # the type is filtered here, not in SQL: with "type = ?" SQLite would scan the type index
        rows = [(r[0], r[2]) for r in select_in(conn, "SELECT id, type, content_search FROM memory_items WHERE rowid",
                                                rowids) if r[1] == item_type and r[0] != exclude_id]
    else:
        rows = conn.execute("SELECT id, content_search FROM memory_items WHERE type = ? AND id != ? "
                            "ORDER BY updated_at DESC LIMIT ?",
                            (item_type, exclude_id or "", RECENT_WITHOUT_FTS)).fetchall()
    related, duplicates = [], []
    for cid, search in rows:
        their = terms(search) - common
        if len(mine & their) < MIN_SHARED:
            continue
        score = cosine(mine, their)
        if score >= DUPLICATE_MIN:
            duplicates.append({"id": cid, "similarity": round(score, 3)})
        elif score >= RELATED_MIN:
            related.append({"id": cid, "similarity": round(score, 3)})
    related.sort(key=lambda r: -r["similarity"])
    duplicates.sort(key=lambda r: -r["similarity"])
    return related[:MAX_RELATED], duplicates[:MAX_RELATED]


# --- link lists ------------------------------------------------------------------------------

def _load_ids(conn, item_id: str) -> list | None:
    row = conn.execute("SELECT related_ids_json FROM memory_items WHERE id = ?", (item_id,)).fetchone()
    if row is None:
        return None
    try:
        ids = json.loads(row[0] or "[]")
    except ValueError:
        ids = []
    return [i for i in ids if isinstance(i, str)]


def _store_ids(conn, item_id: str, ids: list) -> None:
    conn.execute("UPDATE memory_items SET related_ids_json = ? WHERE id = ?",
                 (json.dumps(ids, ensure_ascii=False), item_id))


def sync_back_links(conn, item_id: str, old_ids: list, new_ids: list) -> None:
    """Keep links symmetric after ``item_id``'s related list changed from old_ids to new_ids."""
    for other in set(old_ids) - set(new_ids):
        ids = _load_ids(conn, other)
        if ids is not None and item_id in ids:
            _store_ids(conn, other, [i for i in ids if i != item_id])
    for other in new_ids:
        ids = _load_ids(conn, other)
        if ids is not None and item_id not in ids and len(ids) < MAX_RELATED:
            _store_ids(conn, other, ids + [item_id])


def forget(conn, item_id: str, search_text: str) -> None:
    """An item is being deleted: uncount its terms and drop it from every related list."""
    count_terms(conn, terms(search_text), -1)
    pattern = "%" + json.dumps(item_id)[1:-1] + "%"
    rows = conn.execute("SELECT id, related_ids_json FROM memory_items WHERE related_ids_json LIKE ?",
                        (pattern,)).fetchall()
    for row in rows:
        ids = [i for i in json.loads(row["related_ids_json"] or "[]") if i != item_id]
        _store_ids(conn, row["id"], ids)
