"""``code-memory hooks install|uninstall|status``: our hook entries in Claude Code's settings.json
(:mod:`code_memory.install.settings` does the surgery; install.sh calls these).

The commands point at the shims of this installation — the checkout's ``hooks/``, or the copy an
installed wheel ships (:func:`code_memory.paths.shell_dir`) — and pin the Python that runs this
command (``CODE_MEMORY_PYTHON=…``) unless it is the install.sh venv the shims find by themselves:
after ``pip install`` or ``uv tool install`` the hooks run with the environment that has the
package and its extras.
"""

from __future__ import annotations

import os
import sys

from ..install import settings as install_settings
from ..paths import shell_dir
from .common import add_common

DEFAULT_VENV = os.path.join("~", ".claude", "code-memory", "venv")   # where hooks/lib.sh looks by itself


def hooks_python() -> str | None:
    """The interpreter to pin in the hook commands: this one, unless it is the default venv's."""
    if os.path.abspath(sys.prefix) == os.path.abspath(os.path.expanduser(DEFAULT_VENV)):
        return None
    return sys.executable


def default_settings_path() -> str:
    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return os.path.join(base, "settings.json")


def _summary(change: dict) -> dict:
    """Counts of what really changes (re-adding identical entries is no change)."""
    changed = change["changed"]
    return {"settings": change["path"], "changed": changed,
            "added": len(change["added"]) if changed else 0, "removed": len(change["removed"]) if changed else 0}


def _hooks_dir(args) -> str:
    """--hooks-dir, else this installation's shims (resolved here, so the generated CLI reference
    holds no machine path)."""
    return os.path.abspath(args.hooks_dir or os.path.join(shell_dir(), "hooks"))


def cmd_change(args) -> dict:
    path = os.path.abspath(os.path.expanduser(args.settings or default_settings_path()))
    hooks_dir = _hooks_dir(args)
    python = getattr(args, "python", None) or (hooks_python() if args.action == "install" else None)
    change = install_settings.plan(path, hooks_dir, uninstall=args.action == "uninstall", python=python)
    out = {"action": args.action, "dry_run": args.dry_run, **_summary(change)}
    if args.dry_run:
        out["would_add"] = change["added"] if change["changed"] else []
        out["would_remove"] = change["removed"] if change["changed"] else []
        return out
    out.update(install_settings.apply(change))
    return out


def cmd_status(args) -> dict:
    path = os.path.abspath(os.path.expanduser(args.settings or default_settings_path()))
    return install_settings.status(path, _hooks_dir(args))


def render(result: dict) -> str:
    if "registered" in result:
        state = "up to date" if result["up_to_date"] else "not (fully) registered"
        return f"{result['path']}: {result['registered']}/{result['expected']} code-memory hooks, {state}"
    if not result.get("changed"):
        return f"{result['settings']}: up to date — nothing to change"
    verb = "would change" if result.get("dry_run") else "changed"
    line = f"{result['settings']}: {verb} (+{result['added']} -{result['removed']} code-memory hook entries)"
    if result.get("backup"):
        line += f"; backup {result['backup']}"
    for command in result.get("would_add", []):
        line += f"\n  + {command}"
    for command in result.get("would_remove", []):
        line += f"\n  - {command}"
    return line


def register(sub) -> None:
    p = sub.add_parser("hooks", help="register the hooks in Claude Code's settings.json (docs/install.md)")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    for action, text in (("install", "add (or update) our hook entries; keeps everything else"),
                         ("uninstall", "remove our hook entries, only ours"),
                         ("status", "which of our hooks are registered")):
        q = actions.add_parser(action, help=text)
        add_common(q)
        q.add_argument("--settings", help="settings file (default: ~/.claude/settings.json, or $CLAUDE_CONFIG_DIR)")
        q.add_argument("--hooks-dir", default=None,
                       help="directory of the hook shims (default: this installation's)")
        if action == "status":
            q.set_defaults(handler=cmd_status, text_renderer=render)
            continue
        q.add_argument("--dry-run", action="store_true", help="print the change, write nothing")
        if action == "install":
            q.add_argument("--python", help="the Python the hooks run with, pinned in their commands (default: the one "
                                            "running this command, unless it is ~/.claude/code-memory/venv's)")
        q.set_defaults(handler=cmd_change, text_renderer=render)
