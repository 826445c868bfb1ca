"""Synthetic histories for the self-evolution tests: session summaries in the 会话摘要
format and session outcomes in the feedback log."""

from __future__ import annotations

import datetime as dt
import os

from code_memory.evolution import feedback as fb

DAY = 86400.0
HOUR = 3600.0


def touched_outcome(paths, session_id: str, outcome: str, corrections: int = 0, **kw) -> dict:
    """An outcome whose session changed the files of every experience handed to it, so it counts
    for all of their scores (the evidence the summarizer finds in a transcript, evolution/evidence.py)."""
    handed = [r["experience_id"] for r in fb.session_refs(paths, session_id)]
    return fb.record_outcome(paths, session_id, outcome, corrections, evidence=handed, **kw)


def summary_text(session_id: str, when: float, project: str, topic: str, points, files=("a.py",),
                 decisions=()) -> str:
    stamp = dt.datetime.fromtimestamp(when).strftime("%Y-%m-%d %H:%M")
    lines = [f"# 会话摘要: {session_id}", "", f"- **项目**: {project}", f"- **时间**: {stamp} (最后更新)",
             f"- **工作目录**: /home/dev/{project}", "- **原始大小**: 12KB (80 行)", "", "---", "",
             f"1. **主题**: {topic}", "2. **关键知识点**:"]
    lines += [f"   - {p}" for p in points]
    lines.append(f"3. **涉及文件**: {', '.join(files)}")
    if decisions:
        lines.append(f"4. **决策记录**: {'; '.join(decisions)}")
    return "\n".join(lines) + "\n"


def write_summary(paths, session_id: str, when: float, points, project: str = "web",
                  topic: str = "日常开发", **kw) -> str:
    os.makedirs(paths.sessions, exist_ok=True)
    path = os.path.join(paths.sessions, f"{session_id}.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(summary_text(session_id, when, project, topic, points, **kw))
    return path


PORT = "启动 dev server 时端口 3000 被占用 (EADDRINUSE)"
MODULE = "pytest 报错 ModuleNotFoundError: No module named 'yaml'"
SLOW = "接口响应很慢，排查发现 N+1 查询"
ROUTINE = "给设置页加了一个开关"


def history(paths, now: float, patterns_per_session, outcomes=None, start_days_ago: float = 20):
    """One summary per entry of ``patterns_per_session`` (a list of lists of lines), an hour apart
    in order, ending before ``now``; ``outcomes`` (optional, same length) are recorded with them."""
    sessions = []
    n = len(patterns_per_session)
    for i, points in enumerate(patterns_per_session):
        when = now - start_days_ago * DAY + i * HOUR
        sid = f"sess-{i:02d}"
        write_summary(paths, sid, when, list(points) or [ROUTINE])
        if outcomes is not None and outcomes[i]:
            fb.record_outcome(paths, sid, outcomes[i], 0 if outcomes[i] == "success" else 3, now=when)
        sessions.append(sid)
    assert len(sessions) == n
    return sessions
