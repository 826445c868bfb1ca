"""Without the mcp SDK the MCP server still starts and says what to run (mcp/setup_needed.py):
driven by the SDK's own client (from the test venv) against a Python that has no SDK."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from conftest import REPO, SCRIPTS

mcp = pytest.importorskip("mcp")
SERVER = os.path.join(SCRIPTS, "code-memory-mcp.py")


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    venv = tmp_path_factory.mktemp("no-sdk") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    assert subprocess.run([python, "-c", "import mcp"], capture_output=True).returncode != 0
    return python


def test_the_sdk_client_is_told_what_to_run(bare_python):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def run():
        params = StdioServerParameters(command=bare_python, args=[SERVER], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                tools = (await session.list_tools()).tools
                called = await session.call_tool("code_memory_setup", {})
                return init, tools, called

    init, tools, called = asyncio.run(asyncio.wait_for(run(), timeout=60))
    assert f"{REPO}/install.sh --no-hooks" in init.instructions and bare_python in init.instructions
    assert [t.name for t in tools] == ["code_memory_setup"] and "install.sh --no-hooks" in tools[0].description
    hints = tools[0].model_dump(mode="json", by_alias=True)["annotations"]
    assert hints["readOnlyHint"] is True and hints["destructiveHint"] is False and tools[0].title
    assert getattr(called, "is_error", getattr(called, "isError", False))
    assert "install.sh --no-hooks" in called.content[0].text


def test_bad_lines_and_unknown_methods(bare_python):
    lines = ["not json", "[1, 2]", json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
             json.dumps({"jsonrpc": "2.0", "id": 7, "method": "resources/list"}),
             json.dumps({"jsonrpc": "2.0", "id": 8, "method": "ping"})]
    proc = subprocess.run([bare_python, SERVER], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=60)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0 and [a["id"] for a in answers] == [7, 8]
    assert answers[0]["error"]["code"] == -32601 and answers[1]["result"] == {}
    assert "has no `mcp` SDK" in proc.stderr
    listed = subprocess.run([bare_python, SERVER, "--list-tools"], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 1 and listed.stdout == ""
