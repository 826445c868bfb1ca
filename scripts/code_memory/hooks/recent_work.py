"""The ``recent`` block of the SessionStart context: what the last sessions of this project (and
of its workspace) did — date, topic, files changed, decisions and the to-dos still open — newest
first, with the note to read for the rest (docs/summaries.md § Session continuity).

It reads one small derived file per project (code_memory.memory.recent, written by the
summarizer), never the notes themselves, so it costs the same with 10 or 10,000 notes on disk. When
that file is missing and the index was never built (a memory root from before it existed, or a
deleted ``.index/``), it is rebuilt from the newest notes only (``REBUILD_NEWEST``); the next
summary rebuilds everything.

``hooks.recent_sessions`` (3) sessions younger than ``hooks.recent_max_age_days`` (14) are shown;
open to-dos of older sessions within that age follow in one list. Finished to-dos (a later
session marked them done) and to-dos a later session lists again are not repeated. On
``source: resume`` the resumed session's own entry is left out (its conversation is back in
context); after ``compact`` it is shown, marked as this session's work before compaction.
"""

from __future__ import annotations

import os
import time

from ..memory import recent
from .recall import Block

REBUILD_NEWEST = 64
MAX_FILES_SHOWN = 6
MAX_OLDER_TODOS = 5


def _entries(ctx, project) -> tuple:
    """(entries of the project and of its workspace, newest first; the workspace id or None)."""
    paths = ctx.paths
    path = recent.index_path(paths, "project", project.name)
    entries = recent.load_entries(path)
    if entries is None and (os.path.exists(path) or not os.path.exists(recent.built_marker(paths))):
        notes = recent.note_files(paths, REBUILD_NEWEST)
        if notes:                  # a root from before the index, .index/ deleted, a damaged file
            from ..summary.extract import same_todo

            written = recent.write_indexes(paths, recent.build_indexes(paths, notes, same_todo), False)
            ctx.log.info("recent-rebuilt", notes=len(notes), files=written)
            entries = recent.load_entries(path)
    entries = list(entries or [])
    workspace = _workspace(ctx)
    if workspace:
        known = {e["id"] for e in entries}
        more = recent.load_entries(recent.index_path(paths, "workspace", workspace)) or []
        entries += [e for e in more if e["id"] not in known]
    return recent.sort_entries(entries), workspace


def _workspace(ctx) -> str | None:
    if not (ctx.cfg.get("workspaces") or {}).get("paths"):
        return None                          # the common case: no registry to load
    from ..workspace.registry import session_workspace

    found = session_workspace(ctx.cfg, ctx.event.cwd)
    return found.id if found else None


def _when(entry: dict) -> str:
    ts = entry.get("ts")
    if isinstance(ts, (int, float)) and ts > 0:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))
    return str(entry.get("ended") or "")[:16]


def _files(entry: dict) -> str:
    files = [str(f) for f in entry.get("files") or [] if f]
    shown = ", ".join(files[:MAX_FILES_SHOWN])
    return shown + (f" (+{len(files) - MAX_FILES_SHOWN} more)" if len(files) > MAX_FILES_SHOWN else "")


def render(entries: list, label: str, session_id: str, source: str, project: str = "") -> str:
    """The block's text for ``entries`` (already chosen, newest first); an entry of another
    project of the workspace is tagged with its project."""
    lines = [f"Recent sessions in {label}, newest first. Each full note is sessions/<id>.md under the "
             "memory root (Read it for details)."]
    for position, entry in enumerate(entries):
        own = entry.get("id") == session_id
        topic = str(entry.get("topic") or "(no topic)")
        tag = " (this session, before compaction)" if own and source == "compact" else ""
        other = entry.get("project")
        where = f" [{other}]" if other and project and other != project else ""
        lines.append(f"## {_when(entry)}{where} · {topic}{tag}")
        lines.append(f"- note: {entry.get('note')}")
        if entry.get("files"):
            lines.append(f"- files: {_files(entry)}")
        decisions = [str(d) for d in entry.get("decisions") or [] if d][: 2 if position == 0 else 1]
        lines += [f"- decided: {d}" for d in decisions]
        todos = recent.open_todos(entry)
        if todos:
            lines.append("- open to-dos:")
            lines += [f"  - [ ] {t}" for t in todos]
    return "\n".join(lines)


def recent_block(ctx, project):
    if project is None:
        return None
    count = int(ctx.setting("recent_sessions"))
    if count <= 0:
        return None
    max_age = float(ctx.setting("recent_max_age_days")) * 86400.0
    now = time.time()
    session_id, source = ctx.event.session_id, ctx.event.source
    chosen, older = [], []
    entries, workspace = _entries(ctx, project)
    for entry in entries:
        ts = entry.get("ts")
        if not isinstance(ts, (int, float)) or now - ts > max_age:
            continue
        if entry["id"] == session_id and source == "resume":
            continue
        if len(chosen) < count:
            chosen.append(entry)
        else:
            older += [(t, entry) for t in recent.open_todos(entry)]
    if not chosen:
        return None
    label = f'project "{project.name}"' + (f' and workspace "{workspace}"' if workspace else "")
    text = render(chosen, label, session_id, source, project.name)
    if older:
        text += "\n## Still open from earlier sessions\n" + "\n".join(
            f"- [ ] {t} ({e.get('note')}, {_when(e)[:10]})" for t, e in older[:MAX_OLDER_TODOS])
    ctx.log.info("recent", sessions=len(chosen), older_todos=min(len(older), MAX_OLDER_TODOS))
    return Block(os.path.join(ctx.paths.root, "sessions"), "recent work — the last sessions of this project", text)
