"""Every hook code-memory registers: its shim, event, matcher, module and timeout.

One table feeds the runtime (which module handles a shim), the settings.json installer and the
plugin's ``hooks/hooks.json`` (a test keeps that file equal to :func:`hooks_json`). Matchers are
exact tool names (``|``-separated); SubagentStart has none on purpose — which agent types get the
schema or the rules is config (``hooks.schema_agents``, ``hooks.readonly_agents``), read when the
hook runs, so changing it needs no reinstall. Timeouts are seconds.
"""

from __future__ import annotations

EDIT_MATCHER = "Edit|Write|MultiEdit|NotebookEdit"

# (shim name, event, matcher or None, module, timeout seconds, what it does)
HOOKS = (
    ("session-start", "SessionStart", None, "session_start", 10,
     "inject the recent-work brief, MEMORY.md, the project summary, kv, routing and Skills index in one budget"),
    ("prompt-recall", "UserPromptSubmit", None, "prompt_recall", 10,
     "memory relevant to the prompt, behind the calibrated relevance gate; silent otherwise, never repeated"),
    ("rules-injector", "PreToolUse", "Read", "rules_injector", 10,
     "first Read in a project this session: allow + the project's rules as context; first Read of a known file: what memory knows about it"),
    ("rules-gate", "PreToolUse", EDIT_MATCHER, "rules_gate", 10,
     "deny an edit in a project whose rules are not loaded yet, saying what to read"),
    ("subagent-rules", "SubagentStart", None, "subagent_rules", 10,
     "a subagent that can edit starts with the project's rules and a memory brief"),
    ("schema-injector", "SubagentStart", None, "schema_injector", 10,
     "once per session: the schema index into a Plan/Explore/architect subagent"),
    ("pre-compact", "PreCompact", None, "pre_compact", 10,
     "clear the session's flags (rules re-inject after compaction), snapshot for the summarizer"),
    ("extract-memory", "PostToolUse", EDIT_MATCHER, "extract_memory", 10,
     "daily note line: time, project, file (same minute + project merged)"),
    ("avoidance-gate", "PostToolUse", "Edit|Write|MultiEdit", "avoidance_gate", 30,
     "lint the edited file: block with file/line/rule, warn as context, or pass"),
    ("todo-check", "Stop", None, "todo_check", 10,
     "a turn that seems to be about an open to-do: ask the model once whether it finished it (silent otherwise)"),
    ("session-summary", "SessionEnd", None, "session_end", 5,
     "snapshot the session as pending and start the summarizer detached"),
)

BY_SHIM = {row[0]: row for row in HOOKS}
MARKER = "# code-memory"  # ends every command we register in settings.json: how we know our own


def hook_entries(command_for, tag: bool) -> dict:
    """``{event: [{matcher?, hooks: [{type, command, timeout}]}]}`` for every hook, in order.

    ``command_for(shim)`` gives the command that runs ``hooks/<shim>.sh``; ``tag`` appends
    :data:`MARKER` (settings.json, so install/uninstall know their own); plugin commands need none."""
    out: dict = {}
    for shim, event, matcher, _module, timeout, _doc in HOOKS:
        command = command_for(shim) + (f" {MARKER}" if tag else "")
        group = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": command, "timeout": timeout}]
        out.setdefault(event, []).append(group)
    return out


def hooks_json() -> dict:
    """The plugin's hooks/hooks.json: commands under ``${CLAUDE_PLUGIN_ROOT}``, expanded by sh."""
    return {"description": "code-memory: a lasting memory for Claude Code (see docs/hooks.md)",
            "hooks": hook_entries(lambda shim: f'"${{CLAUDE_PLUGIN_ROOT}}/hooks/{shim}.sh"', tag=False)}
