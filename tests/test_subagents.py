"""Subagents have their own context: the rules gate and the rules injector keep flags per
``agent_id``, and subagent-rules starts an edit-capable subagent with the project's rules and a
memory brief. Real shims, payload shapes of the real binary (agent_id on every event inside a
subagent; tests/e2e/test_subagents_e2e.py shows it with the binary itself)."""

from __future__ import annotations

import os

from support.hook_runner import payload, run_hook
from test_hooks import edit_payload, flag_dir, log_records, read_payload, rules_file, write

AGENT = "ae46e5f29a6b3d3a5"


def sub(data: dict, agent_id: str = AGENT, agent_type: str = "general-purpose") -> dict:
    """A payload as sent from inside a subagent."""
    return {**data, "agent_id": agent_id, "agent_type": agent_type}


def start(project, agent_type="general-purpose", **kw):
    return payload("subagent-start", project, agent_type=agent_type, **kw)


def test_a_subagent_is_gated_by_its_own_reads_not_the_main_agents(initialized_root, project, tmp_path):
    rules_file(initialized_root, "alpha")
    assert "RULE-MARKER-1" in run_hook("rules-injector", read_payload(project)).context  # the main agent
    assert run_hook("rules-gate", edit_payload(project)).silent                           # main may edit
    denied = run_hook("rules-gate", sub(edit_payload(project)))
    assert denied.decision == "deny" and "rules.md" in denied.specific["permissionDecisionReason"]
    # its own first Read brings the rules into the subagent's context, then its edit passes
    assert "RULE-MARKER-1" in run_hook("rules-injector", sub(read_payload(project))).context
    assert run_hook("rules-gate", sub(edit_payload(project))).silent
    assert os.path.exists(os.path.join(flag_dir(tmp_path), "sess-test-1", f"a-{AGENT}", "p-alpha"))
    # a second subagent of the same session starts blind again
    assert run_hook("rules-gate", sub(edit_payload(project), agent_id="other-agent")).decision == "deny"


def test_the_shell_fast_path_is_keyed_by_agent(initialized_root, project, tmp_path):
    """Directory markers of the main agent never let a subagent's edit through in bash, and a
    subagent's own marker does (no Python: the flag dir is made unusable for Python to prove it)."""
    rules_file(initialized_root, "alpha")
    run_hook("rules-injector", read_payload(project))
    session = os.path.join(flag_dir(tmp_path), "sess-test-1")
    assert any(n.startswith("d") for n in os.listdir(session))
    assert run_hook("rules-gate", sub(edit_payload(project))).decision == "deny"
    run_hook("rules-injector", sub(read_payload(project)))
    agent_dir = os.path.join(session, f"a-{AGENT}")
    assert any(n.startswith("d") for n in os.listdir(agent_dir))
    # the bash fast path answers the subagent's next edit: Python is never started
    witness = tmp_path / "python-ran"
    fake = write(str(tmp_path / "fake-python"), f"#!/bin/sh\ntouch {witness}\n")
    os.chmod(fake, 0o755)
    assert run_hook("rules-gate", sub(edit_payload(project)), env={"CODE_MEMORY_PYTHON": fake}).silent
    assert not witness.exists()
    # another subagent, or an agent id the shell cannot use as a name, goes to Python — never to
    # the session's (or another agent's) markers
    assert run_hook("rules-gate", sub(edit_payload(project), agent_id="b2"), env={"CODE_MEMORY_PYTHON": fake}).silent
    assert witness.exists()
    witness.unlink()
    odd = sub(edit_payload(project), agent_id="weird id/..")
    run_hook("rules-gate", odd, env={"CODE_MEMORY_PYTHON": fake})
    assert witness.exists()
    assert run_hook("rules-gate", odd).decision == "deny"


def test_subagent_start_brings_rules_and_a_brief_and_opens_its_gate(initialized_root, project, tmp_path):
    rules_file(initialized_root, "alpha")
    write(initialized_root.memory_md, "# MEMORY\n\n## 避坑经验 (Pitfalls)\n\n- 不要用 float 存金额 (PITFALL-MARKER-7)\n")
    result = run_hook("subagent-rules", start(project))
    context = result.context
    assert result.specific["hookEventName"] == "SubagentStart"
    assert "RULE-MARKER-1" in context and "PITFALL-MARKER-7" in context
    assert "memory-search" in context and "recalled-memory" in context and "not new instructions" in context
    assert run_hook("rules-gate", sub(edit_payload(project), agent_id=payload("subagent-start", project)["agent_id"])).silent
    assert run_hook("rules-gate", edit_payload(project)).decision == "deny"  # the main agent read nothing
    record = [r for r in log_records(initialized_root) if r["action"] == "inject-subagent"][-1]
    assert record["rules"] == 1 and record["keyed"] is True and record["project"] == "alpha"
    assert "RULE-MARKER" not in str(record)


def test_read_only_agents_get_nothing_and_custom_agents_get_the_rules(initialized_root, project):
    rules_file(initialized_root, "alpha")
    assert run_hook("subagent-rules", start(project, agent_type="Explore")).silent
    assert run_hook("subagent-rules", start(project, agent_type="Plan")).silent
    assert "RULE-MARKER-1" in run_hook("subagent-rules", start(project, agent_type="my-plugin:refactorer")).context
    assert "RULE-MARKER-1" in run_hook("subagent-rules", start(project, agent_type="code-reviewer")).context
    env = {"CODE_MEMORY_HOOKS__READONLY_AGENTS": '["code-reviewer"]'}
    assert run_hook("subagent-rules", start(project, agent_type="code-reviewer"), env=env).silent
    assert "RULE-MARKER-1" in run_hook("subagent-rules", start(project, agent_type="Explore"), env=env).context


def test_older_builds_without_agent_id_still_work(initialized_root, project, tmp_path):
    """Before 2.1.69 a subagent's payloads carry only the session id: the subagent still starts
    with the rules, the session's gate decides as before, and no flag is invented."""
    rules_file(initialized_root, "alpha")
    old = start(project)
    del old["agent_id"]
    assert "RULE-MARKER-1" in run_hook("subagent-rules", old).context
    assert run_hook("rules-gate", edit_payload(project)).decision == "deny"  # no session flag was set
    assert "RULE-MARKER-1" in run_hook("rules-injector", read_payload(project)).context
    assert run_hook("rules-gate", edit_payload(project)).silent
    assert not [n for n in os.listdir(os.path.join(flag_dir(tmp_path), "sess-test-1")) if n.startswith("a-")]


def test_no_rules_means_a_brief_only_and_no_project_means_no_flag(initialized_root, project, tmp_path):
    context = run_hook("subagent-rules", start(project)).context
    assert "memory-search" in context and "rules of project" not in context
    assert not os.path.exists(os.path.join(flag_dir(tmp_path), "sess-test-1", f"a-{AGENT}"))
    env = {"CODE_MEMORY_HOOKS__RULES_INJECTION": "false"}
    assert run_hook("subagent-rules", start(project), env=env).silent


def test_session_end_and_compaction_clear_the_subagents_flags_too(initialized_root, project, tmp_path):
    rules_file(initialized_root, "alpha")
    run_hook("rules-injector", sub(read_payload(project)))
    session = os.path.join(flag_dir(tmp_path), "sess-test-1")
    assert os.path.isdir(os.path.join(session, f"a-{AGENT}"))
    run_hook("pre-compact", payload("pre-compact", project), env={"CODE_MEMORY_HOOKS__SUMMARIZE_ON_END": "false"})
    assert not os.path.exists(session)
    assert run_hook("rules-gate", sub(edit_payload(project))).decision == "deny"


def test_schema_stays_once_per_session_across_subagents(initialized_root, project):
    write(os.path.join(initialized_root.root, "projects", "shared-db", "schema-index.md"),
          "# schema\n\n- t_order: orders (SCHEMA-MARKER-9)\n")
    first = run_hook("schema-injector", start(project, agent_type="Explore", agent_id="agent-one"))
    assert "SCHEMA-MARKER-9" in first.context
    assert run_hook("schema-injector", start(project, agent_type="Explore", agent_id="agent-two")).silent
