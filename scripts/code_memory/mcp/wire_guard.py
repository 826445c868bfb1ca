"""Every request gets an answer: a guard between the client and the SDK's stdio transport.

The SDK drops a line it cannot parse without replying — a lone surrogate escape (``"\\ud800"``),
nesting deeper than its JSON parser's limit (~200 levels), bytes that are not UTF-8 — so the client
waits forever. :func:`guarded_stdio` puts two relay threads in front of the server: lines the SDK's
own validator accepts go through unchanged; any other line is answered here with a JSON-RPC error
(``-32602`` with the request's id when one can be read, ``-32700`` with ``null`` otherwise) whose
message starts with ``PARAM_ERROR``. Replies from the server and from the guard share one writer,
so lines never interleave.
"""

from __future__ import annotations

import json
import os
import sys
import threading

MAX_LINE_BYTES = 32 * 1024 * 1024


def _validator():
    """The SDK's own message validator (2.x ``mcp_types``, 1.x ``mcp.types``)."""
    try:
        import mcp_types
        adapter = mcp_types.jsonrpc_message_adapter
        return lambda line: adapter.validate_json(line, by_name=False)
    except (ImportError, AttributeError):
        from mcp.types import JSONRPCMessage
        return JSONRPCMessage.model_validate_json


def rejection(line: bytes, validate) -> bytes | None:
    """The error reply for ``line`` when the SDK would drop it, ``b""`` when it is a bad
    notification (no reply is due), None when it is fine."""
    if not line.strip():
        return None
    reason = None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        text, reason = line.decode("utf-8", "replace"), f"the request is not UTF-8 (byte {exc.start})"
    if reason is None:
        try:
            validate(text)
            return None
        except Exception as exc:  # noqa: BLE001 — whatever the SDK rejects
            first = str(exc).split("\n")
            reason = (first[1] if len(first) > 1 else first[0]).split(" [type=")[0].strip()[:200]
    ident = None
    try:
        obj = json.loads(text)
        if isinstance(obj, dict):
            ident = obj.get("id")
            if ident is None and "method" in obj:
                return b""          # a notification: JSON-RPC sends nothing back
    except (ValueError, RecursionError):
        pass
    if not isinstance(ident, (str, int)) or isinstance(ident, bool):
        ident = None
    reply = {"jsonrpc": "2.0", "id": ident,
             "error": {"code": -32602 if ident is not None else -32700,
                       "message": f"PARAM_ERROR: {reason} — lone surrogates, nesting deeper than ~200 levels "
                                  "and bytes that are not UTF-8 are refused"}}
    return (json.dumps(reply, ensure_ascii=True) + "\n").encode("ascii")


class guarded_stdio:  # noqa: N801 — used like a function: ``with guarded_stdio(): server.run("stdio")``
    """Swap fds 0/1 for pipes relayed through the guard for the ``with`` block."""

    def __enter__(self):
        self.validate = _validator()
        self.lock = threading.Lock()
        self.real_in, self.real_out = os.dup(0), os.dup(1)
        in_r, self.in_w = os.pipe()
        self.out_r, out_w = os.pipe()
        os.dup2(in_r, 0)
        os.dup2(out_w, 1)
        os.close(in_r)
        os.close(out_w)
        self.threads = [threading.Thread(target=self._pump_in, daemon=True, name="mcp-guard-in"),
                        threading.Thread(target=self._pump_out, daemon=True, name="mcp-guard-out")]
        for t in self.threads:
            t.start()
        return self

    def _write(self, data: bytes) -> None:
        with self.lock:
            view = memoryview(data)
            while view:
                view = view[os.write(self.real_out, view):]

    def _pump_in(self) -> None:
        try:
            with os.fdopen(self.real_in, "rb") as src, os.fdopen(self.in_w, "wb") as dst:
                for line in iter(lambda: src.readline(MAX_LINE_BYTES), b""):
                    reply = rejection(line, self.validate)
                    if reply is None:
                        dst.write(line if line.endswith(b"\n") else line + b"\n")
                        dst.flush()
                    elif reply:
                        self._write(reply)
        except (OSError, ValueError):
            pass

    def _pump_out(self) -> None:
        try:
            with os.fdopen(self.out_r, "rb") as src:
                for line in src:
                    self._write(line)
        except (OSError, ValueError):
            pass

    def __exit__(self, *_exc) -> bool:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        os.dup2(self.real_out, 1)       # the server's end of the out pipe closes: the relay drains and ends
        self.threads[1].join(5)
        return False
