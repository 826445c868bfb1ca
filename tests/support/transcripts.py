"""Write Claude Code transcripts in the shapes the real 2.1.330 binary writes them, for tests that
need a specific situation."""

from __future__ import annotations

import itertools
import json
import os

_n = itertools.count(1)


class TranscriptWriter:
    def __init__(self, path: str, session_id: str = "sess-1", cwd: str = "/home/dev/proj"):
        self.path = path
        self.session_id = session_id
        self.cwd = cwd
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        self.fh = open(path, "w", encoding="utf-8")
        self.minute = 0

    def close(self):
        self.fh.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _common(self) -> dict:
        self.minute += 1
        return {"uuid": f"u-{next(_n)}", "sessionId": self.session_id, "cwd": self.cwd,
                "version": "2.1.330", "gitBranch": "main", "isSidechain": False,
                "timestamp": f"2026-03-01T10:{self.minute % 60:02d}:00.000Z"}

    def raw(self, obj_or_text) -> None:
        self.fh.write(obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text, ensure_ascii=False))
        self.fh.write("\n")

    def user(self, content, **extra) -> None:
        self.raw({**self._common(), "type": "user", "message": {"role": "user", "content": content}, **extra})

    def assistant(self, blocks, msg_id: str | None = None, split: bool = False) -> None:
        """One assistant message; ``split`` writes one line per block with the same message id,
        as the binary does while streaming."""
        msg_id = msg_id or f"msg_{next(_n)}"
        parts = [[b] for b in blocks] if split else [blocks]
        for part in parts:
            self.raw({**self._common(), "type": "assistant",
                      "message": {"id": msg_id, "type": "message", "role": "assistant", "model": "m",
                                  "content": part, "stop_reason": None,
                                  "usage": {"input_tokens": 1, "output_tokens": 1}}})

    def say(self, text: str) -> None:
        self.assistant([{"type": "text", "text": text}])

    def tool(self, name: str, tool_input: dict, result: str = "ok", is_error: bool = False) -> str:
        tool_id = f"toolu_{next(_n)}"
        self.assistant([{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}])
        block = {"type": "tool_result", "tool_use_id": tool_id, "content": result}
        if is_error:
            block["is_error"] = True
        self.user([block])
        return tool_id

    def noise(self) -> None:
        """Line types the reader must skip."""
        self.raw({"type": "queue-operation", "operation": "enqueue", "sessionId": self.session_id})
        self.raw({**self._common(), "type": "attachment", "attachment": {"type": "skill_listing", "content": "x"}})
        self.raw({"type": "api-request", "sessionId": self.session_id,
                  "body": {"messages": [{"role": "user", "content": "REQUEST-BODY-COPY"}]}})
        self.raw({"type": "tools-used", "tools": ["Read"], "sessionId": self.session_id})
        self.raw({"type": "some-future-type", "payload": {"type": "user"}})
