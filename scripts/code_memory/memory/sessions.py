"""Session notes ``sessions/<id>.md`` (docs/summaries.md § Session summaries): one summary per session,
written whole (temp file + rename) by the summarizer, and read back into fields.

A note is in the 会话摘要 (session summary) format: a ``# 会话摘要: <id>`` title, ``- **项目**: …`` header
fields, ``---``, then numbered items ``1. **主题**: …`` with indented ``- …`` bullets:

    1. 主题   2. 关键知识点   3. 涉及文件 (comma separated)   4. 决策记录 (one line or bullets)
    5. 待办 (``- [ ] …``)   6. 已完成的待办 (``- [x] … (sessions/<earlier id>.md) ← “why”``)
    7. 结果 (the outcome as said)   8. 已回滚 (the change was put back)   9. 注意事项 (cautions said)

and the later requests under ``### 后续请求 (Later requests)``.

:func:`numbered_items` reads that item structure from any Markdown (the notes, and an LLM's
Markdown-mode answer); :func:`parse_note` turns a note into the fields the recent-work index keeps.
Pure string work, no ``re``.
"""

from __future__ import annotations

import os

from ..fsutil import atomic_write_text, ensure_dir
from ..markdown import heading_level, section_lines
from ..paths import MemoryPaths

TOPIC, POINTS, FILES, DECISIONS, TODOS, DONE = "主题", "关键知识点", "涉及文件", "决策记录", "待办", "已完成的待办"
OUTCOME, REVERTED, NOTED = "结果", "已回滚", "注意事项"
LATER_HEADING = "### 后续请求 (Later requests)"
FINAL_HEADING = "### 结果与下一步 (Final message)"
COMMANDS_HEADING = "### 执行的命令 (Commands)"
OPEN_BOX, DONE_BOX = "[ ] ", "[x] "
EVIDENCE_MARK = "← “"        # after a 已完成的待办 line's reference: why the summarizer closed it
EMPTY = ("—", "-", "none", "无", "(none)")


def write_session_note(paths: MemoryPaths, session_id: str, text: str) -> str:
    """Write (or replace) ``sessions/<id>.md`` atomically. Returns its path."""
    note = paths.session_note(session_id)
    ensure_dir(paths.sessions)
    atomic_write_text(note, text if text.endswith("\n") else text + "\n")
    return note


def _item_label(line: str):
    """``(label, rest)`` of ``N. **label**: rest`` (bold optional, ``:`` or ``：``), else None."""
    s = line.strip()
    digits = 0
    while digits < len(s) and digits < 3 and s[digits].isdecimal():
        digits += 1
    if not digits or s[digits:digits + 1] not in (".", ")"):
        return None
    s = s[digits + 1:].strip()
    if s.startswith("**"):
        end = s.find("**", 2)
        if end < 0:
            return None
        label, rest = s[2:end], s[end + 2:]
    else:
        cut = min((i for i in (s.find(":"), s.find("：")) if i >= 0), default=-1)
        if cut < 0:
            return None
        label, rest = s[:cut], s[cut:]
    rest = rest.strip().lstrip(":：").strip()
    label = label.strip().rstrip(":：").strip()
    return (label, rest) if label else None


def _bullet(line: str) -> str | None:
    s = line.strip()
    if s[:2] in ("- ", "* ", "+ "):
        return s[2:].strip()
    return None


def numbered_items(text: str) -> dict:
    """``{label: (inline text, [bullet texts])}`` of the numbered items of a note or an LLM's
    Markdown answer (the first occurrence of a label wins; ``#`` headings end an item)."""
    items: dict = {}
    current = None
    for line in (text or "").split("\n"):
        found = _item_label(line)
        if found:
            label, rest = found
            current = None if label in items else label
            if current:
                items[current] = (rest.strip("* "), [])
            continue
        if heading_level(line) or line.strip() == "---":
            current = None
            continue
        bullet = _bullet(line)
        if current and bullet:
            items[current][1].append(bullet)
    return items


def _value(items: dict, label: str) -> tuple:
    for key, value in items.items():
        if key.startswith(label):
            return value
    return "", []


def item_list(items: dict, label: str) -> list:
    """The values of an item: its bullets, else its inline text (``—`` means none)."""
    inline, bullets = _value(items, label)
    values = bullets or ([inline] if inline else [])
    return [v for v in values if v.strip() and v.strip().lower() not in EMPTY]


def unbox(text: str) -> str:
    """A to-do without its ``[ ]`` / ``[x]`` checkbox."""
    s = text.strip()
    if s[:4].lower() in (OPEN_BOX, DONE_BOX):
        return s[4:].strip()
    return s


def done_reference(text: str) -> tuple:
    """``(to-do text, earlier session id or "")`` of a 已完成的待办 line
    ``[x] text (sessions/<id>.md)`` (what :func:`done_evidence` reads after it is left out)."""
    s = _split_evidence(text)[0]
    if s.endswith(".md)") and "(sessions/" in s:
        start = s.rfind("(sessions/")
        return s[:start].strip(), s[start + len("(sessions/"):-len(".md)")]
    return s, ""


def done_evidence(text: str) -> str:
    """Why the summarizer closed it: the ``← “…”`` after a 已完成的待办 line's reference, else ``""``
    (notes from before it was written have none)."""
    return _split_evidence(text)[1]


def _split_evidence(text: str) -> tuple:
    """``(the unboxed 已完成的待办 line up to its reference, the evidence after it or "")``."""
    s = unbox(text)
    at = s.find(".md) " + EVIDENCE_MARK)
    if at >= 0 and s.endswith("”"):
        return s[:at + 4], s[at + 5 + len(EVIDENCE_MARK):-1].strip()
    return s, ""


def final_message(text: str) -> str:
    """The final assistant message a note quotes under ``### 结果与下一步 (Final message)``."""
    quoted = [line[1:].lstrip() if line.startswith(">") else line
              for line in section_lines(text or "", FINAL_HEADING) if line.startswith(">")]
    return "\n".join(quoted).strip()


def _header_fields(lines: list) -> dict:
    fields = {}
    for line in lines:
        s = line.strip()
        if s == "---":
            break
        if s.startswith("- **"):
            end = s.find("**", 4)
            if end > 4:
                fields[s[4:end]] = s[end + 2:].strip().lstrip(":：").strip()
    return fields


def parse_note(text: str, path: str = "") -> dict:
    """The fields of a session note: ``{session_id, project, time (last update), ended (when the
    session ended), cwd, topic, files, decisions, todos, done: [(text, earlier session id)], done_why:
    {text: why the summarizer closed it},
    outcome, reverted, noted, asked (the later requests)}``; missing parts are empty."""
    lines = (text or "").split("\n")
    session_id = os.path.splitext(os.path.basename(path))[0] if path else ""
    for line in lines[:3]:
        if heading_level(line) == 1 and ":" in line.replace("：", ":"):
            session_id = line.replace("：", ":").split(":", 1)[1].strip() or session_id
            break
    fields = _header_fields(lines)
    items = numbered_items(text)
    topic = _value(items, TOPIC)[0]
    files_inline, file_bullets = _value(items, FILES)
    files = file_bullets or [f.strip() for f in files_inline.split(",")]
    later = section_lines(text or "", LATER_HEADING)
    return {"session_id": session_id,
            "project": "" if fields.get("项目", "") in EMPTY else fields.get("项目", ""),
            "time": fields.get("时间", ""),
            "ended": fields.get("会话结束", ""),
            "cwd": fields.get("工作目录", ""),
            "topic": "" if topic in EMPTY else topic,
            "files": [f for f in files if f and f not in EMPTY],
            "decisions": item_list(items, DECISIONS),
            "todos": [unbox(t) for t in item_list(items, TODOS)],
            "done": [done_reference(t) for t in item_list(items, DONE)],
            "done_why": {done_reference(t)[0]: done_evidence(t) for t in item_list(items, DONE) if done_evidence(t)},
            "outcome": _value(items, OUTCOME)[0], "reverted": _value(items, REVERTED)[0],
            "noted": item_list(items, NOTED),
            "asked": [b for b in (_bullet(line) for line in later) if b]}
