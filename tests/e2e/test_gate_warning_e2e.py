"""A gate that cannot work tells the session once, in the real binary (issue 14, deliverable 7):
with a malformed config.json the rules gate cannot gate; the SessionStart warning reaches the model
(additionalContext) and the user (systemMessage, in the JSON result's output stream), and the edits
that follow go through without a second warning."""

from __future__ import annotations

import os

import pytest

from conftest import REPO
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e


def test_a_broken_config_is_reported_once(claude_runner, standin, memory_root, project_dir):
    (project_dir / ".git").mkdir()
    area = os.path.join(memory_root, "areas", "projects", "alpha")
    os.makedirs(area)
    with open(os.path.join(area, "rules.md"), "w", encoding="utf-8") as fh:
        fh.write("# alpha — rules\n\n## 编码规范\n\n- 金额一律用 Decimal (GATE-E2E)\n")
    with open(os.path.join(memory_root, "config.json"), "w") as fh:
        fh.write('{"hooks": {"rules_gate": "deny",,}')
    target = project_dir / "calc.py"
    target.write_text("total = 1.5\n")
    edit = tool("Edit", file_path=str(target), old_string="total = 1.5", new_string="total = 2.5")
    standin.push(main(edit), main(tool("Edit", file_path=str(target), old_string="total = 2.5",
                                       new_string="total = 3.5")), main({"text": "done"}))
    result = claude_runner.run("change it", plugin_dirs=[REPO])
    assert result.ok, result.describe()
    mains = standin.message_requests("main")
    warning = "A safety gate is not working"
    first = " ".join(strings_in(mains[0]["body"]))
    assert warning in first and "configuration cannot be read" in first          # SessionStart told the model
    last = " ".join(strings_in(mains[-1]["body"]))                             # the whole conversation so far
    assert last.count(warning) == first.count(warning) >= 1                     # not again after the edits
    assert target.read_text() == "total = 3.5\n"                                # the gate failed open
