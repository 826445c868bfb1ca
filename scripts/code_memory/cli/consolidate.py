"""``code-memory consolidate`` (what ``weekly-consolidate.sh`` runs) and ``code-memory cron``
(register the weekly job). The work is in :mod:`code_memory.evolution.consolidate` and :mod:`code_memory.install.cron`."""

from __future__ import annotations

import os
import sys

from ..config import load_config
from ..errors import CodeMemoryError
from ..paths import shell_dir
from .common import add_common, render_text

STEP_CHOICES = ("pending", "facts", "signals", "capabilities", "distill", "cleanup", "reindex")


def weekly_jobs(cfg) -> dict:
    """The weekly job's steps that other services do, bound to this configuration."""
    def pending():
        from ..summary.jobs import run_configured_pending
        return run_configured_pending(cfg)

    def facts():
        from ..summary.fact_extract import extract_configured
        return extract_configured(cfg)

    def reindex():
        from ..search.build import build_index
        return build_index(cfg)

    return {"pending": pending, "facts": facts, "reindex": reindex}


def cmd_consolidate(args) -> dict:
    from ..evolution.consolidate import Settings, consolidate, scoped_result
    from ..search.access import resolve_scope

    cfg = load_config(root_override=args.root)
    section = dict(cfg.get("consolidate") or {})
    if args.days:
        section["days"] = args.days
    result = consolidate(cfg, Settings.from_config(section), dry_run=args.dry_run, skip=tuple(args.skip or ()),
                         jobs=weekly_jobs(cfg))
    scope = resolve_scope(cfg, cwd=os.getcwd())
    if scope.restricted:        # a session (or a detached process) reads its own project's part only
        result = scoped_result(result, scope.areas)
    if result["failed_steps"]:
        raise CodeMemoryError("CONSOLIDATE_INCOMPLETE", f"steps failed: {', '.join(result['failed_steps'])}",
                              hint="the other steps ran; see steps.<name>.message", **result)
    return result


def _render_consolidate(result: dict) -> str:
    if "steps" not in result:
        return render_text(result)
    if result.get("report"):
        return result["report"]
    lines = [f"{name}: {s['status']}" + (f" ({s.get('reason') or s.get('message')})"
                                         if s["status"] != "ok" else "") for name, s in result["steps"].items()]
    return "\n".join(lines + [f"report: {result.get('report_path')}"])


def env_file_path() -> str:
    """Where the weekly job's LLM access is kept: outside the memory root, next to the venv."""
    home = os.environ.get("CODE_MEMORY_HOME") or os.path.join(os.path.expanduser("~"), ".claude", "code-memory")
    return os.path.join(home, "weekly.env")


def cmd_cron(args) -> dict:
    from ..install import cron

    cfg = load_config(root_override=args.root)
    if args.action == "status":
        return cron.status(env_file_path())
    if args.action == "remove":
        return cron.remove(env_file_path())
    script = os.path.join(shell_dir(), "scripts", "weekly-consolidate.sh")
    schedule = args.schedule or cfg.get_path("consolidate.cron_schedule")
    llm = cron.llm_access(dict(cfg.get("llm") or {}), os.environ)
    return cron.install(schedule, script, cfg.root, sys.executable, env_file_path(), llm)


def _render_cron(result: dict) -> str:
    lines = []
    if "installed" in result:
        lines.append(f"weekly job {'installed' if result['installed'] else 'not installed'}")
        lines += [f"  {line}" for line in result.get("lines", [])]
        if result.get("line"):
            lines.append(f"  {result['line']}")
    if "removed" in result:
        lines.append(f"removed {result['removed']} crontab line(s)")
    llm = result.get("llm")
    if llm:
        lines.append(f"LLM: {llm.get('via') or llm.get('backend', '?')} (env file {llm['env_file']})")
    if result.get("warning"):
        lines.append(f"warning: {result['warning']}")
    return "\n".join(lines)


def register(sub) -> None:
    p = sub.add_parser("consolidate", help="the weekly consolidation (what weekly-consolidate.sh runs)")
    add_common(p)
    p.add_argument("--dry-run", action="store_true", help="write and delete nothing; print the report")
    p.add_argument("--days", type=int, help="the period the report covers (default consolidate.days, 7)")
    p.add_argument("--skip", action="append", choices=STEP_CHOICES, help="leave out a step (repeatable)")
    p.set_defaults(handler=cmd_consolidate, text_renderer=_render_consolidate)

    p = sub.add_parser("cron", help="register the weekly job in your crontab (install.sh --cron)")
    add_common(p)
    p.add_argument("action", choices=("install", "remove", "status"),
                   help="install (or replace) our crontab line and its env file, remove them, or show them")
    p.add_argument("--schedule", help="cron schedule (default consolidate.cron_schedule, '17 3 * * 0')")
    p.set_defaults(handler=cmd_cron, text_renderer=_render_cron)
