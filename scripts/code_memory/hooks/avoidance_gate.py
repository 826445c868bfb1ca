"""avoidance-gate (PostToolUse, Edit|Write|MultiEdit): lint what the edit wrote.

The file is routed to a rule engine (code_memory.lint: Python, shell, Java DAO/Mapper SQL and
MyBatis XML, antd v3 for configured front-end projects) plus the user's own rules. Findings on the
lines this edit touched decide the answer: a blocking one → ``decision: block`` with file, line,
rule and what to do (Claude sees it beside the tool result and fixes it); only warnings →
``additionalContext``; nothing → silence. Tier 2 (``lint.semantic``) adds an LLM review, time-boxed
and advisory.
"""

from __future__ import annotations

import os

from ..config import PROJECT_CONFIG_RELPATH, load_config, setting
from ..lint.gate import LintReport, changed_lines, describe, lint_text, settings_from_config
from ..paths import rel_inside
from .runtime import block, context_output

LINT_TOOLS = ("Edit", "Write", "MultiEdit")


def _semantic(ctx, cfg, project, path, label, text, changed) -> list:
    """Tier 2 findings; the LLM SDK lives in site-packages, which the -S hook process adds only now.
    The time limit counts from here: loading the SDK is part of it."""
    import time
    started = time.monotonic()
    import site
    site.main()
    from ..fsutil import read_text
    from ..lint.semantic import review
    from ..llm import get_backend
    from ..markdown import section_lines
    from ..memory.tree import PITFALLS_HEADING
    from .project_rules import rule_blocks

    guidance = [b.text for b in rule_blocks(ctx.paths, project.name, ctx.groups_of(project.name))] if project else []
    pitfalls = section_lines(read_text(ctx.paths.memory_md) or "", PITFALLS_HEADING)
    if any(line.strip() for line in pitfalls):
        guidance.append("Known pitfalls (MEMORY.md):\n" + "\n".join(pitfalls)[:4000])
    section = cfg.get("lint") or {}
    backend = get_backend(cfg, paths=ctx.paths, env=ctx.env, purpose="semantic-lint")
    limit = setting(section, "lint.semantic_timeout_seconds")
    return review(backend, path, label, text, changed, "\n\n".join(guidance), limit - (time.monotonic() - started),
                  setting(section, "lint.semantic_max_bytes"))


def handle(event, ctx):
    if event.tool_name not in LINT_TOOLS or not event.file_path:
        return None
    if event.tool_response.get("success") is False or ctx.inside_root(event.file_path):
        return None
    path = event.file_path
    if not os.path.isfile(path):
        return None
    # None outside every project (~/scratch/x.py): the built-in and global rules only, never the
    # session project's own rules or lint targets
    project = ctx.project_of_file(path)
    base = project.root if project else os.path.dirname(path)
    # the project's own .claude/code-memory.json may set lint targets and severities; without one
    # the configuration is the one the hook already loaded
    has_own = project is not None and os.path.isfile(os.path.join(project.root, PROJECT_CONFIG_RELPATH))
    cfg = load_config(project_dir=project.root, env=ctx.env) if has_own else ctx.cfg
    section = cfg.get("lint") or {}
    if not setting(section, "lint.enabled"):
        return None
    names = [project.name] + ctx.groups_of(project.name) if project else []
    settings, problems = settings_from_config(section, base, names, os.path.join(ctx.paths.areas, "projects"))
    if problems:
        ctx.log.error("user-rules", problems=problems[:5])
    size = os.path.getsize(path)
    if size > settings.max_file_bytes:
        ctx.log.info("lint-skip", reason="file too large", bytes=size)
        return None
    with open(path, "rb") as fh:
        text = fh.read().decode("utf-8", errors="replace")
    label = rel_inside(path, base) or path
    changed = changed_lines(event.tool_name, event.tool_input, event.tool_response, text)
    report = lint_text(path, text, settings, rel_path=label, changed=changed)
    if section.get("semantic"):
        report = LintReport(report.engine, report.findings + _semantic(ctx, cfg, project, path, label, text, changed))
    if not report.findings:
        return None
    blocking, warnings = report.blocking, report.warnings
    rules = sorted({f.rule for f in report.findings})
    warn_text = ""
    if warnings:
        warn_text = (f"[code-memory avoidance-gate] Warnings for {label} (not blocking; fix them if they "
                     f"apply):\n{describe(warnings, label)}")
    if blocking:
        ctx.log.info("lint-block", engine=report.engine, rules=rules, blocking=len(blocking), warnings=len(warnings))
        reason = (f"[code-memory avoidance-gate] {label}: this edit introduced {len(blocking)} known "
                  f"pitfall(s) that the avoidance rules block. Fix them before going on:\n"
                  f"{describe(blocking, label)}")
        if warn_text:
            reason += "\n\n" + warn_text
        return block(reason)
    ctx.log.info("lint-warn", engine=report.engine, rules=rules, warnings=len(warnings))
    return context_output("PostToolUse", warn_text)
