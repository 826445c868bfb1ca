"""Writing a session summary into the memory tree (docs/summaries.md § Session summaries, Distribution):

  sessions/<id>.md   the formatted summary (replaced on every run of the same session)
  rules.md           the project's rules by ``## category`` (exact-line dedup, like ``grep -qF``)
  MEMORY.md          the pitfalls section (trigram Jaccard + containment dedup, see dedup.py)
  daily/<date>.md    one entry per session (topic, key points, knowledge flag), replaced on re-runs

Every writer is a locked read-modify-write with an atomic rename, so summarizer workers for
different sessions can run at once. Text arriving here has been redacted; it is redacted again
on the way out as a last line of defence (the LLM's answer is not trusted).
"""

from __future__ import annotations

import datetime as dt
import os
import re

from ..markdown import heading_level, heading_text
from ..memory.daily import replace_daily_block
from ..memory.sessions import (
    COMMANDS_HEADING,
    DECISIONS,
    DONE,
    DONE_BOX,
    EVIDENCE_MARK,
    FILES,
    FINAL_HEADING,
    LATER_HEADING,
    NOTED,
    OPEN_BOX,
    OUTCOME,
    POINTS,
    REVERTED,
    TODOS,
    TOPIC,
    write_session_note,
)
from ..memory.templates import template
from ..memory.tree import DEFAULT_CATEGORY, append_pitfalls, append_rules, rules_path
from ..paths import MemoryPaths, safe_name
from ..redact import redact
from ..text import similarity as dedup
from . import extract
from .todos import same_todo

MAX_ITEM_CHARS = 300
LINT_HEADING = "### 避坑检查 (Lint findings)"


# what an item's text is called when an LLM answers with objects instead of strings
TEXT_KEYS = ("text", "rule", "decision", "todo", "point", "item", "title", "topic", "summary", "content",
             "description", "value", "name")
REASON_KEYS = ("reason", "why", "because", "rationale")
NOT_TEXT_KEYS = ("evidence", "category", "id", "verification", "confidence", "source")


def item_text(value) -> str:
    """The text of one item of an LLM's answer, in either shape: a plain string (the original
    design's ``"avoidances": ["…"]``) or an object (the prompt's ``{"text": …, "evidence": …}``, or
    ``{"decision": …, "reason": …}``), its reason appended. Never a Python repr of a dict."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "; ".join(t for t in (item_text(v) for v in value) if t.strip())
    if not isinstance(value, dict):
        return ""
    strings = {k: v.strip() for k, v in value.items() if isinstance(k, str) and isinstance(v, str) and v.strip()}
    text = next((strings[k] for k in TEXT_KEYS if k in strings), "") or next(
        (v for k, v in strings.items() if k not in NOT_TEXT_KEYS + REASON_KEYS), "")
    reason = next((strings[k] for k in REASON_KEYS if k in strings), "")
    if reason and reason not in text:
        return f"{text} — {reason}" if text else reason
    return text


def one_line(text, cap: int = MAX_ITEM_CHARS) -> str:
    """A single redacted line: newlines folded, Markdown headings defused, length capped. An
    object (an LLM's ``{"text": …}``) gives its text (:func:`item_text`). Redacted before folding
    (a ``requirepass …`` or ``secret: …`` line is a secret only at a line's start) and after (a
    label and its value brought onto one line)."""
    text = redact(re.sub(r"\s+", " ", redact(item_text(text))).strip())
    text = text.lstrip("#").strip()
    return text if len(text) <= cap else text[: cap - 1].rstrip() + "…"


def human_size(num_bytes: int) -> str:
    if num_bytes < 1024:
        return f"{num_bytes} B"
    if num_bytes < 1024 * 1024:
        return f"{num_bytes // 1024}KB"
    return f"{num_bytes / (1024 * 1024):.1f}MB"


def display_path(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


# ---------------------------------------------------------------------------------------------
# the session note


def render_summary_body(summary: dict, cwd: str | None) -> str:
    """The numbered body of the 会话摘要 format from a validated ``summary`` object:
    1. 主题 2. 关键知识点 3. 涉及文件 4. 决策记录, then 5. 待办 (``- [ ]``), 6. 已完成的待办
    (``- [x] … (sessions/<earlier id>.md) ← “why”``: summary/close_evidence.py), 7. 结果 (the outcome as said), 8. 已回滚 (the
    change was put back) and 9. 注意事项 (cautions said) when there are any (memory/sessions.py
    reads them back)."""
    lines = [f"1. **{TOPIC}**: {one_line(summary.get('topic')) or '—'}", f"2. **{POINTS}**:"]
    points = summary.get("key_points") or []
    lines += [f"   - {one_line(p)}" for p in points] or ["   - —"]
    files = [display_path(one_line(f), cwd) for f in summary.get("files") or []]
    lines.append(f"3. **{FILES}**: {', '.join(files) if files else '—'}")
    decisions = summary.get("decisions") or []
    if len(decisions) == 1:
        lines.append(f"4. **{DECISIONS}**: {one_line(decisions[0])}")
    elif decisions:
        lines.append(f"4. **{DECISIONS}**:")
        lines += [f"   - {one_line(d)}" for d in decisions]
    else:
        lines.append(f"4. **{DECISIONS}**: —")
    todos = summary.get("todos") or []
    if todos:
        lines.append(f"5. **{TODOS}**:")
        lines += [f"   - {OPEN_BOX}{one_line(t)}" for t in todos]
    done = summary.get("done") or []
    if done:
        lines.append(f"6. **{DONE}**:")
        why = summary.get("done_why") or {}
        lines += [f"   - {DONE_BOX}{one_line(text)} (sessions/{safe_name(ref)}.md)"
                  + (f" {EVIDENCE_MARK}{why[text]}”" if why.get(text) else "") for ref, text in done]
    if summary.get("outcome"):
        lines.append(f"7. **{OUTCOME}**: {one_line(summary['outcome'], extract.OUTCOME_CHARS + 20)}")
    if summary.get("reverted"):
        lines.append(f"8. **{REVERTED}**: {one_line(summary['reverted'])}")
    if summary.get("noted"):
        lines.append(f"9. **{NOTED}**:")
        lines += [f"   - {one_line(n)}" for n in summary["noted"]]
    return "\n".join(lines)


def render_knowledge(knowledge: dict | None) -> str:
    if not knowledge or not knowledge.get("has_knowledge"):
        return ""
    out = []
    if knowledge.get("rules"):
        out.append("### 提取的规则 (Rules)\n")
        out += [f"- [{one_line(r['category'], 40)}] {one_line(r['rule'])}" for r in knowledge["rules"]]
    if knowledge.get("avoidances"):
        out.append(("\n" if out else "") + "### 避坑经验 (Pitfalls)\n")
        out += [f"- {one_line(a)}" for a in knowledge["avoidances"]]
    return "\n".join(out)


def render_activity(digest, cwd: str | None, limit_commands: int = 15, limit_errors: int = 10) -> str:
    """The deterministic record of what the session did (from the transcript, no LLM): later
    requests, the final message, commands (✗ failed), real errors, user corrections, the
    avoidance gate's findings. code-memory's own gate denials are not in it."""
    out = []
    later = extract.later_requests(digest.user_requests)
    if later:
        out.append(LATER_HEADING + "\n")
        out += [f"- {one_line(r, 240)}" for r in later]
    if digest.final_message:
        out.append(f"\n{FINAL_HEADING}\n")
        out += ["> " + line if line.strip() else ">" for line in redact(digest.final_message).split("\n")[:20]]
    if digest.commands:
        out.append(f"\n{COMMANDS_HEADING}\n")
        for cmd in digest.commands[:limit_commands]:
            mark = " ✗" if cmd.get("failed") else ""
            out.append(f"- `{one_line(cmd['command'], 200).replace('`', chr(39))}`{mark}")
        if len(digest.commands) > limit_commands:
            out.append(f"- … {len(digest.commands) - limit_commands} more")
    if digest.errors:
        out.append("\n### 遇到的错误 (Errors)\n")
        out += [f"- {one_line(e, 240)}" for e in digest.errors[:limit_errors]]
    if digest.corrections:
        out.append("\n### 用户纠正 (User corrections)\n")
        out += [f"- {one_line(c, 240)}" for c in digest.corrections]
    if digest.lint_findings:
        out.append(f"\n{LINT_HEADING}\n")
        out += [f"- [{f['severity']}] {one_line(f['text'], 240)}" for f in digest.lint_findings]
    return "\n".join(out).strip("\n")


def deterministic_summary(digest, cwd: str | None, open_todos=(), is_same=same_todo, previous=None,
                          previous_final: str = "", places=()) -> dict:
    """A ``summary`` object built from the digest alone (summary/extract.py): a concise topic,
    key points (failed commands, real errors, corrections, subagents), the files changed,
    decisions, to-dos, the earlier ``open_todos`` (``[(session id, text)]``) this session
    finished, its outcome as said, the later requests and whether its change was put back;
    ``places``: the project's earlier topics and files (extract.read)."""
    fields = extract.read(digest, open_todos, previous, is_same, previous_final, places)
    points = []
    failed = [c["command"] for c in digest.commands if c.get("failed")]
    if failed:
        points.append(f"失败的命令 ({len(failed)}/{len(digest.commands)}): " + "; ".join(f"`{c[:80]}`" for c in failed[:3]))
    if digest.errors:
        points.append(f"错误: {digest.errors[0]}" + (f" (共 {len(digest.errors)} 个)" if len(digest.errors) > 1 else ""))
    if digest.corrections:
        points.append(f"用户纠正 {len(digest.corrections)} 次: {digest.corrections[0]}")
    if digest.subagents:
        points.append(f"启动 {digest.subagents} 个子代理")
    return {**fields, "topic": fields["topic"] or "(no user request recorded)", "key_points": points,
            "files": extract.files_by_mention(digest)}


def render_note(*, session_id: str, project: str | None, cwd: str | None, digest, mode_line: str,
                body: str, extra_sections: list, now: dt.datetime, ended: dt.datetime | None = None) -> str:
    header = template("session.md", session_id=one_line(session_id, 120), project=project or "—",
                      time=now.strftime("%Y-%m-%d %H:%M"), cwd=one_line(cwd or "—", 400),
                      ended=(ended or now).isoformat(timespec="seconds"),
                      size=f"{human_size(digest.bytes)} ({digest.lines} 行)", body="{body}")
    header = header.replace("- **原始大小**:", f"- **方式**: {mode_line}\n- **原始大小**:", 1)
    sections = [body] + [s for s in extra_sections if s]
    return header.replace("{body}", "\n\n".join(sections))


def raw_conversation_section(conversation: str, cap: int) -> str:
    text = conversation if len(conversation) <= cap else (
        conversation[: cap // 2] + f"\n[… {len(conversation) - cap} characters omitted …]\n" + conversation[-cap // 2:])
    text = redact(text)
    fence = _fence(text)
    return f"### 原始对话 (Raw conversation)\n\n{fence}text\n{text}\n{fence}"


def plain_text_section(text: str) -> str:
    return f"### 摘要 (Summary)\n\n{plain_markdown(text)}"


def plain_markdown(text: str, cap: int = 6000) -> str:
    """An LLM's Markdown summary made safe to embed: redacted, capped, headings demoted to text
    (so it cannot open sections of its own in the note)."""
    text = redact((text or "").strip())
    if len(text) > cap:
        text = text[:cap] + "…"
    return "\n".join(heading_text(line) if heading_level(line) else line for line in text.split("\n"))


def write_note(paths: MemoryPaths, session_id: str, text: str) -> str:
    return write_session_note(paths, session_id, redact(text))


# ---------------------------------------------------------------------------------------------
# rules.md, MEMORY.md, daily


def add_rules(paths: MemoryPaths, project: str, rules: list, dry_run: bool = False,
              preview: dict | None = None) -> list:
    """Append the extracted ``rules`` (``{"rule", "category", "verification"}``, as an LLM wrote
    them) to the project's rules.md through :func:`code_memory.memory.tree.append_rules`: each
    made one clean line. Returns the lines added or promoted; with ``dry_run``, a ``preview``
    dict receives the file's text ``before`` and ``after``."""
    items = [{"text": one_line(item["rule"]), "category": one_line(item.get("category") or DEFAULT_CATEGORY, 40),
              "verification": item.get("verification")} for item in rules or ()]
    return append_rules(paths, project, items, dry_run=dry_run, preview=preview)


def add_pitfalls(paths: MemoryPaths, avoidances: list, jaccard: float, containment: float,
                 dry_run: bool = False, preview: dict | None = None) -> list:
    """Append new pitfalls (strings or ``{"text", "verification"}``) to MEMORY.md's pitfalls
    section through :func:`code_memory.memory.tree.append_pitfalls`, skipping near-duplicates
    (trigram Jaccard + containment) of any line already there and of each other. Returns the lines
    added; with ``dry_run``, a ``preview`` dict receives MEMORY.md's text ``before`` and ``after``."""
    items = []
    for item in avoidances or ():
        item = item if isinstance(item, dict) else {"text": item}
        items.append({"text": one_line(item.get("text") or ""), "verification": item.get("verification")})
    return append_pitfalls(paths, items, lambda bare, new: dedup.filter_new(bare, new, jaccard, containment),
                           dry_run=dry_run, preview=preview)


def propose(paths: MemoryPaths, kind: str, project: str | None, session_id: str, items: list,
            dry_run: bool = False) -> list:
    """Queue rules (``{"rule", "category", "verification"}``) or pitfalls (``{"text", "verification"}``)
    for review instead of writing them (review.mode = queue). Returns the ids queued; an item
    near a pending or rejected proposal is left out (the rejection memory)."""
    from ..review import queue
    out = []
    for item in items:
        text = one_line(redact(item.get("rule") if kind == "rule" else item.get("text") or ""))
        if not text or dry_run:
            continue
        target = os.path.relpath(rules_path(paths, project), paths.root) \
            if kind == "rule" else "MEMORY.md"
        prop = queue.propose(paths.root, kind, text, project=project, session=session_id, target=target,
                             verification=item.get("verification"), source="summarizer",
                             payload={"category": item.get("category")} if kind == "rule" else {})
        if prop:
            out.append(prop["id"])
    return out


def daily_marker(session_id: str) -> str:
    return f"### 会话 {one_line(session_id, 120)}"


def render_daily_entry(session_id: str, project: str | None, summary: dict, knowledge_flag: str,
                       started: dt.datetime | None, ended: dt.datetime | None) -> str:
    when = ended.strftime("%H:%M") if ended else "—"
    if started and ended and started.date() == ended.date() and started.strftime("%H:%M") != when:
        when = f"{started.strftime('%H:%M')}–{when}"
    lines = [daily_marker(session_id),
             f"- 时间: {when} · [{project or '—'}]",
             f"- 主题: {one_line(summary.get('topic'), 160) or '—'}"]
    points = [one_line(p, 120) for p in (summary.get("key_points") or [])[:3]]
    if points:
        lines.append("- 要点: " + "；".join(points))
    lines.append(f"- 知识提取: {knowledge_flag}")
    lines.append(f"- 摘要: sessions/{safe_name(session_id)}.md")
    return "\n".join(lines)


def write_daily_entry(paths: MemoryPaths, date: str, session_id: str, block: str) -> str:
    return replace_daily_block(paths, date, daily_marker(session_id), redact(block))
