"""Split memory files into search units (chunks). Pure functions: text in, chunks out.

* Markdown: a chunk per heading section (levels 1–3; headings inside code fences do not count),
  1-based inclusive line ranges; front matter is metadata, not text. Sections longer than the window
  are split into windows at blank lines, each keeping its heading. Files without headings are
  windowed.
* Daily notes: entries (``- HH:MM [project] …`` lines, ``### …`` blocks) grouped by their project
  tag, so a project-scoped search never sees another project's lines.
* facts.json: one chunk per active fact (superseded and archived facts stay in the file, out of
  search).
* kv/index JSON files: one chunk per key.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from ..markdown import front_matter_end, headings

DAILY_EDIT = re.compile(r"^- \d\d:\d\d \[([^\]]+)\]")
DAILY_BLOCK_PROJECT = re.compile(r"\[([^\]]+)\]")
SESSION_PROJECT = re.compile(r"^\s*[-*]\s*\*\*(?:项目|Project)\*\*\s*[:：]\s*(.+?)\s*$", re.I)

SPLIT_LEVEL = 3
MAX_CHUNK_CHARS = 2400


@dataclass
class Chunk:
    start_line: int
    end_line: int
    heading: str
    text: str
    title: str = ""
    project: str | None = None

    @property
    def digest(self) -> str:
        return hashlib.sha256(f"{self.title}\x1f{self.heading}\x1f{self.text}".encode("utf-8")).hexdigest()[:32]


def _windows(lines: list, start: int, end: int, window: int) -> list:
    """Split line indexes [start, end) into windows of at most ``window`` lines (and about
    MAX_CHUNK_CHARS characters), cutting at blank lines when one is near the limit."""
    out = []
    i = start
    while i < end:
        limit = min(end, i + window)
        size = 0
        j = i
        while j < limit:
            size += len(lines[j]) + 1
            if size > MAX_CHUNK_CHARS and j > i:
                break
            j += 1
        if j < end:
            for k in range(j - 1, i + max(1, (j - i) // 2) - 1, -1):
                if not lines[k].strip():
                    j = k + 1
                    break
        out.append((i, j))
        i = j
    return out


def chunk_markdown(text: str, window_lines: int = 40, title_hint: str = "") -> list:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    body_start = front_matter_end(lines)
    sections = [(i, text, level) for i, level, text in headings(lines, body_start, max_level=SPLIT_LEVEL) if text]
    title = next((h for _, h, lvl in sections if lvl == 1), "") or title_hint
    bounds = []
    first = sections[0][0] if sections else len(lines)
    if any(lines[k].strip() for k in range(body_start, first)):
        bounds.append((body_start, first, ""))
    for n, (i, heading, _lvl) in enumerate(sections):
        end = sections[n + 1][0] if n + 1 < len(sections) else len(lines)
        bounds.append((i, end, heading))
    chunks = []
    for start, end, heading in bounds:
        while end > start and not lines[end - 1].strip():
            end -= 1
        if end <= start:
            continue
        if heading and end - start == 1 and len(bounds) > 1:
            continue  # a bare heading (e.g. the H1 title before the first section) says nothing alone
        for ws, we in _windows(lines, start, end, window_lines):
            piece = "\n".join(lines[ws:we]).strip()
            if piece:
                chunks.append(Chunk(ws + 1, we, heading, piece, title))
    return chunks


DAILY_SESSION_PROJECT = re.compile(r"^- (?:时间|Time)\s*[:：].*\[([^\]]+)\]\s*$")
NO_PROJECT = ("—", "-", "")


def daily_entries(lines: list) -> list:
    """``[(start, end, project)]`` (0-based, end exclusive) of a daily note's entries: edit lines
    ``- HH:MM [project] …``, ``### …`` blocks (the project from the heading's ``[…]`` or, for the
    summarizer's session entries, from their ``- 时间: … · [project]`` line), other lines untagged."""
    entries = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.startswith("# "):
            i += 1
            continue
        m = DAILY_EDIT.match(line)
        if m:
            entries.append((i, i + 1, m.group(1)))
            i += 1
            continue
        if line.startswith("### "):
            m2 = DAILY_BLOCK_PROJECT.search(line)
            project = m2.group(1) if m2 else None
            j = i + 1
            while j < len(lines) and not lines[j].startswith(("### ", "# ", "## ")) and not DAILY_EDIT.match(lines[j]):
                m3 = DAILY_SESSION_PROJECT.match(lines[j]) if project is None else None
                if m3:
                    project = m3.group(1).strip()
                j += 1
            entries.append((i, j, None if project in NO_PROJECT else project))
            i = j
            continue
        entries.append((i, i + 1, None))
        i += 1
    return entries


def chunk_daily(text: str, window_lines: int = 40, title_hint: str = "") -> list:
    """Daily notes: group entries by project tag; untagged lines go with the project-less group."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    title = title_hint or next((line[2:].strip() for line in lines if line.startswith("# ")), "")
    entries = daily_entries(lines)
    chunks = []
    group = []
    for entry in entries + [None]:
        if group and (entry is None or entry[2] != group[0][2] or entry[1] - group[0][0] > window_lines):
            start, end, project = group[0][0], group[-1][1], group[0][2]
            while end > start and not lines[end - 1].strip():
                end -= 1
            piece = "\n".join(lines[start:end]).strip()
            if piece:
                heading = f"{title} [{project}]" if project else title
                chunks.append(Chunk(start + 1, end, heading, piece, title, project=project))
            group = []
        if entry is not None:
            group.append(entry)
    return chunks


def session_project(text: str) -> str | None:
    for line in text.split("\n")[:20]:
        m = SESSION_PROJECT.match(line)
        if m:
            return m.group(1).strip() or None
    return None


def _line_of(raw: str, needle: str, start_at: int = 0) -> tuple:
    """(1-based line, offset of that line's start, where to search next) of the first ``needle`` at
    or after ``start_at``; (1, 0, start_at) when there is none."""
    pos = raw.find(needle, start_at)
    if pos < 0:
        return 1, 0, start_at
    return raw.count("\n", 0, pos) + 1, raw.rfind("\n", 0, pos) + 1, pos + 1


def chunk_facts(text: str, title_hint: str = "") -> list:
    """One chunk per active fact. Raises ``INVALID_ARGUMENT`` (facts.parse_facts) on malformed JSON."""
    from ..memory.facts import parse_facts

    facts = parse_facts(text, title_hint or "facts.json")
    chunks = []
    cursor = 0
    total_lines = text.count("\n") + 1
    for fact in facts:
        fid = str(fact.get("id", ""))
        needle = json.dumps(fid, ensure_ascii=False)
        line, line_start, cursor = _line_of(text, needle, cursor) if fid else (1, 0, cursor)
        if fact.get("status", "active") != "active":
            continue
        end = line
        close = text.find("}", line_start)
        if close >= 0:
            end = min(total_lines, text.count("\n", 0, close) + 1)
        body = str(fact.get("fact", "")).strip()
        evidence = str(fact.get("evidence", "") or "").strip()
        if evidence:
            body += f"\n(evidence: {evidence})"
        category = str(fact.get("category", "") or "")
        heading = f"{fid} [{category}]" if category else fid
        chunks.append(Chunk(line, max(line, end), heading, body, title_hint))
    return chunks


def _flatten_strings(obj, out: list, depth: int = 0) -> None:
    if depth > 6 or len(out) > 200:
        return
    if isinstance(obj, str):
        out.append(obj)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        out.append(str(obj))
    elif isinstance(obj, list):
        for v in obj:
            _flatten_strings(v, out, depth + 1)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (str, int, float)) and not isinstance(v, bool):
                out.append(f"{k}: {v}")
            else:
                _flatten_strings(v, out, depth + 1)


def chunk_kv(text: str, key_hint: str = "") -> list:
    """A kv/index JSON file → one chunk. The file is ``{"key", "content", ...}`` or bare content."""
    obj = json.loads(text)
    key = key_hint
    content = obj
    if isinstance(obj, dict) and isinstance(obj.get("key"), str):
        key = obj["key"]
        content = obj.get("content", obj)
    strings: list = []
    _flatten_strings(content, strings)
    body = "\n".join(s for s in strings if s.strip())[:MAX_CHUNK_CHARS] or json.dumps(content, ensure_ascii=False)[:MAX_CHUNK_CHARS]
    lines = text.count("\n") + 1
    return [Chunk(1, lines, key, body, "kv")]
