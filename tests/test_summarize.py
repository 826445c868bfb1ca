"""The summarizer: modes, fallbacks, distribution, dedup, re-entrancy, pending snapshots and
parallel workers — with the real anthropic SDK against the loopback stand-in."""

from __future__ import annotations

import datetime as dt
import glob
import json
import os
import subprocess
import sys

import pytest

from code_memory import markdown
from code_memory.llm import get_backend
from code_memory.memory import daily as daily_notes
from code_memory.memory import tree
from code_memory.summary.summarize import (
    InvalidSummary,
    SummaryOptions,
    extract_json_object,
    summarize_session,
    validate_summary,
)
from code_memory.text import similarity as dedup
from conftest import SCRIPTS, run_script
from support.secrets_corpus import SECRET_VALUES, SECRETS
from support.standin_api import StandinAPI
from support.transcripts import TranscriptWriter

pytest.importorskip("anthropic")

NOW = dt.datetime(2026, 3, 1, 18, 0).astimezone()


def good_answer(tag: str = "A", rules=None, avoidances=None, has=True) -> str:
    return json.dumps({
        "summary": {"topic": f"实现缓存层 {tag}", "key_points": [f"缓存 TTL 设为 300 秒 {tag}", "失败响应不缓存"],
                    "files": ["client.py", "cache.py"], "decisions": ["选择 functools.lru_cache 而非 redis，因为单进程"],
                    "todos": ["为过期逻辑补测试"]},
        "knowledge": {"has_knowledge": has, "project": "whatever-the-model-says",
                      "rules": rules if rules is not None else [
                          {"category": "测试", "rule": f"每个缓存函数都要有过期测试 {tag}"},
                          {"category": "编码规范", "rule": "不缓存非 200 的响应"}],
                      "avoidances": avoidances if avoidances is not None else [
                          "lru_cache 不能用于带可变参数的函数，否则 TypeError: unhashable type"]},
    }, ensure_ascii=False)


def make_project(tmp_path, name="shop") -> str:
    project = tmp_path / "work" / name
    (project / ".git").mkdir(parents=True)
    return str(project)


def write_session(tmp_path, project_dir: str, sid: str = "sess-1", marker: str = "MARK-A",
                  secrets: bool = False, short: bool = False) -> str:
    path = str(tmp_path / "transcripts" / f"{sid}.jsonl")
    with TranscriptWriter(path, session_id=sid, cwd=project_dir) as t:
        if short:
            t.user(f"{marker} what is 2+2?")
            t.say("4")
            return path
        t.user(f"{marker} Add caching to the API client in {project_dir}/client.py. " + "Context: " + "x" * 300)
        t.tool("Read", {"file_path": f"{project_dir}/client.py"}, "def get(url): ...")
        t.say("I will add an lru_cache around get() and skip non-200 responses. " * 3)
        t.tool("Edit", {"file_path": f"{project_dir}/client.py", "old_string": "a", "new_string": "b"})
        t.tool("Write", {"file_path": f"{project_dir}/cache.py", "content": "x"})
        t.tool("Bash", {"command": "pytest -q"}, "Exit code 1\nTypeError: unhashable type: 'list'", is_error=True)
        t.user("no, don't cache error responses; 不要缓存失败的请求")
        t.say("Fixed: only 200 responses are cached now.")
        if secrets:
            for name, text, _value in SECRETS:
                t.user(f"{name}: {text}")
                t.tool("Bash", {"command": f"echo {text}"}, f"error: {text}", is_error=True)
                t.say(f"Noted {text}")
    return path


@pytest.fixture
def api():
    with StandinAPI(default_text="unexpected request") as server:
        yield server


def sdk(api, paths=None, **section):
    return get_backend({"backend": "anthropic", "base_url": api.base_url, "timeout_seconds": 10, **section},
                       paths=paths, env={"ANTHROPIC_API_KEY": "k"}, purpose="summary")


def all_files_text(root: str) -> str:
    out = []
    for path in glob.glob(os.path.join(root, "**", "*"), recursive=True) + \
            glob.glob(os.path.join(root, "**", ".*"), recursive=True):
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                out.append(fh.read().decode("utf-8", errors="replace"))
    return "\n".join(out)


def read(path) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


# ---------------------------------------------------------------------------------------------


def test_json_mode_distributes_to_every_target(api, initialized_root, tmp_path):
    paths = initialized_root
    project = make_project(tmp_path)
    transcript = write_session(tmp_path, project)
    api.push({"when": "MARK-A", "text": "Here you go:\n```json\n" + good_answer() + "\n```"})
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    assert report["mode"] == "json" and report["project"] == "shop"
    assert report["rules_added"] == 2 and report["pitfalls_added"] == 1

    (request,) = api.message_requests()
    body = request["body"]
    assert "Reply with ONE JSON object" in body["system"]
    prompt = body["messages"][0]["content"]
    assert "<conversation>" in prompt and "Add caching" in prompt
    assert "Files changed (from tool calls): client.py, cache.py" in prompt
    assert "Final assistant message:\nFixed: only 200 responses are cached now." in prompt
    assert "User requests, in order:\n  1. MARK-A Add caching" in prompt
    assert "User corrections: no, don't cache error responses" in prompt

    note = read(paths.session_note("sess-1"))
    assert note.startswith("# 会话摘要: sess-1\n")
    for line in ("- **项目**: shop", "- **时间**: 2026-03-01 18:00 (最后更新)", f"- **工作目录**: {project}",
                 "1. **主题**: 实现缓存层 A", "2. **关键知识点**:", "   - 缓存 TTL 设为 300 秒 A",
                 "3. **涉及文件**: client.py, cache.py", "4. **决策记录**: 选择 functools.lru_cache",
                 "5. **待办**:", "### 提取的规则 (Rules)", "### 执行的命令 (Commands)", "- `pytest -q` ✗"):
        assert line in note, line
    assert "- **原始大小**: " in note and " 行)" in note

    rules = read(os.path.join(paths.project_dir("shop"), "rules.md"))
    assert "## 测试\n- 每个缓存函数都要有过期测试 A" in rules
    assert "## 编码规范\n- 不缓存非 200 的响应" in rules
    assert not os.path.exists(paths.project_dir("whatever-the-model-says"))  # the detected project wins

    memory = read(paths.memory_md)
    pitfalls = markdown.section_lines(memory, tree.PITFALLS_HEADING)
    # no evidence given: stored as a hypothesis, labelled for the model
    assert "- lru_cache 不能用于带可变参数的函数，否则 TypeError: unhashable type [unverified]" in pitfalls
    assert memory.index("lru_cache 不能") < memory.index(tree.BEST_PRACTICES_HEADING)

    daily = read(paths.daily_note("2026-03-01"))
    assert "### 会话 sess-1\n" in daily
    assert "- 主题: 实现缓存层 A" in daily and "- 要点: 缓存 TTL 设为 300 秒 A；失败响应不缓存" in daily
    assert "- 知识提取: ✓ 规则 2/2 · 避坑 1/1" in daily


def _proved_session(tmp_path, project_dir: str) -> str:
    path = str(tmp_path / "transcripts" / "sess-v.jsonl")
    with TranscriptWriter(path, session_id="sess-v", cwd=project_dir) as t:
        t.user("MARK-V Fix the cache in client.py. " + "Context: " + "x" * 600)
        t.tool("Edit", {"file_path": f"{project_dir}/client.py", "old_string": "a", "new_string": "b"})
        t.tool("Bash", {"command": "pytest -q"}, "Exit code 1\nTypeError: unhashable type: 'list'", is_error=True)
        t.tool("Edit", {"file_path": f"{project_dir}/client.py", "old_string": "b", "new_string": "c"})
        t.tool("Bash", {"command": "pytest -q tests/test_cache.py"}, "3 passed")
        t.say("Fixed: the cache key is a tuple now. " * 3)
    return path


def test_rules_and_pitfalls_are_verified_only_by_a_command_that_passed(api, initialized_root, tmp_path):
    paths = initialized_root
    project = make_project(tmp_path)
    transcript = _proved_session(tmp_path, project)
    answer = good_answer("V", rules=[
        {"category": "测试", "rule": "缓存键必须是元组", "evidence": "pytest -q tests/test_cache.py"},
        {"category": "测试", "rule": "失败的测试不能证明规则", "evidence": "pytest -q"},   # failed: no proof
        {"category": "测试", "rule": "编造的证据不算", "evidence": "make verify-everything"}],
        avoidances=[{"text": "list 作为 lru_cache 参数会 TypeError", "evidence": "pytest -q tests/test_cache.py"}])
    api.push({"when": "MARK-V", "text": answer})
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    assert report["rules_added"] == 3, repr(report)
    (request,) = api.message_requests()
    assert "Never invent evidence" in request["body"]["system"]
    rules = read(os.path.join(paths.project_dir("shop"), "rules.md"))
    assert "- 缓存键必须是元组 [verified: passed: pytest -q tests/test_cache.py]" in rules
    assert "- 失败的测试不能证明规则 [unverified]" in rules and "- 编造的证据不算 [unverified]" in rules
    assert "- list 作为 lru_cache 参数会 TypeError [verified: passed: pytest -q tests/test_cache.py]" in read(
        paths.memory_md)


def test_queue_mode_keeps_rules_and_pitfalls_out_of_the_files(api, initialized_root, tmp_path):
    from code_memory.review import queue
    paths = initialized_root
    project = make_project(tmp_path)
    transcript = write_session(tmp_path, project)
    api.push({"when": "MARK-A", "text": good_answer()})
    options = SummaryOptions(queued=frozenset({"rule", "pitfall"}))
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=options, now=NOW)
    assert report["rules_added"] == 0 and report["pitfalls_added"] == 0
    assert len(report["rules_queued"]) == 2 and len(report["pitfalls_queued"]) == 1
    assert not os.path.exists(os.path.join(paths.project_dir("shop"), "rules.md")) or "缓存" not in read(
        os.path.join(paths.project_dir("shop"), "rules.md"))
    assert "lru_cache" not in read(paths.memory_md)
    props = queue.list_proposals(paths.root)
    assert {(p["kind"], p["project"], p["session"]) for p in props} == {
        ("rule", "shop", "sess-1"), ("pitfall", None, "sess-1")}
    assert all(p["verification"]["state"] == "hypothesis" for p in props)
    # the same session summarized again queues nothing new
    api.push({"when": "MARK-A", "text": good_answer()})
    summarize_session(paths, transcript, backend=sdk(api, paths), options=options, now=NOW)
    assert queue.pending_count(paths.root) == 3


def test_same_session_again_updates_in_place(api, initialized_root, tmp_path):
    paths = initialized_root
    project = make_project(tmp_path)
    transcript = write_session(tmp_path, project)
    daily_notes.append_daily_edit(paths, dt.datetime(2026, 3, 1, 9, 0), "shop", "early.py")
    api.push({"when": "MARK-A", "text": good_answer("A")})
    summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    daily_notes.append_daily_edit(paths, dt.datetime(2026, 3, 1, 17, 59), "shop", "later.py")
    # resumed session: summarized again; the model restates the pitfall slightly differently
    api.push({"when": "MARK-A", "text": good_answer("B", avoidances=[
        "lru_cache 不能用于带可变参数的函数,否则会 TypeError: unhashable type"])})
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    assert report["pitfalls_added"] == 0 and report["rules_added"] == 1  # only the "B" rule is new
    assert os.listdir(paths.sessions) == ["sess-1.md"] or sorted(os.listdir(paths.sessions))[-1] == "sess-1.md"
    assert len(glob.glob(os.path.join(paths.sessions, "*.md"))) == 1
    note = read(paths.session_note("sess-1"))
    assert "实现缓存层 B" in note and "实现缓存层 A" not in note
    daily = read(paths.daily_note("2026-03-01"))
    assert daily.count("### 会话 sess-1") == 1 and "实现缓存层 B" in daily and "实现缓存层 A" not in daily
    assert "- 09:00 [shop] early.py" in daily and "- 17:59 [shop] later.py" in daily  # edits survive
    rules = read(os.path.join(paths.project_dir("shop"), "rules.md"))
    assert rules.count("- 不缓存非 200 的响应") == 1
    pitfalls = [ln for ln in markdown.section_lines(read(paths.memory_md), tree.PITFALLS_HEADING) if ln.startswith("- ")]
    assert len(pitfalls) == 1


def test_invalid_json_falls_back_to_a_plain_text_summary(api, initialized_root, tmp_path):
    paths = initialized_root
    transcript = write_session(tmp_path, make_project(tmp_path))
    api.push({"when": "MARK-A", "text": "The session added caching. Key point: TTL 300s. {not json"})
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    assert report["mode"] == "text" and "invalid_json" in report
    note = read(paths.session_note("sess-1"))
    assert "### 摘要 (Summary)\n\nThe session added caching. Key point: TTL 300s." in note
    assert "text (the answer was not valid JSON)" in note
    assert report["rules_added"] == 0 and report["pitfalls_added"] == 0
    assert "1. **主题**: MARK-A Add caching" in note  # the deterministic numbered body is kept


def test_llm_timeout_saves_the_raw_conversation_redacted_and_capped(api, initialized_root, tmp_path):
    paths = initialized_root
    transcript = write_session(tmp_path, make_project(tmp_path), secrets=True)
    api.push({"when": "MARK-A", "delay": 3, "text": good_answer()})
    options = SummaryOptions(timeout=0.5, raw_cap_chars=3000)
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=options, now=NOW)
    assert report["mode"] == "raw" and report["llm_error"] == "timeout" and report["transient_failure"]
    note = read(paths.session_note("sess-1"))
    assert "### 原始对话 (Raw conversation)" in note and "User: MARK-A Add caching" in note
    raw = note.split("### 原始对话 (Raw conversation)")[1]
    assert len(raw) < 3000 + 600 and "characters omitted" in raw
    assert not [v for v in SECRET_VALUES if v in note]


@pytest.mark.parametrize("status,kind", [(500, "http"), (429, "rate_limit")])
def test_http_errors_give_the_deterministic_summary(api, initialized_root, tmp_path, status, kind):
    paths = initialized_root
    transcript = write_session(tmp_path, make_project(tmp_path))
    api.push({"when": "MARK-A", "status": status})
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    assert report["mode"] == "deterministic" and report["llm_error"] == kind and report["transient_failure"]
    note = read(paths.session_note("sess-1"))
    assert f"deterministic (LLM {kind})" in note
    assert "3. **涉及文件**: client.py, cache.py" in note
    assert "用户纠正 1 次" in note and "- `pytest -q` ✗" in note
    assert len(api.message_requests()) == 1


def test_short_conversation_is_markdown_only(api, initialized_root, tmp_path):
    paths = initialized_root
    transcript = write_session(tmp_path, make_project(tmp_path), short=True)
    api.push({"when": "MARK-A", "text": "1. **主题**: 简单算术\n2. **关键知识点**:\n   - 2+2=4\n"
                                         "3. **涉及文件**: —\n4. **决策记录**: —\n# a heading the model added"})
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    assert report["mode"] == "markdown"
    (request,) = api.message_requests()
    assert "Reply with Markdown only" in request["body"]["system"]
    assert request["body"]["max_tokens"] <= 800
    note = read(paths.session_note("sess-1"))
    assert "1. **主题**: 简单算术" in note and "\n# a heading" not in note
    daily = read(paths.daily_note("2026-03-01"))
    assert "- 主题: 简单算术" in daily and "- 要点: 2+2=4\n" in daily
    assert report["rules_added"] == 0 and not report["has_knowledge"]


def test_extraction_off_means_markdown_mode(api, initialized_root, tmp_path):
    paths = initialized_root
    transcript = write_session(tmp_path, make_project(tmp_path))
    api.push({"when": "MARK-A", "text": "1. **主题**: caching"})
    report = summarize_session(paths, transcript, backend=sdk(api, paths),
                               options=SummaryOptions(auto_extract=False), now=NOW)
    assert report["mode"] == "markdown"


def test_no_llm_and_budget_spent_are_deterministic(api, initialized_root, tmp_path):
    paths = initialized_root
    transcript = write_session(tmp_path, make_project(tmp_path))
    none = get_backend({"backend": "none"}, paths=paths, env={})
    report = summarize_session(paths, transcript, backend=none, options=SummaryOptions(), now=NOW)
    assert report["mode"] == "deterministic" and "llm_error" not in report
    broke = sdk(api, paths, daily_token_budget=50)
    report = summarize_session(paths, transcript, backend=broke, options=SummaryOptions(), now=NOW)
    assert report["mode"] == "deterministic" and report["llm_error"] == "budget"
    assert not report["transient_failure"]
    assert api.requests == []


def test_has_knowledge_false_writes_no_knowledge(api, initialized_root, tmp_path):
    paths = initialized_root
    transcript = write_session(tmp_path, make_project(tmp_path))
    api.push({"when": "MARK-A", "text": good_answer(has=False)})
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    assert report["mode"] == "json" and report["rules_added"] == 0 and report["pitfalls_added"] == 0
    assert not os.path.exists(os.path.join(paths.project_dir("shop"), "rules.md"))
    assert "- 知识提取: —" in read(paths.daily_note("2026-03-01"))


def test_no_secret_reaches_a_file_or_the_llm(api, initialized_root, tmp_path):
    paths = initialized_root
    transcript = write_session(tmp_path, make_project(tmp_path), secrets=True)
    # a misbehaving model that echoes a secret back must not get it written either
    leaky = good_answer(avoidances=["never paste " + SECRETS[2][1]])
    api.push({"when": "MARK-A", "text": leaky})
    report = summarize_session(paths, transcript, backend=sdk(api, paths), options=SummaryOptions(), now=NOW)
    assert report["mode"] == "json"
    sent = api.all_bodies_text()
    assert "MARK-A" in sent
    assert not [v for v in SECRET_VALUES if v in sent], "a secret reached the LLM request"
    written = all_files_text(paths.root)
    assert not [v for v in SECRET_VALUES if v in written], "a secret was written to memory"
    assert "[REDACTED:" in read(paths.session_note("sess-1"))


def test_empty_transcript_writes_nothing(initialized_root, tmp_path):
    path = str(tmp_path / "empty.jsonl")
    with TranscriptWriter(path) as t:
        t.noise()
    report = summarize_session(initialized_root, path, backend=get_backend({"backend": "none"}, env={}),
                               options=SummaryOptions())
    assert report["mode"] == "empty" and os.listdir(initialized_root.sessions) == []


# ---------------------------------------------------------------------------------------------
# pure parts


def test_extract_and_validate_json():
    assert extract_json_object('sure! {"a": {"b": 1}} trailing')["a"] == {"b": 1}
    assert extract_json_object("{bad} then {\"x\": 2}") == {"x": 2}
    with pytest.raises(InvalidSummary):
        extract_json_object("no object here")
    with pytest.raises(InvalidSummary):
        validate_summary({"summary": {"key_points": []}})
    with pytest.raises(InvalidSummary):
        validate_summary({"summary": {"topic": "t", "key_points": [{"nested": 1}]}})
    clean = validate_summary({"summary": {"topic": " t ", "key_points": "one point", "files": None},
                              "knowledge": {"has_knowledge": "true", "rules": ["bare rule", {"rule": ""}],
                                            "avoidances": ["a"]}})
    assert clean["summary"]["key_points"] == ["one point"] and clean["summary"]["files"] == []
    assert clean["knowledge"]["rules"] == [{"category": "通用 (General)", "rule": "bare rule", "evidence": ""}]
    assert clean["knowledge"]["avoidances"] == [{"text": "a", "evidence": ""}]
    off = validate_summary({"summary": {"topic": "t"}, "knowledge": {"has_knowledge": False, "rules": ["r"]}})
    assert off["knowledge"]["rules"] == [] and off["knowledge"]["avoidances"] == []


def test_trigram_dedup_thresholds():
    a = "lru_cache 不能用于带可变参数的函数，否则 TypeError"
    assert dedup.is_near_duplicate(a, "- lru_cache 不能用于带可变参数的函数, 否则 TypeError!")
    assert dedup.is_near_duplicate("Never run migrations on the primary during business hours",
                                   "never run migrations on the primary during business hours.")
    # containment: the short line is all inside the longer one
    assert dedup.is_near_duplicate("git push --force rewrites shared history",
                                   "git push --force rewrites shared history; use --force-with-lease instead")
    assert not dedup.is_near_duplicate("use --force-with-lease instead of --force", "pin numpy below 2 for onnx")
    assert not dedup.is_near_duplicate("端口 8080 被占用时先查 lsof", "数据库连接池上限设为 20")
    # "…docker volumes on macOS…" restated: containment 0.83 ≥ 0.8 → duplicate; unrelated: 0.13 → kept
    assert dedup.filter_new(["- a pitfall about docker volumes on macOS being slow"],
                            ["Docker volumes on macOS are slow", "Docker builds need BuildKit for cache mounts",
                             "a pitfall about docker volumes on macOS being slow", "new one", "new one"]) == \
        ["Docker builds need BuildKit for cache mounts", "new one"]
    assert not dedup.is_near_duplicate("Always run migrations in a transaction",
                                       "Never run migrations on the primary during business hours")


# ---------------------------------------------------------------------------------------------
# the entry script, pending snapshots, parallel workers


def script_env(api, memory_root, **extra) -> dict:
    env = {"CODE_MEMORY_ROOT": memory_root, "CODE_MEMORY_LLM__BACKEND": "anthropic",
           "CODE_MEMORY_LLM__BASE_URL": api.base_url, "ANTHROPIC_API_KEY": "k",
           "CODE_MEMORY_LLM__TIMEOUT_SECONDS": "10"}
    env.update(extra)
    return env


def write_pending(paths, sid: str, transcript: str, project_dir: str) -> str:
    directory = os.path.join(paths.sessions, ".pending")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{sid}.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"session_id": sid, "transcript_path": transcript, "cwd": project_dir, "project": None,
                   "reason": "other", "event": "SessionEnd", "ended_at": "2026-03-01T17:00:00+00:00"}, fh)
    return path


def test_script_dry_run_writes_nothing(api, memory_root, tmp_path):
    transcript = write_session(tmp_path, make_project(tmp_path))
    api.push({"when": "MARK-A", "text": good_answer()})
    out = run_script("session-summary.py", "--transcript", transcript, "--dry-run", "--format", "text",
                     env=script_env(api, memory_root))
    assert out.returncode == 0, out.stderr
    assert "# 会话摘要: sess-1" in out.stdout and "--- rules.md additions ---" in out.stdout
    assert glob.glob(os.path.join(memory_root, "sessions", "*.md")) == []
    assert not os.path.exists(os.path.join(memory_root, "areas", "projects", "shop", "rules.md"))


def test_script_errors_are_json(memory_root):
    out = run_script("session-summary.py", env={"CODE_MEMORY_ROOT": memory_root})
    assert out.returncode == 2 and json.loads(out.stdout)["error"] == "INVALID_ARGUMENT"
    out = run_script("session-summary.py", "--transcript", "/nonexistent.jsonl", "--backend", "none",
                     env={"CODE_MEMORY_ROOT": memory_root})
    assert out.returncode == 3 and json.loads(out.stdout)["error"] == "NOT_FOUND"
    out = run_script("session-summary.py", "--transcript", "x", "--backend", "gpt")
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr


def test_auto_extract_env_switch(api, memory_root, tmp_path):
    transcript = write_session(tmp_path, make_project(tmp_path))
    api.push({"when": "MARK-A", "text": "1. **主题**: caching"})
    out = run_script("session-summary.py", "--transcript", transcript,
                     env=script_env(api, memory_root, AUTO_EXTRACT="false"))
    assert json.loads(out.stdout)["mode"] == "markdown", out.stdout


def test_pending_snapshot_lifecycle(api, initialized_root, memory_root, tmp_path):
    paths = initialized_root
    project = make_project(tmp_path)
    ok = write_pending(paths, "sess-ok", write_session(tmp_path, project, "sess-ok", "MARK-OK"), project)
    flaky = write_pending(paths, "sess-flaky", write_session(tmp_path, project, "sess-flaky", "MARK-FL"), project)
    api.push({"when": "MARK-OK", "text": good_answer("OK")})
    out = run_script("session-summary.py", "--from-pending", ok, env=script_env(api, memory_root))
    report = json.loads(out.stdout)
    assert report["mode"] == "json" and report["kept"] is None and not os.path.exists(ok)
    assert report["followups"]["feedback"] in ("success", "failed")   # the feedback module is on main
    audit = read(os.path.join(paths.evolution, "audit.jsonl"))
    assert '"event_type":"outcome"' in audit and '"session_id":"sess-ok"' in audit

    for attempt in (1, 2):
        api.push({"when": "MARK-FL", "status": 500})
        out = run_script("session-summary.py", "--from-pending", flaky, env=script_env(api, memory_root))
        report = json.loads(out.stdout)
        assert report["mode"] == "deterministic" and report["kept"] == flaky
        assert json.loads(read(flaky))["attempts"] == attempt
    assert os.path.exists(paths.session_note("sess-flaky"))  # the tree fills even while retrying
    api.push({"when": "MARK-FL", "status": 429})
    report = json.loads(run_script("session-summary.py", "--pending-all", env=script_env(api, memory_root)).stdout)
    assert report["pending"] == 1 and report["results"][0]["kept"] == flaky + ".failed"
    assert not os.path.exists(flaky) and os.path.exists(flaky + ".failed")
    # a later success replaces the fallback note
    retry = write_pending(paths, "sess-flaky", os.path.join(str(tmp_path), "transcripts", "sess-flaky.jsonl"), project)
    api.push({"when": "MARK-FL", "text": good_answer("FL")})
    report = json.loads(run_script("session-summary.py", "--pending-all", env=script_env(api, memory_root)).stdout)
    assert report["summarized"] == 1 and not os.path.exists(retry)
    assert "实现缓存层 FL" in read(paths.session_note("sess-flaky"))


def test_broken_snapshots_are_counted_then_parked(initialized_root, memory_root, tmp_path):
    paths = initialized_root
    missing = write_pending(paths, "sess-gone", str(tmp_path / "deleted.jsonl"), str(tmp_path))
    corrupt = os.path.join(paths.sessions, ".pending", "corrupt.json")
    with open(corrupt, "w") as fh:
        fh.write("{not json")
    env = {"CODE_MEMORY_ROOT": memory_root, "CODE_MEMORY_LLM__BACKEND": "none"}
    out = run_script("session-summary.py", "--from-pending", corrupt, env=env)
    assert out.returncode == 2 and json.loads(out.stdout)["error"] == "INVALID_ARGUMENT"
    report = json.loads(run_script("session-summary.py", "--pending-all", env=env).stdout)
    by_file = {os.path.basename(r["pending"]): r for r in report["results"]}
    assert by_file["corrupt.json"]["kept"] == corrupt + ".failed"
    assert by_file["sess-gone.json"]["error"] == "NOT_FOUND" and by_file["sess-gone.json"]["kept"] == missing
    assert json.loads(read(missing))["attempts"] == 1 and json.loads(read(missing))["last_error"] == "NOT_FOUND"
    for _ in range(2):
        run_script("session-summary.py", "--pending-all", env=env)
    assert not os.path.exists(missing) and os.path.exists(missing + ".failed")
    assert json.loads(run_script("session-summary.py", "--pending-all", env=env).stdout)["pending"] == 0
    log = read(os.path.join(paths.logs, "summary.jsonl"))
    assert '"error":"NOT_FOUND"' in log and oct(os.stat(os.path.join(paths.logs, "summary.jsonl")).st_mode)[-3:] == "600"


def test_pending_all_skips_a_session_being_summarized(initialized_root, tmp_path):
    from code_memory.fsutil import file_lock
    from code_memory.summary.jobs import run_all_pending
    paths = initialized_root
    project = make_project(tmp_path)
    pending = write_pending(paths, "sess-busy", write_session(tmp_path, project, "sess-busy"), project)
    lock = os.path.join(paths.sessions, ".sess-busy.md.lock")
    with file_lock(lock):
        result = run_all_pending({}, paths, get_backend({"backend": "none"}, env={}), SummaryOptions())
    assert result["results"][0]["skipped"] == "busy" and os.path.exists(pending)


DISTINCT_PITFALLS = [
    "pitfall: pip install inside the hook venv needs --no-deps for the ONNX wheel",
    "pitfall: macOS sed -i requires an empty suffix argument",
    "pitfall: SQLite WAL files must stay on a local disk, never NFS",
    "pitfall: jieba prints its cache message on stderr; silence it before JSON output",
    "pitfall: datetime.utcnow() is naive; compare aware timestamps only",
    "pitfall: npm ci deletes node_modules, so caches inside it vanish",
]


def test_parallel_workers_never_corrupt_shared_files(api, initialized_root, memory_root, tmp_path):
    paths = initialized_root
    project = make_project(tmp_path)
    n = 4
    pendings = []
    for i in range(n):
        sid = f"par-{i}"
        api.push({"when": f"MARK-P{i}", "text": good_answer(
            f"P{i}", rules=[{"category": "并发", "rule": f"规则编号 {i} 必须保留"},
                            {"category": "编码规范", "rule": "不缓存非 200 的响应"}],
            avoidances=[DISTINCT_PITFALLS[i]])})
        pendings.append(write_pending(paths, sid, write_session(tmp_path, project, sid, f"MARK-P{i}"), project))
    env = {**os.environ, **script_env(api, memory_root)}
    procs = [subprocess.Popen([sys.executable, os.path.join(SCRIPTS, "session-summary.py"), "--from-pending", p],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for p in pendings]
    reports = [json.loads(proc.communicate(timeout=120)[0]) for proc in procs]
    assert all(r["mode"] == "json" for r in reports), reports
    rules = read(os.path.join(paths.project_dir("shop"), "rules.md"))
    for i in range(n):
        assert rules.count(f"- 规则编号 {i} 必须保留") == 1
    assert rules.count("- 不缓存非 200 的响应") == 1 and rules.count("## 并发") == 1
    pitfalls = markdown.section_lines(read(paths.memory_md), tree.PITFALLS_HEADING)
    assert sorted(ln for ln in pitfalls if ln.startswith("- pitfall:")) == sorted("- " + p + " [unverified]" for p in DISTINCT_PITFALLS[:n])
    daily = read(paths.daily_note("2026-03-01"))
    assert all(daily.count(f"### 会话 par-{i}") == 1 for i in range(n))
    assert len(glob.glob(os.path.join(paths.sessions, "par-*.md"))) == n
    assert not glob.glob(os.path.join(paths.root, "**", "*.tmp"), recursive=True)
    assert glob.glob(os.path.join(paths.sessions, ".pending", "*.json")) == []
