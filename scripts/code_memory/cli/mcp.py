"""``code-memory mcp command|register|unregister``: register the MCP server with Claude Code.

``register`` runs ``claude mcp add code-memory --scope user -- <python> <repo>/scripts/code-memory-mcp.py``
(after removing an older registration, so it is idempotent); when the ``claude`` binary is not on
PATH it answers ``registered: false`` with the exact command to run. ``CODE_MEMORY_ROOT`` and
``MEMTOOL_DB``, when set, are passed to the server with ``-e``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

from ..errors import CodeMemoryError
from ..paths import entry_command
from .common import add_common

SERVER_NAME = "code-memory"
PASSED_ENV = ("CODE_MEMORY_ROOT", "MEMTOOL_DB")


def server_command(python: str | None = None) -> list:
    """How to start the server: this Python and the checkout's entry script (or ``-m`` when the
    package was installed without the scripts directory)."""
    return entry_command(python or sys.executable, "code-memory-mcp.py", "code_memory.mcp.server")


def add_command(scope: str, env=None, claude: str = "claude") -> list:
    env = os.environ if env is None else env
    # the name comes first: the real binary's -e takes several values and would swallow it
    cmd = [claude, "mcp", "add", SERVER_NAME, "--scope", scope]
    for name in PASSED_ENV:
        if env.get(name):
            cmd += ["-e", f"{name}={env[name]}"]
    return cmd + ["--"] + server_command()


def _claude(args) -> str | None:
    return args.claude or shutil.which("claude")


def _run(cmd: list, timeout: float = 60) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CodeMemoryError("INTERNAL_ERROR", f"could not run {cmd[0]}: {exc}") from None


def cmd_command(args) -> dict:
    return {"command": shlex.join(add_command(args.scope)), "argv": add_command(args.scope)}


def cmd_register(args) -> dict:
    claude = _claude(args)
    if not claude:
        return {"registered": False, "command": shlex.join(add_command(args.scope)),
                "hint": "claude is not on PATH: run the command above once Claude Code is installed"}
    _run([claude, "mcp", "remove", "--scope", args.scope, SERVER_NAME])
    cmd = add_command(args.scope, claude=claude)
    proc = _run(cmd)
    if proc.returncode != 0:
        raise CodeMemoryError("INTERNAL_ERROR", f"claude mcp add failed: {(proc.stderr or proc.stdout).strip()[:300]}",
                              hint=f"run it yourself: {shlex.join(cmd)}")
    return {"registered": True, "scope": args.scope, "name": SERVER_NAME, "command": shlex.join(cmd)}


def cmd_unregister(args) -> dict:
    claude = _claude(args)
    if not claude:
        raise CodeMemoryError("NOT_FOUND", "claude is not on PATH",
                              hint=f"run: claude mcp remove --scope {args.scope} {SERVER_NAME}")
    proc = _run([claude, "mcp", "remove", "--scope", args.scope, SERVER_NAME])
    return {"removed": proc.returncode == 0, "scope": args.scope, "name": SERVER_NAME}


def register(sub) -> None:
    p = sub.add_parser("mcp", help="register the MCP server with Claude Code")
    actions = p.add_subparsers(dest="mcp_action", metavar="ACTION")
    actions.required = True
    for name, handler, text in (
            ("command", cmd_command, "print the claude mcp add command for this installation"),
            ("register", cmd_register, "register the server with Claude Code (user scope by default)"),
            ("unregister", cmd_unregister, "remove the registration")):
        q = actions.add_parser(name, help=text)
        add_common(q)
        q.add_argument("--scope", choices=("user", "local", "project"), default="user",
                       help="Claude Code's scope for the server (default user: every project)")
        if name != "command":
            q.add_argument("--claude", help="the claude binary (default: claude on PATH)")
        q.set_defaults(handler=handler)
