"""rules-gate (PreToolUse, Edit|Write|MultiEdit|NotebookEdit): the safety net behind the
rules-injector. An edit in a project that has rules, before they were loaded this session, is
denied with a reason that says exactly what to read (``hooks.rules_gate = "deny"``), or denied once
with the rules themselves in the reason so the retried edit passes (``"inline"``); ``"off"``
never denies. An allowed edit of a file memory knows something about brings that, the first time
this session, as context (hooks/file_recall.py).

Fails open: if the session flags cannot be kept (unwritable temp dir), nothing is ever denied —
a gate that could never be satisfied would lock the user out of their own project — and the
session is told once (``gate_health``: systemMessage + additionalContext).
"""

from __future__ import annotations

import os

from ..paths import is_under
from .event import EDIT_TOOLS
from .runtime import context_output, deny


def _file_recall(event, ctx, project):
    """An allowed edit: what memory knows about the file on its first Edit this session, as context
    only — no permission decision, so Claude Code's own permission flow is untouched."""
    from .file_recall import file_context

    text = file_context(event, ctx, project)
    return context_output("PreToolUse", text) if text else None


def handle(event, ctx):
    if event.tool_name not in EDIT_TOOLS or not event.file_path:
        return None
    mode = str(ctx.setting("rules_gate")).lower()
    if ctx.inside_root(event.file_path):
        return None
    if mode not in ("deny", "inline"):
        return _file_recall(event, ctx, ctx.project_of_file(event.file_path))
    project = ctx.project_of_file(event.file_path)
    if project is None:  # outside every project (~/scratch/x.py, ~/.bashrc): no project's rules apply
        return None
    flags = ctx.flags
    own_dir = os.path.dirname(event.file_path) if is_under(event.file_path, project.root) else ""
    if flags.has_project(project.name, mark=own_dir):
        return _file_recall(event, ctx, project)

    from .project_rules import render_rules, rule_blocks

    blocks = rule_blocks(ctx.paths, project.name, ctx.groups_of(project.name))
    if not blocks:  # nothing to load: nothing to gate
        flags.set_project(project.name, mark=own_dir)
        return _file_recall(event, ctx, project)
    if not flags.usable():  # fail open — and tell the session once (gate_health)
        from .gate_health import problems, warn_once
        ctx.log.error("gate-open", reason="session flags unusable", project=project.name)
        return warn_once(event, problems(ctx.cfg, ctx.env) or ["the session flags cannot be kept"], ctx.paths.root)

    if mode == "inline":
        flags.set_project(project.name)
        text = render_rules(blocks, project.name, int(ctx.setting("rules_max_bytes")),
                            f"[code-memory] This {event.tool_name} was not applied: the rules of project "
                            f"\"{project.name}\" had not been loaded in this session. Here they are — check "
                            f"the change against them and retry it; the retry will be allowed.")
        ctx.log.info("deny-inline", project=project.name, tool=event.tool_name)
        return deny(text)

    files = " and ".join(b.source for b in blocks)
    ctx.log.info("deny", project=project.name, tool=event.tool_name)
    return deny(
        f"[code-memory] This {event.tool_name} was not applied: project \"{project.name}\" has rules that are "
        f"not loaded in this session yet. Read {files} first (or Read any file of the project, for "
        f"example {event.file_path}, which loads them automatically), then retry the edit.")
