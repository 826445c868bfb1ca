"""The memory browser's gate, in front of every request (docs/browser.md § Memory browser, Security):

* **Host**: only ``127.0.0.1:PORT`` and ``localhost:PORT`` — a page on another site that rebinds
  its DNS name to 127.0.0.1 sends its own name and is refused (``HOST_REFUSED``).
* **Token**: the per-run token from the printed URL (``?token=…``) is good for one request: it is
  traded for a fresh session secret in an HttpOnly, SameSite=Strict cookie (named after the port)
  and the URL is redirected without it. A second use gets 401 (``TOKEN_USED``): a token copied from
  a screen, a log or a history is worth nothing once the browser has opened. Later requests need
  the cookie or the session secret in an ``X-Code-Memory-Token`` header (``TOKEN_REQUIRED``). The
  token is never on a command line (``cli/ui.py`` hands it to the browser in a private file).
* **Writes**: a POST needs the per-run CSRF token (``X-CSRF-Token`` header or a ``csrf`` form
  field, checked by the handler), a same-origin ``Origin`` when the browser sends one, and is
  refused outright with ``--read-only`` (``READ_ONLY``).
* Every answer carries a strict Content-Security-Policy (no script at all), ``nosniff``,
  ``same-origin`` referrers (so a form POST carries its real Origin, not ``null``), ``no-store``
  and the server time (``Server-Timing: app;dur=…``).
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
from urllib.parse import parse_qsl, urlencode

CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")
WRITE_METHODS = (b"POST", b"PUT", b"PATCH", b"DELETE")


def same(a: str, b: str) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(a.encode(), b.encode())


def _cookies(header: str) -> dict:
    out = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            out[name] = value
    return out


class Guard:
    """Pure ASGI middleware."""

    def __init__(self, app, *, token: str, port: int, read_only: bool, log=None, on_trade=None):
        self.app = app
        self.token = token
        self.session = secrets.token_urlsafe(32)       # what the cookie carries once the token is traded
        self.traded = False
        self.on_trade = on_trade or (lambda: None)
        self.port = port
        self.read_only = read_only
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.cookie = f"code_memory_ui_{port}"
        self.log = log or (lambda event: None)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        status_seen = {}

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                status_seen["status"] = message["status"]
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"server"]
                headers += [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"same-origin"), (b"x-frame-options", b"DENY"),
                            (b"cache-control", b"no-store"),
                            (b"server-timing", f"app;dur={(time.perf_counter() - started) * 1000:.1f}".encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            refusal = self._check(scope)
            if refusal:
                await self._answer(send_with_headers, *refusal)
            else:
                await self.app(scope, receive, send_with_headers)
        finally:
            self.log({"method": scope.get("method"), "route": (scope.get("path") or "/").split("/")[1][:20],
                      "status": status_seen.get("status"), "ms": round((time.perf_counter() - started) * 1000, 1)})

    def _check(self, scope):
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if headers.get("host", "") not in self.hosts:
            return 421, "HOST_REFUSED", "this server answers only to 127.0.0.1 and localhost on its own port", None
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if scope["method"] == "GET" and "token" in query:
            if not same(query["token"], self.token):
                return 401, "TOKEN_REQUIRED", "that token is not this run's; use the URL `code-memory ui` printed", None
            if self.traded:
                return 401, "TOKEN_USED", ("this run's token was already used (it opens one browser once); "
                                           "start `code-memory ui` again for a new one"), None
            self.traded = True
            self.on_trade()
            rest = urlencode([(k, v) for k, v in query.items() if k != "token"])
            location = scope["path"] + (f"?{rest}" if rest else "")
            cookie = f"{self.cookie}={self.session}; HttpOnly; SameSite=Strict; Path=/"
            return 303, None, None, [(b"location", location.encode("utf-8")), (b"set-cookie", cookie.encode())]
        presented = (_cookies(headers.get("cookie", "")).get(self.cookie, ""), headers.get("x-code-memory-token", ""))
        if not self.traded or not any(same(value, self.session) for value in presented):
            return 401, "TOKEN_REQUIRED", "open the URL `code-memory ui` printed (it carries this run's token)", None
        if scope["method"].encode() in WRITE_METHODS:
            if self.read_only:
                return 403, "READ_ONLY", "the browser was started with --read-only", None
            origin = headers.get("origin")
            if origin and origin not in self.origins:
                return 403, "ORIGIN_REFUSED", "a write from another origin is refused", None
        return None

    async def _answer(self, send, status, code, message, headers):
        body = b"" if code is None else json.dumps({"ok": False, "error": code, "message": message}).encode()
        head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": head + (headers or [])})
        await send({"type": "http.response.body", "body": body})
