"""The hook payload, normalised once into a frozen :class:`HookEvent`.

Claude Code's stdin JSON (docs/hooks.md; verified against the real binary in tests/e2e) changes between versions: unknown fields are
ignored, missing ones become empty values, wrong types are dropped. Nothing here raises on bad
input — :func:`parse_event` returns ``None`` for anything that is not a JSON object.
"""

from __future__ import annotations

import os

from ..jsonlite import loads
from ..paths import Frozen

# tools whose tool_input names the file they touch, and the key holding it
FILE_KEYS = ("file_path", "notebook_path")
EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")


class HookEvent(Frozen):
    """``name``: hook_event_name; ``file_path``: the absolute path a file tool touches ("" if none);
    ``tool_input`` / ``tool_response``: the raw objects ({} when missing); ``agent_id``: set only
    inside a subagent (Claude Code ≥ 2.1.69 puts it on every event of the subagent, tool events
    included), "" for the main agent and for older builds; ``prompt``: what the user typed
    (UserPromptSubmit); ``stop_hook_active``: Claude is already continuing because of a Stop hook
    (Stop); ``last_message``: the turn's final assistant text (Stop's ``last_assistant_message``)."""

    __slots__ = ("name", "session_id", "transcript_path", "cwd", "tool_name", "tool_input",
                 "tool_response", "file_path", "agent_type", "source", "reason", "trigger", "agent_id",
                 "prompt", "stop_hook_active", "last_message")


def _text(obj: dict, key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or "\x00" in value:
        return ""
    return value


def _file_path(tool_input: dict, cwd: str) -> str:
    for key in FILE_KEYS:
        value = _text(tool_input, key)
        if value:
            if not os.path.isabs(value):
                if not cwd:
                    return ""
                value = os.path.join(cwd, value)
            return value
    return ""


def parse_event(raw: bytes, default_name: str = "") -> HookEvent | None:
    """The event in ``raw`` (stdin bytes), or ``None`` if it is empty or not a JSON object."""
    if not raw or not raw.strip():
        return None
    try:
        payload = loads(raw.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    tool_input = payload.get("tool_input")
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    tool_response = payload.get("tool_response")
    tool_response = tool_response if isinstance(tool_response, dict) else {}
    cwd = _text(payload, "cwd")
    if cwd and not os.path.isabs(cwd):
        cwd = ""
    return HookEvent(
        _text(payload, "hook_event_name") or default_name,
        _text(payload, "session_id"),
        _text(payload, "transcript_path"),
        cwd,
        _text(payload, "tool_name"),
        tool_input,
        tool_response,
        _file_path(tool_input, cwd),
        _text(payload, "agent_type"),
        _text(payload, "source"),
        _text(payload, "reason"),
        _text(payload, "trigger"),
        _text(payload, "agent_id"),
        _text(payload, "prompt"),
        payload.get("stop_hook_active") is True,
        _text(payload, "last_assistant_message"),
    )
