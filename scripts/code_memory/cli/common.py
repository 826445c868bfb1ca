"""What every command-line edge shares: argument parsing that reports errors as JSON, one JSON
object per answer (``--format text`` for people), and stable exit codes.

A command is a function ``(args) -> dict``; :func:`run_command` prints its result and turns any
:class:`CodeMemoryError` into ``{"ok": false, "error", "message", "hint"}`` with the code's exit
status. Unexpected exceptions become ``INTERNAL_ERROR`` without a traceback (set
``CODE_MEMORY_DEBUG=1`` to see one on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback

from ..errors import CodeMemoryError
from ..paths import version_text


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises ``INVALID_ARGUMENT`` instead of printing usage and exiting."""

    def error(self, message):
        raise CodeMemoryError("INVALID_ARGUMENT", message, hint=f"see {self.prog} --help")


class VersionAction(argparse.Action):
    """``--version``: :func:`code_memory.paths.version_text` on stdout, unwrapped, then exit 0."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(version_text(parser.prog) + "\n")
        sys.stdout.flush()
        parser.exit(0)


VERSION_HELP = "print the version, where this installation is and its Python, then exit"


def add_version(parser: argparse.ArgumentParser) -> None:
    """``--version`` on an entry point's top-level parser."""
    parser.add_argument("--version", action=VersionAction, help=VERSION_HELP)


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", help="memory root (default: $CODE_MEMORY_ROOT or ~/.claude/memory)")
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help="json (default, one object per answer) or text for people")


def dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def print_json(obj, stream=None) -> None:
    stream = stream or sys.stdout
    stream.write(dumps(obj) + "\n")
    stream.flush()


def render_text(obj) -> str:
    """A generic readable rendering for commands without their own text form."""
    if not isinstance(obj, dict):
        return str(obj)
    if obj.get("ok") is False:
        out = f"error {obj.get('error')}: {obj.get('message')}"
        if obj.get("hint"):
            out += f"\nhint: {obj['hint']}"
        return out
    lines = []
    for key, value in obj.items():
        if key == "ok":
            continue
        if isinstance(value, (dict, list)):
            value = json.dumps(value, ensure_ascii=False, indent=2)
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


def emit(result: dict, fmt: str = "json", text_renderer=None) -> None:
    """Print an answer: one JSON object on stdout — errors included, so a caller parsing JSON always
    finds it there — or, with ``--format text``, its text: an answer on stdout, an error on stderr."""
    if fmt == "text":
        stream = sys.stderr if isinstance(result, dict) and result.get("ok") is False else sys.stdout
        stream.write((text_renderer or render_text)(result).rstrip("\n") + "\n")
        stream.flush()
    else:
        print_json(result)


def _with_odd_files(result):
    """What the command skipped because it is not a regular file (a FIFO, a device in place of a
    memory file: fsutil.ODD_FILES) — in the answer and on stderr, never waited on."""
    from ..fsutil import ODD_FILES
    if not ODD_FILES or not isinstance(result, dict):
        return result
    skipped = [{"path": path, "kind": kind} for path, kind in sorted(ODD_FILES.items())[:20]]
    sys.stderr.write("code-memory: skipped, not regular files: "
                     + ", ".join(f"{s['path']} ({s['kind']})" for s in skipped) + "\n")
    return {**result, "skipped_not_regular": skipped}


def restricted() -> bool:
    """The caller is a Claude Code session or a detached process (code_memory.caller): its writes
    are agent-level (an unverified fact, an agent's kv key) and it never reads quarantined keys."""
    from ..caller import identify
    return identify().restricted


def guard_caller(args, handler=None, caller=None):
    """Before any command: a caller inside a Claude Code session or detached from every terminal
    (code_memory.caller) uses only the memory root Claude Code was started with, and environment
    overrides of locked configuration (the review gate, workspaces, projects, stores) it set
    itself are ignored — said on stderr. A handler whose ``any_root(args)`` is true (the summarizer's
    ``--from-pending``, which the hooks start detached) skips the root check only. Returns the caller."""
    from ..caller import identify, locked_overrides
    from ..search.access import guard_root

    caller = identify() if caller is None else caller
    if not caller.restricted:
        return caller
    if os.environ.get("SANDBOX_RUNTIME") and not getattr(handler, "no_memory", False):
        _refuse_in_sandbox(getattr(args, "root", None))
    for name in locked_overrides(caller):
        os.environ.pop(name, None)
        sys.stderr.write(f"code-memory: ignoring ${name}: set inside a Claude Code session or a detached "
                         "process (only what Claude Code was started with counts)\n")
    exempt = getattr(handler, "any_root", None)
    if not (exempt and exempt(args)):
        guard_root(getattr(args, "root", None), caller)
    return caller


def _refuse_in_sandbox(root_arg) -> None:
    """Inside Claude Code's sandbox (``code-memory sandbox install``) the memory root is hidden from
    Bash: say so, and where the memory is, instead of answering from an empty directory."""
    from ..caller import requested_root
    root = requested_root(root_arg)
    if os.access(os.path.join(root, "MEMORY.md"), os.R_OK):
        return
    raise CodeMemoryError("MEMORY_SANDBOXED", f"Claude Code's sandbox keeps this shell out of the memory root {root}",
                          hint="use the code-memory MCP tools (memory_search, memory_get, set_memory, memtool_*): "
                               "they run outside the sandbox and serve this project's memory; the hooks inject it")


def run_command(handler, args, text_renderer=None) -> int:
    """Run ``handler(args)`` (after :func:`guard_caller`), print the answer, return the exit status."""
    fmt = getattr(args, "format", "json") or "json"
    try:
        guard_caller(args, handler)
        result = handler(args)
        if result is None:
            return 0
        if isinstance(result, dict) and "ok" not in result:
            result = {"ok": True, **result}
        result = _with_odd_files(result)
        emit(result, fmt, text_renderer)
        return 0
    except CodeMemoryError as exc:
        body = getattr(exc, "answer", None)   # an error that still carries a full answer (LINT_BLOCKED)
        if fmt == "text" and body is not None and text_renderer:
            sys.stdout.write(text_renderer(body).rstrip("\n") + "\n")
        emit(exc.to_dict(), fmt)
        return exc.exit_code
    except KeyboardInterrupt:
        emit({"ok": False, "error": "INTERNAL_ERROR", "message": "interrupted"}, fmt)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the edge: never a traceback on stdout
        if os.environ.get("CODE_MEMORY_DEBUG"):
            traceback.print_exc(file=sys.stderr)
        emit({"ok": False, "error": "INTERNAL_ERROR",
              "message": f"unexpected {type(exc).__name__}",
              "hint": "set CODE_MEMORY_DEBUG=1 for a traceback on stderr and report it"}, fmt)
        return 1


def parse_or_error(parser: argparse.ArgumentParser, argv):
    """Parse ``argv``; on a usage error print the JSON error and return ``(None, exit_code)``."""
    try:
        return parser.parse_args(argv), 0
    except CodeMemoryError as exc:
        fmt = "text" if argv and ("--format=text" in argv or ("--format" in argv and "text" in argv)) else "json"
        emit(exc.to_dict(), fmt)
        return None, exc.exit_code


GLOBAL_OPTIONS = ("--root", "--format")


def hoist_globals(argv: list) -> list:
    """``--root DIR`` / ``--format F`` given before the command word move behind the command line,
    where every command declares them: ``memory-feedback.py --root R report`` works as
    ``memory-feedback.py report --root R`` (and ``code-memory --root R feedback report`` likewise)."""
    argv = list(argv)
    lead, i = [], 0
    while i < len(argv):
        word = argv[i]
        if word in GLOBAL_OPTIONS and i + 1 < len(argv):
            lead += argv[i:i + 2]
            i += 2
        elif word.startswith(tuple(f"{o}=" for o in GLOBAL_OPTIONS)):
            lead.append(word)
            i += 1
        else:
            break
    return argv[i:] + lead if lead and i < len(argv) else argv


def script_main(prog: str, description: str, add_subcommands, argv=None) -> int:
    """``main()`` of a stand-alone entry script whose commands are subcommands (memory-feedback.py
    ref|outcome|…): ``add_subcommands(subparsers)`` is the same function that ``register`` uses to
    hang them under ``code-memory <group>``."""
    argv = hoist_globals(sys.argv[1:] if argv is None else argv)
    parser = build_script_parser(prog, description, add_subcommands)
    args, status = parse_or_error(parser, argv)
    if args is None:
        return status
    return run_command(args.handler, args, getattr(args, "text_renderer", None))


def build_script_parser(prog: str, description: str, add_subcommands) -> ArgumentParser:
    parser = ArgumentParser(prog=prog, description=description)
    add_version(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    add_subcommands(sub)
    return parser


def register_group(sub, name: str, help_text: str, add_subcommands) -> None:
    """Hang a script's subcommands under ``code-memory <name>`` (see :func:`script_main`)."""
    parser = sub.add_parser(name, help=help_text)
    inner = parser.add_subparsers(dest=f"{name}_command", metavar="COMMAND")
    inner.required = True
    add_subcommands(inner)


def options_script_main(prog: str, description: str, add_arguments, handler, text_renderer=None,
                        argv=None) -> int:
    """``main()`` of an entry script without subcommands (options only, e.g. session-summary.py)."""
    parser = build_options_parser(prog, description, add_arguments)
    args, status = parse_or_error(parser, sys.argv[1:] if argv is None else argv)
    if args is None:
        return status
    return run_command(handler, args, text_renderer)


def build_options_parser(prog: str, description: str, add_arguments) -> ArgumentParser:
    parser = ArgumentParser(prog=prog, description=description)
    add_version(parser)
    add_arguments(parser)
    return parser
