"""The SessionEnd/PreCompact → summarizer hand-off (docs/summaries.md § Session summaries).

The hook writes ``<root>/sessions/.pending/<safe session id>.json`` =
``{session_id, transcript_path, cwd, project, reason, event, ended_at}`` atomically and starts
``session-summary.py --from-pending <file>`` (config ``hooks.summarizer`` overrides the
script) detached: its own session (setsid), stdio on /dev/null, the same python without ``-S``.
The summarizer removes the file when done; leftovers are retried by ``--pending-all``.
"""

from __future__ import annotations

import os
import sys

from ..fsutil import atomic_write_json
from ..paths import entry_command, expand, safe_name
from .runtime import DISABLE_ENV


def write_snapshot(paths, event, project: str, ended_at: str) -> str:
    record = {
        "session_id": event.session_id,
        "transcript_path": event.transcript_path,
        "cwd": event.cwd,
        "project": project,
        "reason": event.reason or event.trigger,
        "event": event.name,
        "ended_at": ended_at,
    }
    path = os.path.join(paths.pending, safe_name(event.session_id, max_len=128) + ".json")
    atomic_write_json(path, record, mode=0o600)
    return path


def summarizer_command(setting) -> list | None:
    """The summarizer to start with ``--from-pending FILE``: the script ``hooks.summarizer`` names,
    else ours (the checkout's ``scripts/session-summary.py``, or ``-m code_memory.cli.summary``)."""
    if setting:
        script = expand(str(setting))
        return [sys.executable, script] if os.path.isfile(script) else None
    return entry_command(sys.executable, "session-summary.py", "code_memory.cli.summary")


def spawn_detached(argv: list, env: dict) -> int:
    """Start ``argv`` in a new session with stdin/stdout/stderr on /dev/null; return its pid.
    It outlives the hook (and the Claude Code session); nothing waits for it."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    try:
        return os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)
    except (AttributeError, NotImplementedError, TypeError):
        pass
    pid = os.fork()  # platforms without posix_spawn(setsid=)
    if pid == 0:  # pragma: no cover — the child replaces itself at once
        try:
            os.setsid()
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid


def hand_off(ctx, event) -> dict:
    """Snapshot the session and start the summarizer. Returns what happened (for the log)."""
    project = ctx.project_for(None, event.cwd) if event.cwd else None
    ended_at = ctx.now().astimezone().isoformat(timespec="seconds")
    path = write_snapshot(ctx.paths, event, project.name if project else "", ended_at)
    result = {"pending": os.path.basename(path), "started": False}
    command = summarizer_command(ctx.setting("summarizer")) if ctx.setting("summarize_on_end") else None
    if command:
        env = dict(ctx.env)
        env[DISABLE_ENV] = "1"  # nothing the summarizer starts (claude -p) may run our hooks
        env.setdefault("CODE_MEMORY_ROOT", ctx.paths.root)
        result["pid"] = spawn_detached([*command, "--from-pending", path], env)
        result["started"] = True
    return result
