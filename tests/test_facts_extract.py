"""auto-extract-facts.py and the facts CLI: window, grouping, LLM proposals via the real SDK and the
stand-in, validation, dedup, supersession, dry run."""

from __future__ import annotations

import datetime as dt
import json
import os

import pytest

from code_memory.llm import get_backend
from code_memory.memory.facts import add_fact, load_facts
from code_memory.summary.fact_extract import extract_facts, recent_sessions, validate_facts
from code_memory.summary.summarize import SummaryOptions, summarize_session
from conftest import run_script
from support.standin_api import StandinAPI
from support.transcripts import TranscriptWriter

pytest.importorskip("anthropic")

NOW = dt.datetime(2026, 3, 10, 12, 0)


@pytest.fixture
def api():
    with StandinAPI(default_text='{"facts": []}') as server:
        yield server


def sdk(api, paths):
    return get_backend({"backend": "anthropic", "base_url": api.base_url, "timeout_seconds": 10},
                       paths=paths, env={"ANTHROPIC_API_KEY": "k"}, purpose="facts")


def note_for(paths, tmp_path, project: str, sid: str, text: str, when: dt.datetime, commands=()) -> None:
    """A real session note written by the summarizer (deterministic mode)."""
    project_dir = tmp_path / "work" / project
    (project_dir / ".git").mkdir(parents=True, exist_ok=True)
    transcript = str(tmp_path / "t" / f"{sid}.jsonl")
    with TranscriptWriter(transcript, session_id=sid, cwd=str(project_dir)) as t:
        t.user(text)
        t.tool("Edit", {"file_path": f"{project_dir}/settings.py", "old_string": "a", "new_string": "b"})
        for command, failed in commands:
            t.tool("Bash", {"command": command}, "Exit code 1" if failed else "ok", is_error=failed)
        t.say("Done.")
    summarize_session(paths, transcript, backend=get_backend({"backend": "none"}, env={}),
                      options=SummaryOptions(), now=when.astimezone())


@pytest.fixture
def sessions(initialized_root, tmp_path):
    paths = initialized_root
    note_for(paths, tmp_path, "shop", "s1", "SHOP-1 the API listens on port 8080 now", NOW - dt.timedelta(days=1))
    note_for(paths, tmp_path, "shop", "s2", "SHOP-2 payments use the sandbox key in tests", NOW - dt.timedelta(days=3))
    note_for(paths, tmp_path, "shop", "s-old", "SHOP-OLD ancient history", NOW - dt.timedelta(days=30))
    note_for(paths, tmp_path, "blog", "b1", "BLOG-1 one lonely session", NOW - dt.timedelta(days=2))
    return paths


def shop_facts(paths):
    return load_facts(os.path.join(paths.project_dir("shop"), "facts.json"))


def test_window_and_grouping(sessions):
    found = recent_sessions(sessions, 7, NOW)
    assert sorted((s.project, s.session_id) for s in found) == [("blog", "b1"), ("shop", "s1"), ("shop", "s2")]
    shop = [s for s in found if s.project == "shop"]
    assert "1. **主题**: SHOP-1 the API listens on port 8080 now" in shop[0].text
    assert "执行的命令" not in shop[0].text


def test_extraction_adds_supersedes_and_dedups(api, sessions):
    paths = sessions
    facts_path = os.path.join(paths.project_dir("shop"), "facts.json")
    old_port = add_fact(facts_path, "The API listens on port 3000", evidence="manual", category="configuration")
    keep = add_fact(facts_path, "Payments use Stripe in test mode", evidence="manual", category="dependency")
    api.push({"when": "SHOP-1", "text": json.dumps({"facts": [
        {"fact": "The API listens on port 8080", "category": "configuration", "evidence": "s1",
         "supersedes": old_port["id"]},
        {"fact": "Payments use Stripe in test mode.", "category": "dependency", "evidence": "s2"},  # restated
        {"fact": "Tests use the payments sandbox key", "category": "Convention!", "evidence": "s2",
         "supersedes": "fact-does-not-exist"},
        {"fact": "x", "category": "other"},                                                         # too short
    ]})})
    report = extract_facts(paths, sdk(api, paths), window_days=7, min_sessions=2, max_facts=3, now=NOW)
    assert [r["project"] for r in report["projects"]] == ["shop"]   # blog has one session only
    (request,) = api.message_requests()
    prompt = request["body"]["messages"][0]["content"]
    assert "SHOP-1" in prompt and "SHOP-2" in prompt and "SHOP-OLD" not in prompt and "BLOG" not in prompt
    assert f"[{old_port['id']}] The API listens on port 3000" in prompt
    assert "At most 3 facts" in request["body"]["system"]
    shop = report["projects"][0]
    assert [a["fact"] for a in shop["added"]] == ["The API listens on port 8080", "Tests use the payments sandbox key"]
    assert shop["skipped"] == [{"fact": "Payments use Stripe in test mode.", "reason": "duplicate"}]
    facts = {f["fact"]: f for f in shop_facts(paths)}
    new_port = facts["The API listens on port 8080"]
    assert new_port["status"] == "active" and new_port["category"] == "configuration"
    assert facts["The API listens on port 3000"]["status"] == "superseded"
    assert facts["The API listens on port 3000"]["supersededBy"] == new_port["id"]
    assert facts["Tests use the payments sandbox key"]["category"] == "other"
    assert facts["Payments use Stripe in test mode"]["status"] == "active" and keep["id"]
    assert "auto-extract-facts" in new_port["evidence"]


def test_facts_are_verified_by_a_passing_command_and_queued_in_queue_mode(api, initialized_root, tmp_path):
    from code_memory.config import load_config
    from code_memory.review import queue
    from code_memory.summary import review
    paths = initialized_root
    note_for(paths, tmp_path, "shop", "v1", "SHOP-1 port 8080", NOW - dt.timedelta(days=1),
             commands=[("curl -fsS localhost:8080/health", False), ("pytest -q tests/test_pay.py", True)])
    note_for(paths, tmp_path, "shop", "v2", "SHOP-2 payments sandbox", NOW - dt.timedelta(days=2))
    answer = json.dumps({"facts": [
        {"fact": "The API listens on port 8080", "category": "configuration",
         "evidence": "v1: curl -fsS localhost:8080/health"},
        {"fact": "Payments tests use the sandbox key", "category": "convention",
         "evidence": "v1: pytest -q tests/test_pay.py"},                        # that command failed
        {"fact": "Deploys go through the staging cluster first", "category": "convention", "evidence": "v2"}]})
    api.push({"when": "SHOP-1", "text": answer})
    extract_facts(paths, sdk(api, paths), window_days=7, min_sessions=2, max_facts=3, now=NOW)
    facts = {f["fact"]: f["verification"] for f in shop_facts(paths)}
    assert facts["The API listens on port 8080"] == {
        "state": "verified", "evidence": ["passed: curl -fsS localhost:8080/health"]}
    assert facts["Payments tests use the sandbox key"]["state"] == "hypothesis"
    assert facts["Deploys go through the staging cluster first"]["state"] == "hypothesis"

    # queue mode: proposals, not facts; a rejected one is not proposed again
    before = shop_facts(paths)
    new = json.dumps({"facts": [{"fact": "Builds need JDK 17 on the CI runners", "category": "dependency"}]})
    api.push({"when": "SHOP-1", "text": new})
    report = extract_facts(paths, sdk(api, paths), window_days=7, min_sessions=2, max_facts=3, now=NOW, queue=True)
    assert report["facts_queued"] == 1 and report["facts_added"] == 0 and shop_facts(paths) == before
    (prop,) = queue.list_proposals(paths.root, kind="fact")
    assert prop["project"] == "shop" and prop["target"] == "areas/projects/shop/facts.json"
    review.reject(load_config(), prop["id"], reason="not true")
    api.push({"when": "SHOP-1", "text": new})
    report = extract_facts(paths, sdk(api, paths), window_days=7, min_sessions=2, max_facts=3, now=NOW, queue=True)
    assert report["facts_queued"] == 0 and queue.pending_count(paths.root) == 0
    assert report["projects"][0]["skipped"][0]["reason"] == "already proposed or rejected"


def test_dry_run_and_failures_write_nothing(api, sessions):
    paths = sessions
    api.push({"when": "SHOP-1", "text": '{"facts": [{"fact": "The API listens on port 8080", "category": "configuration"}]}'})
    report = extract_facts(paths, sdk(api, paths), dry_run=True, now=NOW)
    assert report["facts_added"] == 1 and shop_facts(paths) == []
    api.push({"when": "SHOP-1", "text": "I think the facts are: port 8080"})
    report = extract_facts(paths, sdk(api, paths), now=NOW)
    assert "invalid_json" in report["projects"][0] and shop_facts(paths) == []
    api.push({"when": "SHOP-1", "status": 500})
    report = extract_facts(paths, sdk(api, paths), now=NOW)
    assert report["projects"][0]["llm_error"] == "http" and shop_facts(paths) == []
    report = extract_facts(paths, get_backend({"backend": "none"}, env={}), now=NOW)
    assert report["projects"][0]["llm_error"] == "unavailable" and report["facts_added"] == 0


def test_validate_facts_caps_and_cleans():
    text = json.dumps({"facts": ["plain string fact here", {"fact": " multi\nline   fact text "},
                                 {"fact": 42}, {"nofact": 1}, {"fact": "y" * 400}, {"fact": "fourth valid fact"}]})
    out = validate_facts(text, set(), 2)
    assert [f["fact"] for f in out] == ["plain string fact here", "multi line fact text"]


def test_extract_script_dry_run(api, sessions, memory_root):
    api.push({"when": "SHOP-1", "text": '{"facts": [{"fact": "The API listens on port 8080", "category": "configuration"}]}'})
    env = {"CODE_MEMORY_ROOT": memory_root, "CODE_MEMORY_LLM__BACKEND": "anthropic",
           "CODE_MEMORY_LLM__BASE_URL": api.base_url, "ANTHROPIC_API_KEY": "k",
           "CODE_MEMORY_SUMMARY__FACTS_WINDOW_DAYS": "100000"}
    out = run_script("auto-extract-facts.py", "--dry-run", "--format", "text", env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "+ The API listens on port 8080" in out.stdout
    assert shop_facts(sessions) == []


def test_facts_cli_lifecycle(memory_root):
    env = {"CODE_MEMORY_ROOT": memory_root}

    chat_dir = os.path.join(os.path.dirname(memory_root), "work", "chat")   # project chat's checkout
    os.makedirs(chat_dir, exist_ok=True)

    def cm(*args, cwd=None):
        # listing another project's facts asks on the terminal: the user answers y
        out = run_script("code-memory.py", "facts", *args, env=env, cwd=cwd, terminal="y")
        return out.returncode, json.loads(out.stdout)

    code, err = cm("add", "WebSocket heartbeat every 30 s", "--project", "chat")
    assert code == 3 and err["error"] == "NOT_FOUND" and "--create" in err["hint"]   # no such area yet
    code, added = cm("add", "WebSocket heartbeat every 30 s", "--project", "chat", "--category", "configuration",
                     "--create")
    assert code == 0 and added["fact"]["status"] == "active"
    code, err = cm("add", "a typo", "--project", "chta")                           # never a silent new area
    assert code == 3 and "did you mean chat?" in err["hint"]
    assert not os.path.exists(os.path.join(memory_root, "areas", "projects", "chta"))
    first = added["fact"]["id"]
    code, newer = cm("supersede", first, "WebSocket heartbeat every 20 s", "--project", "chat")
    assert code == 0 and newer["superseded"] == first
    code, tool = cm("add", "docker compose v2 is `docker compose`, not docker-compose", "--area", "tools/docker",
                    "--create")
    assert code == 0
    code, listing = cm("list", cwd=chat_dir)                 # inside project chat: its facts and the tools'
    assert {f["fact"] for f in listing["facts"]} == {"WebSocket heartbeat every 20 s",
                                                     "docker compose v2 is `docker compose`, not docker-compose"}
    code, listing = cm("list", "--project", "chat", "--status", "all")
    by_id = {f["id"]: f for f in listing["facts"]}
    assert by_id[first]["status"] == "superseded" and by_id[first]["supersededBy"] == newer["fact"]["id"]
    code, archived = cm("archive", newer["fact"]["id"], "--project", "chat")
    assert code == 0 and archived["fact"]["status"] == "archived"
    code, listing = cm("list", "--project", "chat")
    assert listing["count"] == 0
    code, err = cm("archive", "fact-nope", "--project", "chat")
    assert code == 3 and err["error"] == "NOT_FOUND"
    code, err = cm("add", "   ", "--project", "chat")
    assert code == 2 and err["error"] == "INVALID_ARGUMENT"
    code, err = cm("add", "text", "--area", "bogus/x")
    assert code == 2 and err["error"] == "INVALID_ARGUMENT"
    code, added = cm("add", "token is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "--project", "chat")
    assert "ghp_" not in json.dumps(added) and "[REDACTED:github-token]" in added["fact"]["fact"]
