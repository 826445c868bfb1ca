"""Writing workspace memory: ``remember`` (one templated entry appended to today's day file) and
``compact`` (old day files merged into ``memory/MEMORY.md``). Both hold the workspace's lock
(``memory/.lock``) and replace files atomically; writes stay inside the workspace's ``memory/``
(a ``memory`` directory or day file that is a symlink leading elsewhere is refused). The
operations log (``logs/workspace.log``) gets metadata only: workspace id, file, type, the entry's
sha1[:12] and length.
"""

from __future__ import annotations

import datetime as dt
import os

from .. import oplog
from ..errors import CodeMemoryError
from ..fsutil import atomic_write_text, file_lock, read_text
from ..markdown import append_to_section
from ..paths import is_under
from .entries import day_of, render_entry, sections, with_entry
from .registry import Workspace

ARCHIVE_HEADING = "## 归档 {month}"


def check_containment(ws: Workspace, *paths: str) -> None:
    """``MEMORY_PATH_TRAVERSAL`` unless memory/ and ``paths`` resolve inside the workspace."""
    if not is_under(ws.memory_dir, ws.root):
        raise CodeMemoryError("MEMORY_PATH_TRAVERSAL", "the workspace's memory/ directory leads outside the workspace",
                              hint="replace the memory symlink by a directory", workspace=ws.id)
    for path in paths:
        if os.path.lexists(path) and not is_under(path, ws.memory_dir):
            raise CodeMemoryError("MEMORY_PATH_TRAVERSAL", "a memory file leads outside the workspace's memory/",
                                  hint="replace the symlink by a file", workspace=ws.id,
                                  path=os.path.relpath(path, ws.root))


def _ensure_memory_dir(ws: Workspace) -> None:
    if not os.path.isdir(ws.root):
        raise CodeMemoryError("MEMORY_WORKSPACE_NOT_FOUND", f"the directory of workspace {ws.id!r} does not exist",
                              hint="fix or remove it in workspaces.paths", workspace=ws.id)
    check_containment(ws)
    try:
        os.makedirs(ws.memory_dir, exist_ok=True)
    except OSError as exc:
        raise CodeMemoryError("MEMORY_WRITE_FAILED", f"cannot create memory/ ({exc.strerror})", workspace=ws.id) from None


def _log(log_path: str | None, event: dict) -> None:
    if log_path:
        oplog.record(log_path, {"t": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), **event})


def remember(ws: Workspace, kind: str, values: dict, when: dt.datetime, *, dry_run: bool = False,
             log_path: str | None = None) -> dict:
    """Append one ``kind`` entry (decision|event|summary) to the day file of ``when``."""
    block = render_entry(kind, when, values)
    date = when.strftime("%Y-%m-%d")
    target = ws.day_file(date)
    check_containment(ws, target)
    exists = os.path.exists(target)
    planned = {"workspace": ws.id, "path": target, "action": "append" if exists else "create",
               "heading": block.split("\n", 1)[0]}
    if dry_run:
        return {**planned, "dry_run": True, "text": block}
    _ensure_memory_dir(ws)
    try:
        with file_lock(ws.lock):
            old = read_text(target)
            new = with_entry(old, date, block)
            atomic_write_text(target, new)
    except OSError as exc:
        raise CodeMemoryError("MEMORY_WRITE_FAILED", f"cannot write the day file ({exc.strerror})",
                              workspace=ws.id) from None
    end_line = len(new.rstrip("\n").split("\n"))
    start_line = end_line - len(block.rstrip("\n").split("\n")) + 1
    _log(log_path, {"op": "remember", "workspace": ws.id, "path": os.path.relpath(target, ws.root), "type": kind,
                    "text_sha": oplog.key_digest(block), "text_length": len(block)})
    return {**planned, "action": "created" if old is None else "appended", "start_line": start_line,
            "end_line": end_line, "dry_run": False}


def _signature(heading: str, body: str) -> str:
    return " ".join((heading + "\n" + body).split())


def _archive_blocks(ws: Workspace, files: list) -> dict:
    """{month: [(heading, body)]} of the entries of ``files`` ([(date, path)])."""
    months: dict = {}
    for date, path in files:
        text = read_text(path, "") or ""
        for heading, body in sections(text):
            if heading == date or heading is None:
                if not body.strip():
                    continue
                heading = f"{date} (notes)"
            months.setdefault(date[:7], []).append((heading, body))
    return months


def compact(ws: Workspace, older_than_days: int, today: dt.date, *, apply: bool = False,
            log_path: str | None = None) -> dict:
    """Merge the day files older than ``older_than_days`` into MEMORY.md under ``## 归档 YYYY-MM``
    (entries as ``###`` sections, ones already there skipped), then remove those day files.
    A dry run (the default) only reports what would happen."""
    if older_than_days < 0:
        raise CodeMemoryError("INVALID_ARGUMENT", "--older-than must be >= 0 days")
    check_containment(ws, ws.memory_md)
    cutoff = today - dt.timedelta(days=older_than_days)
    files = []
    if os.path.isdir(ws.memory_dir):
        for name in sorted(os.listdir(ws.memory_dir)):
            date = day_of(name)
            path = os.path.join(ws.memory_dir, name)
            if date and dt.date.fromisoformat(date) < cutoff and os.path.isfile(path):
                check_containment(ws, path)
                files.append((date, path))
    report = {"workspace": ws.id, "memory_md": ws.memory_md, "cutoff": cutoff.isoformat(),
              "files": [os.path.relpath(p, ws.root) for _d, p in files], "dry_run": not apply}

    def merged(current: str) -> tuple:
        text = current if current.strip() else f"# MEMORY — {ws.id}\n"
        seen = {_signature(h, b) for h, b in sections(text.replace("\n### ", "\n## ")) if h}
        added = skipped = 0
        for month, blocks in sorted(_archive_blocks(ws, files).items()):
            lines = []
            for heading, body in blocks:
                if _signature(heading, body) in seen:
                    skipped += 1
                    continue
                seen.add(_signature(heading, body))
                lines += [f"### {heading}", *([body] if body else []), ""]
                added += 1
            if lines:
                text = append_to_section(text, ARCHIVE_HEADING.format(month=month), lines[:-1])
        return text, added, skipped

    if not apply:
        _text, added, skipped = merged(read_text(ws.memory_md, "") or "")
        return {**report, "entries_to_add": added, "duplicates_skipped": skipped}
    with file_lock(ws.lock):
        text, added, skipped = merged(read_text(ws.memory_md, "") or "")
        try:
            if files:
                atomic_write_text(ws.memory_md, text)
            for _date, path in files:
                os.unlink(path)
        except OSError as exc:
            raise CodeMemoryError("MEMORY_WRITE_FAILED", f"compaction could not write ({exc.strerror})",
                                  workspace=ws.id) from None
    _log(log_path, {"op": "compact", "workspace": ws.id, "files": len(files), "entries": added, "skipped": skipped})
    return {**report, "entries_added": added, "duplicates_skipped": skipped}
