"""Gates never fail silently and never deny wrongly (issue 14, deliverable 7), through the real
shell shims: files outside every project, a held daily/.lock, a read-only memory root, a broken
flag directory or config.json, a slow LLM behind the tier-2 lint."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile

import pytest

from conftest import SCRIPTS, run_script
from support.hook_runner import payload, run_hook
from support.standin_api import StandinAPI

RULE = "- 数据库访问一律参数化 (GATE-RULE-1)"


def rules(paths, name):
    area = paths.project_dir(name)
    os.makedirs(area, exist_ok=True)
    with open(os.path.join(area, "rules.md"), "w", encoding="utf-8") as fh:
        fh.write(f"# {name} — rules\n\n## 编码规范\n\n{RULE}\n")


def edit(project, path, tool="Edit", session="sess-gate-1"):
    return payload("pre-edit", str(project), session_id=session, tool_name=tool,
                   tool_input={"file_path": str(path), "old_string": "x", "new_string": "y"})


def post_write(project, path, session="sess-gate-1"):
    return payload("post-edit", str(project), session_id=session, tool_name="Write",
                   tool_input={"file_path": str(path), "content": "x"}, tool_response={"filePath": str(path)})


@pytest.mark.parametrize("where", ["scratch/x.py", ".bashrc", "notes/todo.md"])
def test_files_outside_every_project_are_not_gated_by_the_session_project(initialized_root, project, tmp_path, where):
    rules(initialized_root, "alpha")
    home = tmp_path / "home-of-user"
    target = home / where
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("x = 1\n")
    env = {"HOME": str(home)}
    assert run_hook("rules-gate", edit(project, target), env=env).silent               # not alpha's rules
    assert run_hook("rules-gate", edit(project, os.path.join(project, "src", "a.py")), env=env).decision == "deny"
    gate = run_hook("avoidance-gate", post_write(project, target), env=env)
    assert gate.returncode == 0 and "alpha" not in str(gate.stdout)


def test_a_file_in_the_session_directory_project_is_still_gated(initialized_root, tmp_path):
    plain = tmp_path / "plainproj"                    # no git: a directory project
    (plain / "src").mkdir(parents=True)
    rules(initialized_root, "plainproj")
    assert run_hook("rules-gate", edit(plain, plain / "src" / "a.py")).decision == "deny"


def test_a_held_daily_lock_costs_a_hook_its_budget_then_it_fails_open(initialized_root, project):
    os.makedirs(initialized_root.daily, exist_ok=True)
    lock = os.path.join(initialized_root.daily, ".lock")
    holder = subprocess.Popen(["python3", "-c", "import fcntl,sys,time; f=open(sys.argv[1],'a');"
                               "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(120)", lock],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        target = os.path.join(project, "src", "a.py")
        result = run_hook("extract-memory", post_write(project, target), timeout=8)   # not the 10 s lock wait
        assert result.silent
        with open(os.path.join(initialized_root.logs, "hooks.log"), encoding="utf-8") as fh:
            records = [json.loads(line) for line in fh]
        assert any(r.get("code") == "LOCK_TIMEOUT" and "0.5s" in r.get("detail", "") for r in records), records
    finally:
        holder.kill()
        holder.wait()
    with open(lock) as fh:                                  # nothing left holding it
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_a_broken_flag_dir_warns_the_session_once_and_status_shows_it(initialized_root, project, tmp_path):
    rules(initialized_root, "alpha")
    open_dir = tmp_path / "flags-open"
    open_dir.mkdir()
    os.chmod(open_dir, 0o777)
    env = {"CODE_MEMORY_HOOKS__FLAG_DIR": str(open_dir)}
    target = os.path.join(project, "src", "a.py")
    first = run_hook("rules-gate", edit(project, target), env=env)
    assert first.decision is None and "0700" in first.json["systemMessage"] and first.context
    assert run_hook("rules-gate", edit(project, target), env=env).silent               # once per session
    again = run_hook("rules-gate", edit(project, target, session="sess-gate-2"), env=env)
    assert "systemMessage" in again.json                                                # a new session: once more
    status = json.loads(run_script("code-memory.py", "status", env=env).stdout)
    assert status["gates"]["ok"] is False and "0700" in status["gates"]["problems"][0]
    assert status["gates"]["sessions_warned"] == 2


def test_a_malformed_config_warns_at_session_start_and_status_shows_it(initialized_root, project):
    with open(initialized_root.config_json, "w") as fh:
        fh.write('{"hooks": {"rules_gate": "deny",,}')
    start = run_hook("session-start", payload("session-start", str(project), session_id="sess-cfg-1"))
    assert "configuration cannot be read" in start.json["systemMessage"]
    assert start.json["hookSpecificOutput"]["hookEventName"] == "SessionStart" and start.context
    target = os.path.join(project, "src", "a.py")
    assert run_hook("rules-gate", edit(project, target, session="sess-cfg-1")).silent   # told once already
    gate = run_hook("avoidance-gate", post_write(project, target, session="sess-cfg-2"))
    assert gate.json["hookSpecificOutput"]["hookEventName"] == "PostToolUse" and "systemMessage" in gate.json
    status = run_script("code-memory.py", "status")
    out = json.loads(status.stdout)
    assert status.returncode == 0 and out["gates"]["ok"] is False and out["config"]["error"] == "CONFIG_INVALID"


def test_a_healthy_setup_reports_healthy_gates(initialized_root):
    out = json.loads(run_script("code-memory.py", "status").stdout)
    assert out["gates"] == {"ok": True, "problems": [], "sessions_warned": 0}


def test_the_tier2_time_limit_is_a_hard_wall_clock_bound(initialized_root, project):
    pytest.importorskip("anthropic")
    target = os.path.join(project, "ship.py")
    with open(target, "w") as fh:
        fh.write("def fee(total):\n    return 0 if total > 99 else 10\n")
    env = {"CLAUDE_SEMANTIC_LINT": "true", "ANTHROPIC_API_KEY": "test-key", "CODE_MEMORY_LLM__BACKEND": "anthropic",
           "CODE_MEMORY_LINT__SEMANTIC_TIMEOUT_SECONDS": "12"}    # room to load the SDK and send, also on a busy machine
    # the stand-in answers every attempt (the SDK retries) only after 60 s: the hook may not wait
    with StandinAPI([{"delay": 60, "text": "{}"}] * 4) as api:
        env["ANTHROPIC_BASE_URL"] = api.base_url
        result = run_hook("avoidance-gate", post_write(project, target), env=env, timeout=30)
        assert result.silent and len(api.message_requests()) >= 1


def test_a_read_only_memory_root_still_answers_searches(initialized_root, project, tmp_path):
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or not setpriv or not os.path.exists("/usr/bin/python3"):
        pytest.skip("needs root and setpriv to read as another user (root ignores permission bits)")
    base = tempfile.mkdtemp(prefix="ro-root-", dir="/tmp")
    try:
        root = os.path.join(base, "mem")
        shutil.copytree(initialized_root.root, root)
        rules_dir = os.path.join(root, "areas", "projects", "roproj")
        os.makedirs(rules_dir)
        with open(os.path.join(rules_dir, "rules.md"), "w") as fh:
            fh.write("# roproj\n\n## DB\n- bind parameters always READONLY-MARK\n")
        work = os.path.join(base, "roproj")
        os.makedirs(work)
        env = {**os.environ, "CODE_MEMORY_ROOT": root, "HOME": base}
        cmd = ["/usr/bin/python3", "-I", "-S", os.path.join(SCRIPTS, "memory-search.py")]
        for state in ("no index", "an index"):
            if state == "an index":
                subprocess.run(cmd + ["index", "--no-vectors"], env=env, cwd=work, capture_output=True, check=True)
            subprocess.run(["chmod", "-R", "a+rX,a-w", base], check=True)
            os.chmod(base, 0o755)
            proc = subprocess.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *cmd,
                                   "bind parameters", "--mode", "bm25"], env=env, cwd=work, capture_output=True,
                                  text=True, timeout=120)
            out = json.loads(proc.stdout)
            assert proc.returncode == 0 and out["ok"], (state, out)
            assert "READONLY-MARK" in json.dumps(out) and "not writable" in out["index"]["read_only"], state
            subprocess.run(["chmod", "-R", "u+w", base], check=True)
        assert os.path.exists(os.path.join(root, ".index", "search.sqlite"))        # never deleted
    finally:
        subprocess.run(["chmod", "-R", "u+w", base])
        shutil.rmtree(base, ignore_errors=True)
