"""The avoidance gate end to end through its shim, the routing and scoping around the engines,
the lint commands, and tier 2 against the loopback stand-in API."""

from __future__ import annotations

import json
import os
import time

import pytest

from code_memory.lint.gate import LintSettings, changed_lines, lint_text, route
from conftest import run_script
from support.hook_runner import payload, run_hook
from support.standin_api import StandinAPI


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "work" / "shop"
    (root / ".git").mkdir(parents=True)
    return root


def post(project, rel, tool="Write", patch=None, **tool_input):
    path = str(project / rel)
    response = {"filePath": path}
    if patch is not None:
        response["structuredPatch"] = patch
    return payload("post-edit", str(project), tool_name=tool, tool_input={"file_path": path, **tool_input},
                   tool_response=response)


def write(project, rel, text):
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_block_names_file_line_and_rule(initialized_root, project):
    write(project, "app/calc.py", "def total(items=[]):\n    try:\n        return sum(items)\n    except:\n        return 0\n")
    result = run_hook("avoidance-gate", post(project, "app/calc.py"))
    assert result.json["decision"] == "block"
    reason = result.json["reason"]
    assert "app/calc.py:1 [PY002]" in reason and "app/calc.py:4 [PY001]" in reason
    records = [json.loads(line) for line in open(os.path.join(initialized_root.logs, "hooks.log"))]
    assert records[-1]["action"] == "lint-block" and records[-1]["rules"] == ["PY001", "PY002"]
    assert "sum(items)" not in json.dumps(records)  # metadata only


def test_warnings_only_become_context(initialized_root, project):
    write(project, "run.sh", "#!/bin/bash\nnow=`date`\necho \"$now\"\n")
    result = run_hook("avoidance-gate", post(project, "run.sh"))
    assert "decision" not in result.json
    assert result.specific["hookEventName"] == "PostToolUse"
    assert "run.sh:2 [SH005]" in result.context and "not blocking" in result.context


def test_clean_files_and_unrouted_files_are_silent(initialized_root, project):
    write(project, "ok.py", "def f(items=None):\n    return list(items or [])\n")
    assert run_hook("avoidance-gate", post(project, "ok.py")).silent
    write(project, "notes.md", "except:\n")
    assert run_hook("avoidance-gate", post(project, "notes.md")).silent
    write(project, "web/app.jsx", "const [form] = Form.useForm();\n")  # not a front-end project
    assert run_hook("avoidance-gate", post(project, "web/app.jsx")).silent


def test_only_the_edited_lines_count(initialized_root, project):
    write(project, "legacy.py", "def old(a=[]):\n    pass\n\n\ndef new():\n    return 1\n")
    patch = [{"oldStart": 6, "oldLines": 1, "newStart": 6, "newLines": 1, "lines": ["-    return 0", "+    return 1"]}]
    assert run_hook("avoidance-gate", post(project, "legacy.py", tool="Edit", patch=patch)).silent
    patch = [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-def old(a):", "+def old(a=[]):"]}]
    assert run_hook("avoidance-gate", post(project, "legacy.py", tool="Edit", patch=patch)).json["decision"] == "block"
    whole = {"CODE_MEMORY_LINT__SCOPE": "file"}
    patch = [{"oldStart": 6, "oldLines": 1, "newStart": 6, "newLines": 1, "lines": ["+    return 1"]}]
    assert run_hook("avoidance-gate", post(project, "legacy.py", tool="Edit", patch=patch), env=whole).json


def test_antd_rules_for_configured_or_detected_front_ends(initialized_root, project):
    write(project, "src/Page.jsx", "import { Form } from 'antd';\nconst [form] = Form.useForm();\n")
    data = post(project, "src/Page.jsx")
    assert run_hook("avoidance-gate", data).silent
    env = {"CODE_MEMORY_LINT__FRONTEND_PROJECTS": '["shop"]'}
    assert "src/Page.jsx:2 [AD001]" in run_hook("avoidance-gate", data, env=env).json["reason"]
    write(project, "package.json", json.dumps({"dependencies": {"antd": "^3.26.20", "react": "16"}}))
    assert run_hook("avoidance-gate", data).json["decision"] == "block"
    write(project, "package.json", json.dumps({"dependencies": {"antd": "^4.24.0"}}))
    assert run_hook("avoidance-gate", data).silent


def test_project_config_sets_targets_and_severity(initialized_root, project):
    write(project, "m.py", "def f(x: int | None):\n    return x\n")
    assert run_hook("avoidance-gate", post(project, "m.py")).silent  # no target known
    write(project, "pyproject.toml", '[project]\nname = "shop"\nrequires-python = ">=3.8"\n')
    assert "[PY004]" in run_hook("avoidance-gate", post(project, "m.py")).json["reason"]
    write(project, ".claude/code-memory.json", json.dumps({"lint": {"python_target": "3.12"}}))
    assert run_hook("avoidance-gate", post(project, "m.py")).silent
    write(project, "s.sh", "#!/bin/bash\nnow=`date`\n")
    write(project, ".claude/code-memory.json", json.dumps({"lint": {"severity": {"SH005": "block"}}}))
    assert run_hook("avoidance-gate", post(project, "s.sh")).json["decision"] == "block"
    write(project, ".claude/code-memory.json", json.dumps({"lint": {"severity": {"SH005": "off"}}}))
    assert run_hook("avoidance-gate", post(project, "s.sh")).silent


def test_user_rules_from_config_and_the_project_area(initialized_root, project):
    area = initialized_root.project_dir("shop")
    os.makedirs(area)
    with open(os.path.join(area, "lint-rules.json"), "w", encoding="utf-8") as fh:
        json.dump({"rules": [
            {"id": "MONEY", "pattern": r"float\(.*(price|amount)", "flags": "i", "severity": "block",
             "message": "money is Decimal here", "glob": "*.py"},
            {"id": "broken", "pattern": "(", "message": "x"}]}, fh)
    write(project, "pay.py", "total = float(PRICE) * 2\n")
    reason = run_hook("avoidance-gate", post(project, "pay.py")).json["reason"]
    assert "pay.py:1 [MONEY] money is Decimal here (user rule)" in reason
    write(project, "notes.txt", "TODO fix\n")
    env = {"CODE_MEMORY_LINT__USER_RULES": json.dumps([{"id": "NO-TODO", "pattern": "TODO", "message": "no TODOs"}])}
    result = run_hook("avoidance-gate", post(project, "notes.txt"), env=env)
    assert "notes.txt:1 [NO-TODO] no TODOs" in result.context
    log = [json.loads(line) for line in open(os.path.join(initialized_root.logs, "hooks.log"))]
    assert any(r["action"] == "user-rules" and "bad pattern" in r["problems"][0] for r in log)


def test_disabled_big_and_memory_files_are_skipped(initialized_root, project):
    write(project, "bad.py", "def f(a=[]): pass\n")
    assert run_hook("avoidance-gate", post(project, "bad.py"), env={"CODE_MEMORY_LINT__ENABLED": "false"}).silent
    assert run_hook("avoidance-gate", post(project, "bad.py"), env={"CODE_MEMORY_LINT__MAX_FILE_BYTES": "5"}).silent
    memory_py = os.path.join(initialized_root.root, "x.py")
    with open(memory_py, "w") as fh:
        fh.write("def f(a=[]): pass\n")
    data = payload("post-edit", str(project), tool_name="Write", tool_input={"file_path": memory_py})
    assert run_hook("avoidance-gate", data).silent
    gone = post(project, "deleted.py")
    assert run_hook("avoidance-gate", gone).silent


# -- the pieces ----------------------------------------------------------------------------------

def test_routing():
    assert route("/p/a.py", "", False) == "python"
    assert route("/p/deploy", "#!/usr/bin/env bash\n", False) == "shell"
    assert route("/p/tool", "#!/usr/bin/python3\n", False) == "python"
    assert route("/p/UserDao.java", "", False) == "java-sql"
    assert route("/p/User.java", "", False) is None
    assert route("/p/orders.xml", '<?xml?><mapper namespace="x">', False) == "java-sql"
    assert route("/p/pom.xml", "<project>", False) is None
    assert route("/p/a.jsx", "", True) == "antd-v3" and route("/p/a.jsx", "", False) is None


def test_changed_lines_from_patch_or_new_string():
    patch = {"structuredPatch": [{"oldStart": 3, "oldLines": 2, "newStart": 3, "newLines": 3,
                                  "lines": [" keep", "-old", "+new1", "+new2"]}]}
    assert changed_lines("Edit", {}, patch, "") == {4, 5}
    deletion = {"structuredPatch": [{"oldStart": 7, "oldLines": 1, "newStart": 7, "newLines": 0, "lines": ["-gone"]}]}
    assert changed_lines("Edit", {}, deletion, "") == {7}
    text = "a\nb\nnew x\nnew y\nc\n"
    assert changed_lines("Edit", {"new_string": "new x\nnew y"}, {}, text) == {3, 4}
    multi = {"edits": [{"new_string": "a"}, {"new_string": "c"}]}
    assert changed_lines("MultiEdit", multi, {}, text) == {1, 5}
    assert changed_lines("Write", {}, {}, text) is None


def test_lint_text_keeps_syntax_errors_outside_the_changed_lines(tmp_path):
    path = tmp_path / "x.py"
    path.write_text("x = (\n")
    report = lint_text(str(path), "x = (\n", LintSettings(), changed={5})
    assert [f.rule for f in report.findings] == ["PY000"]


# -- the commands --------------------------------------------------------------------------------

def test_lint_commands(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a=[]):\n    eval('1')\n")
    result = run_script("lint-python-rules.py", str(bad))
    assert result.returncode == 20
    out = json.loads(result.stdout)
    assert out["error"] == "LINT_BLOCKED" and out["blocking"] == 1 and out["warnings"] == 1
    assert out["files"][0]["findings"][0]["rule"] == "PY002"
    only_two = run_script("lint-python-rules.py", str(bad), "--changed-lines", "2")
    assert only_two.returncode == 0 and json.loads(only_two.stdout)["warnings"] == 1
    text = run_script("lint-python-rules.py", str(bad), "--format", "text")
    assert f"{bad}:1: block [PY002]" in text.stdout and text.returncode == 20
    listed = json.loads(run_script("lint-shell-rules.py", "--list-rules").stdout)
    assert len(listed["rules"]) >= 8 and listed["rules"][0]["id"] == "SH000"
    sh = tmp_path / "a.sh"
    sh.write_text("#!/bin/bash\ndeclare -A m\n")
    assert run_script("lint-shell-rules.py", str(sh)).returncode == 20
    assert run_script("lint-shell-rules.py", str(sh), "--target", "5.2").returncode == 0
    xml = tmp_path / "OrderMapper.xml"
    xml.write_text('<mapper><delete id="d">DELETE FROM t_order</delete></mapper>\n')
    assert run_script("lint-java-sql-rules.py", str(xml)).returncode == 20
    jsx = tmp_path / "P.jsx"
    jsx.write_text("<Modal visible={v} />\n")
    assert run_script("lint-antd-v3-rules.py", str(jsx)).returncode == 0
    routed = json.loads(run_script("code-memory.py", "lint", str(bad)).stdout)
    assert routed["files"][0]["engine"] == "python"
    missing = run_script("lint-python-rules.py", str(tmp_path / "nope.py"))
    assert json.loads(missing.stdout)["error"] == "NOT_FOUND"


# -- tier 2 --------------------------------------------------------------------------------------

def _semantic_env(api, **extra):
    # a generous time limit unless a test sets its own: loading the SDK takes seconds on a busy machine
    return {"CLAUDE_SEMANTIC_LINT": "true", "ANTHROPIC_BASE_URL": api.base_url,
            "ANTHROPIC_API_KEY": "test-key", "CODE_MEMORY_LLM__BACKEND": "anthropic",
            "CODE_MEMORY_LINT__SEMANTIC_TIMEOUT_SECONDS": "30", **extra}


def test_semantic_review_adds_llm_warnings(initialized_root, project):
    pytest.importorskip("anthropic")
    area = initialized_root.project_dir("shop")
    os.makedirs(area)
    with open(os.path.join(area, "rules.md"), "w", encoding="utf-8") as fh:
        fh.write("# shop — rules\n\n- 运费阈值从配置读取，不要写死 (SEM-RULE-1)\n")
    write(project, "ship.py", "API_KEY = 'sk-ant-api03-" + "A" * 40 + "'\n\ndef fee(total):\n    return 0 if total > 99 else 10\n")
    answer = {"violations": [{"line": 4, "rule": "SEM-RULE-1", "message": "99 is hard-coded; read it from config"}]}
    with StandinAPI([{"text": json.dumps(answer)}]) as api:
        result = run_hook("avoidance-gate", post(project, "ship.py"), env=_semantic_env(api))
        (request,) = api.message_requests()
    assert "ship.py:4 [SEM] SEM-RULE-1: 99 is hard-coded" in result.context
    sent = request["raw"]
    assert "SEM-RULE-1" in sent and "return 0 if total > 99" in sent
    assert "sk-ant-api03-" + "A" * 40 not in sent  # redacted before it left


def test_semantic_review_is_time_boxed_and_off_by_default(initialized_root, project):
    pytest.importorskip("anthropic")
    write(project, "ship.py", "def fee(total):\n    return 0 if total > 99 else 10\n")
    with StandinAPI([{"delay": 40, "text": '{"violations": [{"line": 2, "message": "late"}]}'}]) as api:
        started = time.monotonic()
        result = run_hook("avoidance-gate", post(project, "ship.py"),
                          env=_semantic_env(api, CODE_MEMORY_LINT__SEMANTIC_TIMEOUT_SECONDS="4"))
        assert time.monotonic() - started < 25  # it did not wait for the 40 s answer
        # the limit counts loading the SDK too: on a loaded machine the request may not even be sent
        assert result.silent and len(api.message_requests()) <= 1
    with StandinAPI() as api:
        env = _semantic_env(api)
        env.pop("CLAUDE_SEMANTIC_LINT")
        assert run_hook("avoidance-gate", post(project, "ship.py"), env=env).silent
        assert api.requests == []
