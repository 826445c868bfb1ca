"""rules-injector (PreToolUse, Read): the first Read in a project each session brings that
project's rules (+ its groups' rules) into the context; later Reads are silent — except the first Read of a file memory knows something about, which
brings that (hooks/file_recall.py: the sessions that touched it, the pitfalls and facts naming it).

The answer is ``permissionDecision: allow`` + ``additionalContext``, so the Read runs and the rules
arrive with it (one call = the file + the rules). ``allow`` is only given for files under
the session's working directory, where Claude Code lets Read through anyway; elsewhere the context
comes without a decision, so a memory tool never widens what the user's permission settings allow.

Claude reading a rules file itself (``<root>/areas/projects/<name>/rules.md``, as the gate's deny
reason suggests) also counts as loading that project's rules.
"""

from __future__ import annotations

import os

from ..paths import is_under
from .runtime import allow_with_context, context_output


def _answer(event, text: str) -> dict:
    if event.cwd and is_under(event.file_path, event.cwd):
        return allow_with_context(text)
    return context_output("PreToolUse", text)


def _with_file_recall(event, ctx, project, rules_text: str = ""):
    """The answer: the rules (when they go out now) and what memory knows about the file (on its
    first Read this session: hooks/file_recall.py), or None when both are empty."""
    from .file_recall import file_context

    recalled = file_context(event, ctx, project)
    text = "\n\n".join(t for t in (rules_text, recalled) if t)
    return _answer(event, text) if text else None


def handle(event, ctx):
    if event.tool_name != "Read" or not event.file_path:
        return None
    if not ctx.setting("rules_injection"):
        return None if ctx.inside_root(event.file_path) else _with_file_recall(
            event, ctx, ctx.project_for(event.file_path))
    flags = ctx.flags
    max_bytes = int(ctx.setting("rules_max_bytes"))

    if ctx.inside_root(event.file_path):
        from ..memory.tree import rules_owner
        from .project_rules import render_rules, rule_blocks, rule_candidates
        from .recall import record_recalled

        owner = rules_owner(ctx.paths, event.file_path)
        if not owner:
            return None
        flags.set_project(owner)
        ctx.log.info("rules-read", project=owner)
        # the Read hands Claude the project's own file: its rules count as used
        own = rule_blocks(ctx.paths, owner, [])
        if own:
            record_recalled(ctx, own[0].text, rule_candidates(own), "rules-read")
        # its groups' rules come along as context
        group_blocks = rule_blocks(ctx.paths, owner, ctx.groups_of(owner), own=False)
        if not group_blocks:
            return None
        text = render_rules(group_blocks, owner, max_bytes,
                            f"[code-memory] Shared rules that also apply to project \"{owner}\".")
        record_recalled(ctx, text, rule_candidates(group_blocks), "rules-injector")
        return _answer(event, text)

    project = ctx.project_for(event.file_path)
    if project is None:
        return None
    # derived from the file itself, not the cwd
    own_dir = os.path.dirname(event.file_path) if is_under(event.file_path, project.root) else ""
    if flags.has_project(project.name, mark=own_dir):
        return _with_file_recall(event, ctx, project)
    # re, templates, feedback: only now that the rules really go out
    from .project_rules import render_rules, rule_blocks, rule_candidates
    from .recall import record_recalled, utf8_len

    blocks = rule_blocks(ctx.paths, project.name, ctx.groups_of(project.name))
    flags.set_project(project.name, mark=own_dir)
    if not blocks:
        return _with_file_recall(event, ctx, project)
    text = render_rules(blocks, project.name, max_bytes,
                        f"[code-memory] Rules of project \"{project.name}\" — loaded with the first Read in "
                        f"this project this session (not repeated; re-loaded after compaction).")
    if not text:
        return _with_file_recall(event, ctx, project)
    ctx.log.info("inject-rules", project=project.name, files=len(blocks), bytes=utf8_len(text))
    record_recalled(ctx, text, rule_candidates(blocks), "rules-injector")
    from .ledger import Ledger

    Ledger(flags).add_text(text)
    return _with_file_recall(event, ctx, project, text)
