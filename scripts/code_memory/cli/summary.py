"""``session-summary.py`` / ``code-memory summary``: summarize a session transcript into memory.

    session-summary.py --transcript PATH [--session-id ID] [--backend B] [--dry-run]
    session-summary.py --from-pending FILE      (started detached by the SessionEnd hook)
    session-summary.py --pending-all            (retry leftover snapshots)
"""

from __future__ import annotations

from ..errors import invalid
from ..llm import BACKENDS
from .common import add_common, options_script_main


def add_arguments(p) -> None:
    source = p.add_mutually_exclusive_group()
    source.add_argument("--transcript", metavar="PATH", help="the session transcript (.jsonl)")
    source.add_argument("--from-pending", metavar="FILE",
                        help="a snapshot from sessions/.pending/ (what the SessionEnd hook starts)")
    source.add_argument("--pending-all", action="store_true",
                        help="summarize every leftover snapshot in sessions/.pending/")
    p.add_argument("--session-id", help="session id (default: from the transcript)")
    p.add_argument("--project", help="project name (default: detected from the session's cwd)")
    p.add_argument("--cwd", help="the session's working directory (default: from the transcript)")
    p.add_argument("--ended-at", metavar="ISO",
                   help="when the session ended (default: the transcript's last timestamp); orders the recent-work index")
    p.add_argument("--backend", choices=BACKENDS, help="override llm.backend for this run")
    p.add_argument("--dry-run", action="store_true",
                   help="show the note, daily entry, rules and pitfalls that would be written; write nothing")
    p.add_argument("--no-followups", action="store_true",
                   help="skip the feedback outcome and signal extraction after the summary")
    add_common(p)


def cmd_summary(args) -> dict:
    from ..config import load_config
    from ..llm import get_backend
    from ..memory.tree import init_root
    from ..summary.jobs import run_configured_pending, run_pending, summarize_transcript
    from ..summary.summarize import SummaryOptions

    if not (args.transcript or args.from_pending or args.pending_all):
        raise invalid("give --transcript PATH, --from-pending FILE or --pending-all")
    if args.dry_run and not args.transcript:
        raise invalid("--dry-run applies to --transcript only")
    if args.transcript and not args.dry_run:
        _only_outside_sessions()
    cfg = load_config(args.root)
    if args.pending_all:
        return run_configured_pending(cfg, args.backend)
    paths = cfg.paths
    init_root(paths)
    backend = get_backend(cfg, backend=args.backend, purpose="summary")
    options = SummaryOptions.from_config(cfg)
    max_attempts = int(cfg.get_path("summary.max_attempts"))
    if args.from_pending:
        return run_pending(cfg, paths, backend, options, args.from_pending, max_attempts)
    return summarize_transcript(cfg, paths, backend, options, args.transcript, session_id=args.session_id,
                                project=args.project, cwd=args.cwd, dry_run=args.dry_run,
                                followups=not args.no_followups, ended_at=_ended_at(args.ended_at))


def _only_outside_sessions() -> None:
    """Summarizing a transcript by hand writes rules and notes for the project the transcript
    names: not from inside a session or a detached process (the hooks use --from-pending)."""
    from ..search.access import refuse_restricted

    refuse_restricted("summarizing a transcript into memory",
                      "sessions are summarized by the SessionEnd hook; run --transcript yourself "
                      "in a terminal (or with --dry-run)")


cmd_summary.any_root = lambda args: bool(args.from_pending)   # the hooks' detached job (cli/common.guard_caller)


def _ended_at(value: str | None) -> str | None:
    from ..timeutil import parse_ts

    if value is not None and parse_ts(value) is None:
        raise invalid(f"--ended-at must be an ISO 8601 time, got {value!r}", hint="e.g. 2026-03-01T18:00:00+08:00")
    return value


def render_text(result: dict) -> str:
    if result.get("ok") is False:
        return f"error {result.get('error')}: {result.get('message')}"
    if "results" in result:
        lines = [f"{result['summarized']} of {result['pending']} pending sessions summarized"]
        lines += [f"  {r.get('session_id') or r.get('pending')}: {r.get('mode') or r.get('skipped') or r.get('error')}"
                  for r in result["results"]]
        return "\n".join(lines)
    if result.get("dry_run"):
        parts = [result.get("note", ""), "--- daily entry ---", result.get("daily_entry", "")]
        if result.get("rules"):
            parts += ["--- rules.md additions ---", *result["rules"]]
        if result.get("pitfalls"):
            parts += ["--- MEMORY.md pitfalls ---", *result["pitfalls"]]
        return "\n".join(parts)
    written = ", ".join(result.get("written") or []) or "nothing"
    extra = f" (LLM {result['llm_error']})" if result.get("llm_error") else ""
    return (f"session {result.get('session_id')}: {result.get('mode')}{extra}; wrote {written}; "
            f"rules +{result.get('rules_added', 0)}, pitfalls +{result.get('pitfalls_added', 0)}")


def register(sub) -> None:
    p = sub.add_parser("summary", help="summarize a session transcript into memory (= session-summary.py)")
    add_arguments(p)
    p.set_defaults(handler=cmd_summary, text_renderer=render_text)


def main(argv=None) -> int:
    return options_script_main("session-summary.py", "Summarize a Claude Code session into the memory tree.",
                               add_arguments, cmd_summary, render_text, argv)
