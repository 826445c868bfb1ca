"""``workspace validate``: format and path problems of a workspace's memory files — metadata only
(paths, line numbers, codes), never the text of a memory file."""

from __future__ import annotations

import os

from ..paths import is_under
from .entries import check_day_text, day_of
from .registry import Workspace


def memory_files(ws: Workspace) -> list:
    """The Markdown files directly in the workspace's memory/ (names, sorted)."""
    try:
        return sorted(n for n in os.listdir(ws.memory_dir) if n.endswith(".md") and not n.startswith("."))
    except OSError:
        return []


def validate(ws: Workspace, fix: bool = False) -> dict:
    """Format and path problems of one workspace; ``fix`` creates a missing memory/ directory."""
    problems = []

    def add(path, line, code, message, severity="error"):
        problems.append({"path": path, "line": line, "code": code, "severity": severity, "message": message})

    fixed = []
    if not os.path.isdir(ws.root):
        add(".", None, "WS_ROOT_MISSING", "the workspace directory does not exist")
        return {"id": ws.id, "root": ws.root, "valid": False, "problems": problems, "fixed": fixed}
    if os.path.lexists(ws.memory_dir) and not is_under(ws.memory_dir, ws.root):
        add("memory", None, "WS_PATH_OUTSIDE", "memory/ leads outside the workspace (symlink)")
        return {"id": ws.id, "root": ws.root, "valid": False, "problems": problems, "fixed": fixed}
    if not os.path.isdir(ws.memory_dir):
        if fix:
            os.makedirs(ws.memory_dir, exist_ok=True)
            fixed.append("created memory/")
        else:
            add("memory", None, "WS_MEMORY_DIR_MISSING", "memory/ does not exist (validate --fix creates it)", "warning")
    for name in memory_files(ws):
        rel = f"memory/{name}"
        path = os.path.join(ws.memory_dir, name)
        if not is_under(path, ws.memory_dir):
            add(rel, None, "WS_PATH_OUTSIDE", "the file leads outside memory/ (symlink)")
            continue
        date = day_of(name)
        if date is None and name != "MEMORY.md":
            add(rel, None, "WS_FILE_NAME", "not a day file (YYYY-MM-DD.md) or MEMORY.md", "warning")
            continue
        try:
            with open(path, "rb") as fh:
                data = fh.read()
            text = data.decode("utf-8")
            if "\x00" in text:
                raise UnicodeDecodeError("utf-8", data, 0, 1, "NUL byte")
        except UnicodeDecodeError:
            add(rel, None, "WS_NOT_UTF8", "not UTF-8 text")
            continue
        except OSError as exc:
            add(rel, None, "WS_UNREADABLE", f"cannot read ({exc.strerror})")
            continue
        if date is not None:
            for p in check_day_text(date, text):
                add(rel, p["line"], p["code"], p["message"], p["severity"])
    valid = not any(p["severity"] == "error" for p in problems)
    return {"id": ws.id, "root": ws.root, "valid": valid, "problems": problems, "fixed": fixed}
