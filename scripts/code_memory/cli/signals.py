"""``signal-analyzer.py`` (= ``code-memory signals``): extract signals from session summaries,
recurring patterns, the report, pattern states. The work is in :mod:`code_memory.evolution.signals`."""

from __future__ import annotations

from ..config import load_config
from ..errors import invalid
from .common import add_common, register_group, render_text, script_main

PROG = "signal-analyzer.py"
DESCRIPTION = "Cross-session signals: 8 types from session summaries, recurring patterns, failure streaks."


def _context(args):
    from ..evolution.signals import Settings

    cfg = load_config(root_override=args.root)
    return cfg.paths, Settings.from_config(cfg.get("signals"))


def cmd_extract(args) -> dict:
    from ..evolution.signals import extract

    if not args.all and not args.session_id:
        raise invalid("give --session-id ID or --all")
    paths, settings = _context(args)
    return extract(paths, settings, session_id=None if args.all else args.session_id, force=args.force)


def cmd_recurring(args) -> dict:
    from ..evolution.signals import analyze_with_outcomes

    paths, settings = _context(args)
    result = analyze_with_outcomes(paths, settings)
    patterns = [p for p in result["patterns"] if p["count"] >= args.min_count
                and (args.all_states or p["state"] == "active")]
    return {"window": result["window"], "failure_streak": result["failure_streak"],
            "by_type": result["by_type"], "patterns": patterns}


def _render_recurring(result: dict) -> str:
    if result.get("ok") is False:
        return render_text(result)
    streak = result["failure_streak"]
    lines = [f"window: {len(result['window'])} sessions; failure streak {streak['length']}"
             + (" (FLAGGED)" if streak["flagged"] else "")]
    for p in result["patterns"]:
        lines.append(f"{p['level']:<8} {p['count']:>2} sessions  streak {p['streak']}  {p['state']:<10} {p['pattern']}"
                     + ("" if p["actionable"] else "  (catch-all)"))
        lines += [f"           - {text}" for text in p["examples"][:2]]
    if not result["patterns"]:
        lines.append("no recurring patterns")
    return "\n".join(lines)


def cmd_report(args) -> dict:
    from ..evolution.signals import analyze_with_outcomes, write_report

    paths, settings = _context(args)
    result = analyze_with_outcomes(paths, settings)
    path = write_report(paths, result)
    return {"path": path, "recurring": len(result["recurring"]),
            "failure_streak": result["failure_streak"], "report": result}


def _render_report(result: dict) -> str:
    from ..evolution.signals import render_report

    return render_report(result["report"]) if result.get("ok") is not False else render_text(result)


def _state_command(state: str):
    def handler(args) -> dict:
        from ..evolution.signals import set_state

        paths, _ = _context(args)
        return {"state": set_state(paths, args.pattern, state, reason=args.reason or "")}
    return handler


def cmd_rules(args) -> dict:
    from ..evolution.signal_rules import RULES_SRC, SIGNAL_TYPES

    _, settings = _context(args)
    extra = [{"type": r["type"], "subject": r.get("subject", "custom"), "needs_problem": bool(r.get("needs_problem")),
              "pattern": r["pattern"], "source": "config"} for r in settings.extra_rules]
    settings.rules()  # validates the extra rules
    builtin = [{"type": t, "subject": s, "needs_problem": n, "pattern": p, "source": "builtin"}
               for t, s, p, n in RULES_SRC]
    return {"types": list(SIGNAL_TYPES), "rules": extra + builtin}


def add_subcommands(sub) -> None:
    p = sub.add_parser("extract", help="extract signals from one session summary or all new ones")
    add_common(p)
    p.add_argument("--session-id", help="the session whose sessions/<id>.md to read")
    p.add_argument("--all", action="store_true", help="every summary not yet extracted in its current version")
    p.add_argument("--force", action="store_true", help="extract again even if unchanged")
    p.set_defaults(handler=cmd_extract)

    p = sub.add_parser("recurring", help="recurring patterns over the session window, with levels and streaks")
    add_common(p)
    p.add_argument("--min-count", type=int, default=2, help="show patterns seen in at least N sessions (default 2)")
    p.add_argument("--all-states", action="store_true", help="include addressed and suppressed patterns")
    p.set_defaults(handler=cmd_recurring, text_renderer=_render_recurring)

    p = sub.add_parser("report", help="write evolution/signal_report_latest.md (--format text prints it)")
    add_common(p)
    p.set_defaults(handler=cmd_report, text_renderer=_render_report)

    for state, verb, text in (("suppressed", "suppress", "mute a pattern: never reported as recurring or used for Skills"),
                              ("addressed", "address", "mark a pattern handled (lower priority; reopens if it recurs)"),
                              ("active", "activate", "make a pattern active again")):
        p = sub.add_parser(verb, help=text)
        add_common(p)
        p.add_argument("pattern", help="<type>:<subject>, e.g. environment_issue:port")
        p.add_argument("--reason", help="why (kept in evolution/pattern_states.jsonl)")
        p.set_defaults(handler=_state_command(state))

    p = sub.add_parser("rules", help="the signal rules (built-in and from config signals.extra_rules)")
    add_common(p)
    p.set_defaults(handler=cmd_rules)


def register(sub) -> None:
    register_group(sub, "signals", "cross-session signals (same as signal-analyzer.py)", add_subcommands)


def main(argv=None) -> int:
    return script_main(PROG, DESCRIPTION, add_subcommands, argv)
