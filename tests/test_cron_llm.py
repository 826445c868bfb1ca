"""The weekly job reaches the LLM under cron (install/cron.py): ``code-memory cron install`` records
the backend in an env file only the user can read — the API key for the anthropic SDK, or the
absolute path of ``claude`` — the crontab line names it, the job sources it; and a step that could
not reach the LLM reports ``degraded``, not ``ok`` (evolution/consolidate.py)."""

from __future__ import annotations

import datetime as dt
import json
import os
import stat
import subprocess

import pytest

from conftest import run_script
from support.standin_api import StandinAPI
from test_consolidate import fake_crontab  # noqa: F401 — a crontab of our own on PATH
from test_facts_extract import note_for

pytest.importorskip("anthropic")
KEY = "sk-ant-standin-0123456789abcdef"


@pytest.fixture
def env_file(isolated_home):
    return isolated_home / ".claude" / "code-memory" / "weekly.env"


def cron(*args, env=None):
    proc = run_script("code-memory.py", "cron", *args, env=env)
    return proc.returncode, json.loads(proc.stdout)


def test_install_records_the_api_key_in_a_private_env_file(fake_crontab, initialized_root, env_file):
    code, out = cron("install", env={"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": "http://127.0.0.1:1"})
    assert code == 0 and out["llm"]["backend"] == "anthropic" and out["llm"]["env_file"] == str(env_file)
    assert KEY not in json.dumps(out)
    assert stat.S_IMODE(os.stat(env_file).st_mode) == 0o600
    text = env_file.read_text()
    assert f"export ANTHROPIC_API_KEY={KEY}" in text and "export CODE_MEMORY_LLM__BACKEND=anthropic" in text
    line = fake_crontab.read_text().splitlines()[-1]
    assert f"CODE_MEMORY_ENV_FILE={env_file}" in line and KEY not in line
    code, status = cron("status")
    assert status["llm"]["backend"] == "anthropic" and "ANTHROPIC_API_KEY" in status["llm"]["variables"]
    assert KEY not in json.dumps(status) and KEY not in fake_crontab.read_text()
    assert initialized_root.root not in str(env_file)            # never inside the memory root
    code, gone = cron("remove")
    assert gone["removed"] == 1 and gone["env_file_removed"] == str(env_file) and not env_file.exists()


def test_install_records_the_path_of_claude_or_says_there_is_no_llm(fake_crontab, initialized_root, env_file,
                                                                    tmp_path):
    tools = tmp_path / "tools"
    tools.mkdir()
    claude = tools / "claude"
    claude.write_text("#!/bin/sh\necho '{}'\n")
    claude.chmod(0o755)
    path = f"{tools}:{os.environ['PATH']}"
    code, out = cron("install", env={"PATH": path})
    assert out["llm"]["backend"] == "claude-cli" and str(claude) in out["llm"]["via"]
    text = env_file.read_text()
    assert f"export CODE_MEMORY_LLM__CLAUDE_BIN={claude}" in text and f"{tools}:" in text
    proc = run_script("code-memory.py", "cron", "install", "--format", "text", env={"PATH": os.environ["PATH"],
                                                                                    "CODE_MEMORY_LLM__CLAUDE_BIN": "/nope/claude"})
    assert "warning: no LLM reachable now" in proc.stdout and "code-memory cron install" in proc.stdout
    assert "export CODE_MEMORY_LLM__BACKEND=none" in env_file.read_text()


def run_cron_line(crontab_file) -> None:
    """Run the registered line as cron does: /bin/sh, a bare environment."""
    line = crontab_file.read_text().splitlines()[-1]
    command = line.split(" ", 5)[5].split(" #")[0].replace(" >> ", " --skip reindex --skip capabilities >> ", 1)
    subprocess.run(["/bin/sh", "-c", command], check=True, timeout=180,
                   env={"HOME": os.environ["HOME"], "PATH": "/usr/bin:/bin"})


def last_run(paths) -> dict:
    with open(os.path.join(paths.logs, "weekly.log"), encoding="utf-8") as fh:
        return json.loads(fh.read().splitlines()[-1])


def test_the_cron_job_reaches_the_llm_and_reports_degraded_without_it(fake_crontab, initialized_root, env_file,
                                                                       tmp_path):
    paths = initialized_root
    now = dt.datetime.now()
    note_for(paths, tmp_path, "shop", "s1", "SHOP-1 the API listens on port 8080 now", now - dt.timedelta(days=1))
    note_for(paths, tmp_path, "shop", "s2", "SHOP-2 payments use the sandbox key in tests", now - dt.timedelta(days=2))
    answer = {"facts": [{"fact": "The shop API listens on port 8080", "category": "configuration",
                         "evidence": "s1", "supersedes": None}]}
    with StandinAPI(default_text=json.dumps(answer)) as api:
        cron("install", env={"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": api.base_url})
        run_cron_line(fake_crontab)
        requests = api.message_requests()
        assert requests and KEY in json.dumps(requests[0]["headers"])  # x-api-key (SDK 0.x) or Bearer (2.x)
    out = last_run(paths)
    assert out["steps"]["facts"]["status"] == "ok" and out["steps"]["facts"]["facts_added"] == 1

    env_file.chmod(0o644)                         # readable by others: not sourced
    run_cron_line(fake_crontab)
    out = last_run(paths)
    facts = out["steps"]["facts"]
    assert facts["status"] == "degraded" and "could not be reached" in facts["reason"]
    assert out["ok"] is True and out["failed_steps"] == []
    report = open(out["report_path"], encoding="utf-8").read()
    assert "- facts: degraded — the LLM could not be reached" in report
    log = open(os.path.join(paths.logs, "weekly.log"), encoding="utf-8").read()
    assert "readable by others" in log and KEY not in log


def test_which_step_results_count_as_degraded():
    from code_memory.evolution.consolidate import llm_trouble

    assert llm_trouble({"pending": 2, "results": [{"mode": "deterministic", "llm_error": "timeout"}]}).startswith(
        "the LLM could not be reached (timeout)")
    assert "unavailable" in llm_trouble({"projects": [{"project": "a", "llm_error": "unavailable"}, {"project": "b"}]})
    assert "LLM failed: http" in llm_trouble({"generated": [{}], "llm_fallbacks": ["LLM failed: http"]})
    assert llm_trouble({"generated": [{}], "llm_fallbacks": ["no LLM backend"]}) is None      # playbooks by design
    assert llm_trouble({"generated": [{}], "llm_fallbacks": ["capabilities.use_llm is false"]}) is None
    assert llm_trouble({"projects": [], "results": []}) is None
