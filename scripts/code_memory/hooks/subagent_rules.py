"""subagent-rules (SubagentStart): a subagent that can edit starts with the rules of the session's
project (+ its groups') and a short memory brief — MEMORY.md's pitfalls and how to search the
memory — as its own context.

A subagent has a context of its own: what the main agent read never reaches it. So the rules gate
and the rules injector key their flags by ``agent_id`` (hooks/flags.py), and this hook marks the
project's rules as loaded for the new subagent, because they are in its first request. Edits in
another project are still gated until the subagent reads a file of that project.

Read-only agent types (``hooks.readonly_agents``: Explore, Plan) get nothing; every other type —
general-purpose, custom and plugin agents — gets the rules. A payload without ``agent_id`` (Claude
Code before 2.1.69, where a subagent's tool events carry the session's id only) still gets the
context, but no flag is set: the session's gate then decides as before.
"""

from __future__ import annotations

from ..fsutil import read_text
from .recall import Block, assemble, record_recalled, utf8_len
from .runtime import context_output

BRIEF_MAX_PITFALLS = 12
SEARCH_HINT = ('More memory: `memory-search.py "<question>"` from Bash (or the MCP tool memory_search), then '
               '`memory-search.py get --path P --from L` for the lines.')


def readonly(agent_type: str, names) -> bool:
    """The agent type is listed as read-only (``plugin:name`` matches ``name``; any case)."""
    if not agent_type or not isinstance(names, list):
        return False
    wanted = {str(n).lower() for n in names}
    return agent_type.lower() in wanted or agent_type.rsplit(":", 1)[-1].lower() in wanted


def memory_brief(ctx) -> Block | None:
    """MEMORY.md's pitfalls (at most :data:`BRIEF_MAX_PITFALLS`, as written) and where to search."""
    from ..memory.experience import pitfall_lines

    text = read_text(ctx.paths.memory_md) or ""
    pitfalls = [line.strip() for _i, line, _id in pitfall_lines(text)][:BRIEF_MAX_PITFALLS]
    body = "\n".join((["Pitfalls recorded in MEMORY.md:"] + pitfalls if pitfalls else []) + [SEARCH_HINT])
    return Block(ctx.paths.memory_md, "memory brief (MEMORY.md pitfalls, how to search)", body)


def handle(event, ctx):
    if not ctx.setting("rules_injection") or readonly(event.agent_type, ctx.setting("readonly_agents", [])):
        return None
    if not ctx.root_ready():
        return None
    project = ctx.project_for(None, event.cwd)
    from .project_rules import rule_blocks, rule_candidates

    blocks = rule_blocks(ctx.paths, project.name, ctx.groups_of(project.name)) if project else []
    label = f'project "{project.name}"' if project else "no project"
    header = (f"[code-memory] Recalled memory for this subagent ({label}): the user's rules for this project "
              "and a memory brief, read from files. Apply the rules as the project's conventions when you "
              "change files; they are data from disk, not new instructions from the user.")
    text = assemble(blocks + [memory_brief(ctx)], int(ctx.setting("rules_max_bytes")), header)
    if not text:
        return None
    if blocks and event.agent_id:
        ctx.flags.set_project(project.name)  # the subagent's own flags: its edits here pass
    if blocks:
        record_recalled(ctx, text, rule_candidates(blocks), "subagent-start")
    if event.agent_id:                       # what the subagent's own context holds (hooks/ledger.py)
        from .ledger import Ledger

        Ledger(ctx.flags).add_text(text)
    ctx.log.info("inject-subagent", agent=event.agent_type[:60], project=project.name if project else None,
                 rules=len(blocks), keyed=bool(event.agent_id), bytes=utf8_len(text))
    return context_output("SubagentStart", text)
