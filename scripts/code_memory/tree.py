"""The memory tree (DESIGN §4): creating a root and the writers for daily notes, session notes,
area files and MEMORY.md sections.

Every whole-file write is temp file + rename; every read-modify-write holds a lock, so two hooks or
two summarizer workers never lose each other's lines.
"""

from __future__ import annotations

import os

from .errors import CodeMemoryError
from .fsutil import atomic_write_text, create_new_text, ensure_dir, file_lock, read_text
from .paths import AREA_KINDS, MemoryPaths, safe_name

SCRIPTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the entry scripts
REPO_DIR = os.path.dirname(SCRIPTS_DIR)
TEMPLATES_DIR = os.path.join(REPO_DIR, "templates")
RULES_DIR = os.path.join(REPO_DIR, "rules")

PITFALLS_HEADING = "## 避坑经验 (Pitfalls)"
BEST_PRACTICES_HEADING = "## 最佳实践 (Best practices)"


def template(template_name: str, **values) -> str:
    """The text of ``templates/<template_name>`` with ``{key}`` placeholders filled in."""
    path = os.path.join(TEMPLATES_DIR, template_name)
    text = read_text(path)
    if text is None:
        raise CodeMemoryError("NOT_FOUND", f"template {template_name} is missing from {TEMPLATES_DIR}",
                              hint="run from a complete checkout (pip install -e .)")
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def init_root(paths: MemoryPaths) -> dict:
    """Create a memory root from the templates. Existing files are never overwritten.

    Returns ``{"created": [...], "existing": [...]}`` with paths relative to the root.
    """
    created, existing = [], []
    for directory in (paths.root, paths.daily, paths.sessions, paths.evolution, paths.kv,
                      paths.rules, paths.index_dir, *(os.path.join(paths.areas, k) for k in AREA_KINDS)):
        ensure_dir(directory)
    os.chmod(paths.root, 0o700)
    ensure_dir(paths.logs, 0o700)

    def place(rel: str, text: str) -> None:
        if create_new_text(os.path.join(paths.root, rel), text):
            created.append(rel)
        else:
            existing.append(rel)

    place("MEMORY.md", template("MEMORY.md"))
    for name in sorted(os.listdir(RULES_DIR)):
        if name.endswith(".md"):
            with open(os.path.join(RULES_DIR, name), encoding="utf-8") as fh:
                place(os.path.join("rules", name), fh.read())
    return {"created": created, "existing": existing}


def area_files(kind: str) -> list:
    """The files an area of ``kind`` holds: summary.md, facts.json, and rules.md for projects."""
    return ["summary.md", "facts.json"] + (["rules.md"] if kind == "projects" else [])


def ensure_area(paths: MemoryPaths, kind: str, name: str) -> str:
    """Create ``areas/<kind>/<name>/`` with its :func:`area_files`."""
    directory = paths.area_dir(kind, name)
    ensure_dir(directory)
    label = safe_name(name)
    for fname in area_files(kind):
        target = os.path.join(directory, fname)
        if not os.path.exists(target):  # the fast path; create_new_text decides under races
            create_new_text(target, template(fname, name=label, kind=kind[:-1]))
    return directory


# ---------------------------------------------------------------------------------------------
# daily notes

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
    return str(text).replace("\r", "\\r").replace("\n", "\\n").replace("\x00", "")


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


def append_daily_block(paths: MemoryPaths, date: str, block: str) -> str:
    """Append a Markdown block (e.g. a session entry) to ``daily/<date>.md`` under the lock."""
    note = paths.daily_note(date)
    ensure_dir(paths.daily)
    with file_lock(os.path.join(paths.daily, ".lock")):
        text = read_text(note) or _new_daily(date)
        if not text.endswith("\n"):
            text += "\n"
        if not text.endswith("\n\n"):
            text += "\n"
        atomic_write_text(note, text + block.rstrip("\n") + "\n")
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
            while end < len(lines) and lines[end].strip() and not lines[end].startswith(("### ", "## ", "# ")):
                end += 1
            lines[start:end] = new_lines
        atomic_write_text(note, "\n".join(lines) + "\n\n")
    return note


# ---------------------------------------------------------------------------------------------
# session notes and MEMORY.md

def write_session_note(paths: MemoryPaths, session_id: str, text: str) -> str:
    """Write (or replace) ``sessions/<id>.md`` atomically. Returns its path."""
    note = paths.session_note(session_id)
    ensure_dir(paths.sessions)
    atomic_write_text(note, text if text.endswith("\n") else text + "\n")
    return note


def section_lines(markdown: str, heading: str) -> list:
    """The lines under ``heading`` (exact line) up to the next heading of the same or higher level."""
    lines = markdown.split("\n")
    level = len(heading) - len(heading.lstrip("#"))
    try:
        start = lines.index(heading) + 1
    except ValueError:
        return []
    out = []
    for line in lines[start:]:
        stripped = line.lstrip("#")
        hashes = len(line) - len(stripped)
        if hashes and hashes <= level and stripped.startswith(" "):
            break
        out.append(line)
    return out


def append_to_section(markdown: str, heading: str, new_lines: list) -> str:
    """Insert ``new_lines`` at the end of ``heading``'s section (created at the end if missing)."""
    if not new_lines:
        return markdown
    lines = markdown.rstrip("\n").split("\n")
    level = len(heading) - len(heading.lstrip("#"))
    if heading not in lines:
        return "\n".join(lines + ["", heading, ""] + list(new_lines)) + "\n"
    start = lines.index(heading) + 1
    end = start
    while end < len(lines):
        stripped = lines[end].lstrip("#")
        hashes = len(lines[end]) - len(stripped)
        if hashes and hashes <= level and stripped.startswith(" "):
            break
        end += 1
    insert_at = end
    while insert_at > start and lines[insert_at - 1].strip() == "":
        insert_at -= 1
    block = list(new_lines)
    if insert_at == start:
        block = [""] + block
    trailing = [""] if end < len(lines) else []
    lines[insert_at:end] = block + trailing
    return "\n".join(lines) + "\n"


def lock_path_for(path: str) -> str:
    """The hidden sidecar lock of a file: ``<dir>/.<name>.lock``."""
    return os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".lock")


def update_file(path: str, transform, default_text: str = "") -> str:
    """Read-modify-write ``path`` under its lock: ``transform(old_text) -> new_text``."""
    with file_lock(lock_path_for(path)):
        old = read_text(path)
        new = transform(old if old is not None else default_text)
        if new != old:
            atomic_write_text(path, new)
        return new
