"""What each page of the memory browser shows, as plain data: the HTML pages render it and the
``/api/`` endpoints return it as JSON (docs/browser.md § Memory browser). Reads only; the writes are the
POST handlers of :mod:`.app`, which call ``evolution/curate.py`` and ``summary/review.py``.

Every file read goes through the access policy (``search/access.py``): the browser's scope was
decided when it started (every project, after a ``y`` on the user's terminal), derived files are
never served, and nothing outside the memory root and the registered workspaces is reachable.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

from ..errors import CodeMemoryError, invalid
from ..fsutil import read_text
from ..memory.tree import RULES_FILE, read_memory
from ..paths import AREA_KINDS, safe_name
from ..search.engine import MAX_GET_LINES as MAX_PAGE_LINES  # what one read may return
from . import proposals
from .catalog import Catalog

PAGE_SIZE = 100
PAGE_LINES = 80                 # the file view's page
SEARCH_TOP_K = 20
MAP_OVERVIEW_NODES = 60


@dataclass
class State:
    """One running browser: its config, scope and caches."""

    cfg: object
    scope: object
    read_only: bool = False
    catalog: Catalog = None
    _cache: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self):
        self.catalog = self.catalog or Catalog(self.cfg.root)

    @property
    def paths(self):
        return self.cfg.paths

    def cached(self, name: str, signature, compute):
        """``compute()`` once per ``signature`` (what the answer depends on)."""
        with self._lock:
            hit = self._cache.get(name)
            if hit and hit[0] == signature:
                return hit[1]
        value = compute()
        with self._lock:
            self._cache[name] = (signature, value)
        return value


def _stat_key(path: str):
    try:
        st = os.stat(path)
        return (st.st_mtime_ns, st.st_size)
    except OSError:
        return None


def check_root(state: State) -> None:
    if not os.path.isdir(state.cfg.root):
        raise CodeMemoryError("NOT_FOUND", f"the memory root {state.cfg.root} is gone",
                              hint="it was moved or deleted while the browser was open; run `code-memory init` "
                                   "or restart the browser with the right --root")


def _memtool(state: State):
    from ..memtool.location import resolve_db
    from ..search.unified import MemtoolAccess

    return MemtoolAccess(resolve_db(state.cfg)[0])


def check_name(name, what: str = "project") -> str:
    if not isinstance(name, str) or not name or name != safe_name(name) or name.startswith("."):
        raise invalid(f"not a {what} name: {str(name)[:80]!r}")
    return name


# ---------------------------------------------------------------------------------------------
# search

def search(state: State, q: str, source: str = "", project: str = "", mode: str = "") -> dict:
    from ..search.unified import search_all

    check_root(state)
    q = (q or "").strip()
    if not q:
        return {"query": "", "results": [], "sources": [], "stores": {}}
    if len(q) > 500:
        raise invalid("the query is longer than 500 characters")
    if project:
        check_name(project)
    if mode and mode not in ("bm25", "vector", "hybrid"):
        raise invalid(f"unknown mode {mode!r}", hint="bm25, vector or hybrid")
    answer = search_all(state.cfg, q, memtool=_memtool(state), sources=[source] if source else None,
                        mode=mode or None, top_k=SEARCH_TOP_K, scope="project" if project else "all",
                        project=project or None)
    answer["query"] = q
    return answer


def read_lines(state: State, path: str, from_line: int = 1, lines: int = PAGE_LINES, to_line: int | None = None) -> dict:
    """Lines ``from_line``..``to_line`` (or ``lines`` of them) of one memory file, at most
    ``MAX_PAGE_LINES``: the access policy's answer plus ``to_line`` (the last line shown) and the
    ``previous`` / ``next`` pages (``{"from", "to"}``, or None at either end)."""
    from ..search.access import read_memory_lines

    check_root(state)
    if from_line < 1:
        raise invalid("from is 1-based and must be ≥ 1")
    if to_line is not None:
        if to_line < from_line:
            raise invalid(f"to ({to_line}) is before from ({from_line})")
        lines = to_line - from_line + 1
    if lines < 1:
        raise invalid("lines must be ≥ 1")
    answer = read_memory_lines(state.cfg, state.scope, path, from_line, min(lines, MAX_PAGE_LINES))
    total, shown = answer["total_lines"], answer["lines"]
    if from_line > max(total, 1):
        raise invalid(f"from ({from_line}) is past the end of the file ({total} lines)",
                      hint=f"the last page starts at line {max(1, total - PAGE_LINES + 1)}")
    answer.pop("clamped_to", None)
    last = from_line + shown - 1
    answer.update(
        to_line=last,
        previous={"from": max(1, from_line - PAGE_LINES), "to": from_line - 1} if from_line > 1 else None,
        next={"from": last + 1, "to": min(total, last + PAGE_LINES)} if last < total else None)
    return answer


def whole_text(state: State, path: str) -> str:
    """Every line of one memory file (a note shown whole), read page by page through :func:`read_lines`."""
    answer = read_lines(state, path, 1, MAX_PAGE_LINES)
    parts = [answer["text"]]
    while answer["next"]:
        answer = read_lines(state, path, answer["next"]["from"], MAX_PAGE_LINES)
        parts.append(answer["text"])
    return "\n".join(parts)


def get_item(state: State, item_id: str) -> dict:
    from ..search.unified import get_by_id

    return get_by_id(state.cfg, item_id, _memtool(state))


# ---------------------------------------------------------------------------------------------
# timeline and sessions

def timeline(state: State, project: str = "", day: str = "", page: int = 1) -> dict:
    check_root(state)
    if project:
        check_name(project)
    if day:
        state.paths.daily_note(day)          # validates YYYY-MM-DD
    notes = state.catalog.refresh()
    projects = state.catalog.projects(notes)
    chosen = [n for n in notes if (not project or n["project"] == project) and (not day or n["day"] == day)]
    page = max(1, int(page))
    shown = chosen[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]
    daily = set(state.catalog.daily_days())
    days: list = []
    for note in shown:
        if not days or days[-1]["day"] != note["day"]:
            days.append({"day": note["day"], "daily_note": note["day"] in daily, "sessions": []})
        days[-1]["sessions"].append(note)
    return {"project": project, "day": day, "page": page, "pages": max(1, -(-len(chosen) // PAGE_SIZE)),
            "total": len(chosen), "projects": projects, "days": days,
            "daily_notes": sorted(daily, reverse=True)[:60]}


def _resolve_refs(state: State, refs: list) -> list:
    from ..evolution.archive import locate
    from ..memory.verification import parse

    out = []
    for ref in refs[:200]:
        item = _recalled_item(state, ref["experience_id"])
        if item is not None:        # recalled by prompt/file recall: a note, a kv key, a memtool item
            out.append({**ref, "text": item[0], "verification": None, "path": item[1]})
            continue
        loc = locate(state.paths, ref["experience_id"])
        if loc is None:
            text, ver = "(no longer in memory: edited, archived or removed)", None
        elif loc.kind == "fact":
            text, ver = loc.line, None
        else:
            text, ver, _evidence = parse(loc.line)
        out.append({**ref, "text": text, "verification": ver, "path": loc.path if loc else None})
    return out


def _recalled_item(state: State, ref_id: str):
    """``(text, path or None)`` of a recalled item's ref (``session:<id>``, ``kv:<key>``,
    ``memtool:<id>``, ``memory:<path>``; docs/hooks.md § Recall), or None for an experience."""
    from ..memory.experience import KINDS
    from ..memory.sessions import parse_note

    kind, _, key = ref_id.partition(":")
    if kind in KINDS:
        return None
    if kind == "session":
        path = state.paths.session_note(key)
        topic = parse_note(read_text(path, default="") or "", path)["topic"] if os.path.isfile(path) else ""
        return f"session note · {topic or key}", os.path.relpath(path, state.cfg.root)
    return f"{kind} · {key}", key if kind == "memory" else None


def session(state: State, session_id: str) -> dict:
    from ..evolution import feedback
    from ..memory.sessions import parse_note

    check_root(state)
    sid = check_name(session_id, "session id")
    path = state.paths.session_note(sid)
    if not os.path.isfile(path):
        raise CodeMemoryError("NOT_FOUND", f"no session note {sid}", hint="it may have been removed; reload the timeline")
    answer = read_lines(state, path, 1, 1)          # the access policy's read (derived files, scope)
    text = read_text(path, default="") or ""
    fields = parse_note(text, path)
    refs = _resolve_refs(state, feedback.session_refs(state.paths, fields["session_id"] or sid))
    outcome = next((o for o in feedback.session_outcomes(state.paths)
                    if o["session_id"] in (sid, fields["session_id"])), None)
    return {"id": sid, "path": os.path.relpath(path, state.cfg.root), "fields": fields, "text": text,
            "lines": answer.get("total_lines"), "injected": refs, "outcome": outcome}


def daily(state: State, date: str) -> dict:
    check_root(state)
    path = state.paths.daily_note(date)
    if not os.path.isfile(path):
        raise CodeMemoryError("NOT_FOUND", f"no daily note for {date}")
    return {"date": date, "path": os.path.relpath(path, state.cfg.root), "text": whole_text(state, path)}


# ---------------------------------------------------------------------------------------------
# projects (areas)

def areas(state: State) -> dict:
    check_root(state)
    out = {}
    for kind in AREA_KINDS:
        try:
            names = sorted(d for d in os.listdir(os.path.join(state.paths.areas, kind))
                           if not d.startswith(".") and os.path.isdir(os.path.join(state.paths.areas, kind, d)))
        except OSError:
            names = []
        out[kind] = names
    return {"areas": out}


def _scores(state: State) -> dict:
    from ..evolution.feedback import load_score_cache

    cache = load_score_cache(state.paths)
    return cache if isinstance(cache, dict) else {}


def _lines_with_ids(found: list, scores: dict) -> list:
    from ..evolution.feedback import cached_score
    from ..memory.verification import parse

    out = []
    for _index, line, eid in found:
        text, ver, evidence = parse(line)
        out.append({"id": eid, "line": line.strip(), "text": text, "verification": ver, "evidence": evidence,
                    "score": cached_score(scores, eid)})
    return out


def _facts(path: str) -> list:
    from ..memory.facts import load_facts
    from ..memory.verification import of_fact

    try:
        items = load_facts(path) if os.path.isfile(path) else []
    except CodeMemoryError as exc:
        return [{"error": exc.code, "message": exc.message}]
    by_id = {f.get("id"): f for f in items}
    out = []
    for f in items:
        state, evidence = of_fact(f)
        chain, nxt, seen = [], f.get("supersededBy"), set()
        while nxt and nxt in by_id and nxt not in seen and len(chain) < 20:
            seen.add(nxt)
            chain.append(nxt)
            nxt = by_id[nxt].get("supersededBy")
        supersedes = [g.get("id") for g in items if g.get("supersededBy") == f.get("id")]
        out.append({"id": f.get("id"), "experience_id": f"fact:{f.get('id')}", "fact": f.get("fact", ""),
                    "status": f.get("status", "active"), "category": f.get("category", ""),
                    "evidence": f.get("evidence", ""), "timestamp": f.get("timestamp", ""),
                    "verification": state, "verification_evidence": evidence,
                    "superseded_by": f.get("supersededBy"), "chain": chain, "supersedes": supersedes})
    return out


def area(state: State, kind: str, name: str, verification: str = "") -> dict:
    from ..memory.experience import pitfall_lines, rule_lines

    check_root(state)
    if kind not in AREA_KINDS:
        raise invalid(f"unknown area kind {kind!r}", hint="projects, patterns or tools")
    name = check_name(name, "area")
    if verification not in ("", "verified", "hypothesis", "none"):
        raise invalid("verification is verified, hypothesis or none")
    directory = state.paths.area_dir(kind, name)
    if not os.path.isdir(directory):
        raise CodeMemoryError("NOT_FOUND", f"no {kind[:-1]} area {name!r}")
    scores = _scores(state)
    rules_text = read_text(os.path.join(directory, RULES_FILE), default="") or ""   # this area's, of any kind
    rules = _lines_with_ids(rule_lines(name, rules_text), scores) if kind == "projects" else []
    pitfalls = _lines_with_ids(pitfall_lines(read_memory(state.paths)), scores)
    facts = _facts(os.path.join(directory, "facts.json"))

    def keep(state_value):
        return (not verification or (verification == "none" and state_value is None)
                or state_value == verification)

    from ..evolution.feedback import archived as archived_now
    from ..memory.experience import parse_id

    archived = [{"id": r["experience_id"], "kind": r.get("kind"), "text": r.get("line", "").strip(),
                 "path": r.get("path"), "timestamp": r.get("timestamp")} for r in archived_now(state.paths)
                if r.get("kind") == "pitfall" or (r.get("kind") == "rule" and kind == "projects"
                                                  and parse_id(r["experience_id"])[1] == name)]
    return {"kind": kind, "name": name, "summary": read_text(os.path.join(directory, "summary.md"), default="") or "",
            "archived": archived[:50],
            "rules_text": rules_text if kind != "projects" else "",
            "rules": [r for r in rules if keep(r["verification"])],
            "facts": [f for f in facts if "error" in f or keep(f["verification"])],
            "pitfalls": [p for p in pitfalls if keep(p["verification"])], "verification": verification}


# ---------------------------------------------------------------------------------------------
# effectiveness

def _evolution_signature(state: State) -> tuple:
    state.catalog.refresh()
    p = state.paths
    return (state.catalog.fingerprint, _stat_key(p.audit_log),
            _stat_key(p.signals_log), _stat_key(p.pattern_states_log), _stat_key(p.capabilities_log))


def effectiveness(state: State) -> dict:
    check_root(state)
    return state.cached("effectiveness", _evolution_signature(state), lambda: _effectiveness(state))


def warm(state: State) -> None:
    """Fill the caches before the first page asks: the catalog and the effectiveness page, and the
    search index brought up to date (a BM25 refresh, no embedding). A failure here is only a cold
    cache — the page computes it itself and reports its own error."""
    from ..search.engine import search_memory

    if not os.path.isdir(state.cfg.root):
        return
    for step in (lambda: effectiveness(state),
                 lambda: search_memory(state.cfg, "warm up", mode="bm25", top_k=1, scope="all")):
        try:
            step()
        except Exception:       # noqa: BLE001 — warming is best effort
            pass


def _effectiveness(state: State) -> dict:
    from ..evolution import capabilities, feedback

    settings = feedback.Settings.from_config(state.cfg.get("feedback"))
    report = feedback.report(state.paths, settings, limit=20)
    scored = feedback.scores(state.paths, settings)
    outcomes = feedback.session_outcomes(state.paths)
    by_week: dict = {}
    for o in outcomes:
        week = time.strftime("%G-W%V", time.localtime(o["ts"] or 0))
        row = by_week.setdefault(week, [0, 0])
        row[0 if o["outcome"] == "success" else 1] += 1
    caps = capabilities.status_configured(state.cfg, with_analysis=True)   # records nothing
    analysis = caps.pop("analysis")
    return {"report": report, "scores": scored[:200], "score_values": [s["score"] for s in scored],
            "outcomes_by_week": sorted(by_week.items())[-26:],
            "signals": {"patterns": analysis["patterns"][:50], "by_type": analysis["by_type"],
                        "failure_streak": analysis["failure_streak"], "window": len(analysis["window"])},
            "capabilities": caps}


# ---------------------------------------------------------------------------------------------
# knowledge map (memtool)

def knowledge_map(state: State, topic: str = "") -> dict:
    from ..memtool import knowledge_map as kmap

    check_root(state)
    access = _memtool(state)
    if not access.exists():
        return {"topic": topic, "nodes": [], "edges": [], "clusters": [], "total_items": 0,
                "message": "no memtool database yet"}
    topic = (topic or "").strip()
    if len(topic) > 200:
        raise invalid("the topic is longer than 200 characters")

    graph = access.run(lambda store: kmap.build(store, topic, depth=2) if topic
                       else kmap.overview(store, limit=MAP_OVERVIEW_NODES))
    cluster_of = {}
    for number, cluster in enumerate(graph.get("clusters") or []):
        for nid in cluster["node_ids"]:
            cluster_of[nid] = number
    for node in graph.get("nodes") or []:
        node["cluster"] = cluster_of.get(node["id"], 0)
    graph.setdefault("topic", topic)
    return graph


def memtool_item(state: State, item_id: str) -> dict:
    from ..search.unified import MEMTOOL_PREFIX

    if not isinstance(item_id, str) or not item_id or len(item_id) > 100:
        raise invalid("not a memtool id")
    return get_item(state, MEMTOOL_PREFIX + item_id)["item"]


# ---------------------------------------------------------------------------------------------
# review queue

def review_list(state: State, status: str = "pending", kind: str = "") -> dict:
    from ..review import queue

    check_root(state)
    if status not in ("pending", "approved", "rejected", "all"):
        raise invalid("status is pending, approved, rejected or all")
    if kind and kind not in queue.KINDS:
        raise invalid(f"kind is one of {', '.join(queue.KINDS)}")
    corrupt: list = []
    items = queue.list_proposals(state.cfg.root, None if status == "all" else status, kind=kind or None,
                                 corrupt=corrupt)
    for prop in items:
        prop["origin"] = proposals.origin(state.paths, prop, (prop.get("payload") or {}).get("source"))
    return {"status": status, "kind": kind, "pending": queue.pending_count(state.cfg.root),
            "proposals": items[::-1], "corrupt": corrupt}


def review_item(state: State, pid: str) -> dict:
    """One proposal, where it came from (``provenance``) and — while it waits — what approving it
    would change (``change``: the target's text before and after, and their diff)."""
    from ..review import queue
    from ..summary.review import preview

    check_root(state)
    prop = queue.get_proposal(state.cfg.root, pid)
    provenance = proposals.provenance(state.paths, prop)
    prop["origin"] = proposals.origin(state.paths, prop, provenance.get("source"))
    change = proposals.change(prop["kind"], preview(state.cfg, prop)) if prop.get("status") == "pending" else None
    return {"proposal": prop, "provenance": provenance, "change": change}
