"""extract-memory (PostToolUse, Edit|Write|MultiEdit|NotebookEdit): one daily-note line per edit —
``- HH:MM [project] path/in/project`` in ``daily/YYYY-MM-DD.md``; edits in the same minute and
project share a line (tree.append_daily_edit). Files inside the memory root are not recorded."""

from __future__ import annotations

from ..memory.daily import append_daily_edit
from ..paths import rel_inside
from .event import EDIT_TOOLS


def file_label(file_path: str, project_root: str) -> str:
    rel = rel_inside(file_path, project_root)
    return file_path if rel in (None, ".") else rel


def handle(event, ctx):
    if event.tool_name not in EDIT_TOOLS or not event.file_path or not ctx.setting("daily_notes"):
        return None
    if event.tool_response.get("success") is False or not ctx.root_ready() or ctx.inside_root(event.file_path):
        return None
    project = ctx.project_for(event.file_path)
    if project is None:
        return None
    append_daily_edit(ctx.paths, ctx.now(), project.name, file_label(event.file_path, project.root))
    return None
