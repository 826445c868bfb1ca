"""Markdown structure, the one place that knows it: ATX headings, code fences, sections, list
items, front matter. Every reader and writer of memory files (the tree, experiences, the hooks'
recall, the index's chunker, the summarizer) walks sections through these functions.

Rules (CommonMark's, as far as memory files need them): a heading is 0–3 spaces, 1–6 ``#`` and
then a space, a tab or the end of the line; its text drops a closing ``#`` run; lines inside
```` ``` ```` / ``~~~`` fences are never headings. A section is the lines under a heading up to
the next heading of the same or a higher level.

Pure functions over strings, standard library only, and no ``re`` (the hooks call these on every
tool call and ``import re`` costs them ~5 ms).
"""

from __future__ import annotations


def _indent(line: str) -> int:
    """Leading spaces of ``line`` when there are at most 3 (more make an indented code line: -1)."""
    i = 0
    while i < len(line) and line[i] == " ":
        i += 1
    return i if i <= 3 else -1


def heading_level(line: str) -> int:
    """The level (1–6) of an ATX heading line, else 0."""
    i = _indent(line)
    if i < 0 or i >= len(line) or line[i] != "#":
        return 0
    j = i
    while j < len(line) and line[j] == "#":
        j += 1
    level = j - i
    if level > 6 or (j < len(line) and line[j] not in " \t"):
        return 0
    return level


def heading_text(line: str) -> str:
    """The text of a heading line (``## Pitfalls ##`` → ``Pitfalls``); ``""`` for other lines."""
    if not heading_level(line):
        return ""
    text = line.strip().lstrip("#").strip()
    stripped = text.rstrip("#")
    if stripped != text and (not stripped or stripped[-1] in " \t"):
        text = stripped.rstrip()
    return text


def is_fence(line: str) -> bool:
    """A line that opens or closes a fenced code block (```` ``` ```` or ``~~~``)."""
    i = _indent(line)
    return i >= 0 and line[i:i + 3] in ("```", "~~~")


def headings(lines: list, start: int = 0, end: int | None = None, max_level: int = 6) -> list:
    """``[(index, level, text)]`` of the headings of level ≤ ``max_level`` in ``lines[start:end]``,
    skipping fenced code."""
    out = []
    in_fence = False
    stop = len(lines) if end is None else end
    for i in range(start, stop):
        line = lines[i]
        if is_fence(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        level = heading_level(line)
        if level and level <= max_level:
            out.append((i, level, heading_text(line)))
    return out


def _find_heading(lines: list, heading: str) -> int:
    """Index of the line equal to ``heading`` (trailing white space ignored), else -1."""
    wanted = heading.rstrip()
    for i, line in enumerate(lines):
        if line.rstrip() == wanted:
            return i
    return -1


def section_end(lines: list, index: int) -> int:
    """End (exclusive) of the section whose heading is ``lines[index]``: the next heading of the
    same or a higher level outside a fence, else the end."""
    level = heading_level(lines[index]) or 7
    in_fence = False
    for i in range(index + 1, len(lines)):
        if is_fence(lines[i]):
            in_fence = not in_fence
            continue
        if not in_fence:
            found = heading_level(lines[i])
            if found and found <= level:
                return i
    return len(lines)


def section_range(lines: list, heading: str) -> tuple:
    """``(start, end)`` indexes of the body under the line ``heading`` (end exclusive); ``(0, 0)``
    when the heading is missing."""
    index = _find_heading(lines, heading)
    if index < 0:
        return 0, 0
    return index + 1, section_end(lines, index)


def section_lines(text: str, heading: str) -> list:
    """The lines under ``heading`` in ``text`` (see :func:`section_range`)."""
    lines = text.split("\n")
    start, end = section_range(lines, heading)
    return lines[start:end]


def append_to_section(text: str, heading: str, new_lines: list) -> str:
    """``text`` with ``new_lines`` added at the end of ``heading``'s section (before its trailing
    blank lines); the section is created at the end of the text when missing."""
    if not new_lines:
        return text
    lines = text.rstrip("\n").split("\n")
    index = _find_heading(lines, heading)
    if index < 0:
        return "\n".join(lines + ["", heading, ""] + list(new_lines)) + "\n"
    start, end = index + 1, section_end(lines, index)
    insert_at = end
    while insert_at > start and lines[insert_at - 1].strip() == "":
        insert_at -= 1
    block = list(new_lines)
    if insert_at == start:
        block = [""] + block
    trailing = [""] if end < len(lines) else []
    lines[insert_at:end] = block + trailing
    return "\n".join(lines) + "\n"


def split_sections(text: str, level: int) -> list:
    """``[(heading text or None, body)]`` of ``text`` split at its headings of exactly ``level``
    (outside fences); the part before the first heading comes as ``(None, body)`` when it holds
    anything. Bodies lose their leading and trailing blank lines."""
    lines = text.split("\n")
    cuts = [(i, title) for i, found, title in headings(lines, max_level=level) if found == level]
    out = []
    head = "\n".join(lines[:cuts[0][0]] if cuts else lines).strip("\n")
    if head.strip():
        out.append((None, head))
    for n, (i, title) in enumerate(cuts):
        end = cuts[n + 1][0] if n + 1 < len(cuts) else len(lines)
        out.append((title, "\n".join(lines[i + 1:end]).strip("\n")))
    return out


def heading_above(lines: list, index: int) -> str:
    """The nearest heading line above ``lines[index]`` (outside fences), else ``""``."""
    found = headings(lines, 0, index)
    return lines[found[-1][0]] if found else ""


def is_list_item(line: str) -> bool:
    """A list item with text: ``- x``, ``* x``, ``+ x``, ``1. x``, ``2) x`` (any indent)."""
    s = line.lstrip()
    if s[:1] in ("-", "*", "+"):
        rest = s[1:]
    else:
        digits = 0
        while digits < len(s) and digits < 4 and s[digits].isdecimal():
            digits += 1
        if not 1 <= digits <= 3 or s[digits:digits + 1] not in (".", ")"):
            return False
        rest = s[digits + 1:]
    return bool(rest) and rest[0].isspace() and bool(rest.strip())


def front_matter_end(lines: list) -> int:
    """Index of the first line after a leading ``---`` front matter block (0 if none)."""
    if not lines or lines[0].strip() != "---":
        return 0
    for i in range(1, min(len(lines), 200)):
        if lines[i].strip() in ("---", "..."):
            return i + 1
    return 0


def has_content(text: str, boilerplate: str = "") -> bool:
    """True when ``text`` holds more than headings, blank lines and the lines of ``boilerplate``
    (the template the file was made from): an untouched template says nothing."""
    skip = {line.strip() for line in boilerplate.split("\n") if line.strip()}
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped and stripped not in skip and not heading_level(line):
            return True
    return False
