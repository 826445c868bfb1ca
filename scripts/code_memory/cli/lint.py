"""``lint-python-rules.py``, ``lint-shell-rules.py``, ``lint-java-sql-rules.py``,
``lint-antd-v3-rules.py`` and ``code-memory lint``: the avoidance gate's engines on files you name.

Every file is checked whole (or only ``--changed-lines``) with the same settings the hook uses —
config ``lint.*`` with the project's own ``.claude/code-memory.json``, the project's Python
target, user rules. Blocking findings make the answer ``LINT_BLOCKED`` (exit 20) so the commands
work as pre-commit checks; warnings alone exit 0.
"""

from __future__ import annotations

import os
import sys

from ..config import PROJECT_CONFIG_RELPATH, load_config
from ..errors import CodeMemoryError, invalid
from ..lint.base import parse_version
from ..lint.gate import ENGINE_SCRIPTS, ENGINES, engine_module, lint_text, settings_from_config
from ..projects import detect_project, group_names
from .common import ArgumentParser, add_common, add_version, parse_or_error, run_command


def _line_set(spec: str | None):
    if not spec:
        return None
    lines = set()
    for part in spec.split(","):
        part = part.strip()
        try:
            if "-" in part:
                low, high = (int(x) for x in part.split("-", 1))
                lines.update(range(low, high + 1))
            elif part:
                lines.add(int(part))
        except ValueError:
            raise invalid(f"bad --changed-lines part {part!r}", hint="e.g. 3,7-12") from None
    return lines


def lint_files(args) -> dict:
    engine = args.engine
    if args.list_rules:
        if not engine:
            raise invalid("--list-rules needs an engine", hint=f"one of {', '.join(ENGINES)}")
        return {"engine": engine, "rules": [{"id": r.id, "severity": r.severity, "title": r.title, "why": r.why}
                                            for r in engine_module(engine).RULES]}
    if not args.files:
        raise invalid("no files given", hint="name the files to check")
    base_cfg = load_config(root_override=args.root)
    changed = _line_set(args.changed_lines)
    results, blocking, warnings = [], 0, 0
    for name in args.files:
        path = os.path.abspath(name)
        if not os.path.isfile(path):
            raise CodeMemoryError("NOT_FOUND", f"no such file: {name}")
        project = detect_project(path, os.getcwd(), base_cfg.get("projects") or {})
        # the project's own .claude/code-memory.json, when it has one, on top of the user's config
        has_own = os.path.isfile(os.path.join(project.root, PROJECT_CONFIG_RELPATH))
        cfg = load_config(root_override=args.root, project_dir=project.root) if has_own else base_cfg
        section = dict(cfg.get("lint") or {})
        if args.target:
            section["python_target" if engine == "python" else "bash_target"] = args.target
        if args.no_user_rules:
            section["user_rules"] = []
        names = [project.name] + group_names(project.name, cfg.get("project_groups") or {})
        settings, problems = settings_from_config(
            section, project.root, [] if args.no_user_rules else names, os.path.join(cfg.paths.areas, "projects"))
        if args.target and parse_version(args.target) is None:
            raise invalid(f"bad --target {args.target!r}", hint="e.g. 3.8")
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", errors="replace")
        rel = os.path.relpath(path, project.root) if path.startswith(project.root + os.sep) else path
        report = lint_text(path, text, settings, rel_path=rel, changed=changed, engine=engine)
        blocking += len(report.blocking)
        warnings += len(report.warnings)
        entry = {"path": path, "project": project.name, "engine": report.engine,
                 "findings": [f.to_dict() for f in report.findings]}
        if problems:
            entry["user_rule_problems"] = problems
        results.append(entry)
    answer = {"engine": engine or "auto", "files": results, "blocking": blocking, "warnings": warnings}
    if blocking:
        error = CodeMemoryError("LINT_BLOCKED", f"{blocking} blocking finding(s)",
                                hint="fix them; each finding names its rule and line", **answer)
        error.answer = answer   # --format text prints the findings before the error line
        raise error
    return answer


def render(result: dict) -> str:
    if "rules" in result:
        return "\n".join(f"{r['id']}  {r['severity']:5}  {r['title']} — {r['why']}" for r in result["rules"])
    lines = []
    for entry in result.get("files", []):
        for f in entry["findings"]:
            lines.append(f"{entry['path']}:{f['line']}: {f['severity']} [{f['rule']}] {f['message']}")
    lines.append(f"{result.get('blocking', 0)} blocking, {result.get('warnings', 0)} warnings")
    return "\n".join(lines)


def _add_arguments(parser, engine_choice: bool) -> None:
    add_common(parser)
    parser.add_argument("files", nargs="*", help="files to check")
    if engine_choice:
        parser.add_argument("--engine", choices=sorted(ENGINES), help="force an engine (default: by file name)")
    parser.add_argument("--changed-lines", help="only report these lines, e.g. 3,7-12 (syntax errors always)")
    parser.add_argument("--target", help="oldest Python (python engine) or bash (shell engine) to support")
    parser.add_argument("--no-user-rules", action="store_true", help="built-in rules only")
    parser.add_argument("--list-rules", action="store_true", help="print the engine's rules and exit")


def register(sub) -> None:
    p = sub.add_parser("lint", help="check files with the avoidance-gate rule engines (docs/hooks.md § Lint rules)")
    _add_arguments(p, engine_choice=True)
    p.set_defaults(handler=lint_files, text_renderer=render)


def main(engine: str, argv=None) -> int:
    """Entry of scripts/lint-<engine>-rules.py: the engine is fixed."""
    parser = ArgumentParser(prog=ENGINE_SCRIPTS[engine],
                            description=f"Check files with the {engine} rules of the avoidance gate.")
    add_version(parser)
    _add_arguments(parser, engine_choice=False)
    parser.set_defaults(engine=engine)
    args, status = parse_or_error(parser, sys.argv[1:] if argv is None else argv)
    if args is None:
        return status
    return run_command(lint_files, args, render)
