import json
import multiprocessing
import os
import sqlite3

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.evolution import feedback as fb
from code_memory.evolution.archive import archive, locate, restore
from code_memory.fsutil import iter_jsonl
from code_memory.memory import experience as exp
from conftest import run_script
from evolution_support import touched_outcome

DAY = 86400.0
NOW = 1_800_000_000.0          # a fixed "now" so ages are exact
S = fb.Settings()


def _history(paths):
    """Four experiences with hand-computable scores (see test_scores_match_hand_computed_values)."""
    # A: sessions s1, s2 succeed, s3 fails; last referenced 45 days ago
    fb.record_refs(paths, "s1", ["pitfall:aaaaaaaaaa", "rule:web:bbbbbbbbbb"], now=NOW - 50 * DAY)
    fb.record_refs(paths, "s1", ["pitfall:aaaaaaaaaa"], now=NOW - 50 * DAY)       # same session: once
    fb.record_refs(paths, "s2", ["pitfall:aaaaaaaaaa", "rule:web:bbbbbbbbbb"], now=NOW - 46 * DAY)
    fb.record_refs(paths, "s3", ["pitfall:aaaaaaaaaa"], now=NOW - 45 * DAY)
    touched_outcome(paths, "s1", "success", now=NOW - 50 * DAY)
    touched_outcome(paths, "s2", "failed", 4, now=NOW - 46 * DAY)
    touched_outcome(paths, "s2", "success", 1, now=NOW - 46 * DAY)              # last outcome wins
    touched_outcome(paths, "s3", "failed", 5, now=NOW - 45 * DAY)
    # B (rule:web:bbbbbbbbbb): s1, s2 success, referenced again today in s4 (no outcome yet)
    fb.record_refs(paths, "s4", ["rule:web:bbbbbbbbbb"], now=NOW)
    # C: two failed sessions, today
    fb.record_refs(paths, "s5", ["fact:fact-c"], now=NOW - 1 * DAY)
    fb.record_refs(paths, "s6", ["fact:fact-c"], now=NOW)
    touched_outcome(paths, "s5", "failed", 3, now=NOW - 1 * DAY)
    touched_outcome(paths, "s6", "failed", 3, now=NOW)
    # D: one success, 180 days ago (two half-lives)
    fb.record_refs(paths, "s7", ["pitfall:dddddddddd"], now=NOW - 180 * DAY)
    touched_outcome(paths, "s7", "success", now=NOW - 180 * DAY)


def test_scores_match_hand_computed_values(initialized_root):
    _history(initialized_root)
    got = {s["experience_id"]: s for s in fb.scores(initialized_root, S, now=NOW)}
    a = got["pitfall:aaaaaaaaaa"]
    # s = 2 (s1, s2), f = 1 (s3): p = 3/5 = 0.6; age 45 d: w = 0.5**0.5 = 0.70711; score 0.42426
    assert (a["success"], a["failed"], a["sessions"], a["total_refs"]) == (2, 1, 3, 4)
    assert a["laplace"] == pytest.approx(0.6)
    assert a["decay"] == pytest.approx(0.7071, abs=1e-4)
    assert a["score"] == pytest.approx(0.4243, abs=1e-4)
    assert a["status"] == "normal"
    b = got["rule:web:bbbbbbbbbb"]
    # s = 2, f = 0 (s4 has no outcome): p = 3/4; referenced today: w = 1
    assert (b["laplace"], b["decay"], b["score"], b["status"]) == (0.75, 1.0, 0.75, "high_value")
    c = got["fact:fact-c"]
    # s = 0, f = 2: p = 1/4 = 0.25 → archive candidate
    assert (c["laplace"], c["score"], c["status"]) == (0.25, 0.25, "archive_candidate")
    d = got["pitfall:dddddddddd"]
    # p = 2/3, 180 d = 2 half-lives: w = 0.25, score = 0.1667 → archive candidate despite success
    assert d["decay"] == pytest.approx(0.25)
    assert d["score"] == pytest.approx(2 / 3 * 0.25, abs=1e-4)
    assert d["status"] == "archive_candidate"
    # best first
    assert [s["experience_id"] for s in fb.scores(initialized_root, S, now=NOW)][0] == "rule:web:bbbbbbbbbb"
    # a 30-day half-life decays A much further: 0.6 * 0.5**1.5
    short = fb.Settings(half_life_days=30)
    a30 = fb.scores(initialized_root, short, experience_id="pitfall:aaaaaaaaaa", now=NOW)[0]
    assert a30["score"] == pytest.approx(0.6 * 0.5 ** 1.5, abs=1e-4)


def test_unreferenced_experience_gets_the_prior(initialized_root):
    row = fb.scores(initialized_root, S, experience_id="pitfall:0000000000")[0]
    assert (row["score"], row["status"], row["total_refs"]) == (0.5, "unreferenced", 0)


def test_settings_validation():
    with pytest.raises(CodeMemoryError):
        fb.Settings.from_config({"half_life_days": 0})
    with pytest.raises(CodeMemoryError):
        fb.Settings.from_config({"archive_threshold": 0.8, "high_value_threshold": 0.7})
    assert fb.Settings.from_config({"half_life_days": 30}).half_life_days == 30.0


def test_derived_tables_follow_the_log_incrementally_and_rebuild(initialized_root):
    paths = initialized_root
    fb.record_refs(paths, "s1", ["pitfall:aaaaaaaaaa"])
    assert fb.sync(paths) == {"events": 1, "rebuilt": True}
    assert fb.sync(paths) == {"events": 0, "rebuilt": False}
    touched_outcome(paths, "s1", "success")
    assert fb.sync(paths) == {"events": 1, "rebuilt": False}
    conn = sqlite3.connect(paths.evolution_db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"experience_refs", "session_outcomes", "experience_effectiveness"} <= tables
    row = conn.execute("SELECT total_refs, success_refs, fail_refs, laplace_score FROM experience_effectiveness").fetchone()
    assert row == (1, 1, 0, pytest.approx(2 / 3))
    conn.close()
    # a torn (still being written) last line is not consumed until it is complete
    with open(paths.audit_log, "a") as fh:
        fh.write('{"timestamp":"2026-01-01T00:00:00","event_type":"ref","experience_id":"pitfall:bbbbbbbbbb",')
    assert fb.sync(paths)["events"] == 0
    with open(paths.audit_log, "a") as fh:
        fh.write('"session_id":"s2"}\n')
    assert fb.sync(paths)["events"] == 1
    # the log rewritten (e.g. restored from a backup): full rebuild
    lines = open(paths.audit_log).read().splitlines()
    with open(paths.audit_log, "w") as fh:
        fh.write("\n".join(lines[1:]) + "\n")
    assert fb.sync(paths)["rebuilt"] is True
    assert [s["experience_id"] for s in fb.scores(paths, S)] == ["pitfall:bbbbbbbbbb"]
    # a damaged database is rebuilt from the log
    with open(paths.evolution_db, "wb") as fh:
        fh.write(b"this is not a database" * 100)
    assert fb.sync(paths)["rebuilt"] is True
    assert len(fb.scores(paths, S)) == 1
    # deleting it loses nothing
    os.unlink(paths.evolution_db)
    assert len(fb.scores(paths, S)) == 1


def test_record_refs_validates_and_dedupes(initialized_root):
    n = fb.record_refs(initialized_root, "s1", ["pitfall:aaaaaaaaaa", "pitfall:aaaaaaaaaa", "not an id",
                                                 ("fact:f-1", "search"), ""], context="session-start")
    assert n == 2
    events = list(iter_jsonl(initialized_root.audit_log))
    assert [(e["experience_id"], e["context"]) for e in events] == [("pitfall:aaaaaaaaaa", "session-start"),
                                                                    ("fact:f-1", "search")]
    assert oct(os.stat(initialized_root.audit_log).st_mode & 0o777) == "0o600"
    for bad in ("", None, "x" * 201):
        with pytest.raises(CodeMemoryError):
            fb.record_refs(initialized_root, bad, ["pitfall:aaaaaaaaaa"])
    with pytest.raises(CodeMemoryError):
        fb.record_outcome(initialized_root, "s1", "maybe")
    with pytest.raises(CodeMemoryError):
        fb.record_outcome(initialized_root, "s1", "success", -1)


def _append_many(root, worker):
    from code_memory.paths import MemoryPaths
    paths = MemoryPaths(root)
    for i in range(150):
        fb.record_refs(paths, f"w{worker}", [f"pitfall:{worker:02d}{i:08d}", f"fact:f{worker}-{i}"])


def test_concurrent_writers_never_tear_lines(initialized_root):
    procs = [multiprocessing.Process(target=_append_many, args=(initialized_root.root, w)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    raw = open(initialized_root.audit_log, encoding="utf-8").read().splitlines()
    assert len(raw) == 4 * 150 * 2
    assert all(json.loads(line)["event_type"] == "ref" for line in raw)


def test_experience_ids_follow_the_contract():
    line = "- 不要在 bash 3 里用 declare -A  "
    digest = __import__("hashlib").sha1(line.strip().encode()).hexdigest()[:10]
    assert exp.pitfall_id(line) == f"pitfall:{digest}"
    assert exp.rule_id("web", line) == f"rule:web:{digest}"
    assert exp.parse_id(f"rule:web:{digest}") == ("rule", "web", digest)
    assert exp.parse_id("fact:fact-001") == ("fact", None, "fact-001")
    memory = "# M\n\n## 避坑经验 (Pitfalls)\n\n- one\n  text\n* two\n\n## 最佳实践 (Best practices)\n\n- not a pitfall\n"
    assert [line for _, line, _ in exp.pitfall_lines(memory)] == ["- one", "* two"]


def _seed_files(paths):
    with open(paths.memory_md, encoding="utf-8") as fh:
        text = fh.read()
    text = text.replace("## 避坑经验 (Pitfalls)\n", "## 避坑经验 (Pitfalls)\n\n- keep me\n- 过时的经验\n")
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text)
    from code_memory.memory.facts import add_fact
    from code_memory.memory.tree import ensure_area
    proj = ensure_area(paths, "projects", "web")
    with open(os.path.join(proj, "rules.md"), "a", encoding="utf-8") as fh:
        fh.write("\n## 编码规范\n\n- use tabs\n- old rule\n")
    fact = add_fact(os.path.join(proj, "facts.json"), "port is 8080")
    return fact["id"]


def test_archive_dry_run_apply_and_restore(initialized_root):
    paths = initialized_root
    fid = _seed_files(paths)
    stale, rule, keep = exp.pitfall_id("- 过时的经验"), exp.rule_id("web", "- old rule"), exp.pitfall_id("- keep me")
    for sid in ("a", "b"):
        fb.record_refs(paths, sid, [stale, rule, f"fact:{fid}"])
        touched_outcome(paths, sid, "failed", 3)
    fb.record_refs(paths, "c", [keep])
    touched_outcome(paths, "c", "success")
    assert locate(paths, stale).section == "## 避坑经验 (Pitfalls)"

    plan = archive(paths, S)
    assert plan["dry_run"] is True
    assert {i["experience_id"] for i in plan["items"]} == {stale, rule, f"fact:{fid}"}
    assert "过时的经验" in open(paths.memory_md, encoding="utf-8").read()      # dry run changes nothing

    done = archive(paths, S, apply=True)
    assert done["archived"] == 3
    memory = open(paths.memory_md, encoding="utf-8").read()
    assert "过时的经验" not in memory and "- keep me" in memory
    rules = open(os.path.join(paths.project_dir("web"), "rules.md"), encoding="utf-8").read()
    assert "- old rule" not in rules and "- use tabs" in rules
    facts = json.load(open(os.path.join(paths.project_dir("web"), "facts.json")))["facts"]
    assert facts[0]["status"] == "archived"
    assert {s["status"] for s in fb.scores(paths, S) if s["experience_id"] != keep} == {"archived"}
    assert archive(paths, S)["items"] == []                                       # nothing left to archive

    restore(paths, stale)
    restore(paths, rule)
    restore(paths, f"fact:{fid}")
    memory = open(paths.memory_md, encoding="utf-8").read()
    pit = [line for _, line, _ in exp.pitfall_lines(memory)]
    assert "- 过时的经验" in pit
    rules = open(os.path.join(paths.project_dir("web"), "rules.md"), encoding="utf-8").read()
    assert rules.index("- old rule") > rules.index("## 编码规范")
    assert json.load(open(os.path.join(paths.project_dir("web"), "facts.json")))["facts"][0]["status"] == "active"
    with pytest.raises(CodeMemoryError) as err:
        restore(paths, stale)
    assert err.value.code == "NOT_FOUND"


def test_archive_explicit_ids_and_missing_lines(initialized_root):
    res = archive(initialized_root, S, ids=["pitfall:0123456789"])
    assert res["items"] == [{"experience_id": "pitfall:0123456789", "score": None, "action": "not-found"}]
    with pytest.raises(CodeMemoryError):
        archive(initialized_root, S, ids=["nonsense"])


def test_score_cache_for_the_hot_path(initialized_root):
    paths = initialized_root
    fb.record_refs(paths, "s1", ["pitfall:aaaaaaaaaa"], now=NOW - 90 * DAY)
    touched_outcome(paths, "s1", "success", now=NOW - 90 * DAY)
    fb.refresh_score_cache(paths, S)
    cache = fb.load_score_cache(paths)
    assert fb.cached_score(cache, "pitfall:aaaaaaaaaa", now=NOW) == pytest.approx(2 / 3 * 0.5, abs=1e-4)
    assert fb.cached_score(cache, "pitfall:unknown000", now=NOW) is None
    with open(os.path.join(paths.index_dir, fb.SCORES_CACHE), "w") as fh:
        fh.write("{broken")
    assert fb.load_score_cache(paths) == {}


def test_cli_end_to_end(initialized_root):
    def run(*args):
        proc = run_script("memory-feedback.py", *args)
        return proc.returncode, (json.loads(proc.stdout) if proc.stdout.startswith("{") else proc.stdout)

    code, out = run("ref", "--experience-id", "pitfall:aaaaaaaaaa", "--session-id", "s1",
                    "--context", "token sk-ant-api03-" + "x" * 30)
    assert code == 0 and out["recorded"] == 1
    assert "sk-ant" not in open(initialized_root.audit_log).read()
    code, out = run("outcome", "--session-id", "s1", "--outcome", "success", "--corrections", "2")
    assert code == 0 and out["event"]["corrections"] == 2
    code, out = run("score", "--id", "pitfall:aaaaaaaaaa")
    assert out["experiences"][0]["laplace"] == 0.5           # an outcome without evidence moves no score
    code, out = run("outcome", "--session-id", "s1", "--outcome", "success", "--evidence", "pitfall:aaaaaaaaaa")
    assert code == 0 and out["event"]["evidence"] == ["pitfall:aaaaaaaaaa"]
    code, out = run("score", "--id", "pitfall:aaaaaaaaaa")
    assert out["experiences"][0]["laplace"] == pytest.approx(2 / 3, abs=1e-4)
    code, out = run("outcome", "--session-id", "s1", "--outcome", "success", "--evidence", "not an id")
    assert code == 2 and out["error"] == "INVALID_ARGUMENT"
    code, out = run("report")
    assert out["totals"]["sessions_with_outcome"] == 1 and out["totals"]["success_rate"] == 1.0
    code, text = run("report", "--format", "markdown")
    assert text.startswith("# Memory feedback report") and "## Archive candidates" in text
    code, out = run("archive")
    assert out["dry_run"] is True
    code, out = run("ref", "--experience-id", "bad id", "--session-id", "s1")
    assert code == 2 and out["error"] == "INVALID_ARGUMENT"
    code, out = run("outcome", "--session-id", "s1", "--outcome", "meh")
    assert code == 2 and out["ok"] is False
    code, out = run("outcome", "--session-id", "s9", "--transcript", "/nonexistent.jsonl")
    assert code == 3 and out["error"] == "NOT_FOUND"
    code, out = run("rebuild")
    assert out["rebuilt"] is True
    code, out = run("restore", "--id", "pitfall:aaaaaaaaaa")
    assert code == 3
    proc = run_script("code-memory.py", "feedback", "score", "--format", "text")
    assert "pitfall:aaaaaaaaaa" in proc.stdout
