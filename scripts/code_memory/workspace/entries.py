"""Workspace day files (docs/stores.md § Workspace memory): entry templates, the day header, format checks. Pure.

A day file ``memory/YYYY-MM-DD.md`` starts with ``## YYYY-MM-DD`` (written once, when the file is
created) and holds entries ``## YYYY-MM-DD HH:MM — <type>`` with ``- label：value`` lines:

    decision (决策)  结论 = text, 原因 = --reason, 后续 = --followup
    event    (事件)  发生 = text, 处理 = --handling, 备注 = --note
    summary  (总结)  今日完成 = text, 明日计划 = --followup

Values are redacted (secrets, ``<private>`` spans) and kept on one line; absent options leave
their line out.
"""

from __future__ import annotations

import datetime as dt
import re

from ..errors import CodeMemoryError
from ..markdown import heading_level, split_sections
from ..redact import redact

DASH = "\u2014"
TYPES = {
    "decision": ("决策", (("text", "结论"), ("reason", "原因"), ("followup", "后续"))),
    "event": ("事件", (("text", "发生"), ("handling", "处理"), ("note", "备注"))),
    "summary": ("总结", (("text", "今日完成"), ("followup", "明日计划"))),
}
LABELS = {label for label, _fields in TYPES.values()}
MAX_VALUE_CHARS = 4000

DAY_NAME_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
DAY_HEADER_RE = re.compile(r"^## (\d{4}-\d{2}-\d{2})\s*$")
ENTRY_HEADING_RE = re.compile(r"^## (\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}) " + DASH + r" (\S.*?)\s*$")


def fields_for(kind: str) -> tuple:
    if kind not in TYPES:
        raise CodeMemoryError("INVALID_ARGUMENT", f"unknown entry type {kind!r}", hint="decision, event or summary")
    return TYPES[kind]


def clean_value(value: str) -> str:
    """One line, redacted, bounded."""
    text = " ".join(redact(str(value)).split())
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def render_entry(kind: str, when: dt.datetime, values: dict) -> str:
    """The entry block for ``values`` ({field: text}); ``INVALID_ARGUMENT`` for a field the type
    does not have or an empty text."""
    label, fields = fields_for(kind)
    allowed = {name for name, _ in fields}
    extra = sorted(k for k, v in values.items() if v is not None and k not in allowed)
    if extra:
        raise CodeMemoryError("INVALID_ARGUMENT", f"a {kind} entry has no {', '.join(extra)}",
                              hint=f"{kind} takes: " + ", ".join(f"{n} ({lbl})" for n, lbl in fields))
    text = clean_value(values.get("text") or "")
    if not text:
        raise CodeMemoryError("INVALID_ARGUMENT", "the text to remember is empty (after removing secrets)")
    lines = [f"## {when:%Y-%m-%d %H:%M} {DASH} {label}"]
    for name, lbl in fields:
        value = text if name == "text" else clean_value(values.get(name) or "")
        if value:
            lines.append(f"- {lbl}：{value}")
    return "\n".join(lines) + "\n"


def day_header(date: str) -> str:
    return f"## {date}\n"


def with_entry(existing: str | None, date: str, block: str) -> str:
    """The day file's new text: the header first when the file is new (or empty), then the block
    after one blank line."""
    if not existing or not existing.strip():
        return day_header(date) + "\n" + block
    return existing.rstrip("\n") + "\n\n" + block


def day_of(name: str) -> str | None:
    """``YYYY-MM-DD`` for a valid day file name, else None."""
    m = DAY_NAME_RE.match(name)
    if not m:
        return None
    try:
        dt.date.fromisoformat(m.group(1))
    except ValueError:
        return None
    return m.group(1)


def _problem(line: int, code: str, message: str, severity: str = "error") -> dict:
    return {"line": line, "code": code, "severity": severity, "message": message}


def check_day_text(date: str, text: str) -> list:
    """Format problems of a day file (line numbers, codes, messages — never its text)."""
    problems = []
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return [_problem(1, "WS_DAY_HEADER_MISSING", f"empty day file; it should start with '## {date}'")]
    header = DAY_HEADER_RE.match(lines[first])
    if not header:
        problems.append(_problem(first + 1, "WS_DAY_HEADER_MISSING", f"the first line should be '## {date}'"))
    elif header.group(1) != date:
        problems.append(_problem(first + 1, "WS_DAY_HEADER_MISMATCH", "the day header names another date than the file"))
    for number, line in enumerate(lines, 1):
        if number == first + 1 or heading_level(line) != 2:
            continue
        if DAY_HEADER_RE.match(line):
            problems.append(_problem(number, "WS_DAY_HEADER_DUPLICATE", "a second day header"))
            continue
        m = ENTRY_HEADING_RE.match(line)
        if not m:
            problems.append(_problem(number, "WS_ENTRY_HEADING", f"entry headings look like '## {date} HH:MM {DASH} 决策'"))
            continue
        if m.group(1) != date:
            problems.append(_problem(number, "WS_ENTRY_DATE_MISMATCH", "the entry's date is not the file's date"))
        if int(m.group(2)) > 23 or int(m.group(3)) > 59:
            problems.append(_problem(number, "WS_ENTRY_HEADING", "the entry's time is not a valid HH:MM"))
        if m.group(4) not in LABELS:
            problems.append(_problem(number, "WS_ENTRY_TYPE", "unknown entry type (决策, 事件, 总结 are known)",
                                     "warning"))
    return problems


def sections(text: str) -> list:
    """``[(heading or None, body_text)]`` of a day file split at its ``## `` headings."""
    return split_sections(text, 2)
