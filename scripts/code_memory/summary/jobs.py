"""Summarizer jobs: one transcript, one pending snapshot, or every leftover snapshot.

The SessionEnd / PreCompact hooks write ``sessions/.pending/<safe id>.json`` =
``{"session_id", "transcript_path", "cwd", "project", "reason", "event", "ended_at"}`` and start
``session-summary.py --from-pending <file>`` detached. A job summarizes the session, runs the
follow-ups (feedback outcome, signal extraction) and removes the snapshot. When the summary had
to fall back because of a transient LLM failure (HTTP error, rate limit, timeout) or the job
failed, the snapshot stays with ``attempts`` + 1 and ``last_error``; ``--pending-all`` (also run
by weekly-consolidate) retries it later. After ``max_attempts`` it is renamed ``<name>.failed``
and left for inspection.

Every job appends one metadata line to ``logs/summary.jsonl`` (mode 0600, rotated at 512 KB):
session id, mode, sizes, durations, error kinds — never memory text.
"""

from __future__ import annotations

import glob
import json
import os
import time

from .. import oplog
from ..config import setting
from ..errors import CodeMemoryError
from ..fsutil import atomic_write_json, read_text
from ..paths import MemoryPaths
from .summarize import SummaryOptions, summarize_session

LOG_CAP_BYTES = 512 * 1024


def log_event(paths: MemoryPaths, record: dict) -> None:
    """One metadata line in logs/summary.jsonl (0600, one rotation at LOG_CAP_BYTES); logging
    never fails a job."""
    oplog.record(os.path.join(paths.logs, "summary.jsonl"),
                 {"timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **record}, max_bytes=LOG_CAP_BYTES)


def load_pending(path: str) -> dict:
    text = read_text(path)
    if text is None:
        raise CodeMemoryError("NOT_FOUND", f"no pending snapshot at {path}")
    try:
        data = json.loads(text)
    except ValueError:
        raise CodeMemoryError("INVALID_ARGUMENT", f"pending snapshot {os.path.basename(path)} is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("transcript_path"), str) or not data["transcript_path"]:
        raise CodeMemoryError("INVALID_ARGUMENT",
                              f"pending snapshot {os.path.basename(path)} has no transcript_path")
    return data


def workspace_resolver(cfg):
    """``cwd -> workspace id | None`` for the configured workspaces (``workspaces.paths``)."""
    from ..workspace.registry import registry_from_config

    try:
        registry = registry_from_config(cfg)
    except CodeMemoryError:
        return None

    def workspace_of(cwd: str):
        found = registry.containing(cwd)
        return found.id if found else None

    return workspace_of


def run_followups(cfg: dict, paths: MemoryPaths, session_id: str, transcript_path: str,
                  project: str | None = None) -> dict:
    """The feedback outcome and signal extraction after a summary (docs/summaries.md § Session summaries). A failing
    follow-up is reported, never raised. ``project``: the session's (the summary's), for the outcome's evidence."""
    from ..evolution import evidence, feedback, outcome, signals

    done: dict = {}
    try:
        section = cfg.get("feedback") or {}
        assessment = outcome.assess_transcript(transcript_path, setting(section, "feedback.max_corrections"),
                                               setting(section, "feedback.max_tool_errors"))
        if assessment.outcome is None:
            done["feedback"] = "no outcome"
        else:
            touched = evidence.session_evidence(paths, session_id, assessment, project, cfg.get("projects"),
                                                cfg.get("project_groups"))
            feedback.record_assessment(paths, session_id, assessment, source="summary", evidence=touched)
            done["feedback"] = assessment.outcome
    except Exception as exc:  # a follow-up never fails the summary
        done["feedback"] = f"error {type(exc).__name__}"
    try:
        from ..evolution.distill import bound_pitfalls

        limit = setting(cfg.get("summary"), "summary.max_pitfalls")
        bounded = bound_pitfalls(paths, feedback.Settings.from_config(cfg.get("feedback")), limit)
        if bounded["archived"]:
            done["pitfalls_archived"] = bounded["archived"]
    except Exception as exc:
        done["pitfalls_archived"] = f"error {type(exc).__name__}"
    try:
        settings = signals.Settings.from_config(cfg.get("signals"))
        result = signals.extract(paths, settings, session_id=session_id)
        done["signals"] = sum(item.get("signals", 0) for item in result.get("extracted", []))
    except Exception as exc:
        done["signals"] = f"error {type(exc).__name__}"
    return done


def _index_written(cfg) -> dict:
    """The search index takes in what this summary wrote, here in the detached worker rather than
    in the next search (docs/search.md § Keeping the index fresh). Never fails the summary."""
    from ..search.build import index_changes

    try:
        return index_changes(cfg)
    except Exception as exc:  # noqa: BLE001 — the next search catches up instead
        return {"error": type(exc).__name__}


def summarize_transcript(cfg: dict, paths: MemoryPaths, backend, options: SummaryOptions,
                         transcript_path: str, *, session_id=None, project=None, cwd=None,
                         ended_at=None, dry_run=False, followups=True, lock_timeout=None) -> dict:
    if not os.path.isfile(transcript_path):
        raise CodeMemoryError("NOT_FOUND", f"transcript not found: {transcript_path}",
                              hint="transcripts live in ~/.claude/projects/<project>/<session>.jsonl")
    started = time.monotonic()
    try:
        report = summarize_session(paths, transcript_path, backend=backend, options=options,
                                   session_id=session_id, project=project, cwd=cwd,
                                   projects_map=cfg.get("projects") or {}, ended_at=ended_at,
                                   dry_run=dry_run, lock_timeout=lock_timeout,
                                   workspace_of=workspace_resolver(cfg))
    except OSError as exc:
        raise CodeMemoryError("MEMORY_READ_FAILED", f"cannot read the transcript ({exc.strerror})") from None
    report["seconds"] = round(time.monotonic() - started, 3)
    if followups and not dry_run and report.get("mode") != "empty":
        report["followups"] = run_followups(cfg, paths, report["session_id"], transcript_path, report.get("project"))
    if not dry_run and report.get("mode") != "empty":
        report["indexed"] = _index_written(cfg)
    if not dry_run:
        log_event(paths, {k: report.get(k) for k in
                          ("session_id", "mode", "llm_error", "transcript_bytes", "conversation_chars",
                           "rules_added", "pitfalls_added", "input_tokens", "output_tokens", "seconds")
                          if report.get(k) is not None})
    return report


def run_pending(cfg: dict, paths: MemoryPaths, backend, options: SummaryOptions, pending_path: str,
                max_attempts: int = 3, lock_timeout=None) -> dict:
    """Summarize the session of one pending snapshot; remove it on success, count the attempt
    otherwise (see the module docstring)."""
    data = load_pending(pending_path)
    fields = {k: data.get(k) for k in ("session_id", "project", "cwd", "ended_at")
              if isinstance(data.get(k), str) and data.get(k)}
    try:
        report = summarize_transcript(cfg, paths, backend, options, data["transcript_path"],
                                      lock_timeout=lock_timeout, **fields)
    except CodeMemoryError as exc:
        if exc.code == "LOCK_TIMEOUT":
            return {"pending": pending_path, "skipped": "busy"}
        kept = _count_attempt(pending_path, data, exc.code, max_attempts)
        log_event(paths, {"session_id": data.get("session_id"), "error": exc.code, "pending": kept})
        return {"pending": pending_path, "error": exc.code, "message": exc.message, "kept": kept}
    if report.get("transient_failure"):
        report["kept"] = _count_attempt(pending_path, data, report.get("llm_error") or "llm", max_attempts)
    else:
        try:
            os.unlink(pending_path)
        except FileNotFoundError:
            pass
        report["kept"] = None
    report["pending"] = pending_path
    return report


def _count_attempt(path: str, data: dict, error: str, max_attempts: int) -> str | None:
    """Record a failed attempt; at ``max_attempts`` park the file as ``.failed``. Returns where the
    snapshot now is (None if it vanished)."""
    attempts = int(data.get("attempts") or 0) + 1
    updated = {**data, "attempts": attempts, "last_error": error,
               "last_attempt": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    if not os.path.exists(path):
        return None
    atomic_write_json(path, updated)
    if attempts >= max_attempts:
        os.replace(path, path + ".failed")
        return path + ".failed"
    return path


def run_configured_pending(cfg, backend_name: str | None = None) -> dict:
    """``session-summary.py --pending-all`` with ``cfg``: every leftover snapshot (the weekly job's
    ``pending`` step)."""
    from ..llm import get_backend
    from ..memory.tree import init_root

    init_root(cfg.paths)
    backend = get_backend(cfg, backend=backend_name, purpose="summary")
    return run_all_pending(cfg, cfg.paths, backend, SummaryOptions.from_config(cfg),
                           int(cfg.get_path("summary.max_attempts")))


def run_all_pending(cfg: dict, paths: MemoryPaths, backend, options: SummaryOptions,
                    max_attempts: int = 3, min_age_seconds: float = 0.0) -> dict:
    """Every leftover snapshot, oldest first. A session whose worker is running now is skipped
    (its lock is held), and so is a snapshot younger than ``min_age_seconds``."""
    results = []
    now = time.time()
    files = sorted(glob.glob(os.path.join(paths.pending, "*.json")), key=lambda p: (os.path.getmtime(p), p))
    for path in files:
        if now - os.path.getmtime(path) < min_age_seconds:
            results.append({"pending": path, "skipped": "fresh"})
            continue
        try:
            results.append(run_pending(cfg, paths, backend, options, path, max_attempts, lock_timeout=0.0))
        except CodeMemoryError as exc:  # an unreadable snapshot can never succeed: park it
            parked = path + ".failed"
            os.replace(path, parked)
            log_event(paths, {"pending": os.path.basename(path), "error": exc.code})
            results.append({"pending": path, "error": exc.code, "message": exc.message, "kept": parked})
    summarized = sum(1 for r in results if r.get("mode"))
    return {"pending": len(files), "summarized": summarized, "results": results}
