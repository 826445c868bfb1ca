"""Odd files in the memory root (issue 22, deliverable 6): a FIFO, a symlink to /dev/zero, a Unix
socket or a directory in place of MEMORY.md, a project's rules.md, today's daily note, the hooks'
log and the key-value log. Every door — the SessionStart, rules-injector and extract-memory hooks
through their real shims, search, get, index, kv read — answers at once (a FIFO never blocks an
open, a device is never read), skips them and says so; nothing is written into them."""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import time

import pytest

from conftest import run_script, write_file
from support.hook_runner import payload, run_hook

MARK = "ODD-FILES-KEEP-WORKING"
TODAY = dt.date.today().isoformat()
TARGETS = ("MEMORY.md", "areas/projects/alpha/rules.md", f"daily/{TODAY}.md", "logs/hooks.log", "kv/log.jsonl")
KINDS = ("fifo", "dev-zero", "socket", "directory")
STALL = 30        # seconds: far above any answer here, far below "forever"


def make_odd(path: str, kind: str, keep: list) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        os.unlink(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", path)
    elif kind == "socket":             # bound by a relative name: a temp path is longer than sun_path allows
        sock, here = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM), os.getcwd()
        try:
            os.chdir(os.path.dirname(path))
            sock.bind(os.path.basename(path))
        finally:
            os.chdir(here)
        keep.append(sock)
    else:
        os.mkdir(path)


@pytest.fixture(params=KINDS)
def odd_root(request, initialized_root, project):
    paths = initialized_root
    write_file(paths.project_dir("alpha"), "summary.md",
               f"# alpha\n\n## Deploy\n\n- {MARK}: blue-green deploys need a health check\n")
    sockets: list = []
    for rel in TARGETS:
        make_odd(os.path.join(paths.root, rel), request.param, sockets)
    yield paths, project, request.param
    for sock in sockets:
        sock.close()


def timed(fn, *args, **kwargs):
    started = time.monotonic()
    out = fn(*args, **kwargs)
    return out, time.monotonic() - started


def test_every_door_answers_at_once_and_skips_them(odd_root):
    paths, alpha, kind = odd_root
    for shim, name in (("session-start", "session-start"), ("rules-injector", "pre-read"),
                       ("extract-memory", "post-edit")):
        res, took = timed(run_hook, shim, payload(name, alpha), timeout=STALL)
        assert res.returncode == 0 and took < STALL, (shim, kind, res.stderr[-400:])
        assert "Traceback" not in res.stderr
        if shim == "session-start" and kind != "directory":
            assert "Skipped, not regular files" in (res.json or {}).get("systemMessage", ""), (kind, res.stdout)
    for args in (("search", MARK, "--mode", "bm25"), ("index", "--no-vectors"), ("kv", "read"),
                 ("get", "--path", "MEMORY.md"), ("get", "--path", f"daily/{TODAY}.md")):
        res, took = timed(run_script, "code-memory.py", *args, cwd=alpha, timeout=STALL)
        assert took < STALL and "Traceback" not in res.stderr, (args, kind)
        out = json.loads(res.stdout)
        if args[0] == "search":
            assert out["ok"] and MARK in json.dumps(out["results"]), (kind, out)     # the rest still works
        if args[0] == "get":
            assert out["ok"] is False and out["error"] in ("MEMORY_READ_FAILED", "MEMORY_FILE_NOT_FOUND",
                                                           "MEMORY_PATH_TRAVERSAL"), out   # /dev/zero: outside
        if args[0] in ("search", "index"):
            said = {os.path.relpath(s["path"], paths.root) for s in out.get("skipped_not_regular") or []}
            assert {"MEMORY.md", f"daily/{TODAY}.md"} <= said or kind == "directory", (kind, out)
    for rel in TARGETS:                  # still what it was: nothing replaced, nothing written into it
        full = os.path.join(paths.root, rel)
        assert os.path.lexists(full) and not (os.path.isfile(full) and not os.path.islink(full))


def test_a_fifo_in_place_of_config_json_is_an_error_not_a_stall(initialized_root, tmp_path):
    os.mkfifo(initialized_root.config_json)
    alpha = tmp_path / "alpha"
    alpha.mkdir()
    res, took = timed(run_script, "memory-search.py", "anything", cwd=str(alpha), timeout=STALL)
    assert took < STALL and json.loads(res.stdout)["error"] == "CONFIG_INVALID"
    res, took = timed(run_hook, "session-start", payload("session-start", str(alpha)), timeout=STALL)
    assert res.returncode == 0 and took < STALL
