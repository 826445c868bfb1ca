"""Experience feedback (docs/evolution.md): which memories help.

Events, appended to ``evolution/audit.jsonl`` (append-only, one locked write per call):
  {"timestamp", "event_type": "ref", "experience_id", "session_id", "context"}
  {"timestamp", "event_type": "outcome", "session_id", "outcome": "success"|"failed", "corrections", "source",
   "evidence": [experience ids whose files the session changed]}
  {"timestamp", "event_type": "archive"|"restore", "experience_id", "path", "section", "line", "score"}

The SQLite tables ``experience_refs``, ``session_outcomes`` and ``experience_effectiveness`` in
``.index/evolution.sqlite`` are derived from the log: synced incrementally (byte offset) and rebuilt
from scratch whenever the log was rewritten or the database is missing or damaged.

Score of an experience:
  p     = (s + 1) / (s + f + 2)          Laplace; s / f = distinct sessions that referenced it, whose
                                          last outcome names it as evidence (the session changed its
                                          files: evolution/evidence.py), and that ended success / failed
  w     = 0.5 ** (age_days / half_life)   age = days since its last reference (half-life 90 d default)
  score = p × w    < archive_threshold (0.3) → archive candidate, > high_value_threshold (0.7) → high value
"""

from __future__ import annotations

import os
import time

from ..config import DEFAULTS, section_values, setting
from ..errors import CodeMemoryError, invalid
from ..fsutil import append_events, atomic_write_text, ensure_dir, file_lock, read_text
from ..memory.experience import is_valid_id
from ..timeutil import now_iso, parse_ts

OUTCOMES = ("success", "failed")
CONTEXT_CHARS = 200
SCORES_CACHE = "experience_scores.json"

# The derived tables, as named migrations (code_memory.migrations; statements here, applied when
# the database is opened). A new migration makes the next sync rebuild the tables from the log;
# IF NOT EXISTS lets a database made before migrations were recorded adopt m001 (and be rebuilt).
MIGRATIONS = [
    ("m001_derived_tables", (
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)",
        """CREATE TABLE IF NOT EXISTS experience_refs (
          id INTEGER PRIMARY KEY, experience_id TEXT NOT NULL, session_id TEXT NOT NULL,
          timestamp TEXT, ts REAL, context TEXT)""",
        "CREATE INDEX IF NOT EXISTS experience_refs_by_experience ON experience_refs(experience_id)",
        "CREATE INDEX IF NOT EXISTS experience_refs_by_session ON experience_refs(session_id)",
        """CREATE TABLE IF NOT EXISTS session_outcomes (
          id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, timestamp TEXT, ts REAL, outcome TEXT,
          corrections INTEGER, source TEXT)""",
        "CREATE INDEX IF NOT EXISTS session_outcomes_by_session ON session_outcomes(session_id)",
        """CREATE TABLE IF NOT EXISTS archive_events (
          id INTEGER PRIMARY KEY, experience_id TEXT NOT NULL, event_type TEXT, timestamp TEXT, ts REAL,
          record TEXT)""",
        """CREATE TABLE IF NOT EXISTS experience_effectiveness (
          experience_id TEXT PRIMARY KEY, total_refs INTEGER, sessions INTEGER, success_refs INTEGER,
          fail_refs INTEGER, laplace_score REAL, last_ref TEXT, last_ref_ts REAL, archived INTEGER)""")),
    # an outcome counts for an experience only when the session touched its files (evidence.py)
    ("m002_outcome_evidence", (
        """CREATE TABLE IF NOT EXISTS outcome_evidence (
          outcome_id INTEGER NOT NULL, experience_id TEXT NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS outcome_evidence_by_outcome ON outcome_evidence(outcome_id, experience_id)")),
]
MAX_EVIDENCE = 500

# Recomputed whole after every sync that saw new events. The latest outcome per session and the
# latest archive/restore per experience go to indexed temp tables first: joining the CTEs directly
# made SQLite rescan them per row (1 s instead of 0.1 s for 20k refs).
_EFFECTIVENESS = (
    "DROP TABLE IF EXISTS temp.last_outcome",
    "DROP TABLE IF EXISTS temp.last_archive",
    """CREATE TEMP TABLE last_outcome AS
       SELECT o.id, o.session_id, o.outcome FROM session_outcomes o
       JOIN (SELECT MAX(id) AS id FROM session_outcomes GROUP BY session_id) m ON m.id = o.id""",
    "CREATE UNIQUE INDEX temp.last_outcome_session ON last_outcome(session_id)",
    """CREATE TEMP TABLE last_archive AS
       SELECT a.experience_id, a.event_type = 'archive' AS is_archived FROM archive_events a
       JOIN (SELECT MAX(id) AS id FROM archive_events GROUP BY experience_id) m ON m.id = a.id""",
    "CREATE UNIQUE INDEX temp.last_archive_experience ON last_archive(experience_id)",
    "DELETE FROM experience_effectiveness",
    """INSERT INTO experience_effectiveness
       SELECT p.experience_id, SUM(p.n), COUNT(*),
              SUM(CASE WHEN e.outcome_id IS NOT NULL AND o.outcome = 'success' THEN 1 ELSE 0 END),
              SUM(CASE WHEN e.outcome_id IS NOT NULL AND o.outcome = 'failed' THEN 1 ELSE 0 END),
              (SUM(CASE WHEN e.outcome_id IS NOT NULL AND o.outcome = 'success' THEN 1 ELSE 0 END) + 1.0)
                / (SUM(CASE WHEN e.outcome_id IS NOT NULL AND o.outcome IN ('success', 'failed') THEN 1 ELSE 0 END)
                   + 2.0),
              p.last_text, MAX(p.last_ts), COALESCE(a.is_archived, 0)
       FROM (SELECT experience_id, session_id, COUNT(*) AS n, MAX(ts) AS last_ts, timestamp AS last_text
             FROM experience_refs GROUP BY experience_id, session_id) p
       LEFT JOIN last_outcome o ON o.session_id = p.session_id
       LEFT JOIN (SELECT DISTINCT outcome_id, experience_id FROM outcome_evidence) e
              ON e.outcome_id = o.id AND e.experience_id = p.experience_id
       LEFT JOIN last_archive a ON a.experience_id = p.experience_id
       GROUP BY p.experience_id""",
)


_D = DEFAULTS["feedback"]


class Settings:
    """The ``feedback`` config section as values (read at the edge, passed down; defaults:
    config.DEFAULTS)."""

    __slots__ = ("half_life_days", "archive_threshold", "high_value_threshold")

    def __init__(self, half_life_days: float = _D["half_life_days"], archive_threshold: float = _D["archive_threshold"],
                 high_value_threshold: float = _D["high_value_threshold"]):
        self.half_life_days = float(half_life_days)
        self.archive_threshold = float(archive_threshold)
        self.high_value_threshold = float(high_value_threshold)
        if self.half_life_days <= 0:
            raise CodeMemoryError("CONFIG_INVALID", "feedback.half_life_days must be > 0")
        if not 0 <= self.archive_threshold <= self.high_value_threshold <= 1:
            raise CodeMemoryError("CONFIG_INVALID",
                                  "need 0 <= feedback.archive_threshold <= feedback.high_value_threshold <= 1")

    @classmethod
    def from_config(cls, section: dict | None) -> "Settings":
        return cls(**section_values("feedback", section, cls.__slots__))


# ---------------------------------------------------------------------------------------------
# recording (cheap: hooks call record_refs on the hot path)

def _check_session(session_id) -> str:
    if not isinstance(session_id, str) or not session_id.strip() or len(session_id) > 200:
        raise invalid("session id must be a non-empty string of at most 200 characters")
    return session_id.strip()


def record_refs(paths, session_id: str, refs, context: str | None = None, now: float | None = None) -> int:
    """Append one ``ref`` event per distinct valid experience id in ``refs`` (ids, or
    ``(id, context)`` pairs) as a single locked write. Returns how many were recorded.

    Standard library only and a single ``write``: safe and cheap enough for hooks. ``context`` is a
    short label (e.g. ``session-start``), capped at 200 characters; callers pass no memory text."""
    session_id = _check_session(session_id)
    stamp = now_iso(now)
    records, seen = [], set()
    for item in refs:
        eid, ctx = (item, context) if isinstance(item, str) else (item[0], item[1] if len(item) > 1 else context)
        if not is_valid_id(eid) or eid in seen:
            continue
        seen.add(eid)
        record = {"timestamp": stamp, "event_type": "ref", "experience_id": eid, "session_id": session_id}
        if ctx:
            record["context"] = str(ctx)[:CONTEXT_CHARS]
        records.append(record)
    append_events(paths.audit_log, records)
    return len(records)


def record_outcome(paths, session_id: str, outcome: str, corrections: int = 0, source: str = "manual",
                   details: dict | None = None, now: float | None = None, evidence=None) -> dict:
    """Append an ``outcome`` event; a later outcome of the same session replaces an earlier one.

    ``evidence``: the experiences of the session this outcome counts for (those whose files the
    session changed, :func:`record_assessment`). Without it the outcome still counts for the
    session (success rates, the failure streak, the Skill gate) but moves no experience's score."""
    session_id = _check_session(session_id)
    if outcome not in OUTCOMES:
        raise invalid(f"outcome must be success or failed, got {outcome!r}")
    if isinstance(corrections, bool) or not isinstance(corrections, int) or corrections < 0:
        raise invalid("corrections must be a non-negative integer")
    bad = [e for e in evidence or () if not is_valid_id(e)]
    if bad:
        raise invalid(f"not an experience id: {bad[0]!r}")
    record = {"timestamp": now_iso(now), "event_type": "outcome", "session_id": session_id,
              "outcome": outcome, "corrections": corrections, "source": source,
              "evidence": sorted(set(evidence or ()))[:MAX_EVIDENCE]}
    if details:
        record["details"] = details
    append_events(paths.audit_log, [record])
    return record


def record_assessment(paths, session_id: str, assessment, source: str, evidence=()) -> dict:
    """:func:`record_outcome` for an ``outcome.Assessment`` of a transcript, with its counts and
    its ``evidence`` (``evidence.session_evidence``: the experiences handed to the session whose
    files it changed)."""
    details = {k: v for k, v in assessment.to_dict().items()
               if k in ("user_corrections", "reverted_edits", "tool_errors", "ended_unresolved")}
    details["changed_files"] = len(assessment.changed_files)
    return record_outcome(paths, session_id, assessment.outcome, assessment.corrections, source=source,
                          details=details, evidence=evidence)


# ---------------------------------------------------------------------------------------------
# the derived database

def _connect(db_path: str):
    import sqlite3  # lazily: ``record_refs`` (hooks) must not pay for it

    conn = sqlite3.connect(db_path, timeout=10)
    conn.row_factory = sqlite3.Row
    return conn


def _meta(conn) -> dict:
    return {row["key"]: row["value"] for row in conn.execute("SELECT key, value FROM meta")}


def _log_head(log_path: str) -> str:
    import hashlib

    try:
        with open(log_path, "rb") as fh:
            return hashlib.sha1(fh.readline()).hexdigest()
    except FileNotFoundError:
        return ""


def _insert_event(conn, record: dict) -> None:
    import json

    kind = record.get("event_type")
    stamp = record.get("timestamp")
    ts = parse_ts(stamp)
    if kind == "ref" and is_valid_id(record.get("experience_id")) and record.get("session_id"):
        conn.execute("INSERT INTO experience_refs (experience_id, session_id, timestamp, ts, context)"
                     " VALUES (?, ?, ?, ?, ?)", (record["experience_id"], str(record["session_id"]), stamp,
                                                 ts, record.get("context")))
    elif kind == "outcome" and record.get("outcome") in OUTCOMES and record.get("session_id"):
        corrections = record.get("corrections")
        cursor = conn.execute("INSERT INTO session_outcomes (session_id, timestamp, ts, outcome, corrections, source)"
                              " VALUES (?, ?, ?, ?, ?, ?)",
                              (str(record["session_id"]), stamp, ts, record["outcome"],
                               corrections if isinstance(corrections, int) else 0, record.get("source")))
        evidence = record.get("evidence")
        if isinstance(evidence, list):
            conn.executemany("INSERT INTO outcome_evidence (outcome_id, experience_id) VALUES (?, ?)",
                             [(cursor.lastrowid, e) for e in evidence[:MAX_EVIDENCE] if is_valid_id(e)])
    elif kind in ("archive", "restore") and is_valid_id(record.get("experience_id")):
        conn.execute("INSERT INTO archive_events (experience_id, event_type, timestamp, ts, record)"
                     " VALUES (?, ?, ?, ?, ?)", (record["experience_id"], kind, stamp, ts,
                                                 json.dumps(record, ensure_ascii=False)))


def sync(paths, rebuild: bool = False) -> dict:
    """Bring the derived tables up to date with audit.jsonl. Returns ``{"events", "rebuilt"}``."""
    log_path = paths.audit_log
    db_path = paths.evolution_db
    ensure_dir(paths.index_dir)
    import sqlite3

    with file_lock(db_path + ".lock", timeout=15):
        try:
            return _sync_locked(db_path, log_path, rebuild)
        except sqlite3.DatabaseError:
            for suffix in ("", "-wal", "-shm", "-journal"):
                if os.path.exists(db_path + suffix):
                    os.unlink(db_path + suffix)
            return _sync_locked(db_path, log_path, True)


def _sync_locked(db_path: str, log_path: str, rebuild: bool) -> dict:
    import json

    conn = _connect(db_path)
    try:
        from .. import migrations  # here: recording a ref (hooks) never opens the database

        schema_changed = bool(migrations.apply(conn, [(name, migrations.sql(*sql)) for name, sql in MIGRATIONS]))
        meta = _meta(conn)
        offset = int(meta.get("offset", "0") or 0)
        head = _log_head(log_path)
        size = os.path.getsize(log_path) if os.path.exists(log_path) else 0
        rebuilt = (rebuild or schema_changed or size < offset
                   or (offset and meta.get("head") != head))
        if rebuilt:
            offset = 0
        events = 0
        with conn:
            if rebuilt:
                for table in ("experience_refs", "session_outcomes", "outcome_evidence", "archive_events"):
                    conn.execute(f"DELETE FROM {table}")
            if size > offset:
                with open(log_path, "rb") as fh:
                    fh.seek(offset)
                    chunk = fh.read(size - offset)
                complete = chunk[:chunk.rfind(b"\n") + 1]
                for raw in complete.split(b"\n"):
                    if not raw.strip():
                        continue
                    try:
                        record = json.loads(raw.decode("utf-8", errors="replace"))
                    except ValueError:
                        continue
                    if isinstance(record, dict):
                        _insert_event(conn, record)
                        events += 1
                offset += len(complete)
            if events or rebuilt:
                for statement in _EFFECTIVENESS:
                    conn.execute(statement)
            for key, value in (("offset", str(offset)), ("head", head)):
                conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
        return {"events": events, "rebuilt": bool(rebuilt)}
    finally:
        conn.close()


def _query(paths, sql: str, params=()) -> list:
    sync(paths)
    conn = _connect(paths.evolution_db)
    try:
        return [dict(row) for row in conn.execute(sql, params)]
    finally:
        conn.close()


# ---------------------------------------------------------------------------------------------
# scores

def decay_factor(last_ref_ts: float | None, now: float, half_life_days: float) -> float:
    if last_ref_ts is None:
        return 1.0
    age_days = max(0.0, (now - last_ref_ts) / 86400.0)
    return 0.5 ** (age_days / half_life_days)


def classify(score: float, archived: bool, settings: Settings) -> str:
    if archived:
        return "archived"
    if score > settings.high_value_threshold:
        return "high_value"
    if score < settings.archive_threshold:
        return "archive_candidate"
    return "normal"


def _scored(row: dict, settings: Settings, now: float) -> dict:
    decay = decay_factor(row.get("last_ref_ts"), now, settings.half_life_days)
    score = row["laplace_score"] * decay
    age = None if row.get("last_ref_ts") is None else max(0.0, (now - row["last_ref_ts"]) / 86400.0)
    return {"experience_id": row["experience_id"], "score": round(score, 4),
            "laplace": round(row["laplace_score"], 4), "decay": round(decay, 4),
            "age_days": None if age is None else round(age, 2),
            "total_refs": row["total_refs"], "sessions": row["sessions"],
            "success": row["success_refs"], "failed": row["fail_refs"], "last_ref": row["last_ref"],
            "status": classify(score, bool(row["archived"]), settings)}


def scores(paths, settings: Settings, experience_id: str | None = None, now: float | None = None) -> list:
    """Scored experiences, best first (or the one ``experience_id``; an id never referenced gets the
    prior: p = 0.5, no decay)."""
    now = time.time() if now is None else now
    if experience_id is not None:
        rows = _query(paths, "SELECT * FROM experience_effectiveness WHERE experience_id = ?", (experience_id,))
        if not rows:
            return [{"experience_id": experience_id, "score": 0.5, "laplace": 0.5, "decay": 1.0,
                     "age_days": None, "total_refs": 0, "sessions": 0, "success": 0, "failed": 0,
                     "last_ref": None, "status": "unreferenced"}]
    else:
        rows = _query(paths, "SELECT * FROM experience_effectiveness")
    out = [_scored(row, settings, now) for row in rows]
    out.sort(key=lambda s: (-s["score"], s["experience_id"]))
    return out


def session_outcomes(paths) -> list:
    """The last outcome of every session, oldest first: ``[{session_id, outcome, corrections, timestamp, ts}]``."""
    return _query(paths, "SELECT session_id, outcome, corrections, timestamp, ts, source FROM session_outcomes"
                         " WHERE id IN (SELECT MAX(id) FROM session_outcomes GROUP BY session_id)"
                         " ORDER BY ts, id")


def session_refs(paths, session_id: str) -> list:
    """The experiences handed to one session, in order: ``[{experience_id, context, timestamp}]``."""
    return _query(paths, "SELECT experience_id, context, MIN(timestamp) AS timestamp FROM experience_refs"
                         " WHERE session_id = ? GROUP BY experience_id, context ORDER BY MIN(id)", (session_id,))


def archived(paths) -> list:
    """What is archived now (its last archive/restore event is an archive), newest first: the
    archive records — ``{experience_id, kind, path, line, section, timestamp, …}``."""
    import json

    rows = _query(paths, "SELECT record FROM archive_events WHERE event_type = 'archive' AND id IN"
                         " (SELECT MAX(id) FROM archive_events GROUP BY experience_id) ORDER BY id DESC")
    return [json.loads(row["record"]) for row in rows]


def refresh_score_cache(paths, settings: Settings, now: float | None = None) -> dict:
    """Write ``.index/experience_scores.json`` — ``{id: [laplace, last_ref_ts, archived]}`` — for
    readers on the hot path (SessionStart ordering) that must not open SQLite."""
    import json

    rows = _query(paths, "SELECT experience_id, laplace_score, last_ref_ts, archived FROM experience_effectiveness")
    data = {"generated_at": now_iso(now), "half_life_days": settings.half_life_days,
            "archive_threshold": settings.archive_threshold,
            "high_value_threshold": settings.high_value_threshold,
            "experiences": {r["experience_id"]: [round(r["laplace_score"], 6), r["last_ref_ts"], r["archived"]]
                            for r in rows}}
    atomic_write_text(os.path.join(paths.index_dir, SCORES_CACHE),
                      json.dumps(data, ensure_ascii=False, separators=(",", ":")), durable=False)
    return data


def load_score_cache(paths) -> dict:
    """The cached scores (``{}`` when there is none or it is unreadable). Standard library only,
    without ``import json`` (SessionStart reads it on the hot path)."""
    from .. import jsonlite

    text = read_text(os.path.join(paths.index_dir, SCORES_CACHE))
    try:
        data = jsonlite.loads(text) if text else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) and isinstance(data.get("experiences"), dict) else {}


def cached_score(cache: dict, experience_id: str, now: float | None = None) -> float | None:
    """The current score of ``experience_id`` from :func:`load_score_cache` data, or None."""
    entry = (cache.get("experiences") or {}).get(experience_id)
    if not entry:
        return None
    laplace, last_ts, archived = entry
    if archived:
        return 0.0
    half_life = float(cache.get("half_life_days") or setting(None, "feedback.half_life_days"))
    return laplace * decay_factor(last_ts, time.time() if now is None else now, half_life)


def rank_pitfalls(memory_md: str, cache: dict, now: float | None = None) -> str:
    """MEMORY.md's text with the Pitfalls list reordered for injection: high-value experiences
    first (best score first), then the rest in their written order, archive candidates last.
    Continuation lines move with their item; a section with prose between items is left as it is.
    The file itself is never rewritten."""
    from ..markdown import is_list_item, section_range
    from ..memory.experience import pitfall_id
    from ..memory.tree import PITFALLS_HEADING

    if not cache.get("experiences"):
        return memory_md
    lines = memory_md.split("\n")
    start, end = section_range(lines, PITFALLS_HEADING)
    first = next((i for i in range(start, end) if is_list_item(lines[i])), None)
    if first is None:
        return memory_md
    last = end
    while last > first and not lines[last - 1].strip():
        last -= 1
    items = []
    for i in range(first, last):
        if is_list_item(lines[i]):
            items.append([lines[i]])
        elif lines[i].startswith((" ", "\t")) and lines[i].strip():
            items[-1].append(lines[i])
        else:
            return memory_md                      # prose or blank lines between items: keep as written
    high = setting(cache, "feedback.high_value_threshold")
    low = setting(cache, "feedback.archive_threshold")

    def key(pair):
        position, item = pair
        score = cached_score(cache, pitfall_id(item[0]), now)
        if score is not None and score > high:
            return (0, -score, position)
        if score is not None and score < low:
            return (2, -score, position)
        return (1, 0.0, position)

    ordered = [line for _p, item in sorted(enumerate(items), key=key) for line in item]
    return "\n".join(lines[:first] + ordered + lines[last:])


# ---------------------------------------------------------------------------------------------
# report

def success_rate(outcomes: list) -> float | None:
    if not outcomes:
        return None
    return round(sum(1 for o in outcomes if o["outcome"] == "success") / len(outcomes), 4)


def experience_kind(experience_id: str) -> str:
    return experience_id.partition(":")[0]


def report(paths, settings: Settings, now: float | None = None, limit: int = 10) -> dict:
    """The state of the feedback loop: totals, high-value experiences, archive candidates, recent
    session outcomes."""
    now = time.time() if now is None else now
    scored = scores(paths, settings, now=now)
    outcomes = session_outcomes(paths)
    counts = _query(paths, "SELECT (SELECT COUNT(*) FROM experience_refs) AS refs,"
                           " (SELECT COUNT(*) FROM session_outcomes) AS outcome_events")[0]
    by_kind: dict = {}
    by_status: dict = {}
    for s in scored:
        by_kind[experience_kind(s["experience_id"])] = by_kind.get(experience_kind(s["experience_id"]), 0) + 1
        by_status[s["status"]] = by_status.get(s["status"], 0) + 1
    recent = outcomes[-limit:][::-1]
    return {
        "generated_at": now_iso(now),
        "settings": {"half_life_days": settings.half_life_days,
                     "archive_threshold": settings.archive_threshold,
                     "high_value_threshold": settings.high_value_threshold},
        "totals": {"ref_events": counts["refs"], "outcome_events": counts["outcome_events"],
                   "experiences": len(scored), "sessions_with_outcome": len(outcomes),
                   "success_rate": success_rate(outcomes),
                   "success_rate_last_5": success_rate(outcomes[-5:]),
                   "by_kind": by_kind, "by_status": by_status},
        "high_value": [s for s in scored if s["status"] == "high_value"][:limit],
        "archive_candidates": [s for s in scored if s["status"] == "archive_candidate"][:limit],
        "recent_sessions": [{"session_id": o["session_id"], "outcome": o["outcome"],
                             "corrections": o["corrections"], "timestamp": o["timestamp"]} for o in recent],
    }


def activity(paths, since_ts: float) -> dict:
    """References and session outcomes since ``since_ts`` (the weekly report's numbers)."""
    refs = _query(paths, "SELECT COUNT(*) AS refs, COUNT(DISTINCT experience_id) AS experiences"
                         " FROM experience_refs WHERE ts >= ?", (since_ts,))[0]
    outcomes = [o for o in session_outcomes(paths) if (o["ts"] or 0) >= since_ts]
    return {"ref_events": refs["refs"], "experiences_referenced": refs["experiences"],
            "sessions_with_outcome": len(outcomes),
            "success": sum(1 for o in outcomes if o["outcome"] == "success"),
            "failed": sum(1 for o in outcomes if o["outcome"] == "failed"),
            "success_rate": success_rate(outcomes)}


def _pct(value) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


def render_report_markdown(rep: dict) -> str:
    t = rep["totals"]
    st = rep["settings"]
    lines = [f"# Memory feedback report ({rep['generated_at']})", "",
             f"- experiences tracked: {t['experiences']} ({', '.join(f'{k} {v}' for k, v in sorted(t['by_kind'].items())) or 'none'})",
             f"- reference events: {t['ref_events']}; sessions with an outcome: {t['sessions_with_outcome']}",
             f"- success rate: {_pct(t['success_rate'])} overall, {_pct(t['success_rate_last_5'])} over the last 5 sessions",
             f"- score = (s+1)/(s+f+2) × 0.5^(age_days/{st['half_life_days']:g}); "
             f"high value > {st['high_value_threshold']:g}, archive candidate < {st['archive_threshold']:g}", ""]

    def table(title, rows):
        lines.extend([f"## {title}", ""])
        if not rows:
            lines.extend(["(none)", ""])
            return
        lines.append("| experience | score | p | decay | success/failed | last ref |")
        lines.append("|---|---|---|---|---|---|")
        for s in rows:
            lines.append(f"| `{s['experience_id']}` | {s['score']:.3f} | {s['laplace']:.3f} | {s['decay']:.3f} "
                         f"| {s['success']}/{s['failed']} | {(s['last_ref'] or '')[:16]} |")
        lines.append("")

    table("High-value experiences", rep["high_value"])
    table("Archive candidates", rep["archive_candidates"])
    lines.extend(["## Recent sessions", ""])
    for o in rep["recent_sessions"] or []:
        lines.append(f"- {(o['timestamp'] or '')[:16]} `{o['session_id']}` {o['outcome']} "
                     f"(corrections {o['corrections']})")
    if not rep["recent_sessions"]:
        lines.append("(none)")
    return "\n".join(lines) + "\n"
