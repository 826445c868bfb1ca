"""``code-memory`` — one entry point for every command.

Each command module has ``register(subparsers)``, which adds its subcommands with
``set_defaults(handler=...)``. ``COMMANDS`` maps every top-level command to its module, so a call
imports and builds only the module it needs (building all of them cost ~45 ms per call); ``--help``
and unknown commands build them all. A test keeps ``COMMANDS`` equal to what the modules register.
"""

from __future__ import annotations

import importlib
import sys

from .common import ArgumentParser, add_version, hoist_globals, parse_or_error, run_command

_C = "code_memory.cli."
COMMANDS = {
    "init": _C + "setup", "config": _C + "setup",
    "feedback": _C + "feedback",
    "signals": _C + "signals",
    "capabilities": _C + "capabilities",
    "summary": _C + "summary",
    "lint": _C + "lint",
    "facts": _C + "facts",
    "review": _C + "review",
    "todo": _C + "todo",
    "consolidate": _C + "consolidate", "cron": _C + "consolidate",
    "hooks": _C + "hooks",
    "links": _C + "links",
    "model": _C + "model",
    "search": _C + "search", "index": _C + "search", "get": _C + "search", "status": _C + "search",
    "kv": _C + "kv",
    "remember": _C + "workspace", "workspace": _C + "workspace",
    "mcp": _C + "mcp",
    "ui": _C + "ui",
    "sandbox": _C + "sandbox",
}
COMMAND_MODULES = list(dict.fromkeys(COMMANDS.values()))


def build_parser(modules=COMMAND_MODULES) -> ArgumentParser:
    parser = ArgumentParser(prog="code-memory", description="A lasting memory for Claude Code.")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in modules:
        importlib.import_module(name).register(sub)
    return parser


def main(argv=None) -> int:
    argv = hoist_globals(sys.argv[1:] if argv is None else argv)
    module = COMMANDS.get(argv[0]) if argv else None
    args, status = parse_or_error(build_parser([module] if module else COMMAND_MODULES), argv)
    if args is None:
        return status
    return run_command(args.handler, args, getattr(args, "text_renderer", None))


if __name__ == "__main__":
    sys.exit(main())
