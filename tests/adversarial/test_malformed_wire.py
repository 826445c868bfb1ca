"""Malformed input through MCP, the hooks and the CLI is answered, never dropped and never a
traceback (issue 14, deliverable 5): lone surrogates, 200-level nesting, bytes that are not UTF-8,
non-JSON. The MCP server runs as a subprocess speaking raw JSON-RPC lines, so the client can send
what the SDK client would never build."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import pytest

from conftest import REPO, run_script

pytest.importorskip("mcp")
SERVER = os.path.join(REPO, "scripts", "code-memory-mcp.py")

CALL = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}'
NEST = "[" * 200 + "]" * 200
CASES = [
    ("lone surrogate in a query", (CALL % (2, "memory_search", '{"query":"a\\ud800b"}')).encode()),
    ("lone low surrogate in a key", (CALL % (3, "set_memory", '{"key":"/user/\\udc00","json_content":1,'
                                                              '"source":"user"}')).encode()),
    ("200-level nesting in tags", (CALL % (4, "memory_store", '{"type":"project","content":"x","tags":%s}' % NEST)).encode()),
    ("200-level nesting in a kv value", (CALL % (5, "set_memory", '{"key":"/user/x","json_content":%s,"source":"user"}'
                                                 % ('{"a":' * 200 + "1" + "}" * 200))).encode()),
    ("bytes that are not UTF-8", (CALL % (6, "memory_search", '{"query":"a') ).encode() + b"\xff\xfe" + b'"}}}'),
    ("not JSON", b"this is not json"),
    ("JSON but not an object", b"[1, 2, 3]"),
]


class Wire:
    def __init__(self, tmp_path):
        env = dict(os.environ, MEMTOOL_DB=str(tmp_path / "m.db"), CODE_MEMORY_EMBEDDING__ENABLED="false")
        self.proc = subprocess.Popen([sys.executable, SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=str(tmp_path))

    def send(self, raw: bytes) -> None:
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def recv(self, wait: float = 60):
        ready, _, _ = select.select([self.proc.stdout], [], [], wait)
        return json.loads(self.proc.stdout.readline()) if ready else None

    def close(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(60)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code


def test_the_mcp_server_answers_every_malformed_request(memory_root, tmp_path):
    wire = Wire(tmp_path)
    try:
        wire.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).encode())
        assert wire.recv()["id"] == 1
        wire.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for name, raw in CASES:
            wire.send(raw)
            answer = wire.recv()
            assert answer is not None, f"no answer to: {name}"
            assert answer["error"]["code"] in (-32602, -32700) and answer["error"]["message"].startswith("PARAM_ERROR"), name
            sent_id = json.loads(raw.decode("utf-8", "replace")).get("id") if raw.startswith(b"{") else None
            assert answer["id"] == sent_id, name
        wire.send(b'{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"\\ud800"}}')   # a notification: no reply
        wire.send((CALL % (9, "memory_search", '{"query":"still alive"}')).encode())
        answer = wire.recv()
        assert answer["id"] == 9 and "result" in answer                  # the server goes on
    finally:
        assert wire.close() == 0


@pytest.mark.parametrize("raw", [b"\xff\xfe\x00{", b'{"session_id":"s","cwd":"/tmp","x":"\\ud800"}',
                                 b'{"session_id":"s","cwd":"/tmp","x":' + b"[" * 300 + b"]" * 300 + b"}"],
                         ids=["bad-utf8", "surrogate", "deep-nesting"])
def test_the_cli_answers_malformed_stdin_with_a_clear_error(memory_root, raw):
    res = run_script("memory-search.py", "--batch", "-", input=raw)
    assert "Traceback" not in res.stderr.decode("utf-8", "replace")
    for line in res.stdout.decode().splitlines():
        out = json.loads(line)
        assert out.get("ok") is not True or out.get("results") is not None
