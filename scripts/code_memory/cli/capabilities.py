"""``capability-generator.py`` (= ``code-memory capabilities``): check the four gates and generate
Skills from recurring patterns. The work is in :mod:`code_memory.capabilities`."""

from __future__ import annotations

from ..config import load_config
from .common import ArgumentParser, add_common, parse_or_error, render_text, run_command

PROG = "capability-generator.py"
DESCRIPTION = "Generate Claude Code Skills from recurring problems when all four gates are open."


def _inputs(cfg):
    """Everything the generator decides on: its settings, the signal analysis, the outcomes."""
    from ..capabilities import Settings
    from ..feedback import session_outcomes
    from ..signals import Settings as SignalSettings
    from .signals import analysis

    paths = cfg.paths
    return Settings.from_config(cfg.get("capabilities")), analysis(paths, SignalSettings.from_config(cfg.get("signals"))), \
        session_outcomes(paths)


def _backend(cfg, settings):
    if not settings.use_llm:
        return None
    from ..llm import LLMError, get_backend

    try:
        return get_backend(cfg, purpose="capability")
    except LLMError:
        return None


def generate(cfg, dry_run: bool = False, use_llm: bool | None = None) -> dict:
    """Run the generator with a loaded config (also used by weekly-consolidate)."""
    from dataclasses import replace

    from ..capabilities import run

    settings, analysis, outcomes = _inputs(cfg)
    if use_llm is False:
        settings = replace(settings, use_llm=False)
    return run(cfg.paths, settings, analysis, outcomes, backend=_backend(cfg, settings), dry_run=dry_run)


def status(cfg) -> dict:
    from ..capabilities import evaluate_gates, skills

    settings, analysis, outcomes = _inputs(cfg)
    gates = evaluate_gates(cfg.paths, settings, analysis, outcomes)
    return {"open": gates["open"], "gates": gates["gates"],
            "candidates": [{k: p[k] for k in ("pattern", "count", "level", "streak", "examples")}
                           for p in gates["candidates"]],
            "skills_dir": settings.skills_path, "skills": skills(cfg.paths)}


def cmd_main(args) -> dict:
    overrides = {"capabilities.skills_dir": args.skills_dir} if args.skills_dir else None
    cfg = load_config(root_override=args.root, overrides=overrides)
    if args.status:
        return status(cfg)
    return generate(cfg, dry_run=args.dry_run, use_llm=False if args.no_llm else None)


def _render(result: dict) -> str:
    if result.get("ok") is False or "gates" not in result:
        return render_text(result)
    lines = ["gates: " + ("OPEN" if result["open"] else "closed")]
    for g in result["gates"]:
        lines.append(f"  [{'x' if g['passed'] else ' '}] {g['gate']:<10} value={g['value']!s:<8} ({g['required']})")
    for c in result.get("candidates", []):
        lines.append(f"  candidate {c['pattern']} ({c['count']} sessions, {c['level']})")
    for g in result.get("generated", []):
        lines.append(f"{'would write' if result.get('dry_run') else 'wrote'} {g['path']} ({g['backend']})")
    for s in result.get("skipped", []):
        lines.append(f"skipped {s['pattern']}: {s['reason']}")
    for s in result.get("skills", []):
        flags = "" if s["exists"] else " (deleted)"
        flags += " (edited by you)" if s["modified"] else ""
        lines.append(f"skill {s['name']}{flags}: {s['path']}")
    return "\n".join(lines)


def add_arguments(parser) -> None:
    add_common(parser)
    parser.add_argument("--status", action="store_true", help="show each gate with its current value; change nothing")
    parser.add_argument("--dry-run", action="store_true", help="check the gates and show the skills that would be written")
    parser.add_argument("--no-llm", action="store_true", help="use the deterministic template even if an LLM is configured")
    parser.add_argument("--skills-dir", help="where skills go (default capabilities.skills_dir, ~/.claude/skills)")
    parser.set_defaults(handler=cmd_main, text_renderer=_render)


def register(sub) -> None:
    add_arguments(sub.add_parser("capabilities", help="generate Skills from recurring problems (same as capability-generator.py)"))


def main(argv=None) -> int:
    import sys

    argv = sys.argv[1:] if argv is None else argv
    parser = ArgumentParser(prog=PROG, description=DESCRIPTION)
    add_arguments(parser)
    args, code = parse_or_error(parser, argv)
    if args is None:
        return code
    return run_command(args.handler, args, args.text_renderer)
