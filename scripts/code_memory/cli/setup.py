"""``code-memory init`` and ``code-memory config``: create a memory root, show the effective config."""

from __future__ import annotations

from ..config import load_config
from ..memory.tree import init_root
from .common import add_common


def cmd_init(args) -> dict:
    cfg = load_config(root_override=args.root)
    report = init_root(cfg.paths)
    return {"root": cfg.root, **report, "warnings": cfg.warnings}


def cmd_config(args) -> dict:
    cfg = load_config(root_override=args.root, project_dir=args.project_dir)
    return {"root": cfg.root, "sources": cfg.sources, "warnings": cfg.warnings, "config": dict(cfg)}


def register(sub) -> None:
    p = sub.add_parser("init", help="create a memory root from the templates (never overwrites)")
    add_common(p)
    p.set_defaults(handler=cmd_init)

    p = sub.add_parser("config", help="show the effective configuration and where it came from")
    add_common(p)
    p.add_argument("--project-dir", help="also apply this project's .claude/code-memory.json")
    p.set_defaults(handler=cmd_config)
