"""Claude Code's sandbox as the hard boundary (issue 22, deliverable 2), with the real binary: after
``code-memory sandbox install`` a session's Bash cannot read the memory root (another project's
rules, the index) — not directly, not with ``dangerouslyDisableSandbox`` — nor write it; the Read
tool is refused it too; our CLI inside the sandbox says where the memory is (MEMORY_SANDBOXED).
Meanwhile the hooks and the MCP server, which run outside the sandbox, still serve the session
its own project's memory. Skipped, with the reason, where bubblewrap and socat are missing."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, SCRIPTS
from support.standin_api import main, strings_in, tool

pytestmark = pytest.mark.e2e
pytest.importorskip("mcp", reason="the MCP half needs the optional extra mcp")

ALPHA = "E2E-SANDBOX-ALPHA-RULE"
BETA = "E2E-SANDBOX-BETA-SECRET"
PITFALL = "E2E-SANDBOX-PITFALL"
MCP_SEARCH = "mcp__code-memory__memory_search"


@pytest.fixture
def sandbox_ready():
    missing = [t for t in ("bwrap", "socat") if shutil.which(t) is None]
    if missing:
        pytest.skip(f"Claude Code's sandbox needs {' and '.join(missing)} (apt-get install bubblewrap socat); "
                    "tests/run.sh installs them where it can")
    probe = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
                            "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"bubblewrap cannot make a sandbox here: {probe.stderr.strip()[:200]}")


def _connected(body) -> bool:
    return any(MCP_SEARCH in text for text in strings_in(body))


def test_the_sandbox_keeps_bash_out_and_the_hooks_and_mcp_in(sandbox_ready, claude_runner, standin, memory_root,
                                                            project_dir, tmp_path):
    for name, mark in (("alpha", ALPHA), ("beta", BETA)):
        area = os.path.join(memory_root, "areas", "projects", name)
        os.makedirs(area)
        with open(os.path.join(area, "rules.md"), "w") as fh:
            fh.write(f"# {name}\n\n## Deploy\n- deploy rule {mark}\n")
    with open(os.path.join(memory_root, "MEMORY.md"), "w") as fh:
        fh.write(f"# Memory\n\n## 避坑经验 (Pitfalls)\n\n- {PITFALL}: restart the cache after a deploy\n")
    env = claude_runner.env()
    cm = [sys.executable, os.path.join(SCRIPTS, "code-memory.py")]
    done = subprocess.run([*cm, "sandbox", "install"], capture_output=True, text=True, env=env, timeout=60)
    answer = json.loads(done.stdout)
    assert answer["ok"] and answer["status"]["protected"], done.stdout + done.stderr
    # the MCP server, as `code-memory mcp register` adds it (written directly: no second binary run)
    claude_json = os.path.join(claude_runner.home, ".claude.json")
    with open(claude_json, "w") as fh:
        json.dump({"mcpServers": {"code-memory": {"type": "stdio", "command": sys.executable,
                                                  "args": [os.path.join(SCRIPTS, "code-memory-mcp.py")],
                                                  "env": {"CODE_MEMORY_ROOT": memory_root}}}}, fh)

    beta_rules = shlex.quote(os.path.join(memory_root, "areas", "projects", "beta", "rules.md"))
    out = project_dir / "bash.out"           # the sandbox writes only the working directory and its temp dir
    py, search = shlex.quote(sys.executable), shlex.quote(os.path.join(SCRIPTS, "memory-search.py"))
    attempts = "; ".join([
        f"echo '== cat'; cat {beta_rules}",
        f"echo '== index'; ls {shlex.quote(os.path.join(memory_root, '.index'))}",
        f"echo '== write'; echo x > {shlex.quote(os.path.join(memory_root, 'planted.md'))} && echo WROTE",
        f"echo '== cli'; {py} {search} get --path areas/projects/beta/rules.md",
        "echo '== env'; env | grep -c SANDBOX_RUNTIME",
    ])
    for _ in range(15):       # until the MCP server's tools are offered
        standin.push({**main(tool("Bash", command="sleep 2", description="wait")),
                      "when": lambda body: not _connected(body)})
    standin.push({**main(tool("Bash", command=f"( {attempts} ) > {shlex.quote(str(out))} 2>&1; cat {shlex.quote(str(out))}",
                              description="look around")), "when": _connected},
                 main(tool("Bash", command=f"cat {beta_rules}", description="again", dangerouslyDisableSandbox=True)),
                 main(tool("Read", file_path=os.path.join(memory_root, "areas", "projects", "beta", "rules.md"))),
                 main(tool("ToolSearch", query=f"select:{MCP_SEARCH}", max_results=5)),
                 main(tool(MCP_SEARCH, query="deploy rule", mode="bm25")),
                 main({"text": "done"}))
    result = claude_runner.run("what are the deploy rules?", plugin_dirs=[REPO])
    assert result.ok, result.describe()

    bash = out.read_text()
    sections = {part.split("\n", 1)[0]: part.split("\n", 1)[1] if "\n" in part else "" for part in bash.split("== ")[1:]}
    assert BETA not in bash and "No such file" in sections["cat"], bash          # denyRead: an empty tmpfs there
    assert "search.sqlite" not in sections["index"], bash
    assert not os.path.exists(os.path.join(memory_root, "planted.md")), bash   # at most into a throwaway tmpfs
    assert json.loads(sections["cli"])["error"] == "MEMORY_SANDBOXED", bash
    assert sections["env"].strip() == "1", bash                                  # it really ran in the sandbox
    seen = " ".join(t for r in standin.message_requests("main") for t in strings_in(r["body"]))
    assert BETA not in seen                        # not via dangerouslyDisableSandbox, not via the Read tool
    assert PITFALL in seen                         # SessionStart ran outside the sandbox and injected
    mcp_answers = [t for r in standin.message_requests("main") for t in strings_in(r["body"])
                   if ALPHA in t and '"results"' in t]            # memory_search's answer, not a hook's text
    assert mcp_answers, "the MCP server (outside the sandbox) did not serve the project's own rules"
    status = json.loads(subprocess.run([*cm, "sandbox", "remove"], capture_output=True, text=True, env=env,
                                       timeout=60).stdout)
    assert status["ok"] and status["written"]
