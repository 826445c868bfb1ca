"""Subagents in the real Claude Code binary: a general-purpose subagent has its own context, so it
starts with the project's rules (SubagentStart), and in a project whose rules it has not seen its
edit is denied until its own Read — even after the main agent read that project.

A general-purpose subagent's requests carry the Agent tool too, so the stand-in's role guess
("main" = has Agent) cannot tell them apart: steps here match on the subagent's task text, which
is the first user message of each of its requests.
"""

from __future__ import annotations

import json
import os

import pytest

from e2e.test_hooks_e2e import hooked, run, write  # noqa: F401 — the fixture runs install.sh and plugin mode
from support.standin_api import strings_in, tool

pytestmark = pytest.mark.e2e

TASK = "SUBTASK-7f3: apply the change"
ALPHA_RULE = "金额一律用 Decimal (ALPHA-RULE-MARKER)"
BETA_RULE = "日志一律用 logger (BETA-RULE-MARKER)"


def in_subagent(body) -> bool:
    messages = body.get("messages") or []
    return bool(messages) and TASK in json.dumps(messages[0].get("content"), ensure_ascii=False)


def sub(step: dict) -> dict:
    return {**step, "when": in_subagent}


def main_(step: dict) -> dict:
    return {**step, "when": lambda body: not in_subagent(body)}


def requests(standin, subagent: bool) -> list:
    return [r for r in standin.message_requests() if in_subagent(r["body"]) == subagent]


def has(request, marker: str) -> bool:
    return any(marker in s for s in strings_in(request["body"]))


def spawn() -> dict:
    return main_(tool("Agent", description="apply", prompt=TASK, subagent_type="general-purpose"))


def projects(project_dir, memory_root):
    (project_dir / ".git").mkdir()
    beta = project_dir.parent / "beta"
    (beta / ".git").mkdir(parents=True)
    for name, rule in (("alpha", ALPHA_RULE), ("beta", BETA_RULE)):
        write(os.path.join(memory_root, "areas", "projects", name, "rules.md"), f"# {name}\n\n## 规范\n\n- {rule}\n")
    return beta


def test_general_purpose_subagent_starts_with_the_rules(hooked, standin, project_dir, memory_root):
    projects(project_dir, memory_root)
    target = write(project_dir / "calc.py", "total = 1.5\n")
    standin.push(spawn(),
                 sub(tool("Edit", file_path=target, old_string="total = 1.5", new_string="total = Decimal('1.5')")),
                 sub({"text": "edited"}),
                 main_({"text": "All done."}))
    run(hooked, "fix the money type")
    assert standin.pending_steps() == []
    subs = requests(standin, subagent=True)
    assert subs and has(subs[0], "ALPHA-RULE-MARKER"), "the subagent's first request carried no rules"
    assert has(subs[0], "memory-search")  # the memory brief
    assert not any(has(r, "ALPHA-RULE-MARKER") for r in requests(standin, subagent=False))
    assert not any(has(r, "was not applied") for r in subs)
    with open(target, encoding="utf-8") as fh:
        assert fh.read() == "total = Decimal('1.5')\n"


def test_subagent_edit_waits_for_its_own_read_even_after_the_main_agent_read(hooked, standin, project_dir,
                                                                              memory_root):
    beta = projects(project_dir, memory_root)
    target = write(beta / "job.py", "print('start')\n")
    edit = tool("Edit", file_path=target, old_string="print('start')", new_string="logger.info('start')")
    standin.push(main_(tool("Read", file_path=target)),        # the main agent loads beta's rules
                 spawn(),
                 sub(edit),                                     # denied: this subagent never saw them
                 sub(tool("Read", file_path=target)),           # its own Read brings them
                 sub(edit),                                     # now it passes
                 sub({"text": "edited"}),
                 main_({"text": "All done."}))
    run(hooked, "switch the job to the logger")
    assert standin.pending_steps() == []
    mains, subs = requests(standin, subagent=False), requests(standin, subagent=True)
    assert has(mains[1], "BETA-RULE-MARKER")                    # the main agent got them with its Read
    assert not has(subs[0], "BETA-RULE-MARKER")                 # the subagent started with alpha's only
    assert has(subs[0], "ALPHA-RULE-MARKER")
    denial = subs[1]
    assert has(denial, "was not applied") and not has(denial, "BETA-RULE-MARKER")
    assert has(subs[2], "BETA-RULE-MARKER"), "the subagent's own Read did not bring the rules"
    last_result = json.dumps(subs[3]["body"]["messages"][-1], ensure_ascii=False)
    assert "was not applied" not in last_result      # the retried Edit's own result
    with open(target, encoding="utf-8") as fh:
        assert fh.read() == "logger.info('start')\n"
