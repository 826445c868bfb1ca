"""``code-memory`` — one entry point for every command.

Each module in COMMAND_MODULES has ``register(subparsers)``, which adds its subcommands with
``set_defaults(handler=...)``. Modules import their heavy dependencies inside handlers so that
``code-memory --help`` and the fast commands stay fast.
"""

from __future__ import annotations

import importlib
import sys

from .common import ArgumentParser, parse_or_error, run_command

COMMAND_MODULES = [
    "code_memory.cli.setup",
    "code_memory.cli.feedback",
    "code_memory.cli.signals",
    "code_memory.cli.capabilities",
    "code_memory.cli.summary",
    "code_memory.cli.lint",
    "code_memory.cli.facts",
    "code_memory.cli.consolidate",
    "code_memory.cli.hooks",
    "code_memory.cli.search",
    "code_memory.cli.kv",
    "code_memory.cli.workspace",
    "code_memory.cli.mcp",
]


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="code-memory", description="A lasting memory for Claude Code.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args, status = parse_or_error(build_parser(), argv)
    if args is None:
        return status
    return run_command(args.handler, args, getattr(args, "text_renderer", None))


if __name__ == "__main__":
    sys.exit(main())
