"""``capability-generator.py`` (= ``code-memory capabilities``): check the four gates and generate
Skills from recurring patterns. The work is in :mod:`code_memory.evolution.capabilities`."""

from __future__ import annotations

from ..config import load_config
from .common import add_common, options_script_main, render_text

PROG = "capability-generator.py"
DESCRIPTION = "Generate Claude Code Skills from recurring problems when all four gates are open."


def cmd_main(args) -> dict:
    overrides = {"capabilities.skills_dir": args.skills_dir} if args.skills_dir else None
    cfg = load_config(root_override=args.root, overrides=overrides)
    from ..evolution.capabilities import generate_configured, status_configured

    if args.status:
        return status_configured(cfg)
    return generate_configured(cfg, dry_run=args.dry_run, use_llm=False if args.no_llm else None)


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
    return options_script_main(PROG, DESCRIPTION, add_arguments, cmd_main, _render, argv)
