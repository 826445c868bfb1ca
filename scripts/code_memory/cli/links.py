"""``code-memory links install|remove|status [--bin DIR] [--dry-run]``: our commands on PATH
(install.sh runs these; the work is in :mod:`code_memory.install.links`)."""

from __future__ import annotations

import os
import sys

from ..install import links
from ..paths import REPO_DIR
from .common import add_common, register_group

WRAPPER_DIR = os.path.join(REPO_DIR, "bin")


def _installation() -> links.Installation:
    return links.Installation.detect(WRAPPER_DIR, sys.executable)


def cmd_links(args) -> dict:
    bin_dir = os.path.abspath(os.path.expanduser(args.bin)) if args.bin else links.default_bin_dir(os.environ)
    path_env = os.environ.get("PATH", "")
    if args.action == "status":
        return links.status(bin_dir, _installation(), path_env)
    act = links.install if args.action == "install" else links.remove
    return act(bin_dir, _installation(), path_env, dry_run=args.dry_run)


VERBS = {"create": "linked", "update": "re-pointed", "remove": "removed", "retire": "removed (no longer installed)",
         "conflict": "NOT linked",
         "leave": "left alone", "failed": "FAILED"}


def render(result: dict) -> str:
    counts = result["counts"]
    changes = sum(counts.get(a, 0) for a in ("create", "update", "remove", "retire"))
    head = "would change" if result["dry_run"] else "changed"
    lines = [f"{result['bin_dir']}: {head} {changes} command link(s)" if changes
             else f"{result['bin_dir']}: command links up to date — nothing to do"]
    groups: dict = {}   # (verb, target dir) -> names: one line per group, notes one line each
    for row in result["links"]:
        verb = VERBS.get(row["action"])
        if verb is None:
            continue
        if row.get("note") and row["action"] not in ("update", "retire"):
            lines.append(f"  {verb}: {row['name']} ({row['note']})")
            continue
        where = os.path.dirname(row["target"]) if row.get("target") and row["action"] != "retire" else ""
        groups.setdefault((verb, where), []).append(row["name"])
    for (verb, where), names in groups.items():
        lines.append(f"  {verb} {len(names)}: {', '.join(names)}" + (f" → {where}/" if where else ""))
    if result.get("path_hint"):
        lines.append(result["path_hint"])
    return "\n".join(lines)


def add_actions(actions) -> None:
    for action, text in (("install", "link every command (never replaces a file that is not ours)"),
                         ("remove", "remove the links of this installation, only those"),
                         ("status", "which links exist, which are missing or taken")):
        q = actions.add_parser(action, help=text)
        add_common(q)
        q.add_argument("--bin", help="the directory (default: $CODE_MEMORY_BIN, else ~/.local/bin)")
        if action != "status":
            q.add_argument("--dry-run", action="store_true", help="print the change, make none")
        q.set_defaults(handler=cmd_links, text_renderer=render, action=action)


def register(sub) -> None:
    register_group(sub, "links", "our commands on PATH: links in ~/.local/bin (docs/install.md)", add_actions)
