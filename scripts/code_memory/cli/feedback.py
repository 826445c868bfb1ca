"""``memory-feedback.py`` (= ``code-memory feedback``): experience references, session outcomes,
scores, the report, archiving. The work is in :mod:`code_memory.evolution.feedback`."""

from __future__ import annotations

import argparse

from ..config import load_config
from ..errors import invalid
from ..redact import redact
from .common import add_common, register_group, render_text, script_main

PROG = "memory-feedback.py"
DESCRIPTION = "Experience feedback: which memories help (refs, outcomes, Laplace × decay scores)."


def _context(args):
    from ..evolution.feedback import Settings

    cfg = load_config(root_override=args.root)
    return cfg, cfg.paths, Settings.from_config(cfg.get("feedback"))


def _refresh(paths, settings) -> None:
    from ..evolution.feedback import refresh_score_cache

    refresh_score_cache(paths, settings)


def cmd_ref(args) -> dict:
    from ..evolution.feedback import record_refs
    from ..memory.experience import is_valid_id

    _, paths, _ = _context(args)
    bad = [e for e in args.experience_id if not is_valid_id(e)]
    if bad:
        raise invalid(f"not an experience id: {bad[0]!r}",
                      hint="rule:<project>:<sha1[:10]>, pitfall:<sha1[:10]>, fact:<fact id>")
    context = redact(args.context) if args.context else None
    count = record_refs(paths, args.session_id, args.experience_id, context=context)
    return {"recorded": count, "session_id": args.session_id}


def cmd_outcome(args) -> dict:
    from ..evolution.feedback import record_assessment, record_outcome

    cfg, paths, settings = _context(args)
    if args.transcript:
        from ..evolution.outcome import assess_transcript

        assessment = assess_transcript(args.transcript, int(cfg.get_path("feedback.max_corrections")),
                                       int(cfg.get_path("feedback.max_tool_errors")))
        result = {"session_id": args.session_id, "assessment": assessment.to_dict(), "dry_run": args.dry_run}
        if assessment.outcome is None:
            return {**result, "recorded": False,
                    "reason": "; ".join(assessment.reasons) or "the transcript holds no conversation"}
        if args.dry_run:
            return {**result, "recorded": False}
        from ..evolution.evidence import session_evidence

        touched = session_evidence(paths, args.session_id, assessment, projects_map=cfg.get("projects"),
                                   project_groups=cfg.get("project_groups"))
        record = record_assessment(paths, args.session_id, assessment, source="transcript", evidence=touched)
        _refresh(paths, settings)
        return {**result, "recorded": True, "evidence": record["evidence"]}
    if args.outcome is None:
        raise invalid("give --outcome success|failed or --transcript PATH")
    if args.dry_run:
        raise invalid("--dry-run only applies to --transcript")
    record = record_outcome(paths, args.session_id, args.outcome, args.corrections, source=args.source,
                            evidence=args.evidence)
    _refresh(paths, settings)
    return {"recorded": True, "event": record}


def cmd_score(args) -> dict:
    from ..evolution.feedback import scores

    _, paths, settings = _context(args)
    rows = scores(paths, settings, experience_id=args.id)
    if args.status:
        rows = [r for r in rows if r["status"] == args.status]
    return {"count": len(rows), "experiences": rows[:args.limit]}


def _render_scores(result: dict) -> str:
    if result.get("ok") is False:
        return render_text(result)
    lines = [f"{'score':>6} {'p':>6} {'decay':>6} {'s/f':>7}  status             experience"]
    for r in result["experiences"]:
        lines.append(f"{r['score']:6.3f} {r['laplace']:6.3f} {r['decay']:6.3f} {r['success']:>3}/{r['failed']:<3}"
                     f"  {r['status']:<18} {r['experience_id']}")
    return "\n".join(lines)


def cmd_report(args) -> dict:
    from ..evolution.feedback import report

    _, paths, settings = _context(args)
    return report(paths, settings, limit=args.limit)


def _render_report(result: dict) -> str:
    from ..evolution.feedback import render_report_markdown

    return render_report_markdown(result) if result.get("ok") is not False else render_text(result)


def cmd_archive(args) -> dict:
    from ..evolution.archive import archive

    _, paths, settings = _context(args)
    result = archive(paths, settings, apply=args.apply, ids=args.id)
    if args.apply:
        _refresh(paths, settings)
    return result


def cmd_restore(args) -> dict:
    from ..evolution.archive import restore

    _, paths, settings = _context(args)
    result = restore(paths, args.id)
    _refresh(paths, settings)
    return result


def cmd_rebuild(args) -> dict:
    from ..evolution.feedback import sync

    _, paths, settings = _context(args)
    result = sync(paths, rebuild=True)
    _refresh(paths, settings)
    return result


def _format_with_markdown(value: str) -> str:
    return "text" if value == "markdown" else value


def add_subcommands(sub) -> None:
    p = sub.add_parser("ref", help="record that an experience was handed to Claude in a session")
    add_common(p)
    p.add_argument("--experience-id", action="append", required=True,
                   help="rule:<project>:<hash>, pitfall:<hash> or fact:<id> (repeatable)")
    p.add_argument("--session-id", required=True, help="the Claude Code session it was handed to")
    p.add_argument("--context", help="a short label of where it was used (redacted, ≤ 200 chars)")
    p.set_defaults(handler=cmd_ref)

    p = sub.add_parser("outcome", help="record a session's outcome (given, or derived from its transcript)")
    add_common(p)
    p.add_argument("--session-id", required=True, help="the Claude Code session")
    p.add_argument("--outcome", choices=("success", "failed"),
                   help="how the session went (without it: derived from --transcript)")
    p.add_argument("--corrections", type=int, default=0, help="corrections in the session (default 0)")
    p.add_argument("--transcript", help="derive outcome and corrections from this transcript JSONL")
    p.add_argument("--dry-run", action="store_true", help="with --transcript: show the assessment only")
    p.add_argument("--evidence", action="append", default=[], metavar="ID",
                   help="with --outcome: an experience of the session whose files it changed, so the outcome "
                        "counts for its score (repeatable; --transcript finds them itself)")
    p.add_argument("--source", default="manual", help=argparse.SUPPRESS)
    p.set_defaults(handler=cmd_outcome)

    p = sub.add_parser("score", help="scores of all experiences (best first) or of one")
    add_common(p)
    p.add_argument("--id", help="one experience id")
    p.add_argument("--status", choices=("high_value", "normal", "archive_candidate", "archived"),
                   help="only experiences with this status")
    p.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    p.set_defaults(handler=cmd_score, text_renderer=_render_scores)

    p = sub.add_parser("report", help="the feedback loop's state (JSON; --format text|markdown for people)")
    p.add_argument("--root", help="memory root (default: $CODE_MEMORY_ROOT or ~/.claude/memory)")
    p.add_argument("--format", type=_format_with_markdown, choices=("json", "text"), default="json",
                   help="json (default), text or markdown (both give the Markdown report)")
    p.add_argument("--limit", type=int, default=10, help="rows per list (default 10)")
    p.set_defaults(handler=cmd_report, text_renderer=_render_report)

    p = sub.add_parser("archive", help="archive low-scoring experiences (dry run unless --apply)")
    add_common(p)
    p.add_argument("--apply", action="store_true", help="really move the lines out (default: dry run)")
    p.add_argument("--id", action="append", help="archive these ids instead of the candidates (repeatable)")
    p.set_defaults(handler=cmd_archive)

    p = sub.add_parser("restore", help="put an archived experience back")
    add_common(p)
    p.add_argument("--id", required=True, help="the archived experience's id (from `score --status archived`)")
    p.set_defaults(handler=cmd_restore)

    p = sub.add_parser("rebuild", help="rebuild the derived tables from evolution/audit.jsonl")
    add_common(p)
    p.set_defaults(handler=cmd_rebuild)


def register(sub) -> None:
    register_group(sub, "feedback", "experience feedback (same as memory-feedback.py)", add_subcommands)


def main(argv=None) -> int:
    return script_main(PROG, DESCRIPTION, add_subcommands, argv)
