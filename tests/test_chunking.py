import json

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.search import chunking


def test_markdown_sections_with_line_ranges():
    text = "---\ntitle: x\n---\n# Title\n\nintro line\n\n## One\na\nb\n\n```\n## not a heading\n```\n## Two\nc\n"
    chunks = chunking.chunk_markdown(text)
    assert [(c.heading, c.start_line, c.end_line) for c in chunks] == [
        ("Title", 4, 6), ("One", 8, 14), ("Two", 15, 16)]
    assert all(c.title == "Title" for c in chunks)
    assert "## not a heading" in chunks[1].text
    assert "title: x" not in "".join(c.text for c in chunks)


def test_bare_headings_are_not_chunks_and_long_sections_are_windowed():
    text = "# Title\n## A\n" + "\n".join(f"- item {i}" for i in range(100)) + "\n"
    chunks = chunking.chunk_markdown(text, window_lines=40)
    assert chunks[0].heading == "A" and chunks[0].start_line == 2
    assert len(chunks) == 3 and all(c.heading == "A" for c in chunks)
    assert chunks[-1].end_line == 102
    lone = chunking.chunk_markdown("just text\nno headings\n")
    assert [(c.heading, c.start_line, c.end_line) for c in lone] == [("", 1, 2)]


def test_daily_notes_grouped_by_project():
    text = ("# 2026-11-22\n\n- 10:00 [alpha] a.py\n- 10:01 [alpha] b.py\n- 10:02 [beta] c.py\n\n"
            "### 11:00 session s1 [beta]\n- topic: x\n\n- 12:00 [alpha] d.py\n")
    chunks = chunking.chunk_daily(text)
    assert [(c.project, c.start_line, c.end_line) for c in chunks] == [
        ("alpha", 3, 4), ("beta", 5, 8), ("alpha", 10, 10)]


def test_facts_one_chunk_per_active_fact():
    text = json.dumps({"facts": [
        {"id": "fact-1", "fact": "heartbeat 30s", "evidence": "manual", "status": "active", "category": "config"},
        {"id": "fact-2", "fact": "old", "status": "superseded", "supersededBy": "fact-3"},
        {"id": "fact-3", "fact": "heartbeat 20s", "status": "active"}]}, indent=2)
    chunks = chunking.chunk_facts(text)
    assert [c.heading for c in chunks] == ["fact-1 [config]", "fact-3"]
    assert "heartbeat 30s" in chunks[0].text and "manual" in chunks[0].text
    lines = text.split("\n")
    assert '"fact-3"' in lines[chunks[1].start_line - 1]
    with pytest.raises(CodeMemoryError, match="not valid JSON"):
        chunking.chunk_facts("{broken")


def test_kv_and_session_project():
    c = chunking.chunk_kv(json.dumps({"key": "/user/pref", "content": {"summary": "likes tea", "importance": 5}}))[0]
    assert c.heading == "/user/pref" and "likes tea" in c.text
    assert chunking.session_project("# 会话摘要: x\n\n- **项目**: my-proj\n") == "my-proj"
