"""LLM backends: the real anthropic SDK against the loopback stand-in, the real claude binary
against the same stand-in, the budget and the usage log."""

from __future__ import annotations

import json
import os
import stat
import time

import pytest

from code_memory import llm
from code_memory.llm import LLMError, get_backend
from code_memory.paths import MemoryPaths
from support.standin_api import StandinAPI, claude_env

pytest.importorskip("anthropic")


@pytest.fixture
def api():
    with StandinAPI() as server:
        yield server


def sdk_backend(api, paths=None, **section):
    base = {"backend": "anthropic", "base_url": api.base_url, "model": "claude-haiku-4-5",
            "timeout_seconds": 10}
    base.update(section)
    return get_backend(base, paths=paths, env={"ANTHROPIC_API_KEY": "test-key"}, purpose="test")


def audit_events(paths):
    path = os.path.join(paths.evolution, "audit.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_sdk_good_answer_and_request_shape(api, paths):
    api.push({"text": '{"summary": {"topic": "t"}}'})
    backend = sdk_backend(api, paths=paths)
    assert backend.name == "anthropic"
    result = backend.complete("SECRET-FREE PROMPT", system="be terse", max_tokens=300)
    assert result.text == '{"summary": {"topic": "t"}}'
    assert result.backend == "anthropic"
    assert result.input_tokens > 0 and result.output_tokens > 0
    (request,) = api.message_requests()
    headers = request["headers"]
    # SDK 0.x sends x-api-key, 2.x "Authorization: Bearer"
    assert headers.get("x-api-key") == "test-key" or headers.get("authorization") == "Bearer test-key"
    assert headers.get("x-stainless-retry-count") in (None, "0")
    body = request["body"]
    assert body["model"] == "claude-haiku-4-5"
    assert body["max_tokens"] == 300
    assert body["system"] == "be terse"
    assert body["messages"] == [{"role": "user", "content": "SECRET-FREE PROMPT"}]
    (event,) = audit_events(paths)
    assert event["event_type"] == "llm_usage" and event["ok"] is True
    assert event["input_tokens"] == result.input_tokens and event["purpose"] == "test"
    # metadata only: neither the prompt nor the answer is logged
    raw = open(os.path.join(paths.evolution, "audit.jsonl"), encoding="utf-8").read()
    assert "SECRET-FREE" not in raw and "topic" not in raw


def test_sdk_answer_that_is_not_json_is_returned_as_text(api):
    api.push({"text": "Here is a summary, not JSON {oops"})
    assert sdk_backend(api).complete("p").text.startswith("Here is a summary")


@pytest.mark.parametrize("status,kind", [(500, "http"), (429, "rate_limit"), (529, "rate_limit"),
                                         (400, "http")])
def test_sdk_http_errors_are_classified_and_never_retried(api, paths, status, kind):
    api.push({"status": status})
    with pytest.raises(LLMError) as info:
        sdk_backend(api, paths=paths).complete("p")
    assert info.value.kind == kind and info.value.status == status
    assert len(api.message_requests()) == 1  # max_retries=0: exactly one attempt
    (event,) = audit_events(paths)
    assert event["ok"] is False and event["error_kind"] == kind


def test_sdk_slow_answer_is_a_timeout(api):
    api.push({"delay": 3.0, "text": "late"})
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        sdk_backend(api).complete("p", timeout=0.6)
    assert info.value.kind == "timeout"
    assert time.monotonic() - started < 2.5
    assert len(api.message_requests()) == 1


def test_sdk_malformed_body_is_bad_response(api):
    api.push({"raw": "<html>gateway</html>"})
    with pytest.raises(LLMError) as info:
        sdk_backend(api).complete("p")
    assert info.value.kind == "bad_response"


def test_sdk_without_key_or_server(api):
    backend = get_backend({"backend": "anthropic", "base_url": api.base_url}, env={})
    with pytest.raises(LLMError) as info:
        backend.complete("p")
    assert info.value.kind == "unavailable"
    assert api.requests == []
    dead = get_backend({"backend": "anthropic", "base_url": "http://127.0.0.1:9"},
                       env={"ANTHROPIC_API_KEY": "k"})
    with pytest.raises(LLMError) as info:
        dead.complete("p", timeout=3)
    assert info.value.kind == "unavailable"


def test_daily_budget_refuses_before_sending(api, paths):
    api.push({"text": "x" * 400}, {"text": "second"})
    backend = sdk_backend(api, paths=paths, daily_token_budget=400)
    backend.complete("a short prompt", max_tokens=100)
    used = llm.UsageLedger(paths, 400).used_today()
    assert used > 0
    with pytest.raises(LLMError) as info:
        backend.complete("another prompt", max_tokens=350)
    assert info.value.kind == "budget"
    assert len(api.message_requests()) == 1  # the refused call never reached the API
    # the counter is a cache: deleting it recounts from audit.jsonl
    os.remove(os.path.join(paths.evolution, "llm_usage.json"))
    assert llm.UsageLedger(paths, 400).used_today() == used


def test_budget_zero_means_unlimited(api, paths):
    api.push({"text": "a"}, {"text": "b"})
    backend = sdk_backend(api, paths=paths, daily_token_budget=0)
    backend.complete("p")
    backend.complete("p")
    assert len(audit_events(paths)) == 2


def test_none_backend_and_auto_selection(tmp_path):
    none = get_backend({"backend": "none"}, env={})
    assert none.name == "none"
    with pytest.raises(LLMError) as info:
        none.complete("p")
    assert info.value.kind == "unavailable"
    assert get_backend({"backend": "auto"}, env={"PATH": str(tmp_path)}).name == "none"
    assert get_backend({"backend": "auto"}, env={"ANTHROPIC_API_KEY": "k"}).name == "anthropic"
    fake_bin = tmp_path / "claude"
    fake_bin.write_text("#!/bin/sh\nexit 1\n")
    fake_bin.chmod(fake_bin.stat().st_mode | stat.S_IEXEC)
    assert get_backend({"backend": "auto"}, env={"PATH": str(tmp_path)}).name == "claude-cli"
    with pytest.raises(LLMError):
        get_backend({"backend": "gpt"}, env={})


def test_get_backend_accepts_a_config(memory_root):
    from code_memory.config import load_config
    cfg = load_config(env={"CODE_MEMORY_ROOT": memory_root, "CODE_MEMORY_LLM__BACKEND": "none"})
    backend = get_backend(cfg)
    assert backend.name == "none" and backend.ledger is not None
    assert backend.ledger.paths == MemoryPaths(memory_root)


def test_cli_child_environment_and_flags():
    backend = get_backend({"backend": "claude-cli", "claude_bin": "/bin/true"},
                          env={"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "s", "PATH": "/bin"})
    env = backend.child_env()
    assert "CLAUDECODE" not in env and "CLAUDE_CODE_SESSION_ID" not in env
    assert env[llm.HOOKS_DISABLED_ENV] == "1"
    cmd = backend.command("/bin/claude", None)
    assert cmd[cmd.index("--settings") + 1] == '{"disableAllHooks": true}'
    assert "--no-session-persistence" in cmd and cmd[cmd.index("--model") + 1] == "haiku"
    assert cmd[cmd.index("--output-format") + 1] == "json"


def test_cli_missing_binary_is_unavailable(tmp_path):
    backend = get_backend({"backend": "claude-cli", "claude_bin": str(tmp_path / "nope")}, env={})
    with pytest.raises(LLMError) as info:
        backend.complete("p")
    assert info.value.kind == "unavailable"


# ---------------------------------------------------------------------------------------------
# the real claude binary against the stand-in


@pytest.fixture
def claude_bin():
    path = os.environ.get("CODE_MEMORY_TEST_CLAUDE_BIN")
    if not path:
        pytest.skip(os.environ.get("CODE_MEMORY_TEST_CLAUDE_SKIP_REASON", "claude binary not installed"))
    return path


def cli_backend(api, claude_bin, home, paths=None, **section):
    base = {"backend": "claude-cli", "claude_bin": claude_bin, "timeout_seconds": 60}
    base.update(section)
    return get_backend(base, paths=paths, env=claude_env(api.base_url, str(home)), purpose="test")


@pytest.mark.e2e
def test_cli_backend_with_real_claude(api, claude_bin, tmp_path, paths):
    home = tmp_path / "claude-home"
    (home / ".claude").mkdir(parents=True)
    marker = tmp_path / "hook-ran"
    # a user hook that would fire on every session: it must NOT run for our child
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": [
        {"hooks": [{"type": "command", "command": f"touch {marker}"}]}]}}))
    api.push({"when": "SUMMARISE-ME", "text": '{"answer": 42}'})
    result = cli_backend(api, claude_bin, home, paths=paths).complete(
        "SUMMARISE-ME please", system="Reply with JSON only.")
    assert result.text == '{"answer": 42}'
    assert result.backend == "claude-cli"
    assert result.output_tokens > 0
    scripted = [r for r in api.message_requests() if "SUMMARISE-ME" in r["raw"]]
    assert scripted, "the prompt never reached the API"
    body = scripted[0]["body"]
    assert not body.get("tools")  # --tools "": the child can do nothing but answer
    assert "Reply with JSON only." in json.dumps(body.get("system"))
    assert not marker.exists(), "our hooks (and the user's) must be disabled in the child"
    assert not list((home / ".claude").glob("projects/**/*.jsonl")), "no session persistence"
    (event,) = audit_events(paths)
    assert event["backend"] == "claude-cli" and event["ok"]


@pytest.mark.e2e
def test_cli_backend_timeout_kills_the_child(api, claude_bin, tmp_path):
    home = tmp_path / "claude-home"
    home.mkdir()
    api.push({"when": "SLOW-ONE", "delay": 30, "text": "late"})
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        cli_backend(api, claude_bin, home).complete("SLOW-ONE", timeout=4)
    assert info.value.kind == "timeout"
    assert time.monotonic() - started < 15


@pytest.mark.e2e
def test_cli_backend_api_error_is_reported(api, claude_bin, tmp_path):
    home = tmp_path / "claude-home"
    home.mkdir()
    for _ in range(12):  # the binary retries 5xx itself; every attempt fails
        api.push({"when": "FAILING", "status": 400})
    with pytest.raises(LLMError) as info:
        cli_backend(api, claude_bin, home).complete("FAILING", timeout=60)
    assert info.value.kind in ("http", "rate_limit")
