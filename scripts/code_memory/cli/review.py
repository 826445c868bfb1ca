"""``code-memory review list|show|approve|reject`` — the review queue (docs/browser.md § Review queue).

Thin: parse, call :mod:`code_memory.review.queue` (read) or :mod:`code_memory.summary.review`
(decide), print. ``approve --edit`` opens ``$EDITOR`` (then ``$VISUAL``, then ``vi``) on a temp file
holding the proposal's text; an unchanged or empty file approves nothing.

The queue is the user's (docs/security.md § Review): a Claude Code session or a detached process
may not list or read it (proposals hold unreviewed and quarantined text), and a decision needs the
code shown on the user's terminal (search/access.py ``require_the_user``) — or the browser.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile

from ..errors import CodeMemoryError
from .common import add_common


def _cfg(args):
    from ..config import load_config
    return load_config(args.root)


def _only_you(what: str) -> None:
    """Reading the queue: not for a session or a detached process."""
    from ..search.access import refuse_restricted
    refuse_restricted(what, "proposals hold unreviewed text: read them yourself in a terminal or in the "
                            "memory browser (code-memory ui)")


def cmd_list(args) -> dict:
    from ..review import queue
    _only_you("reading the review queue")
    cfg = _cfg(args)
    corrupt: list = []
    status = None if args.status == "all" else args.status
    items = queue.list_proposals(cfg.root, status, kind=args.kind, project=args.project, corrupt=corrupt)
    out = {"count": len(items), "pending": queue.pending_count(cfg.root),
           "proposals": [{k: p.get(k) for k in ("id", "kind", "project", "title", "status", "revision", "created",
                                                "session", "target")}
                         | {"verification": (p.get("verification") or {}).get("state")} for p in items]}
    if corrupt:
        out["corrupt"] = corrupt
    return out


def cmd_show(args) -> dict:
    from ..review import queue
    _only_you("reading the review queue")
    return {"proposal": queue.get_proposal(_cfg(args).root, args.id)}


def _edit_in_editor(text: str) -> str:
    editor = os.environ.get("EDITOR") or os.environ.get("VISUAL") or "vi"
    fd, path = tempfile.mkstemp(prefix="code-memory-review-", suffix=".md")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            status = subprocess.call(shlex.split(editor) + [path])
        except OSError as exc:
            raise CodeMemoryError("INVALID_ARGUMENT", f"cannot run the editor {editor!r} ({exc.strerror})",
                                  hint="set $EDITOR, or pass the new text with --text") from None
        if status != 0:
            raise CodeMemoryError("INVALID_ARGUMENT", f"the editor exited with status {status}; nothing approved")
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    finally:
        os.unlink(path)


def _only_the_user(action: str, cfg, pid: str) -> None:
    """The proposal exists and is pending (so a typo is not confirmed first), then the user
    confirms on their terminal with the code it shows."""
    from ..caller import identify
    from ..review import queue
    from ..search.access import refuse_in_session, require_the_user
    caller = identify()
    refuse_in_session(f"{action} a memory proposal", caller.evidence)      # before anything of it is read
    prop = queue.get_proposal(cfg.root, pid)
    if prop.get("status") != "pending":
        raise CodeMemoryError("CONFLICT", f"proposal {pid} is already {prop.get('status')}")
    require_the_user(f"{action} proposal {pid}", caller, details=lambda: (
        f"{prop.get('kind')}, {prop.get('project') or 'all projects'}: "
        f"{' '.join(str(prop.get('title') or prop.get('text') or '').split())[:80]}"))


def cmd_approve(args) -> dict:
    from ..review import queue
    from ..summary import review
    cfg = _cfg(args)
    _only_the_user("approving", cfg, args.id)
    edited = args.text
    revision = args.revision
    if args.edit:
        prop = queue.get_proposal(cfg.root, args.id)
        if prop.get("status") != "pending":
            raise CodeMemoryError("CONFLICT", f"proposal {args.id} is already {prop.get('status')}")
        new = _edit_in_editor(prop["text"])
        if not new.strip():
            raise CodeMemoryError("INVALID_ARGUMENT", "the edited text is empty; nothing approved")
        edited = None if new.rstrip("\n") == prop["text"].rstrip("\n") else new.rstrip("\n")
        revision = prop["revision"] if revision is None else revision   # changed meanwhile → CONFLICT
    return review.approve(cfg, args.id, edited_text=edited, expected_revision=revision, actor="cli")


def cmd_reject(args) -> dict:
    from ..summary import review
    cfg = _cfg(args)
    _only_the_user("rejecting", cfg, args.id)
    return review.reject(cfg, args.id, reason=args.reason, expected_revision=args.revision, actor="cli")


def render_list(result: dict) -> str:
    if not result.get("proposals"):
        out = "no proposals"
    else:
        out = "\n".join(f"{p['id']}  {p['kind']:<7} {p.get('project') or '-':<16} "
                        f"{'[unverified] ' if p.get('verification') == 'hypothesis' else ''}{p['title']}"
                        + ("" if p["status"] == "pending" else f"  ({p['status']})")
                        for p in result["proposals"])
    for bad in result.get("corrupt") or []:
        out += f"\ncorrupt proposal file skipped: {bad['path']}"
    return out


def render_show(result: dict) -> str:
    p = result["proposal"]
    ver = p.get("verification") or {}
    lines = [f"{p['id']} · {p['kind']} · {p.get('project') or '(all projects)'} · {p['status']} · revision {p['revision']}",
             f"target: {p.get('target') or '-'}", f"created: {p.get('created')} · session: {p.get('session') or '-'}",
             f"verification: {ver.get('state')}" + (f" ({'; '.join(ver.get('evidence') or [])})"
                                                     if ver.get("evidence") else ""), "", p["text"]]
    return "\n".join(lines)


def render_decision(result: dict) -> str:
    where = f" → {result['written_to']}" if result.get("written_to") else ""
    return f"{result['id']} {result['status']}{where}"


def register(sub) -> None:
    review = sub.add_parser("review", help="the review queue: list, show, approve or reject proposed memories")
    rsub = review.add_subparsers(dest="review_command", metavar="ACTION")
    rsub.required = True

    p = rsub.add_parser("list", help="list proposals (pending by default)")
    p.add_argument("--status", choices=("pending", "approved", "rejected", "all"), default="pending",
                   help="which proposals (default pending)")
    p.add_argument("--kind", choices=("rule", "pitfall", "fact", "skill", "kv"), help="only proposals of this kind")
    p.add_argument("--project", metavar="NAME", help="only proposals for this project")
    add_common(p)
    p.set_defaults(handler=cmd_list, text_renderer=render_list)

    p = rsub.add_parser("show", help="show one proposal with its full text")
    p.add_argument("id", metavar="ID", help="the proposal's id (from `review list`)")
    add_common(p)
    p.set_defaults(handler=cmd_show, text_renderer=render_show)

    p = rsub.add_parser("approve", help="write the proposal where it belongs (optionally edited)")
    p.add_argument("id", metavar="ID", help="the proposal's id (from `review list`)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--edit", action="store_true", help="edit the text in $EDITOR first")
    group.add_argument("--text", metavar="T", help="approve this text instead of the proposed one")
    p.add_argument("--revision", type=int, metavar="N", help="the revision you reviewed (CONFLICT if it changed)")
    add_common(p)
    p.set_defaults(handler=cmd_approve, text_renderer=render_decision)

    p = rsub.add_parser("reject", help="reject the proposal; a near-identical one is not proposed again")
    p.add_argument("id", metavar="ID", help="the proposal's id (from `review list`)")
    p.add_argument("--reason", metavar="R", help="why, kept with the decision")
    p.add_argument("--revision", type=int, metavar="N", help="the revision you reviewed (CONFLICT if it changed)")
    add_common(p)
    p.set_defaults(handler=cmd_reject, text_renderer=render_decision)
