"""Signals for a relevance gate: the raw evidence behind each hit of a search (``signals: true``;
docs/search.md § The warm search server).

Per hit (:func:`hit_signals`): the raw BM25 score; that score as a share of the query's ideal
score — Σ over its terms of idf × (k1 + 1), what FTS5's bm25() approaches for a chunk holding
every term many times — so 0–1 and comparable across queries; which query terms the hit holds, of
how many; and the cosine when vectors ranked. A gate (prompt-time recall) decides from these; this
module decides nothing.
"""

from __future__ import annotations

import math

from ..text import query as querytext
from .index import FTS_TOKENIZE, IndexDB

BM25_K1 = 1.2       # FTS5's bm25() constant: a term's contribution approaches idf × (k1 + 1)


class QuerySignals:
    """The raw evidence of one query, for :func:`hit_signals`: the BM25 scores and cosines of the
    candidates, the query's terms, which of them each hit contains, their document frequencies.

    Exact, and a few queries whatever the index's size or the query's length: the query's terms
    and the hits' indexed text go into scratch FTS5 tables of this connection (``temp``, the
    index's tokenizer), whose vocabularies (``fts5vocab``) say how the tokenizer stems each term and
    which stems each hit holds; document frequencies come from the index's own vocabulary.
    Without FTS5: LIKE over the hits' text, no frequencies."""

    def __init__(self, db: IndexDB, terms: list, prefixes: list, bm25: list, vector: list, cosines: dict):
        self.db = db
        self.plain = list(terms)
        self.prefixes = list(prefixes)
        self.terms = self.plain + [p + "*" for p in prefixes]
        self.bm25 = dict(bm25)
        self.cosine = {**cosines, **dict(vector)} if (vector or cosines) else None
        self.per_chunk: dict = {}

    def compute(self, chunk_ids: list) -> None:
        """``per_chunk`` for ``chunk_ids``: which terms each matches, its raw and normalised BM25,
        its cosine."""
        if not chunk_ids:
            return
        ids = list(dict.fromkeys(chunk_ids))
        conn = self.db.conn
        started_here = not conn.in_transaction
        try:
            if self.db.fts:
                _scratch_tables(conn)
                tokens = self._tokens()
                matched = self._matched(ids, tokens)
                ideal = self.ideal_bm25(tokens) if self.bm25 else None
            else:
                matched, ideal = self._matched_like(ids), None
        finally:
            if started_here and conn.in_transaction:
                conn.rollback()         # the scratch rows were this query's only: leave nothing open
        for cid in ids:
            raw = self.bm25.get(cid)
            self.per_chunk[cid] = hit_signals(raw, ideal, matched[cid], len(self.terms),
                                              None if self.cosine is None else self.cosine.get(cid))

    def _tokens(self) -> dict:
        """{term index: the term as the index's tokenizer stores it} for the plain terms."""
        conn = self.db.conn
        conn.execute("DELETE FROM temp.signal_terms")
        conn.executemany("INSERT INTO temp.signal_terms(rowid, t) VALUES (?, ?)", enumerate(self.plain))
        return {doc: term for term, doc in conn.execute("SELECT term, doc FROM temp.signal_terms_vocab")}

    def _matched(self, ids: list, tokens: dict) -> dict:
        conn = self.db.conn
        conn.execute("DELETE FROM temp.signal_docs")
        conn.execute(f"INSERT INTO temp.signal_docs(rowid, heading, title, body) SELECT rowid, heading, title, body"
                     f" FROM chunks_fts WHERE rowid IN ({','.join('?' * len(ids))})", ids)
        wanted = sorted(set(tokens.values()))
        found: dict = {}
        if wanted:
            for token, doc in conn.execute(f"SELECT term, doc FROM temp.signal_docs_vocab WHERE term IN"
                                           f" ({','.join('?' * len(wanted))})", wanted):
                found.setdefault(doc, set()).add(token)
        for prefix in self.prefixes:
            for (doc,) in conn.execute("SELECT doc FROM temp.signal_docs_vocab WHERE term >= ? AND term < ?",
                                       (prefix.lower(), prefix.lower() + "\U0010ffff")):
                found.setdefault(doc, set()).add("*" + prefix)
        matched = {}
        for cid in ids:
            have = found.get(cid, set())
            matched[cid] = [t for n, t in enumerate(self.plain) if tokens.get(n) in have] + \
                           [p + "*" for p in self.prefixes if "*" + p in have]
        return matched

    def _matched_like(self, ids: list) -> dict:
        marks = ",".join("?" * len(ids))
        rows = self.db.conn.execute(f"SELECT chunk_id, heading || ' ' || text FROM chunks WHERE chunk_id IN ({marks})",
                                    ids)
        texts = {cid: text.lower() for cid, text in rows}
        return {cid: [t for t in self.terms if t.rstrip("*").lower() in texts.get(cid, "")] for cid in ids}

    def ideal_bm25(self, tokens: dict) -> float:
        """Σ over the query's terms of idf × (k1 + 1): what a chunk matching every term very often
        would score (FTS5's idf over the whole index; ``tokens`` from :meth:`_tokens`)."""
        conn = self.db.conn
        total = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        wanted = sorted(set(tokens.values()))
        df = dict(conn.execute(f"SELECT term, doc FROM temp.index_vocab WHERE term IN ({','.join('?' * len(wanted))})",
                               wanted)) if wanted else {}
        frequencies = [df.get(tokens.get(n), 0) for n in range(len(self.plain))]
        for prefix in self.prefixes:
            frequencies.append(conn.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?",
                                            (querytext.match_expression([], [prefix]),)).fetchone()[0])
        return sum(max(math.log((total - n + 0.5) / (n + 0.5)), 1e-6) * (BM25_K1 + 1) for n in frequencies)


def _scratch_tables(conn) -> None:
    """This connection's scratch tables for :class:`QuerySignals` (``temp``: never in the index)."""
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.signal_docs USING fts5(heading, title, body, "
                 f"tokenize='{FTS_TOKENIZE}')")
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.signal_terms USING fts5(t, tokenize='{FTS_TOKENIZE}')")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.signal_docs_vocab USING fts5vocab(temp, signal_docs, instance)")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.signal_terms_vocab USING fts5vocab(temp, signal_terms, instance)")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.index_vocab USING fts5vocab(main, chunks_fts, row)")


def hit_signals(bm25: float | None, ideal: float | None, matched: list, total_terms: int,
                cosine: float | None) -> dict:
    """One hit's raw evidence (``signals: true``):

    * ``bm25`` — the raw BM25 score (higher is better; None when BM25 did not rank the hit);
    * ``bm25_norm`` — ``bm25`` as a share of the query's ideal score (:meth:`QuerySignals.ideal_bm25`),
      0–1 and comparable across queries (None without BM25 or FTS5);
    * ``terms_matched`` / ``terms_total`` / ``coverage`` — which of the query's terms the hit
      contains, of how many (Chinese words as segmented; a prefix term ends in ``*``);
    * ``cosine`` — the vector similarity when vectors ranked (None otherwise).
    """
    return {"bm25": None if bm25 is None else round(float(bm25), 6),
            "bm25_norm": None if bm25 is None or not ideal else round(min(1.0, float(bm25) / ideal), 6),
            "terms_matched": matched, "terms_total": total_terms,
            "coverage": round(len(matched) / total_terms, 6) if total_terms else 0.0,
            "cosine": None if cosine is None else round(float(cosine), 6)}
