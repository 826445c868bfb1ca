"""``code-memory ui`` — the memory browser on 127.0.0.1 (docs/browser.md § Memory browser).

Thin: check who is asking (never from inside a Claude Code session; every project is shown, so
the user confirms with the code shown on the terminal — the same rule as ``--scope all``), bind
the port, print ``{"ok": true, "url": …}`` as the first line, open the browser, serve until Ctrl-C.

The URL's token opens one browser once (ui/security.py). It never appears on a command line: the
browser is started on a private launcher file (mode 0600 in a 0700 directory) that forwards to the
URL, removed as soon as the token is traded (and at exit).
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import socket
import sys
import tempfile

from ..errors import CodeMemoryError
from .common import add_common, print_json


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise CodeMemoryError("PORT_IN_USE", f"port {port} on 127.0.0.1 is already taken",
                                  hint="pick another with --port, or leave --port out for a free one") from None
        raise CodeMemoryError("INVALID_ARGUMENT", f"cannot listen on 127.0.0.1:{port} ({exc.strerror})") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def _launcher(url: str) -> str:
    """A private HTML file that forwards the browser to ``url``: the browser's command line names
    this file, not the token."""
    from html import escape

    directory = tempfile.mkdtemp(prefix="code-memory-ui-")
    path = os.path.join(directory, "open.html")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(f'<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
                 f'<meta http-equiv="refresh" content="0;url={escape(url)}">'
                 f'<title>code-memory</title><a href="{escape(url)}">open the memory browser</a>\n')
    return path


def _remove_launcher(path: str | None) -> None:
    if path:
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)


def cmd_ui(args) -> None:
    from ..config import load_config
    from ..oplog import record
    from ..search.access import refuse_in_session, resolve_scope

    try:
        import uvicorn

        from ..ui.app import create_app
        from ..ui.views import State, warm
    except ImportError as exc:
        raise CodeMemoryError("UI_UNAVAILABLE", "the memory browser needs starlette, uvicorn, jinja2 and markdown-it-py "
                              f"({exc.name} is missing)", hint="pip install 'code-memory[ui]'") from None
    if not 0 <= args.port <= 65535:
        raise CodeMemoryError("INVALID_ARGUMENT", "--port is between 1 and 65535 (0: any free port)")
    refuse_in_session("opening the memory browser")
    cfg = load_config(args.root)
    if not os.path.isdir(cfg.root):
        raise CodeMemoryError("NOT_FOUND", f"there is no memory root at {cfg.root}",
                              hint="run `code-memory init` (or ./install.sh) first, or pass --root")
    scope = resolve_scope(cfg, scope="all",          # a y on the user's terminal
                          widest="opening the memory browser on every project's and workspace's memory")
    sock = _bind(args.port)
    port = sock.getsockname()[1]
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    state = State(cfg, scope, read_only=args.read_only)
    log_path = os.path.join(cfg.paths.logs, "ui.log")

    def log(event: dict) -> None:      # metadata only; never recreates a root that was removed
        if os.path.isdir(cfg.root):
            record(log_path, event)

    app = create_app(state, token=token, csrf=csrf, port=port, log=log)
    url = f"http://127.0.0.1:{port}/?token={token}"
    print_json({"ok": True, "url": url, "read_only": args.read_only, "root": cfg.root})
    launcher = None
    if not args.no_browser:
        import webbrowser
        launcher = _launcher(url)
        app.on_trade = lambda: _remove_launcher(launcher)    # the Guard calls it when the token is used
        webbrowser.open("file://" + launcher)
    import threading
    threading.Thread(target=warm, args=(state,), daemon=True).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", server_header=False,
                            log_config=None)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        _remove_launcher(launcher)
    sys.stdout.flush()


def register(sub) -> None:
    p = sub.add_parser("ui", help="the memory browser: search, timeline, projects, effectiveness, "
                                  "knowledge map, review queue (127.0.0.1 only)")
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="print the URL, do not open a browser")
    p.add_argument("--read-only", action="store_true", help="no edits, archives or review decisions")
    add_common(p)
    p.set_defaults(handler=cmd_ui)
