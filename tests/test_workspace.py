"""Workspace memory: registry, remember templates, validate, compact, status (docs/stores.md § Workspace memory)."""

import datetime as dt
import json
import os
import subprocess
import sys

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.workspace.entries import check_day_text
from code_memory.workspace.registry import Registry, workspace_id
from code_memory.workspace.store import compact, remember
from code_memory.workspace.validate import validate
from conftest import SCRIPTS
from support.workspaces import cm, register

AT = dt.datetime(2026, 2, 1, 9, 30)


@pytest.fixture
def spaces(tmp_path, memory_root):
    """Two registered workspaces, alpha and bravo, in the user config."""
    return register(memory_root, tmp_path)


# -- registry ----------------------------------------------------------------------------------

def test_ids_by_name_or_hash_and_conflicts(tmp_path):
    a, b = tmp_path / "x" / "same", tmp_path / "y" / "same"
    a.mkdir(parents=True)
    b.mkdir(parents=True)
    assert workspace_id(str(a)) == "same"
    hashed = workspace_id(str(a), "hash")
    assert len(hashed) == 12 and hashed != workspace_id(str(b), "hash")
    reg = Registry([str(a), str(b)])
    assert reg.workspaces == [] and list(reg.conflicts) == ["same"]
    with pytest.raises(CodeMemoryError) as info:
        reg.get("same")
    assert info.value.code == "MEMORY_WORKSPACE_NOT_FOUND" and "ambiguous" in info.value.message
    reg = Registry([str(a), str(b)], "hash")
    assert {w.id for w in reg.workspaces} == {hashed, workspace_id(str(b), "hash")}
    with pytest.raises(CodeMemoryError):
        Registry([], "uuid")


def test_lookup_by_id_path_and_cwd(tmp_path):
    outer, inner = tmp_path / "outer", tmp_path / "outer" / "inner"
    (inner / "src").mkdir(parents=True)
    reg = Registry([str(outer), str(inner)])
    assert reg.containing(str(inner / "src")).id == "inner"          # the deepest wins
    assert reg.containing(str(outer)).id == "outer"
    assert reg.containing(str(tmp_path)) is None
    assert reg.get(str(inner / "src")).id == "inner"
    with pytest.raises(CodeMemoryError) as info:
        reg.get("nope")
    assert info.value.code == "MEMORY_WORKSPACE_NOT_FOUND"
    with pytest.raises(CodeMemoryError) as info:
        reg.select(None, False, str(tmp_path))
    assert info.value.code == "MEMORY_WORKSPACE_NOT_FOUND"


def test_add_list_remove_edit_the_user_config(memory_root, tmp_path):
    ws = tmp_path / "proj"
    ws.mkdir()
    code, out = cm("workspace", "add", str(ws), "--create-memory-dir")
    assert code == 0 and out["id"] == "proj" and os.path.isdir(ws / "memory")
    code, out = cm("workspace", "add", str(ws))                      # idempotent
    assert out["registered"] == 1
    code, out = cm("workspace", "list", cwd=str(ws))
    assert [w["id"] for w in out["workspaces"]] == ["proj"] and out["current"] == "proj"
    other = tmp_path / "elsewhere" / "proj"
    other.mkdir(parents=True)
    code, out = cm("workspace", "add", str(other))
    assert code == 2 and "already taken" in out["message"]
    code, out = cm("workspace", "add", str(tmp_path / "missing"))
    assert code == 3 and out["error"] == "MEMORY_WORKSPACE_NOT_FOUND"
    code, out = cm("workspace", "remove", "proj")
    assert code == 0 and out["remaining"] == 0
    code, out = cm("workspace", "list")
    assert out["workspaces"] == []
    with open(os.path.join(memory_root, "config.json"), "w") as fh:
        fh.write("{broken")
    code, out = cm("workspace", "add", str(ws))
    assert code == 2 and out["error"] == "CONFIG_INVALID"
    assert open(os.path.join(memory_root, "config.json")).read() == "{broken"


# -- remember ----------------------------------------------------------------------------------

def test_templates_exactly_as_the_spec(spaces):
    ws = Registry([str(spaces["alpha"])]).get("alpha")
    r = remember(ws, "decision", {"text": "jobs store 放到 ~/.config/msgcode/cron/jobs.json",
                                  "reason": "daemon 可恢复；与 routes/state 并列", "followup": "实现 msgcode job status --json"}, AT)
    assert r["action"] == "created" and (r["start_line"], r["end_line"]) == (3, 6)
    remember(ws, "event", {"text": "imsg rpc send 临时不可用（Connection refused）", "handling": "重启 imsg 进程后恢复",
                           "note": "记录错误码与复现条件，便于下次排障"}, AT.replace(hour=14, minute=20))
    r = remember(ws, "summary", {"text": "jobs spec v2.1、memory spec v2.1 初稿", "followup": "开始 CLI Contract 收口"},
                 AT.replace(hour=18, minute=0))
    assert r["action"] == "appended"
    with open(spaces["alpha"] / "memory" / "2026-02-01.md", encoding="utf-8") as fh:
        assert fh.read() == (
            "## 2026-02-01\n\n"
            "## 2026-02-01 09:30 — 决策\n"
            "- 结论：jobs store 放到 ~/.config/msgcode/cron/jobs.json\n"
            "- 原因：daemon 可恢复；与 routes/state 并列\n"
            "- 后续：实现 msgcode job status --json\n\n"
            "## 2026-02-01 14:20 — 事件\n"
            "- 发生：imsg rpc send 临时不可用（Connection refused）\n"
            "- 处理：重启 imsg 进程后恢复\n"
            "- 备注：记录错误码与复现条件，便于下次排障\n\n"
            "## 2026-02-01 18:00 — 总结\n"
            "- 今日完成：jobs spec v2.1、memory spec v2.1 初稿\n"
            "- 明日计划：开始 CLI Contract 收口\n")


def test_remember_cli_dry_run_fields_and_redaction(spaces):
    alpha = str(spaces["alpha"])
    code, out = cm("remember", "use", "Postgres", "--type", "decision", "--reason", "jsonb", "--dry-run",
                   "--at", "2026-02-02 10:00", cwd=alpha)
    assert code == 0 and out["dry_run"] and out["action"] == "create"
    assert out["text"] == "## 2026-02-02 10:00 — 决策\n- 结论：use Postgres\n- 原因：jsonb\n"
    assert not os.path.exists(spaces["alpha"] / "memory")
    code, out = cm("remember", "x", "--type", "event", "--reason", "r", cwd=alpha)
    assert code == 2 and out["error"] == "INVALID_ARGUMENT" and "event takes" in out["hint"]
    token = "ghp_" + "a" * 40
    code, out = cm("remember", f"token {token}\nsecond line", "--at", "2026-02-02 11:00", cwd=alpha)
    assert code == 0
    text = open(out["path"], encoding="utf-8").read()
    assert token not in text and "[REDACTED:github-token]" in text and "second line" in text
    assert check_day_text("2026-02-02", text) == []
    code, out = cm("remember", "x", cwd=str(spaces["alpha"].parent))     # not inside a workspace
    assert code == 3 and out["error"] == "MEMORY_WORKSPACE_NOT_FOUND"
    code, out = cm("remember", "x", "--workspace", "bravo", "--at", "2026-02-02 11:00", cwd=alpha)
    assert code == 6 and out["error"] == "MEMORY_SCOPE_DENIED"            # another workspace: not without the user
    assert not os.path.exists(spaces["bravo"] / "memory" / "2026-02-02.md")
    code, out = cm("remember", "x", "--workspace", "bravo", "--at", "2026-02-02 11:00", cwd=alpha, terminal="y")
    assert code == 0 and out["workspace"] == "bravo"


def test_remember_refuses_paths_leading_outside(spaces, tmp_path):
    ws = Registry([str(spaces["alpha"])]).get("alpha")
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, spaces["alpha"] / "memory")
    with pytest.raises(CodeMemoryError) as info:
        remember(ws, "event", {"text": "x"}, AT)
    assert info.value.code == "MEMORY_PATH_TRAVERSAL" and list(outside.iterdir()) == []
    os.unlink(spaces["alpha"] / "memory")
    (spaces["alpha"] / "memory").mkdir()
    victim = outside / "victim.md"
    victim.write_text("keep")
    os.symlink(victim, spaces["alpha"] / "memory" / "2026-02-01.md")
    with pytest.raises(CodeMemoryError) as info:
        remember(ws, "event", {"text": "x"}, AT)
    assert info.value.code == "MEMORY_PATH_TRAVERSAL" and victim.read_text() == "keep"


def test_remember_write_failure_and_missing_directory(spaces, tmp_path):
    ws = Registry([str(spaces["alpha"])]).get("alpha")
    (spaces["alpha"] / "memory").write_text("a file where the directory should be")
    with pytest.raises(CodeMemoryError) as info:
        remember(ws, "event", {"text": "x"}, AT)
    assert info.value.code == "MEMORY_WRITE_FAILED"
    gone = Registry([str(tmp_path / "gone")]).workspaces[0]
    with pytest.raises(CodeMemoryError) as info:
        remember(gone, "event", {"text": "x"}, AT)
    assert info.value.code == "MEMORY_WORKSPACE_NOT_FOUND"


_REMEMBER = r"""
import sys, datetime as dt
sys.path.insert(0, {scripts!r})
from code_memory.workspace.registry import Registry
from code_memory.workspace.store import remember
ws = Registry([{root!r}]).get("alpha")
for i in range(25):
    remember(ws, "event", {{"text": f"worker {{sys.argv[1]}} entry {{i}}"}}, dt.datetime(2026, 2, 1, 10, i))
"""


def test_concurrent_remembers_lose_nothing(spaces):
    code = _REMEMBER.format(scripts=SCRIPTS, root=str(spaces["alpha"]))
    procs = [subprocess.Popen([sys.executable, "-c", code, str(w)]) for w in range(6)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 6
    text = open(spaces["alpha"] / "memory" / "2026-02-01.md", encoding="utf-8").read()
    assert text.count("## 2026-02-01\n") == 1
    for w in range(6):
        for i in range(25):
            assert f"- 发生：worker {w} entry {i}\n" in text
    assert check_day_text("2026-02-01", text) == []


# -- validate ----------------------------------------------------------------------------------

def test_validate_reports_format_and_path_problems(spaces, tmp_path):
    mem = spaces["alpha"] / "memory"
    mem.mkdir()
    (mem / "2026-02-01.md").write_text("## 2026-02-01\n\n## 2026-02-01 09:30 — 决策\n- 结论：ok\n", encoding="utf-8")
    ws = Registry([str(spaces["alpha"])]).get("alpha")
    assert validate(ws) == {"id": "alpha", "root": ws.root, "valid": True, "problems": [], "fixed": []}
    (mem / "2026-02-02.md").write_text(
        "# wrong header\n\n## 2026-02-03 09:30 — 决策\n## 2026-02-02 25:99 — 事件\n## 2026-02-02 10:00 — 想法\n"
        "## 2026-02-02\n## not an entry\n", encoding="utf-8")
    (mem / "notes.md").write_text("free text\n", encoding="utf-8")
    (mem / "2026-02-04.md").write_bytes(b"## 2026-02-04\n\xff\xfe\n")
    (mem / "2026-02-05.md").write_text("## 2026-02-06\n", encoding="utf-8")
    secret = tmp_path / "secret.md"
    secret.write_text("SECRET-OUTSIDE")
    os.symlink(secret, mem / "2026-02-07.md")
    result = validate(ws)
    codes = sorted((p["path"], p["line"], p["code"]) for p in result["problems"])
    assert codes == sorted([
        ("memory/2026-02-02.md", 1, "WS_DAY_HEADER_MISSING"),
        ("memory/2026-02-02.md", 3, "WS_ENTRY_DATE_MISMATCH"),
        ("memory/2026-02-02.md", 4, "WS_ENTRY_HEADING"),
        ("memory/2026-02-02.md", 5, "WS_ENTRY_TYPE"),
        ("memory/2026-02-02.md", 6, "WS_DAY_HEADER_DUPLICATE"),
        ("memory/2026-02-02.md", 7, "WS_ENTRY_HEADING"),
        ("memory/2026-02-04.md", None, "WS_NOT_UTF8"),
        ("memory/2026-02-05.md", 1, "WS_DAY_HEADER_MISMATCH"),
        ("memory/2026-02-07.md", None, "WS_PATH_OUTSIDE"),
        ("memory/notes.md", None, "WS_FILE_NAME"),
    ])
    assert result["valid"] is False
    assert "SECRET-OUTSIDE" not in json.dumps(result) and "结论" not in json.dumps(result)


def test_validate_cli_fix_and_duplicates(spaces, memory_root, tmp_path):
    code, out = cm("workspace", "validate", "--all")
    assert code == 0 and out["valid"] is True
    assert {p["code"] for r in out["workspaces"] for p in r["problems"]} == {"WS_MEMORY_DIR_MISSING"}
    code, out = cm("workspace", "validate", "--workspace", "alpha", "--fix")
    assert out["workspaces"][0]["fixed"] == ["created memory/"] and os.path.isdir(spaces["alpha"] / "memory")
    twin = tmp_path / "twin" / "alpha"
    twin.mkdir(parents=True)
    with open(os.path.join(memory_root, "config.json"), "w") as fh:
        json.dump({"workspaces": {"paths": [str(spaces["alpha"]), str(twin)]}}, fh)
    code, out = cm("workspace", "validate", "--all")
    assert out["valid"] is False
    assert [(p["workspace"], p["code"]) for p in out["registry_problems"]] == [("alpha", "WS_DUPLICATE_ID")]
    assert out["workspaces"] == []                  # the clashing directories are not workspaces


# -- compact -----------------------------------------------------------------------------------

def test_compact_merges_old_days_into_memory_md(spaces):
    ws = Registry([str(spaces["alpha"])]).get("alpha")
    remember(ws, "decision", {"text": "old decision", "reason": "r"}, dt.datetime(2026, 1, 5, 9, 0))
    remember(ws, "event", {"text": "old event"}, dt.datetime(2026, 1, 5, 10, 0))
    remember(ws, "summary", {"text": "december"}, dt.datetime(2025, 12, 30, 18, 0))
    remember(ws, "event", {"text": "recent"}, dt.datetime(2026, 2, 20, 10, 0))
    today = dt.date(2026, 2, 25)
    plan = compact(ws, 30, today)
    assert plan["dry_run"] and plan["entries_to_add"] == 3 and plan["files"] == ["memory/2025-12-30.md", "memory/2026-01-05.md"]
    assert not os.path.exists(ws.memory_md) and os.path.exists(ws.day_file("2026-01-05"))
    done = compact(ws, 30, today, apply=True)
    assert done["entries_added"] == 3 and not os.path.exists(ws.day_file("2026-01-05"))
    assert os.path.exists(ws.day_file("2026-02-20"))
    text = open(ws.memory_md, encoding="utf-8").read()
    assert text.startswith("# MEMORY — alpha\n")
    assert text.index("## 归档 2025-12") < text.index("## 归档 2026-01")
    assert "### 2026-01-05 09:00 — 决策\n- 结论：old decision\n- 原因：r" in text
    # a crash after MEMORY.md was written but before the day file went: the rerun adds nothing twice
    remember(ws, "event", {"text": "old event"}, dt.datetime(2026, 1, 5, 10, 0))
    again = compact(ws, 30, today, apply=True)
    assert again["entries_added"] == 0 and again["duplicates_skipped"] == 1
    assert open(ws.memory_md, encoding="utf-8").read() == text
    # the merged MEMORY.md is still a valid workspace file
    assert validate(ws)["valid"] is True


def test_compact_cli_is_a_dry_run_unless_applied(spaces):
    alpha = str(spaces["alpha"])
    cm("remember", "ancient", "--at", "2020-01-01 10:00", cwd=alpha)
    code, out = cm("workspace", "compact", cwd=alpha)
    assert code == 0 and out["dry_run"] and out["entries_to_add"] == 1
    assert os.path.exists(spaces["alpha"] / "memory" / "2020-01-01.md")
    code, out = cm("workspace", "compact", "--apply", "--older-than", "10", cwd=alpha)
    assert out["entries_added"] == 1 and not os.path.exists(spaces["alpha"] / "memory" / "2020-01-01.md")
