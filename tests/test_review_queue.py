"""The review queue: proposals on disk, approve (edited) / reject through the real writers,
revisions and CONFLICT, the rejection memory, corrupt files, bad ids, a removed project area,
Skill generation in queue mode, and verification markers."""

import json
import os
import threading

import pytest

from code_memory.config import load_config
from code_memory.errors import CodeMemoryError
from code_memory.evolution import capabilities as cap
from code_memory.memory import verification
from code_memory.memory.facts import load_facts
from code_memory.memory.tree import ensure_area
from code_memory.review import queue
from code_memory.summary import review
from evolution_support import history
from test_capabilities import NOW, OK5, OPENING, generate, settings


@pytest.fixture
def cfg(initialized_root):
    ensure_area(initialized_root, "projects", "alpha")
    return load_config()


def test_propose_list_get_and_count(cfg):
    root = cfg.root
    assert queue.pending_count(root) == 0
    p = queue.propose(root, "rule", "Run the migrations before the tests", project="alpha", session="s1")
    assert p["status"] == "pending" and p["revision"] == 1 and queue.valid_id(p["id"])
    assert p["verification"] == {"state": "hypothesis", "evidence": []}
    assert queue.pending_count(root) == 1
    assert queue.get_proposal(root, p["id"]) == p
    assert [x["id"] for x in queue.list_proposals(root)] == [p["id"]]
    assert queue.list_proposals(root, kind="fact") == [] and queue.list_proposals(root, project="beta") == []
    # the same idea again (near, not equal) is not queued twice
    assert queue.propose(root, "rule", "run the migrations before the tests!", project="alpha") is None
    # another project is another proposal
    assert queue.propose(root, "rule", "Run the migrations before the tests", project="beta")


def test_approve_rule_writes_rules_md_verified_and_audits(cfg):
    root = cfg.root
    p = queue.propose(root, "rule", "Run the migrations before the tests", project="alpha")
    res = review.approve(cfg, p["id"], expected_revision=1, actor="test")
    assert res["status"] == "approved" and res["written_to"] == "areas/projects/alpha/rules.md"
    lines = [ln for ln in open(os.path.join(root, res["written_to"]), encoding="utf-8") if ln.startswith("- ")]
    text, state, evidence = verification.parse(lines[-1])
    assert text == "Run the migrations before the tests" and state == "verified"
    assert "approved by the user (test" in evidence[0]
    assert queue.pending_count(root) == 0 and queue.get_proposal(root, p["id"])["status"] == "approved"
    audit = [json.loads(ln) for ln in open(review.audit_log(root), encoding="utf-8")]
    assert audit[-1]["event_type"] == "approved" and audit[-1]["id"] == p["id"]
    assert "migrations" not in open(review.audit_log(root), encoding="utf-8").read()  # metadata, not text
    with pytest.raises(CodeMemoryError) as info:
        review.approve(cfg, p["id"])
    assert info.value.code == "CONFLICT" and "already approved" in info.value.message


def test_approve_edited_pitfall_and_fact(cfg):
    root = cfg.root
    pit = queue.propose(root, "pitfall", "pip install without the venv breaks the system python")
    res = review.approve(cfg, pit["id"], edited_text="pip install outside the venv breaks the system python")
    memory = open(os.path.join(root, "MEMORY.md"), encoding="utf-8").read()
    assert "- pip install outside the venv breaks the system python [verified: approved by the user" in memory
    assert res["edited"] and queue.get_proposal(root, pit["id"])["original_text"].startswith("pip install without")
    fact = queue.propose(root, "fact", "The API listens on port 8080", project="alpha",
                         payload={"evidence": "seen in config.yaml", "category": "config"})
    res = review.approve(cfg, fact["id"])
    facts = load_facts(os.path.join(root, res["written_to"]))
    assert facts[-1]["fact"] == "The API listens on port 8080" and facts[-1]["category"] == "config"
    assert verification.of_fact(facts[-1])[0] == "verified"


def test_reject_is_remembered(cfg):
    root = cfg.root
    p = queue.propose(root, "pitfall", "不对 the whole approach is wrong here")
    res = review.reject(cfg, p["id"], reason="noise")
    assert res["status"] == "rejected" and queue.get_proposal(root, p["id"])["reason"] == "noise"
    assert queue.propose(root, "pitfall", "不对, the whole approach is wrong here") is None
    assert not os.path.exists(os.path.join(root, "MEMORY.md")) or "approach" not in open(
        os.path.join(root, "MEMORY.md"), encoding="utf-8").read()
    with pytest.raises(CodeMemoryError) as info:
        review.approve(cfg, p["id"])
    assert info.value.code == "CONFLICT"


def test_stale_revision_is_a_conflict_and_loses_nothing(cfg):
    root = cfg.root
    p = queue.propose(root, "rule", "Use ruff, not flake8", project="alpha")
    edited = queue.edit(root, p["id"], "Use ruff for linting, not flake8", expected_revision=1, by="ui")
    assert edited["revision"] == 2
    with pytest.raises(CodeMemoryError) as info:
        review.approve(cfg, p["id"], expected_revision=1)
    assert info.value.code == "CONFLICT" and info.value.extra["revision"] == 2
    assert queue.get_proposal(root, p["id"])["text"] == "Use ruff for linting, not flake8"
    assert "ruff" not in (open(os.path.join(root, "areas/projects/alpha/rules.md"), encoding="utf-8").read())


def test_concurrent_decisions_one_wins(cfg):
    p = queue.propose(cfg.root, "rule", "Pin the node version in .nvmrc", project="alpha")
    outcomes = []

    def decide(fn):
        try:
            outcomes.append(fn(cfg, p["id"])["status"])
        except CodeMemoryError as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=decide, args=(f,)) for f in (review.approve, review.reject, review.approve)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(outcomes).count("CONFLICT") == 2
    rules = open(os.path.join(cfg.root, "areas/projects/alpha/rules.md"), encoding="utf-8").read()
    assert rules.count("nvmrc") == (1 if "approved" in outcomes else 0)


@pytest.mark.parametrize("bad", ["../../x", "p-../../etc", "p-ABCDEF012345", "", "p-0123456789ab/..", None, 5])
def test_bad_ids_are_not_found(cfg, bad):
    for call in (lambda: queue.get_proposal(cfg.root, bad), lambda: review.approve(cfg, bad),
                 lambda: review.reject(cfg, bad)):
        with pytest.raises(CodeMemoryError) as info:
            call()
        assert info.value.code == "NOT_FOUND"


def test_corrupt_file_is_reported_and_skipped(cfg):
    root = cfg.root
    good = queue.propose(root, "pitfall", "a good proposal about caches")
    bad_path = os.path.join(root, "review", "pending", "p-0000000000aa.json")
    with open(bad_path, "w") as fh:
        fh.write("{not json")
    corrupt = []
    assert [p["id"] for p in queue.list_proposals(root, corrupt=corrupt)] == [good["id"]]
    assert corrupt == [{"id": "p-0000000000aa", "path": bad_path}]
    with pytest.raises(CodeMemoryError) as info:
        review.approve(cfg, "p-0000000000aa")
    assert info.value.code == "REVIEW_CORRUPT"
    assert review.approve(cfg, good["id"])["status"] == "approved"


def test_approving_into_a_removed_project_keeps_the_proposal(cfg):
    import shutil
    p = queue.propose(cfg.root, "fact", "Builds need JDK 17", project="alpha")
    shutil.rmtree(os.path.join(cfg.root, "areas", "projects", "alpha"))
    with pytest.raises(CodeMemoryError) as info:
        review.approve(cfg, p["id"])
    assert info.value.code == "REVIEW_TARGET_GONE"
    assert not os.path.exists(os.path.join(cfg.root, "areas", "projects", "alpha"))
    assert queue.get_proposal(cfg.root, p["id"])["status"] == "pending"
    assert review.reject(cfg, p["id"])["status"] == "rejected"


def test_skills_in_queue_mode_wait_for_approval(initialized_root, tmp_path, monkeypatch):
    paths = initialized_root
    history(paths, NOW, OPENING, outcomes=OK5, start_days_ago=3)
    st = settings(tmp_path)
    res = generate(paths, st, queue_skills=True)
    assert res["generated"] == [] and len(res["queued"]) == 2 and not os.path.exists(st.skills_path)
    assert queue.pending_count(paths.root) == 2
    again = generate(paths, st, queue_skills=True)       # not proposed twice
    assert all(q["already_reviewed"] for q in again["queued"]) and queue.pending_count(paths.root) == 2
    monkeypatch.setenv("CODE_MEMORY_ROOT", paths.root)
    cfg = load_config()
    cfg.setdefault("capabilities", {})["skills_dir"] = st.skills_dir
    first = queue.list_proposals(paths.root, kind="skill")[0]
    out = review.approve(cfg, first["id"])
    skill = os.path.join(out["written_to"])
    assert os.path.isfile(skill) and open(skill, encoding="utf-8").read() == first["text"]
    assert [s["name"] for s in cap.skills(paths)] == [out["name"]]


def test_kv_proposal_approval_writes_the_key(cfg):
    p = queue.propose(cfg.root, "kv", json.dumps({"port": 8080}), target="/project/alpha/port")
    out = review.approve(cfg, p["id"])
    assert out["written_to"] == "/project/alpha/port"
    from code_memory.kv.view import get
    assert get(cfg.paths, "/project/alpha/port")["content"] == {"port": 8080}


def test_verification_markers_round_trip():
    for state, ev in (("hypothesis", []), ("verified", ["pytest passed", "commit 1a2b3c4"])):
        line = "- " + verification.mark("Use uv, not pip [sic]", state, ev)
        text, got_state, got_ev = verification.parse(line)
        assert (text, got_state, got_ev) == ("Use uv, not pip [sic]", state, ev)
    assert verification.parse("- legacy rule") == ("legacy rule", None, [])


# CLI (real subprocess) ------------------------------------------------------------------------

def cm(*args, env=None):
    """``code-memory review ARGS``; a decision is confirmed by a user at the process's terminal."""
    from conftest import run_script
    proc = run_script("code-memory.py", "review", *args, env=env,
                      terminal="y" if args and args[0] in ("approve", "reject") else None)
    try:
        return proc.returncode, json.loads(proc.stdout)
    except ValueError:
        return proc.returncode, proc.stdout + proc.stderr


def test_cli_list_show_approve_reject(cfg, tmp_path):
    root = cfg.root
    a = queue.propose(root, "rule", "Always run `make lint` before pushing", project="alpha")
    b = queue.propose(root, "pitfall", "Docker build cache hides a changed requirements.txt")
    code, out = cm("list")
    assert code == 0 and out["ok"] and out["count"] == 2 and out["pending"] == 2
    assert {p["id"] for p in out["proposals"]} == {a["id"], b["id"]}
    code, out = cm("show", a["id"])
    assert code == 0 and out["proposal"]["text"] == a["text"]
    proc_text = __import__("conftest").run_script("code-memory.py", "review", "list", "--format", "text")
    assert a["id"] in proc_text.stdout and "[unverified]" in proc_text.stdout

    code, out = cm("approve", a["id"], "--text", "Always run `make lint` before you push", "--revision", "1")
    assert code == 0 and out["status"] == "approved" and out["edited"]
    assert "- Always run `make lint` before you push [verified:" in open(
        os.path.join(root, "areas/projects/alpha/rules.md"), encoding="utf-8").read()
    code, out = cm("approve", a["id"])
    assert code == 10 and out["error"] == "CONFLICT"
    code, out = cm("reject", b["id"], "--reason", "too obvious")
    assert code == 0 and out["status"] == "rejected"
    code, out = cm("list", "--status", "all")
    assert {p["status"] for p in out["proposals"]} == {"approved", "rejected"}


@pytest.mark.parametrize("bad", ["../../x", "p-0123456789ab", "p-/../../etc/passwd"])
def test_cli_unknown_and_traversal_ids(cfg, bad):
    for action in ("show", "approve", "reject"):
        code, out = cm(action, bad)
        assert code == 3 and out["error"] == "NOT_FOUND" and "Traceback" not in json.dumps(out)


def test_cli_edit_in_editor_and_stale_revision(cfg, tmp_path):
    p = queue.propose(cfg.root, "fact", "The staging DB is Postgres 14", project="alpha")
    editor = tmp_path / "ed.sh"
    editor.write_text("#!/bin/sh\nsed -i 's/14/16/' \"$1\"\n")
    editor.chmod(0o755)
    code, out = cm("approve", p["id"], "--edit", env={"EDITOR": str(editor)})
    assert code == 0 and out["edited"] and out["written_to"] == "areas/projects/alpha/facts.json"
    assert load_facts(os.path.join(cfg.root, out["written_to"]))[-1]["fact"] == "The staging DB is Postgres 16"

    q = queue.propose(cfg.root, "fact", "The cache is Redis 7 on port 6380", project="alpha")
    queue.edit(cfg.root, q["id"], "The cache is Redis 7.2 on port 6380", by="ui")   # the UI edited it
    code, out = cm("approve", q["id"], "--revision", "1")
    assert code == 10 and out["error"] == "CONFLICT"
    assert queue.get_proposal(cfg.root, q["id"])["text"] == "The cache is Redis 7.2 on port 6380"
    code, out = cm("approve", q["id"], "--edit", env={"EDITOR": "/nonexistent/editor"})
    assert code == 2 and out["error"] == "INVALID_ARGUMENT" and queue.pending_count(cfg.root) == 1


def test_cli_corrupt_file_is_reported_not_fatal(cfg):
    good = queue.propose(cfg.root, "pitfall", "a fine proposal about flaky tests")
    with open(os.path.join(cfg.root, "review", "pending", "p-0000000000bb.json"), "w") as fh:
        fh.write("\x00garbage")
    code, out = cm("list")
    assert code == 0 and [p["id"] for p in out["proposals"]] == [good["id"]]
    assert out["corrupt"][0]["id"] == "p-0000000000bb"
    code, out = cm("show", "p-0000000000bb")
    assert code == 7 and out["error"] == "REVIEW_CORRUPT"


# SessionStart (through the shim) ----------------------------------------------------------------

def test_session_start_says_how_many_proposals_wait(initialized_root, project):
    from support.hook_runner import payload, run_hook
    context = run_hook("session-start", payload("session-start", project)).context or ""
    assert "review" not in context.lower() or "proposal" not in context
    root = initialized_root.root
    queue.propose(root, "skill", "---\nname: auto-x\n---\nsteps", title="auto-x")
    queue.propose(root, "pitfall", "git stash drops untracked files unless -u is given")
    context = run_hook("session-start", payload("session-start", project)).context
    assert "2 memory proposals wait for the user's review" in context and "`code-memory review list`" in context
    assert context.count("proposals wait") == 1 and len(context) <= 6000
    # nothing of the proposals' text is injected: only the count
    assert "git stash" not in context
    # a tiny budget keeps the line (highest priority)
    context = run_hook("session-start", payload("session-start", project),
                       env={"CODE_MEMORY_HOOKS__SESSION_START_MAX_CHARS": "600"}).context
    assert "2 memory proposals wait" in context


def test_pending_count_is_stdlib_light():
    import subprocess
    import sys

    from support.hook_runner import REPO
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import code_memory.review.count as c; "
             "c.pending_count('/nonexistent'); print(','.join(sorted(n for n in sys.modules if n in "
             "('json', 're', 'hashlib', 'datetime'))))")
    out = subprocess.run([sys.executable, "-S", "-c", probe, os.path.join(REPO, "scripts")],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


# kv writes from untrusted sources (real CLI) -----------------------------------------------------

def test_kv_untrusted_write_is_kept_and_proposed_in_queue_mode(memory_root):
    from conftest import run_script
    os.makedirs(memory_root, exist_ok=True)

    def kv(*args, env=None):
        proc = run_script("code-memory.py", "kv", *args, env=env)
        return proc.returncode, json.loads(proc.stdout)

    # auto (default): refused as before, nothing queued
    code, out = kv("set", "/kb/port", '{"summary": "port 9000"}', "https://example.com/doc")
    assert code != 0 and queue.pending_count(memory_root) == 0
    env = {"CODE_MEMORY_REVIEW__MODE__KV": "queue"}
    code, out = kv("set", "/kb/port", '{"summary": "port 9000"}', "https://example.com/doc", env=env)
    assert code == 0 and out["key"] == "/untrusted/kb/port" and out["quarantined"] and out["proposal"]
    prop = queue.get_proposal(memory_root, out["proposal"])
    assert prop["kind"] == "kv" and prop["target"] == "/kb/port" and json.loads(prop["text"]) == {"summary": "port 9000"}
    # the same write again is not proposed twice; a trusted write is never queued
    code, again = kv("set", "/kb/port", '{"summary": "port 9000"}', "https://example.com/doc", env=env)
    assert again["proposal"] is None and queue.pending_count(memory_root) == 1
    user = json.dumps({"kind": "user", "name": "chat", "retrieved_at": "2026-02-22T10:00:00Z", "locator": {"m": 1}})
    code, out = kv("set", "/user/editor", '{"summary": "vim"}', user, env=env)
    assert code == 0 and "proposal" not in out
    code, out = cm("approve", prop["id"])
    assert code == 0 and out["written_to"] == "/kb/port"
    code, out = kv("get", "/kb/port")
    assert code == 0 and out["content"] == {"summary": "port 9000"}
    code, out = kv("get", "/untrusted/kb/port")     # the quarantined copy stays
    assert code == 0


def test_later_evidence_or_approval_promotes_a_hypothesis(cfg):
    from code_memory.summary import distribute
    paths = cfg.paths
    hyp = {"state": "hypothesis", "evidence": []}
    proof = {"state": "verified", "evidence": ["passed: pytest -q"]}
    distribute.add_rules(paths, "alpha", [{"rule": "Seed the DB before e2e tests", "category": "测试",
                                           "verification": hyp}])
    distribute.add_pitfalls(paths, [{"text": "npm ci wipes node_modules", "verification": hyp}], 0.6, 0.8)
    rules_md = os.path.join(paths.project_dir("alpha"), "rules.md")
    assert "- Seed the DB before e2e tests [unverified]" in open(rules_md, encoding="utf-8").read()
    # the same hypothesis again changes nothing; evidence later promotes it in place
    assert distribute.add_rules(paths, "alpha", [{"rule": "Seed the DB before e2e tests", "verification": hyp}]) == []
    assert distribute.add_rules(paths, "alpha", [{"rule": "Seed the DB before e2e tests", "verification": proof}])
    text = open(rules_md, encoding="utf-8").read()
    assert text.count("Seed the DB") == 1 and "- Seed the DB before e2e tests [verified: passed: pytest -q]" in text
    # a pitfall approved from the queue promotes the hypothesis line already in MEMORY.md
    p = queue.propose(cfg.root, "pitfall", "npm ci wipes node_modules")
    assert review.approve(cfg, p["id"])["added"] == 1
    memory = open(paths.memory_md, encoding="utf-8").read()
    assert memory.count("npm ci wipes node_modules") == 1
    assert "- npm ci wipes node_modules [verified: approved by the user" in memory


def test_injected_text_labels_hypotheses(initialized_root, project):
    from code_memory.summary import distribute
    from support.hook_runner import payload, run_hook
    paths = initialized_root
    distribute.add_pitfalls(paths, [{"text": "HYP-PITFALL-1 tmpfs loses the cache on reboot",
                                     "verification": {"state": "hypothesis"}}], 0.6, 0.8)
    context = run_hook("session-start", payload("session-start", project)).context
    assert "HYP-PITFALL-1 tmpfs loses the cache on reboot [unverified]" in context
    assert "Lines marked [unverified] are hypotheses nobody has proven yet" in context
    # the rules injector (first Read in the project) says the same for rules.md
    distribute.add_rules(paths, "alpha", [{"rule": "HYP-RULE-2 use port 8081", "verification": {"state": "hypothesis"}}])
    read = payload("pre-read", project, tool_input={"file_path": os.path.join(project, "src", "a.py")})
    context = run_hook("rules-injector", read).context
    assert "- HYP-RULE-2 use port 8081 [unverified]" in context
    assert "Lines marked [unverified] are hypotheses" in context


def test_preview_is_what_approval_writes_and_writes_nothing(cfg):
    from code_memory.memory.facts import add_fact

    root = cfg.root
    rules_md = os.path.join(root, "areas", "projects", "alpha", "rules.md")
    memory_md = os.path.join(root, "MEMORY.md")
    old = add_fact(os.path.join(root, "areas", "projects", "alpha", "facts.json"), "The pool size is 10",
                   evidence="app.py", category="config")
    rule = queue.propose(root, "rule", "Pin the redis client version", project="alpha", payload={"category": "deps"})
    pitfall = queue.propose(root, "pitfall", "A webhook retried without an idempotency key charges twice")
    fact = queue.propose(root, "fact", "The pool size is 20", project="alpha", payload={"supersedes": old["id"]})
    skill = queue.propose(root, "skill", "---\nname: deploy-check\n---\nRun the checks.", title="deploy-check")
    files = {path: open(path, encoding="utf-8").read() if os.path.exists(path) else None
             for path in (rules_md, memory_md)}
    shown = {p["kind"]: review.preview(cfg, p, actor="test") for p in (rule, pitfall, fact, skill)}
    assert {path: open(path, encoding="utf-8").read() if os.path.exists(path) else None for path in files} == files
    assert shown["fact"]["before"] == "The pool size is 10" and shown["fact"]["after"] == "The pool size is 20"
    assert shown["skill"]["before"] is None
    for prop, path in ((rule, rules_md), (pitfall, memory_md)):
        assert shown[prop["kind"]]["before"] == (files[path] or "")
        review.approve(cfg, prop["id"], actor="test")
        assert open(path, encoding="utf-8").read() == shown[prop["kind"]]["after"]      # exactly what was shown
    again = queue.propose(root, "rule", "Pin the redis client version", project="alpha", payload={"category": "deps"})
    repeat = review.preview(cfg, again, actor="test")
    assert repeat["before"] == repeat["after"]                                         # already there: no change
    gone = queue.propose(root, "rule", "A rule for nowhere", project="ghost")
    assert review.preview(cfg, gone)["error"] == "REVIEW_TARGET_GONE"
