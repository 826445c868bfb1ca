"""The weekly consolidation (docs/evolution.md, Weekly consolidation; ``scripts/weekly-consolidate.sh``).

Steps, in this order (each one isolated: a failing step is reported and the others still run):
  stats        the week's edits (daily notes), sessions, outcomes and experience references
  files        the most-edited files (daily notes)
  topics       the topics of the week's session summaries
  tree         knowledge-tree check: every area's summary.md / rules.md / facts.json present and
               valid; MEMORY.md and its Pitfalls section; projects active this week without an area
  pending      retry session summaries left pending (``session-summary.py --pending-all``)
  facts        fact extraction (``auto-extract-facts.py``)
  signals      signal extraction + recurring patterns; writes evolution/signal_report_latest.md
  capabilities the capability generator (gated as always)
  distill      MEMORY.md kept small: pitfalls beyond summary.max_pitfalls archived (restorable),
               proven pitfalls, cross-project rules and recurring decisions distilled into the
               best-practices section (evolution/distill.py)
  cleanup      sessions/*.md older than 30 days, daily/*.md older than 90 days (configurable);
               nothing else is ever deleted — not MEMORY.md, not areas/; the recent-work index
               forgets the deleted notes
  reindex      ``code-memory index`` last, so the index matches the cleaned tree
Then a Markdown report: ``evolution/reports/weekly-<date>.md``.

The steps that belong to other services (pending, facts, reindex) are handed in as ``jobs`` by the
edge that runs the job (``cli/consolidate.py``), so this module imports no service above it.

``dry_run`` writes nothing: the steps that would write are skipped or run in their dry form, and the
report is returned instead of written.
"""

from __future__ import annotations

import datetime as dt
import glob
import os
import re
import time
from dataclasses import dataclass

from ..config import DEFAULTS, section_values
from ..errors import CodeMemoryError
from ..fsutil import atomic_write_text, read_text
from ..memory import facts as factsmod
from ..memory.daily import daily_edits
from ..memory.templates import template
from ..memory.tree import PITFALLS_HEADING, area_files
from ..paths import AREA_KINDS
from ..timeutil import now_iso

_DATE_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")


_D = DEFAULTS["consolidate"]


@dataclass(frozen=True)
class Settings:
    """The ``consolidate`` config section as values (defaults: config.DEFAULTS)."""

    days: int = _D["days"]
    sessions_retention_days: int = _D["sessions_retention_days"]
    daily_retention_days: int = _D["daily_retention_days"]
    cleanup: bool = _D["cleanup"]
    top_files: int = _D["top_files"]
    max_best_practices: int = _D["max_best_practices"]

    @classmethod
    def from_config(cls, section: dict | None) -> "Settings":
        out = cls(**section_values("consolidate", section, cls.__dataclass_fields__))
        if out.days < 1 or out.sessions_retention_days < 1 or out.daily_retention_days < 1:
            raise CodeMemoryError("CONFIG_INVALID", "consolidate: days and retention days must be >= 1")
        return out


def _day(ts: float) -> str:
    return dt.date.fromtimestamp(ts).isoformat()


def _daily_notes(paths) -> list:
    """``[(date, path)]`` of daily/YYYY-MM-DD.md, oldest first."""
    out = []
    for path in glob.glob(os.path.join(paths.daily, "*.md")):
        m = _DATE_FILE.match(os.path.basename(path))
        if m:
            out.append((m.group(1), path))
    return sorted(out)


# ---------------------------------------------------------------------------------------------
# stats, files, topics

def edit_stats(paths, first_day: str, last_day: str, top: int = 10) -> dict:
    files: dict = {}
    projects: dict = {}
    days, lines = set(), 0
    for day, path in _daily_notes(paths):
        if not first_day <= day <= last_day:
            continue
        for _minute, project, names in daily_edits(read_text(path, "")):
            lines += 1
            days.add(day)
            projects[project] = projects.get(project, 0) + len(names)
            for name in names:
                files[(project, name)] = files.get((project, name), 0) + 1
    ranked = sorted(files.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return {"edit_lines": lines, "file_edits": sum(files.values()), "days_active": len(days),
            "projects": dict(sorted(projects.items(), key=lambda kv: -kv[1])),
            "top_files": [{"project": p, "file": f, "edits": n} for (p, f), n in ranked]}


def session_topics(paths, since_ts: float) -> list:
    from .signals import list_summaries

    return [{"session_id": s.session_id, "date": _day(s.ts), "project": s.project, "topic": s.topic}
            for s in list_summaries(paths) if s.ts >= since_ts]


# ---------------------------------------------------------------------------------------------
# knowledge-tree check

def _check_facts(path: str) -> tuple:
    """``(count of active facts, [problems])``."""
    try:
        items = factsmod.load_facts(path)
    except CodeMemoryError as exc:
        return 0, [exc.message]
    problems = []
    ids = [f.get("id") for f in items]
    dupes = sorted({i for i in ids if i and ids.count(i) > 1})
    if dupes:
        problems.append(f"duplicate fact ids: {', '.join(dupes)}")
    missing_ids = sum(1 for i in ids if not i)
    if missing_ids:
        problems.append(f"{missing_ids} fact(s) without an id")
    for f in items:
        if f.get("status") == "superseded" and f.get("supersededBy") not in ids:
            problems.append(f"{f.get('id')}: supersededBy points to a missing fact")
    return sum(1 for f in items if f.get("status", "active") == "active"), problems


def check_tree(paths, active_projects=()) -> dict:
    """Every area's files present and valid; MEMORY.md with its Pitfalls section."""
    areas, problems = [], 0
    for kind in AREA_KINDS:
        for directory in sorted(glob.glob(os.path.join(paths.areas, kind, "*"))):
            if not os.path.isdir(directory):
                continue
            name = os.path.basename(directory)
            issues, notes = [], []
            for fname in area_files(kind):
                path = os.path.join(directory, fname)
                text = read_text(path)
                if text is None:
                    issues.append(f"{fname} missing")
                elif fname == "facts.json":
                    count, fact_problems = _check_facts(path)
                    fact_problems = [p.replace(path, "facts.json").replace("facts.json: facts.json", "facts.json")
                                     for p in fact_problems]
                    issues += [f"facts.json: {p}" for p in fact_problems]
                    notes.append(f"{count} active facts")
                elif fname == "summary.md" and text == template("summary.md", name=name, kind=kind[:-1]):
                    notes.append("summary.md is still the template")
                elif "<<<<<<<" in text or ">>>>>>>" in text:
                    issues.append(f"{fname} has merge-conflict markers")
            problems += len(issues)
            areas.append({"kind": kind, "name": name, "ok": not issues, "issues": issues, "notes": notes})
    memory = read_text(paths.memory_md)
    memory_issues = []
    if memory is None:
        memory_issues.append("MEMORY.md missing (code-memory init recreates it)")
    elif PITFALLS_HEADING not in memory.split("\n"):
        memory_issues.append(f"MEMORY.md has no '{PITFALLS_HEADING}' section (pitfalls cannot be added)")
    known = {a["name"] for a in areas if a["kind"] == "projects"}
    without = sorted(p for p in set(active_projects) if p and p not in known)
    problems += len(memory_issues)
    return {"ok": problems == 0, "problems": problems, "areas": areas, "memory_md": memory_issues,
            "active_projects_without_area": without}


# ---------------------------------------------------------------------------------------------
# cleanup

def cleanup_plan(paths, now: float, settings: Settings) -> list:
    """Session summaries and daily notes past their retention: ``[{path, kind, age_days}]``."""
    from .signals import list_summaries

    plan = []
    for s in list_summaries(paths):
        age = (now - s.ts) / 86400.0
        if age > settings.sessions_retention_days:
            plan.append({"path": s.path, "kind": "session", "age_days": round(age, 1)})
    for day, path in _daily_notes(paths):
        start = time.mktime(time.strptime(day, "%Y-%m-%d"))
        age = (now - start) / 86400.0 - 1          # a note covers its whole day
        if age > settings.daily_retention_days:
            plan.append({"path": path, "kind": "daily", "age_days": round(age, 1)})
    return plan


def apply_cleanup(paths, plan: list) -> int:
    """Delete the planned files — only regular files directly in sessions/ or daily/."""
    allowed = {os.path.realpath(paths.sessions), os.path.realpath(paths.daily)}
    deleted = 0
    for item in plan:
        real = os.path.realpath(item["path"])
        if os.path.dirname(real) not in allowed or not os.path.isfile(real) or os.path.islink(item["path"]):
            continue
        os.unlink(real)
        deleted += 1
    return deleted


# ---------------------------------------------------------------------------------------------
# the whole job

def consolidate(cfg, settings: Settings, dry_run: bool = False, skip=(), now: float | None = None,
                jobs: dict | None = None) -> dict:
    """Run every step (see the module docstring) with a loaded Config; returns the per-step
    results, the Markdown report and where it was written (nothing is written in a dry run).

    ``jobs``: ``{"pending" | "facts" | "reindex": callable() -> dict}``, the steps other services
    do; a job not given is reported as skipped."""
    from . import feedback, signals
    from .capabilities import generate_configured

    now = time.time() if now is None else now
    paths = cfg.paths
    since = now - settings.days * 86400.0
    jobs = jobs or {}
    result = {"period": {"from": _day(since), "to": _day(now), "days": settings.days},
              "dry_run": dry_run, "steps": {}}
    steps = result["steps"]

    def step(name, func):
        if name in skip:
            steps[name] = {"status": "skipped", "reason": "--skip"}
            return
        if func is None:
            steps[name] = {"status": "skipped", "reason": f"the {name} job is not available"}
            return
        try:
            out = func()
        except CodeMemoryError as exc:
            out = {"status": "failed", "error": exc.code, "message": exc.message}
        except Exception as exc:  # one broken step must not stop the weekly job
            out = {"status": "failed", "error": "INTERNAL_ERROR", "message": f"unexpected {type(exc).__name__}"}
        trouble = None if "status" in out else llm_trouble(out)
        steps[name] = out if "status" in out else \
            {"status": "degraded", "reason": trouble, **out} if trouble else {"status": "ok", **out}

    def stats():
        edits = edit_stats(paths, _day(since), _day(now), settings.top_files)
        activity = feedback.activity(paths, since)
        return {"edits": {k: v for k, v in edits.items() if k != "top_files"}, "feedback": activity,
                "top_files": edits["top_files"]}

    step("stats", stats)
    step("topics", lambda: {"sessions": session_topics(paths, since)})
    active = set((steps["stats"].get("edits") or {}).get("projects", {})) | \
        {t["project"] for t in steps["topics"].get("sessions", [])}
    step("tree", lambda: check_tree(paths, active))
    if dry_run:
        for name in ("pending", "facts"):
            steps[name] = {"status": "skipped", "reason": "dry run"}
    else:
        step("pending", jobs.get("pending"))
        step("facts", jobs.get("facts"))

    def signal_step():
        analysis = signals.analyze_with_outcomes(paths, signals.Settings.from_config(cfg.get("signals")), now=now,
                                                 persist=not dry_run)
        out = {"recurring": [{k: p[k] for k in ("pattern", "level", "count", "streak")} for p in analysis["recurring"]],
               "failure_streak": analysis["failure_streak"], "by_type": analysis["by_type"]}
        if not dry_run:
            out["report"] = signals.write_report(paths, analysis)
        return out

    step("signals", signal_step)

    def capability_step():
        run = generate_configured(cfg, dry_run=dry_run)
        return {"open": run["open"], "gates": {g["gate"]: g["passed"] for g in run["gates"]},
                "generated": [{k: g[k] for k in ("name", "path", "pattern", "backend")} for g in run["generated"]],
                "queued": [{k: g.get(k) for k in ("name", "pattern", "backend", "proposal")} for g in run.get("queued", [])],
                "skipped": run["skipped"],
                "llm_fallbacks": [g["fallback_reason"] for g in run["generated"] if g.get("fallback_reason")]}

    step("capabilities", capability_step)

    def distill_step():
        from ..llm import LLMError, get_backend
        from .distill import bound_pitfalls, distill

        fb_settings = feedback.Settings.from_config(cfg.get("feedback"))
        limit = int(cfg.get_path("summary.max_pitfalls"))
        try:                             # a dry run asks no LLM: it spends nothing
            backend = None if dry_run else get_backend(cfg, purpose="distill")
        except LLMError:
            backend = None
        result = distill(paths, fb_settings, max_best_practices=settings.max_best_practices, since_ts=since,
                         backend=backend, dry_run=dry_run, now=now)
        bounded = bound_pitfalls(paths, fb_settings, limit, apply=not dry_run, now=now)
        return {"best_practices": {k: v for k, v in result.items() if k != "lines"},
                "pitfalls": {k: bounded[k] for k in ("pitfalls", "max", "archived")},
                "would_archive" if dry_run else "archived_ids": [i["experience_id"] for i in bounded["items"]]}

    step("distill", distill_step)

    def cleanup_step():
        if not settings.cleanup:
            return {"status": "skipped", "reason": "consolidate.cleanup is false"}
        plan = cleanup_plan(paths, now, settings)
        deleted = 0 if dry_run else apply_cleanup(paths, plan)
        forgotten = 0
        if deleted:
            from ..memory.recent import forget_missing_notes
            forgotten = forget_missing_notes(paths)
        return {"planned": plan, "deleted": deleted, "recent_entries_dropped": forgotten,
                "retention_days": {"sessions": settings.sessions_retention_days,
                                   "daily": settings.daily_retention_days}}

    step("cleanup", cleanup_step)
    if dry_run:
        steps["reindex"] = {"status": "skipped", "reason": "dry run"}
    else:
        step("reindex", jobs.get("reindex"))

    result["failed_steps"] = [name for name, s in steps.items() if s["status"] == "failed"]
    report = render_report(result, now)
    if dry_run:
        result["report"] = report
    else:
        target = os.path.join(paths.evolution, "reports", f"weekly-{_day(now)}.md")
        atomic_write_text(target, report)
        result["report_path"] = target
    return result


def scoped_result(result: dict, areas, now: float | None = None) -> dict:
    """``result`` as a caller that sees only ``areas`` (its own project and groups) may read it —
    what a Claude Code session gets (docs/security.md): other projects' edits, files, session
    topics, areas and cleanup entries are left out and the report is rendered again; where the full
    report was written is not said."""
    import copy

    areas = set(areas or ())
    out = copy.deepcopy(result)
    steps = out.get("steps", {})
    stats = steps.get("stats", {})
    if isinstance(stats.get("edits"), dict):
        stats["edits"]["projects"] = {p: n for p, n in (stats["edits"].get("projects") or {}).items() if p in areas}
    if isinstance(stats.get("top_files"), list):
        stats["top_files"] = [t for t in stats["top_files"] if t.get("project") in areas]
    topics = steps.get("topics", {})
    if isinstance(topics.get("sessions"), list):
        topics["sessions"] = [t for t in topics["sessions"] if t.get("project") in areas]
    tree = steps.get("tree", {})
    if isinstance(tree.get("areas"), list):
        tree["areas"] = [a for a in tree["areas"] if a.get("kind") != "projects" or a.get("name") in areas]
        tree["active_projects_without_area"] = [p for p in tree.get("active_projects_without_area") or [] if p in areas]
        tree["problems"] = sum(len(a["issues"]) for a in tree["areas"]) + len(tree.get("memory_md") or [])
    cleanup = steps.get("cleanup", {})
    if isinstance(cleanup.get("planned"), list):
        cleanup["planned"] = []              # which notes of whose projects: not this caller's business
    out.pop("report_path", None)
    out["scoped_to"] = sorted(areas)
    out["report"] = render_report(out, time.time() if now is None else now)
    return out


LLM_FALLBACKS = ("LLM failed",)   # not "no LLM backend": playbooks are the designed path without one


def llm_trouble(out: dict) -> str | None:
    """Why a step did its LLM work without the LLM — the ``llm_error`` kinds in its results
    (pending summaries, fact extraction) or Skills drafted from playbooks because the LLM call
    failed — or None. Such a step is ``degraded``, not ``ok``: its results are there, but poorer."""
    kinds = []
    for item in [out, *(out.get("projects") or []), *(out.get("results") or [])]:
        if isinstance(item, dict) and item.get("llm_error") and item["llm_error"] not in kinds:
            kinds.append(str(item["llm_error"]))
    kinds += [r for r in out.get("llm_fallbacks") or [] if str(r).startswith(LLM_FALLBACKS) and r not in kinds]
    if not kinds:
        return None
    return (f"the LLM could not be reached ({', '.join(kinds)}); "
            "`code-memory cron status` shows how the weekly job reaches it")


def _status_line(name: str, s: dict) -> str:
    if s["status"] == "ok":
        return f"- {name}: ok"
    detail = s.get("reason") or s.get("message") or s.get("error") or ""
    return f"- {name}: {s['status']}" + (f" — {detail}" if detail else "")


def render_report(result: dict, now: float) -> str:
    steps = result["steps"]
    period = result["period"]
    lines = [f"# Weekly consolidation — {period['from']} … {period['to']}", "",
             f"Generated {now_iso(now)}{' (dry run: nothing was written or deleted)' if result['dry_run'] else ''}.", ""]
    stats = steps.get("stats", {})
    if stats.get("status") == "ok":
        e, f = stats["edits"], stats["feedback"]
        rate = "—" if f["success_rate"] is None else f"{f['success_rate']:.0%}"
        lines += ["## This week", "",
                  f"- edits: {e['file_edits']} file edits in {e['edit_lines']} note lines, {e['days_active']} active days",
                  f"- projects: {', '.join(f'{p} ({n})' for p, n in e['projects'].items()) or 'none'}",
                  f"- sessions with an outcome: {f['sessions_with_outcome']} ({f['success']} success, "
                  f"{f['failed']} failed, success rate {rate})",
                  f"- memory handed to Claude: {f['ref_events']} references to {f['experiences_referenced']} experiences",
                  "", "## Most-edited files", ""]
        lines += [f"- {t['file']} [{t['project']}] — {t['edits']}" for t in stats["top_files"]] or ["(none)"]
        lines.append("")
    topics = steps.get("topics", {}).get("sessions", [])
    lines += ["## Session topics", ""]
    lines += [f"- {t['date']} [{t['project'] or '?'}] {t['topic'] or '(no topic)'} (`{t['session_id']}`)"
              for t in topics] or ["(no session summaries this week)"]
    lines += ["", "## Knowledge tree", ""]
    tree = steps.get("tree", {})
    if tree.get("status") == "ok":
        bad = [a for a in tree["areas"] if a["issues"]]
        lines.append(f"{len(tree['areas'])} areas checked, {tree['problems']} problem(s).")
        lines += [f"- {a['kind']}/{a['name']}: {'; '.join(a['issues'])}" for a in bad]
        lines += [f"- {issue}" for issue in tree["memory_md"]]
        if tree["active_projects_without_area"]:
            lines.append(f"- active this week without an area: {', '.join(tree['active_projects_without_area'])}")
    else:
        lines.append(_status_line("tree", tree))
    lines += ["", "## Signals", ""]
    sig = steps.get("signals", {})
    if sig.get("status") == "ok":
        lines += [f"- `{p['pattern']}` {p['level']} ({p['count']} sessions, streak {p['streak']})"
                  for p in sig["recurring"]] or ["No recurring patterns."]
        streak = sig["failure_streak"]
        if streak["flagged"]:
            lines.append(f"- **failure streak**: the last {streak['length']} sessions failed")
    else:
        lines.append(_status_line("signals", sig))
    lines += ["", "## Capabilities", ""]
    capabilities = steps.get("capabilities", {})
    if capabilities.get("status") in ("ok", "degraded"):
        closed = [g for g, ok in capabilities["gates"].items() if not ok]
        lines.append("Gates open." if capabilities["open"] else f"Gates closed: {', '.join(closed)}.")
        lines += [f"- {'would generate' if result['dry_run'] else 'generated'} `{g['name']}` for `{g['pattern']}` "
                  f"({g['backend']})" for g in capabilities["generated"]]
        lines += [f"- queued `{g['name']}` for `{g['pattern']}` for review"
                  + (f" (`code-memory review show {g['proposal']}`)" if g.get("proposal") else " (already reviewed)")
                  for g in capabilities.get("queued", [])]
        if capabilities["status"] == "degraded":
            lines.append(_status_line("capabilities", capabilities))
    else:
        lines.append(_status_line("capabilities", capabilities))
    lines += ["", "## MEMORY.md", ""]
    distilled = steps.get("distill", {})
    if distilled.get("status") == "ok":
        bp, pits = distilled["best_practices"], distilled["pitfalls"]
        verb = "would add" if result["dry_run"] else "added"
        lines.append(f"- best practices: {verb} {bp['added']} of {bp['candidates']} candidates ({bp['method']}); "
                     f"{bp['promoted']} proven pitfalls moved there")
        archived = distilled.get("archived_ids", distilled.get("would_archive", []))
        lines.append(f"- pitfalls: {pits['pitfalls']} (max {pits['max']}); "
                     f"{'would archive' if result['dry_run'] else 'archived'} {len(archived)}"
                     + (" — `memory-feedback.py restore --id ID` puts one back" if archived else ""))
    else:
        lines.append(_status_line("distill", distilled))
    lines += ["", "## Cleanup", ""]
    cleanup = steps.get("cleanup", {})
    if cleanup.get("status") == "ok":
        planned = cleanup["planned"]
        verb = "would delete" if result["dry_run"] else "deleted"
        lines.append(f"{verb} {sum(1 for p in planned if p['kind'] == 'session')} session summaries "
                     f"(> {cleanup['retention_days']['sessions']} d) and "
                     f"{sum(1 for p in planned if p['kind'] == 'daily')} daily notes "
                     f"(> {cleanup['retention_days']['daily']} d).")
    else:
        lines.append(_status_line("cleanup", cleanup))
    lines += ["", "## Steps", ""]
    lines += [_status_line(name, s) for name, s in steps.items()]
    return "\n".join(lines) + "\n"
