"""Feedback in search: hits carry the experiences they show, high-value experiences get the
documented boost, and a search or get run from Claude's Bash tool (CLAUDE_CODE_SESSION_ID)
records references for that session."""

import json
import os

import pytest

from code_memory.config import load_config
from code_memory.evolution import feedback as fb
from code_memory.fsutil import iter_jsonl
from code_memory.memory import experience as exp
from code_memory.memory.facts import add_fact
from code_memory.search.engine import search_memory
from code_memory.search.feedback_boost import ExperienceFinder, annotate_and_rerank
from conftest import run_script

P1 = "- 部署前检查 nginx 配置 (nginx -t)"
P2 = "- 修改 nginx 配置后要 reload 而不是 restart"
RULE = "- nginx 配置放在 deploy/nginx/ 下"


@pytest.fixture
def root(initialized_root):
    paths = initialized_root
    text = open(paths.memory_md, encoding="utf-8").read()
    text = text.replace("## 避坑经验 (Pitfalls)\n", f"## 避坑经验 (Pitfalls)\n\n{P1}\n\n## 运维 nginx\n\n{P2}\n")
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(text)
    rules = os.path.join(paths.project_dir("demo"), "rules.md")
    os.makedirs(os.path.dirname(rules))
    with open(rules, "w", encoding="utf-8") as fh:
        fh.write(f"# demo rules\n\n## 部署\n\n{RULE}\n")
    add_fact(os.path.join(paths.project_dir("demo"), "facts.json"), "生产 nginx 监听 8443 端口")
    return paths


def cfg_for(paths, **env):
    return load_config(env={"CODE_MEMORY_ROOT": paths.root, "CODE_MEMORY_EMBEDDING__ENABLED": "false", **env})


def test_hits_carry_the_experiences_they_show(root):
    answer = search_memory(cfg_for(root), "nginx 配置", mode="bm25", project="demo", top_k=10)
    shown = {e for hit in answer["results"] for e in hit.get("experiences", [])}
    fact_id = json.load(open(os.path.join(root.project_dir("demo"), "facts.json")))["facts"][0]["id"]
    assert exp.rule_id("demo", RULE) in shown
    assert exp.pitfall_id(P1) in shown and f"fact:{fact_id}" in shown
    # P2 sits under another heading of MEMORY.md, not the Pitfalls section: not a pitfall
    assert exp.pitfall_id(P2) not in shown
    assert not any("feedback_boost" in hit for hit in answer["results"])        # nothing scored yet


def test_boost_reorders_by_feedback_and_is_documented_size(monkeypatch):
    hits = [{"path": "/r/MEMORY.md", "snippet": "x", "score": 10.0}, {"path": "/r/MEMORY.md", "snippet": "y", "score": 9.0},
            {"path": "/r/MEMORY.md", "snippet": "z", "score": 8.5}]
    ids = {"x": "pitfall:xxxxxxxxxx", "y": "pitfall:yyyyyyyyyy", "z": "pitfall:zzzzzzzzzz"}

    class Finder(ExperienceFinder):
        def ids(self, path, shown):
            return [ids[shown]]

    cache = {"experiences": {ids["x"]: [0.25, None, 0], ids["y"]: [0.75, None, 0], ids["z"]: [0.8, None, 0]},
             "high_value_threshold": 0.7, "archive_threshold": 0.3}
    import code_memory.search.feedback_boost as sf
    monkeypatch.setattr(sf, "ExperienceFinder", Finder)
    ranked = annotate_and_rerank([dict(h) for h in hits], "/r", cache, 0.2)
    # y: 9 × 1.2 = 10.8, z: 8.5 × 1.2 = 10.2, x: 10 × 0.9 = 9.0
    assert [h["snippet"] for h in ranked] == ["y", "z", "x"]
    assert [h["feedback_boost"] for h in ranked] == [1.2, 1.2, 0.9]
    assert [h["score"] for h in ranked] == [9.0, 8.5, 10.0]                    # retrieval scores unchanged


def test_search_ranks_a_high_value_pitfall_first(root):
    base = search_memory(cfg_for(root), "nginx 配置", mode="bm25", project="demo", top_k=10)["results"]
    order = [h["path"] for h in base]
    rule_path = os.path.realpath(os.path.join(root.project_dir("demo"), "rules.md"))
    pitfall_at = next(i for i, h in enumerate(base) if exp.pitfall_id(P1) in h.get("experiences", []))
    assert [os.path.realpath(p) for p in order].index(rule_path) < pitfall_at     # unboosted: the rule leads
    # make the rule an archive candidate and the pitfall high value
    for i in range(3):
        fb.record_refs(root, f"good-{i}", [exp.pitfall_id(P1)])
        fb.record_outcome(root, f"good-{i}", "success", evidence=[exp.pitfall_id(P1)])
        fb.record_refs(root, f"bad-{i}", [exp.rule_id("demo", RULE)])
        fb.record_outcome(root, f"bad-{i}", "failed", evidence=[exp.rule_id("demo", RULE)])
    fb.refresh_score_cache(root, fb.Settings())
    boosted = search_memory(cfg_for(root), "nginx 配置", mode="bm25", project="demo", top_k=10)["results"]
    by_path = {os.path.realpath(h["path"]): h for h in boosted}
    memory_hit = next(h for h in boosted if exp.pitfall_id(P1) in h.get("experiences", []))
    rule_hit = by_path[rule_path]
    assert memory_hit["feedback_boost"] == 1.2 and rule_hit["feedback_boost"] == 0.9
    assert boosted.index(memory_hit) < boosted.index(rule_hit)
    off = search_memory(cfg_for(root, CODE_MEMORY_FEEDBACK__SEARCH_BOOST="0"), "nginx 配置", mode="bm25",
                        project="demo", top_k=10)["results"]
    assert [h["path"] for h in off] == order and not any("feedback_boost" in h for h in off)


def refs(paths, session):
    return [(e["experience_id"], e.get("context")) for e in iter_jsonl(paths.audit_log)
            if e.get("event_type") == "ref" and e["session_id"] == session]


def test_search_and_get_from_claudes_bash_record_refs(root, tmp_path):
    env = {"CODE_MEMORY_EMBEDDING__ENABLED": "false"}
    demo = tmp_path / "demo"      # the session runs in project demo (a session cannot name another project)
    demo.mkdir()
    res = run_script("memory-search.py", "nginx 配置", "--mode", "bm25", env=env, cwd=str(demo), session="sess-bash-1")
    out = json.loads(res.stdout)
    shown = {e for hit in out["results"] for e in hit.get("experiences", [])}
    got = refs(root, "sess-bash-1")
    assert got and {e for e, _ in got} == shown and {c for _, c in got} == {"search"}
    run_script("memory-search.py", "get", "--path", "areas/projects/demo/rules.md", env=env, cwd=str(demo),
               session="sess-bash-1")
    assert (exp.rule_id("demo", RULE), "get") in refs(root, "sess-bash-1")
    # outside a Claude session, or switched off: nothing recorded
    run_script("memory-search.py", "nginx 配置", "--mode", "bm25", cwd=str(demo),
               env={"CODE_MEMORY_EMBEDDING__ENABLED": "false"})
    run_script("memory-search.py", "nginx 配置", "--mode", "bm25", cwd=str(demo),
               env={**env, "CODE_MEMORY_FEEDBACK__RECORD_REFS": "false"}, session="sess-off")
    sessions = {e["session_id"] for e in iter_jsonl(root.audit_log) if e.get("event_type") == "ref"}
    assert sessions == {"sess-bash-1"}
