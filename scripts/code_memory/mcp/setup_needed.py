"""When the ``mcp`` SDK is missing (a plugin run with the system ``python3``): a tiny MCP server of
the standard library that says what to run, so the session gets one clear message instead of a
server that silently fails to start (docs/mcp.md → plugin mode).

It speaks just enough of the protocol (JSON-RPC 2.0, one message per line on stdio): ``initialize``
(the message as the server's ``instructions``), ``tools/list`` (one tool, ``code_memory_setup``,
whose description is the message), ``tools/call`` (the message, as an error result), ``ping``.
Notifications are ignored; any other request gets "method not found".
"""

from __future__ import annotations

import json
import sys

from ..paths import REPO_DIR, in_checkout

SETUP_TOOL = "code_memory_setup"
SETUP_TITLE = "How to turn on code-memory's tools"


def message(python: str) -> str:
    if in_checkout():
        remedy = (f"run in a terminal: {REPO_DIR}/install.sh --no-hooks — it creates ~/.claude/code-memory/venv "
                  "with the SDK and the optional extras (the plugin keeps providing the hooks) —")
    else:   # an installed package: the extra goes into the environment it was installed into
        remedy = (f"install the SDK into that environment ({python} -m pip install 'mcp>=1.2'; after "
                  "`uv tool install`, install again with the `[mcp]` extra),")
    return (f"code-memory's MCP tools are not running: the Python that starts them ({python}) has no `mcp` SDK. "
            f"To turn them on, {remedy} then restart Claude Code (or reconnect the server with /mcp). Memory "
            'search works meanwhile from Bash: `memory-search.py "<question>"`. Tell the user this once.')


def _answer(request: dict, text: str) -> dict | None:
    method, ident = request.get("method"), request.get("id")
    if ident is None:              # a notification (initialized, cancelled, …)
        return None
    if method == "initialize":
        params = request.get("params") if isinstance(request.get("params"), dict) else {}
        result = {"protocolVersion": str(params.get("protocolVersion") or "2025-06-18"),
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "code-memory", "version": "setup-needed"},
                  "instructions": text}
    elif method == "tools/list":
        result = {"tools": [{"name": SETUP_TOOL, "title": SETUP_TITLE, "description": text,
                             "inputSchema": {"type": "object", "properties": {}},
                             "annotations": {"title": SETUP_TITLE, "readOnlyHint": True, "destructiveHint": False,
                                             "idempotentHint": True, "openWorldHint": False}}]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": text}], "isError": True}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"method not found: {method}"}}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def serve(text: str, stdin=None, stdout=None) -> int:
    """Answer requests until stdin closes."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        if not isinstance(request, dict):
            continue
        answer = _answer(request, text)
        if answer is not None:
            stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
            stdout.flush()
    return 0
