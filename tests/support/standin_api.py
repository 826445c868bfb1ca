"""A loopback stand-in for the Anthropic Messages API, owned by the tests.

It serves both clients code-memory talks to:
- the ``anthropic`` Python SDK (plain JSON answers to ``POST /v1/messages``), and
- the real Claude Code binary (``stream: true`` → server-sent events: ``message_start``,
  ``content_block_start/delta/stop`` per block, ``message_delta``, ``message_stop``; plus
  ``/v1/messages/count_tokens``), as observed with the real binary.

Every request is recorded (path, headers, parsed body, raw text, role) so tests can assert on what
a client really sent: that a hook's injected context reached the model, that no secret reached an
LLM request body.

Each ``/v1/messages`` request gets a role:
- ``"main"``: it carries the ``Agent`` (or ``Task``) tool — the main Claude Code agent;
- ``"subagent"``: it carries tools but not ``Agent`` — a subagent such as Explore;
- ``"plain"``: it carries no tools — an SDK call, a ``claude -p --tools ""`` child, a side query.

Answers come from a script of steps consumed in order by the requests a step matches; requests no
step matches (or after the script is used up) get ``default_text``. A step is a dict:

    {"text": "..."}                                   an assistant text answer (end_turn)
    {"tool_use": {"name": "Read", "input": {...}}}    one tool call (stop_reason tool_use); the input may
                                                      be callable(body) -> dict: an answer that depends on
                                                      what the model was sent (e.g. an id it read)
    {"blocks": [...]}                                 several text/tool_use blocks
    {"status": 500, "body": {...}, "headers": {...}}  an HTTP error (JSON error body by default)
    {"raw": "not json at all"}                        a 200 answer with this raw body
    {"invalid": "sse"}                                a 200 event stream with a non-JSON event, cut short
    {"invalid": True}                                 (not streamed) a 200 JSON object that is no message
    {"delay": 3.0, ...}                               sleep first (slow answer → client timeout)
    {"when": "substring" | callable(body) -> bool}    only requests whose JSON contains it / match
    {"tools": True|False}                             only requests that carry tools / carry none
    {"role": "main" | "subagent" | "plain"}           only requests of that role

``main(...)``, ``subagent(...)`` and ``tool(...)`` build the common steps. Use it as a context
manager:

    with StandinAPI([{"text": '{"ok": 1}'}]) as api:
        client = anthropic.Anthropic(api_key="test", base_url=api.base_url, max_retries=0)
        ...
        api.requests[-1]["body"]["messages"]
"""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_ids = itertools.count(1)
AGENT_TOOLS = ("Agent", "Task")


def tool(name: str, **tool_input) -> dict:
    """A step that makes the model call one tool."""
    return {"tool_use": {"name": name, "input": tool_input}}


def main(step: dict) -> dict:
    """Restrict a step to the main agent's requests."""
    return {**step, "role": "main"}


def subagent(step: dict) -> dict:
    """Restrict a step to subagent requests."""
    return {**step, "role": "subagent"}


def request_role(body: dict) -> str:
    names = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
    if not names:
        return "plain"
    return "main" if any(n in AGENT_TOOLS for n in names) else "subagent"


def strings_in(obj) -> list:
    """Every string inside a JSON value, depth first (message texts, tool results, system text)."""
    out = []
    stack = [obj]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return out


def _usage_for(body: dict, text_out: str) -> dict:
    size = len(json.dumps(body.get("messages", []), ensure_ascii=False)) + len(str(body.get("system", "")))
    return {"input_tokens": max(1, size // 4), "output_tokens": max(1, len(text_out) // 4),
            "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def _error_body(status: int) -> dict:
    kinds = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
             404: "not_found_error", 429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}
    return {"type": "error", "error": {"type": kinds.get(status, "api_error"),
                                       "message": f"stand-in fault {status}"}}


class StandinAPI:
    def __init__(self, script=None, default_text: str = "ok", model: str = "claude-haiku-4-5-standin"):
        self.script = list(script or [])
        self.default_text = default_text
        self.model = model
        self.requests: list = []
        self._lock = threading.Lock()
        self._server = None
        self._thread = None

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> "StandinAPI":
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                api._handle(self)

            def do_GET(self):
                api._record(self, "")
                api._send_json(self, 404, _error_body(404))

            def do_HEAD(self):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def push(self, *steps) -> None:
        with self._lock:
            self.script.extend(steps)

    def pending_steps(self) -> list:
        """Steps no request has consumed yet (a test can assert its script was played out)."""
        with self._lock:
            return list(self.script)

    def discard_pending(self) -> list:
        """Drop the steps no request consumed (e.g. the unused "wait" steps of a session) and return them."""
        with self._lock:
            left, self.script[:] = list(self.script), []
            return left

    # -- what was sent -------------------------------------------------------------------------
    def message_requests(self, role: str | None = None) -> list:
        with self._lock:
            found = [r for r in self.requests if r["path"].split("?")[0] == "/v1/messages"]
        return [r for r in found if role is None or r["role"] == role]

    def all_bodies_text(self) -> str:
        """Every recorded request body as text (for "this never reached the API" assertions)."""
        with self._lock:
            return "\n".join(r["raw"] for r in self.requests)

    def requests_containing(self, marker: str, role: str | None = None) -> list:
        """Message requests in which some string (message text, tool result, system prompt)
        contains ``marker`` — matched on decoded strings, so escapes in the raw JSON don't matter."""
        return [r for r in self.message_requests(role) if any(marker in s for s in strings_in(r["body"]))]

    def wait_for(self, predicate, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return True
            time.sleep(0.05)
        return bool(predicate(self))

    # -- serving -------------------------------------------------------------------------------
    def _next_step(self, body: dict, raw: str, role: str):
        with self._lock:
            for i, step in enumerate(self.script):
                if self._matches(step, body, raw, role):
                    return self.script.pop(i)
        return None

    @staticmethod
    def _matches(step: dict, body: dict, raw: str, role: str) -> bool:
        if "tools" in step and bool(body.get("tools")) != bool(step["tools"]):
            return False
        if "role" in step and step["role"] != role:
            return False
        when = step.get("when")
        if when is None:
            return True
        if callable(when):
            return bool(when(body))
        return str(when) in raw

    def _record(self, handler, raw: str) -> dict:
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        record = {"path": handler.path, "method": handler.command,
                  "headers": {k.lower(): v for k, v in handler.headers.items()},
                  "body": body, "raw": raw, "role": request_role(body), "time": time.time()}
        with self._lock:
            self.requests.append(record)
        return record

    def _handle(self, handler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length).decode("utf-8", errors="replace") if length else ""
        record = self._record(handler, raw)
        body = record["body"]
        route = handler.path.split("?")[0]
        if route.endswith("/count_tokens"):
            self._send_json(handler, 200, {"input_tokens": _usage_for(body, "")["input_tokens"]})
            return
        if route != "/v1/messages":
            self._send_json(handler, 404, _error_body(404))
            return
        step = self._next_step(body, raw, record["role"]) or {"text": self.default_text}
        if step.get("delay"):
            time.sleep(float(step["delay"]))
        if "status" in step:
            self._send_json(handler, int(step["status"]), step.get("body") or _error_body(int(step["status"])),
                            extra_headers=step.get("headers"))
            return
        if "raw" in step:
            data = str(step["raw"]).encode("utf-8")
            self._send_bytes(handler, 200, data, "application/json")
            return
        blocks = self._blocks(step, body)
        if body.get("stream"):
            self._send_stream(handler, body, blocks, broken=step.get("invalid") == "sse")
        else:
            text_out = "".join(b.get("text", "") for b in blocks)
            message = {"id": f"msg_standin_{next(_ids)}", "type": "message", "role": "assistant",
                       "model": self.model, "content": blocks,
                       "stop_reason": "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn",
                       "stop_sequence": None, "usage": _usage_for(body, text_out)}
            if step.get("invalid"):  # well-formed JSON, not a message
                message = {"id": message["id"], "type": "message", "content": "not a list"}
            self._send_json(handler, 200, message)

    @staticmethod
    def _blocks(step: dict, body: dict | None = None) -> list:
        if "blocks" in step:
            raw_blocks = step["blocks"]
        elif "tool_use" in step:
            raw_blocks = [{"tool_use": step["tool_use"]}]
        else:
            raw_blocks = [{"text": step.get("text", "")}]
        blocks = []
        for b in raw_blocks:
            if "tool_use" in b:
                tu = b["tool_use"]
                tool_input = tu.get("input", {})
                blocks.append({"type": "tool_use", "id": tu.get("id") or f"toolu_standin_{next(_ids)}",
                               "name": tu["name"], "input": tool_input(body or {}) if callable(tool_input) else tool_input})
            else:
                blocks.append({"type": "text", "text": b.get("text", "")})
        return blocks

    def _send_stream(self, handler, body: dict, blocks: list, broken: bool = False) -> None:
        text_out = "".join(b.get("text", "") for b in blocks)
        usage = _usage_for(body, text_out)
        events = [("message_start", {"type": "message_start", "message": {
            "id": f"msg_standin_{next(_ids)}", "type": "message", "role": "assistant", "model": self.model,
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {**usage, "output_tokens": 1}}})]
        for index, block in enumerate(blocks):
            if block["type"] == "tool_use":
                start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
            else:
                start = {"type": "text", "text": ""}
                delta = {"type": "text_delta", "text": block["text"]}
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": start}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                   "delta": delta}))
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
        events.append(("message_delta", {"type": "message_delta",
                                         "delta": {"stop_reason": stop, "stop_sequence": None},
                                         "usage": {"output_tokens": usage["output_tokens"]}}))
        events.append(("message_stop", {"type": "message_stop"}))
        data = "".join(f"event: {name}\ndata: {json.dumps(payload)}\n\n" for name, payload in events)
        if broken:  # after the first block starts, an event whose data is not JSON; then the end
            data = data[: data.index("event: content_block_delta")] + "event: content_block_delta\ndata: {not json\n\n"
        self._send_bytes(handler, 200, data.encode("utf-8"), "text/event-stream")

    @staticmethod
    def _send_json(handler, status: int, obj, extra_headers=None) -> None:
        StandinAPI._send_bytes(handler, status, json.dumps(obj).encode("utf-8"), "application/json",
                               extra_headers)

    @staticmethod
    def _send_bytes(handler, status: int, data: bytes, content_type: str, extra_headers=None) -> None:
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", content_type)
            handler.send_header("Content-Length", str(len(data)))
            handler.send_header("request-id", f"req_standin_{next(_ids)}")
            for key, value in (extra_headers or {}).items():
                handler.send_header(key, value)
            handler.end_headers()
            handler.wfile.write(data)
            handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout): nothing to answer


def claude_env(base_url: str, home: str, extra: dict | None = None) -> dict:
    """The environment that runs the real Claude Code binary offline against the stand-in: a
    private HOME, the stand-in's URL, any API key, no non-essential traffic, no auto-update;
    IS_SANDBOX=1 so it accepts bypassPermissions as root. XDG_CACHE_HOME is kept: the test session's
    shared cache holds only derived data (the jieba and CC-CEDICT indexes the summarizer builds in a
    few seconds), which every session's hooks would otherwise rebuild in their private HOME."""
    keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "TERM", "USER", "LOGNAME", "SHELL", "XDG_CACHE_HOME")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update({"HOME": home, "ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": "standin-key",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
                "DISABLE_TELEMETRY": "1", "IS_SANDBOX": "1"})
    env.update(extra or {})
    return env
