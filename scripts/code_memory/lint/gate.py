"""Lint one file the way the avoidance gate does: route it to an engine, add user rules, keep the
findings of the lines an edit touched, apply per-rule severity.

Configuration comes in as values (:class:`LintSettings`, built by the edges from config
``lint.*`` and the project); nothing here reads config or the environment.
"""

from __future__ import annotations

import os

from ..config import setting
from .base import Finding, line_of, parse_version

ENGINES = {
    "python": "python_rules",
    "shell": "shell_rules",
    "java-sql": "java_sql_rules",
    "antd-v3": "antd_v3_rules",
}
ENGINE_SCRIPTS = {"python": "lint-python-rules.py", "shell": "lint-shell-rules.py",
                  "java-sql": "lint-java-sql-rules.py", "antd-v3": "lint-antd-v3-rules.py"}
# patterns compiled on first use: ``re`` costs a hook ~6 ms, and most edits need none of them
_SHEBANG = r"^#!.*\b(bash|sh|dash|python3?)\b"
_REQUIRES = r"""requires-python\s*=\s*["']\s*(?:>=|~=|==|>)\s*(\d+\.\d+)"""
_ANTD3 = r"^\D*3(\.|$|\s)"


class LintSettings:
    """What a lint run needs to know: targets, severities, scope, user rules, front-end or not."""

    def __init__(self, *, python_target=None, bash_target=(3, 2), severity=None, scope="changed",
                 max_file_bytes=1_000_000, frontend=False, user_rules=()):
        self.python_target = python_target
        self.bash_target = bash_target
        self.severity = dict(severity or {})
        self.scope = scope
        self.max_file_bytes = max_file_bytes
        self.frontend = frontend
        self.user_rules = list(user_rules)


def engine_module(name: str):
    return __import__(f"{__package__}.{ENGINES[name]}", fromlist=["lint"])


def route(path: str, head: str, frontend: bool) -> str | None:
    """The engine for ``path`` (``head``: the file's first bytes), or None."""
    base = os.path.basename(path)
    low = base.lower()
    if low.endswith((".py", ".pyi")):
        return "python"
    if low.endswith((".sh", ".bash")):
        return "shell"
    if base.endswith(("Dao.java", "Mapper.java")):
        return "java-sql"
    if low.endswith(".xml") and (base.endswith(("Mapper.xml", "Dao.xml")) or "<mapper" in head):
        return "java-sql"
    if low.endswith((".js", ".jsx")) and frontend:
        return "antd-v3"
    if "." not in base:
        import re
        m = re.match(_SHEBANG, head.split("\n", 1)[0])
        if m:
            return "python" if m.group(1).startswith("python") else "shell"
    return None


def python_target_of(project_root: str) -> tuple | None:
    """The oldest Python a project supports, from pyproject.toml ``requires-python``."""
    try:
        with open(os.path.join(project_root, "pyproject.toml"), encoding="utf-8") as fh:
            text = fh.read(200_000)
    except OSError:
        return None
    if "requires-python" not in text:
        return None
    import re
    m = re.search(_REQUIRES, text)
    return parse_version(m.group(1)) if m else None


def uses_antd_v3(project_root: str) -> bool:
    """package.json of the project depends on antd 3.x."""
    try:
        with open(os.path.join(project_root, "package.json"), encoding="utf-8") as fh:
            text = fh.read()
        if '"antd"' not in text:
            return False
        from ..jsonlite import loads
        data = loads(text)
    except (OSError, ValueError):
        return False
    if not isinstance(data, dict):
        return False
    import re
    for key in ("dependencies", "devDependencies", "peerDependencies"):
        deps = data.get(key)
        version = deps.get("antd") if isinstance(deps, dict) else None
        if isinstance(version, str) and re.match(_ANTD3, version.strip()):
            return True
    return False


def changed_lines(tool_name: str, tool_input: dict, tool_response: dict, text: str):
    """The 1-based lines an edit wrote, or None for "the whole file" (a Write, or unknown)."""
    if tool_name == "Write":
        return None
    lines = set()
    patch = tool_response.get("structuredPatch") if isinstance(tool_response, dict) else None
    if isinstance(patch, list) and patch:
        for hunk in patch:
            if not isinstance(hunk, dict):
                return None
            number = hunk.get("newStart")
            body = hunk.get("lines")
            if not isinstance(number, int) or not isinstance(body, list):
                return None
            touched = False
            for entry in body:
                entry = str(entry)
                if entry.startswith("+"):
                    lines.add(number)
                    touched = True
                    number += 1
                elif not entry.startswith("-"):
                    number += 1
            if not touched:  # a pure deletion: the line where it happened
                lines.add(max(1, hunk.get("newStart", 1)))
        return lines
    edits = tool_input.get("edits") if tool_name == "MultiEdit" else [tool_input]
    if not isinstance(edits, list):
        return None
    for edit in edits:
        new = edit.get("new_string") if isinstance(edit, dict) else None
        if not isinstance(new, str):
            return None
        start = text.find(new) if new else -1
        while start != -1:
            first = line_of(text, start)
            lines.update(range(first, first + max(1, new.count("\n") + 1)))
            if not (isinstance(edit, dict) and edit.get("replace_all")):
                break
            start = text.find(new, start + max(1, len(new)))
    return lines or None


class LintReport:
    def __init__(self, engine: str | None, findings: list):
        self.engine = engine
        self.findings = findings

    @property
    def blocking(self) -> list:
        return [f for f in self.findings if f.severity == "block"]

    @property
    def warnings(self) -> list:
        return [f for f in self.findings if f.severity == "warn"]


def lint_text(path: str, text: str, settings: LintSettings, *, rel_path: str | None = None,
              changed=None, engine: str | None = None) -> LintReport:
    """Findings for ``text`` (the content of ``path``). ``engine`` forces an engine (the lint-*
    commands); ``changed`` (a set of lines) keeps only findings on them, plus always-rules."""
    engine = engine or route(path, text[:4096], settings.frontend)
    findings = []
    always = set()
    if engine:
        module = engine_module(engine)
        always = {r.id for r in module.RULES if r.always}
        options = {"python_target": settings.python_target, "bash_target": settings.bash_target}
        findings += module.lint(text, path, options)
    if settings.user_rules:
        from .user_rules import check
        findings += check(settings.user_rules, text, path, rel_path or os.path.basename(path))
    if settings.scope == "changed" and changed is not None:
        findings = [f for f in findings if f.line in changed or f.rule in always]
    kept = []
    for f in findings:
        severity = settings.severity.get(f.rule, f.severity)
        if severity in ("block", "warn"):
            kept.append(f if severity == f.severity else Finding(f.rule, severity, f.line, f.message, f.path))
    kept.sort(key=lambda f: (f.severity != "block", f.line, f.rule))
    return LintReport(engine, kept)


def describe(findings: list, label: str, limit: int = 25) -> str:
    """One line per finding: ``label:line [RULE] message``; at most ``limit`` lines."""
    lines = [f"- {label}:{f.line} [{f.rule}] {f.message}" for f in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"- … and {len(findings) - limit} more")
    return "\n".join(lines)


def settings_from_config(section: dict, project_root: str | None, project_names: list,
                         areas_projects_dir: str) -> tuple:
    """(LintSettings, problems) from the ``lint`` config section (values, already merged with the
    project's own config) and the project: its Python target and antd version from its files,
    user rules from config and the memory root's ``areas/projects/<name>/lint-rules.json``."""
    section = section or {}
    python_target = parse_version(section.get("python_target"))
    if python_target is None and project_root:
        python_target = python_target_of(project_root)
    frontend = bool(project_names) and project_names[0] in (section.get("frontend_projects") or [])
    if not frontend and project_root and setting(section, "lint.detect_antd_v3"):
        frontend = uses_antd_v3(project_root)
    rule_files = [os.path.join(areas_projects_dir, n, "lint-rules.json") for n in project_names]
    if section.get("user_rules") or any(os.path.exists(f) for f in rule_files):
        from .user_rules import load_rules
        rules, problems = load_rules(section.get("user_rules"), areas_projects_dir, project_names)
    else:
        rules, problems = [], []
    severity = section.get("severity") if isinstance(section.get("severity"), dict) else {}
    settings = LintSettings(
        python_target=python_target,
        bash_target=parse_version(section.get("bash_target")),
        severity={k: str(v).lower() for k, v in severity.items()},
        scope=str(section.get("scope") or setting(None, "lint.scope")),
        max_file_bytes=int(section.get("max_file_bytes") or setting(None, "lint.max_file_bytes")),
        frontend=frontend,
        user_rules=rules,
    )
    return settings, problems
