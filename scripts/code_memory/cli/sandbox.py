"""``code-memory sandbox install|remove|status`` — Claude Code's sandbox as the hard boundary
around the memory root (docs/security.md § The sandbox). The surgery is in
:mod:`code_memory.install.sandbox`; this edge finds the settings file, the memory root and the
workspaces, and refuses changes from inside a session or a detached process (what the model may
see is the user's decision)."""

from __future__ import annotations

import os

from .common import add_common


def _context(args):
    from ..config import load_config
    from ..workspace.registry import registry_from_config
    from .hooks import default_settings_path

    cfg = load_config(root_override=args.root)
    path = os.path.abspath(os.path.expanduser(args.settings or default_settings_path()))
    return cfg, path, registry_from_config(cfg).workspaces


def cmd_change(args) -> dict:
    from ..install import sandbox
    from ..search.access import refuse_restricted

    refuse_restricted("changing Claude Code's sandbox",
                      "run `code-memory sandbox install` (or remove) yourself in a terminal")
    cfg, path, workspaces = _context(args)
    out = {"action": args.action, "dry_run": args.dry_run, "root": cfg.root,
           **sandbox.change(path, cfg.root, workspaces, remove=args.action == "remove", dry_run=args.dry_run)}
    if args.action == "install":
        out["status"] = sandbox.status(path, cfg.root, workspaces) if not args.dry_run else None
        out["next"] = ("restart Claude Code: sessions started from now on run Bash in the sandbox; they reach "
                       "memory through the hooks and the code-memory MCP tools (code-memory mcp register)")
    return out


def cmd_status(args) -> dict:
    from ..install import sandbox
    cfg, path, workspaces = _context(args)
    return sandbox.status(path, cfg.root, workspaces)


cmd_status.no_memory = True      # answers inside the sandbox too (cli/common.guard_caller)


def render(result: dict) -> str:
    if "protected" in result:
        head = f"{result['settings']}: the memory root {result['root']} is " + (
            "protected by Claude Code's sandbox" if result["protected"] else "NOT protected by Claude Code's sandbox")
        return "\n".join([head] + [f"  - {p}" for p in result["problems"]])
    verb = "would change" if result.get("dry_run") else "changed"
    lines = [f"sandbox {result['action']}: " + ("nothing to change" if not any(f["changed"] for f in result["files"])
                                                 else f"{verb} " + ", ".join(f["path"] for f in result["files"]
                                                                             if f["changed"]))]
    lines += [f"  backup {f['backup']}" for f in result["files"] if f.get("backup")]
    if result.get("next"):
        lines.append(result["next"])
    return "\n".join(lines)


def register(sub) -> None:
    p = sub.add_parser("sandbox", help="Claude Code's sandbox around the memory root: install, remove, status "
                                       "(docs/security.md)")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    for action, text in (("install", "enable Claude Code's sandbox with the memory root (and other workspaces' "
                                     "memory) unreadable and unwritable for Bash and the file tools"),
                         ("remove", "take out only what install added, restore the sandbox switches it changed"),
                         ("status", "whether the memory root is protected, and what is missing")):
        q = actions.add_parser(action, help=text)
        add_common(q)
        q.add_argument("--settings", help="user settings file (default: ~/.claude/settings.json, or "
                                          "$CLAUDE_CONFIG_DIR/settings.json)")
        if action == "status":
            q.set_defaults(handler=cmd_status, text_renderer=render)
            continue
        q.add_argument("--dry-run", action="store_true", help="say what would change, write nothing")
        q.set_defaults(handler=cmd_change, text_renderer=render)
