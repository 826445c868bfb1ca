"""The review loop with the real Claude Code binary: a rule the summarizer proposed waits (the
model is told so, and does not get the rule); the user approves it, edited, in the memory browser;
the next session's Read brings the approved wording, marked verified by the user's approval — read
from the request body the model received."""

from __future__ import annotations

import os

import pytest

from code_memory.summary import distribute
from conftest import REPO
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e

PROPOSED = "金额一律用 Decimal，不要用 float"
APPROVED = "金额一律用 Decimal（含单价和税额），不要用 float"


def test_a_rule_approved_in_the_browser_reaches_the_next_session(claude_runner, standin, project_dir,
                                                                 initialized_root, isolated_home):
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("jinja2")
    from support.ui_server import UiServer, environment

    (project_dir / ".git").mkdir()
    (project_dir / "price.py").write_text("PRICE = 1.5\n")
    os.makedirs(initialized_root.project_dir("alpha"), exist_ok=True)
    with open(os.path.join(initialized_root.project_dir("alpha"), "rules.md"), "w", encoding="utf-8") as fh:
        fh.write("# alpha — rules\n\n## 编码规范\n\n- 配置放在 config/ 下\n")
    [pid] = distribute.propose(initialized_root, "rule", "alpha", "s-earlier", [
        {"rule": PROPOSED, "category": "编码规范", "verification": {"state": "hypothesis", "evidence": []}}])

    read = main(tool("Read", file_path=str(project_dir / "price.py")))
    standin.push(read, main({"text": "ok"}))
    first = claude_runner.run("看看 price.py", plugin_dirs=[REPO])
    assert first.ok, first.describe()
    assert standin.requests_containing("1 memory proposal waits for the user's review", role="main")
    assert standin.requests_containing("配置放在 config/ 下", role="main")          # the rules were injected …
    assert not standin.requests_containing("金额一律用 Decimal", role="main")       # … the proposal was not

    with UiServer(environment(str(isolated_home))) as ui, \
            httpx.Client(base_url=ui.base, cookies=ui.cookie, timeout=60) as client:
        page = client.get(f"/review/{pid}").text
        csrf = page.split('name="csrf" value="')[1].split('"')[0]
        done = client.post(f"/api/review/{pid}/approve", headers={"X-CSRF-Token": csrf},
                           json={"revision": 1, "text": APPROVED}).json()
    assert done["ok"] and done["written_to"] == "areas/projects/alpha/rules.md", done

    before = len(standin.requests)
    standin.push(read, main({"text": "ok"}))
    second = claude_runner.run("再看看 price.py", plugin_dirs=[REPO])
    assert second.ok, second.describe()
    later = [r for r in standin.requests[before:] if r["role"] == "main"]
    bodies = [s for r in later for s in strings_in(r["body"])]
    injected = next(s for s in bodies if APPROVED in s)
    assert f"{APPROVED} [verified: approved by the user (ui" in injected
    assert PROPOSED not in injected and "memory proposal waits" not in " ".join(bodies)
