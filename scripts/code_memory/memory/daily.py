"""Daily notes ``daily/YYYY-MM-DD.md`` (docs/stores.md § The memory tree): the edit lines the PostToolUse
hook appends (``- HH:MM [project] file, file``) and the session entries the summarizer writes,
each under the note's lock. Standard library only: the daily-note hook imports this on every edit.
"""

from __future__ import annotations

import os

from ..fsutil import atomic_write_text, ensure_dir, file_lock, read_text
from ..markdown import heading_level
from ..paths import MemoryPaths
from ..redact_gate import may_hold_secret
from .templates import template


def _edit_line(line: str):
    """``(HH:MM, project, rest)`` of a line ``- HH:MM [project] rest``, else None. (The pattern
    ``^- (\\d\\d:\\d\\d) \\[([^\\]]+)\\] (.*)$``, matched by hand: the daily-note hook must not pay
    for importing ``re``.)"""
    if len(line) < 12 or not line.startswith("- ") or line[4] != ":" or line[7:9] != " [":
        return None
    if not (line[2:4] + line[5:7]).isdecimal():
        return None
    end = line.find("] ", 9)
    if end <= 9 or "]" in line[9:end]:
        return None
    return line[2:7], line[9:end], line[end + 2:]


def daily_edits(text: str) -> list:
    """The edit lines of a daily note: ``[(HH:MM, project, [files])]`` (the reader of
    :func:`append_daily_edit`'s format)."""
    out = []
    for line in text.split("\n"):
        m = _edit_line(line)
        if m:
            out.append((m[0], m[1], [f for f in m[2].split(", ") if f]))
    return out


def _clean_label(text: str) -> str:
    """A project name or file label, on one line and redacted. The redactor's own gate
    (code_memory.redact_gate: no ``re``) answers for an ordinary file name; the rules load only
    when one of their triggers occurs."""
    text = str(text).replace("\r", "\\r").replace("\n", "\\n").replace("\x00", "")
    if may_hold_secret(text):
        from ..redact import redact
        text = redact(text)
    return text


def _new_daily(date: str) -> str:
    return template("daily.md", date=date)


def append_daily_edit(paths: MemoryPaths, when, project: str, file_label: str) -> str:
    """Record an edit as ``- HH:MM [project] file, file`` in ``daily/<date>.md`` (``when``: a
    ``datetime.datetime``; not imported here, the hooks call this on their hot path).

    Edits in the same minute and project share one line. Returns the note's path.
    """
    date = when.strftime("%Y-%m-%d")
    minute = when.strftime("%H:%M")
    project = _clean_label(project).replace("]", ")")
    file_label = _clean_label(file_label)
    note = paths.daily_note(date)
    ensure_dir(paths.daily)
    with file_lock(os.path.join(paths.daily, ".lock")):
        text = read_text(note) or _new_daily(date)
        lines = text.split("\n")
        for i in range(len(lines) - 1, -1, -1):
            m = _edit_line(lines[i])
            if m and m[0] == minute and m[1] == project:
                files = m[2].split(", ")
                if file_label in files:
                    return note
                lines[i] = f"{lines[i]}, {file_label}"
                break
        else:
            if lines and lines[-1] == "":
                lines.pop()
            lines.append(f"- {minute} [{project}] {file_label}")
            lines.append("")
        atomic_write_text(note, "\n".join(lines), durable=False)
    return note


def replace_daily_block(paths: MemoryPaths, date: str, marker: str, block: str) -> str:
    """Replace the block that starts with the line ``marker`` (up to the first blank line or the
    next heading), or append it as a new blank-line-separated block. Used so re-summarizing a
    session updates its daily entry instead of adding a second one. Blocks must not contain blank
    lines; the note keeps a blank line after each block, so edit lines appended later by
    :func:`append_daily_edit` stay outside it and survive a replacement."""
    note = paths.daily_note(date)
    ensure_dir(paths.daily)
    new_lines = [line for line in block.rstrip("\n").split("\n") if line.strip()]
    with file_lock(os.path.join(paths.daily, ".lock")):
        text = read_text(note) or _new_daily(date)
        lines = text.rstrip("\n").split("\n")
        start = next((i for i, line in enumerate(lines) if line == marker), None)
        if start is None:
            lines += [""] + new_lines
        else:
            end = start + 1
            while end < len(lines) and lines[end].strip() and not 1 <= heading_level(lines[end]) <= 3:
                end += 1
            lines[start:end] = new_lines
        atomic_write_text(note, "\n".join(lines) + "\n\n")
    return note
