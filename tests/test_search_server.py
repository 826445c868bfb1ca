"""The warm search server and its client (search/server.py, search/client.py, cli/search_server.py):
the one search answered warm, with signals; the CLI through it; and what must never hurt a hook —
a stale server after an upgrade, a root deleted or moved, a corrupt index, concurrent writers, a
socket directory that is not ours, a server that hangs, a full disk."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from code_memory.search import client
from conftest import SCRIPTS, run_script, write_file
from support.hook_runner import run_hook
from test_recall import lived_in  # noqa: F401 — the fixture


@pytest.fixture
def sockets(monkeypatch):
    """A private socket directory of this test (short: Unix socket paths are limited to 108 bytes)."""
    directory = tempfile.mkdtemp(prefix="cms-", dir="/tmp")
    monkeypatch.setenv(client.SOCKET_DIR_ENV, directory)
    monkeypatch.setenv("CODE_MEMORY_SEARCH__SERVER", "1")
    monkeypatch.setattr(client, "_started", set())
    pids = []
    yield pids
    for pid in pids:                  # every server a test started is gone afterwards
        try:
            os.kill(pid, 15)
        except ProcessLookupError:
            pass
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def root(initialized_root):
    r = initialized_root.root
    write_file(r, "areas/projects/alpha/rules.md", "# alpha rules\n\n## Retry\n- retry with exponential backoff\n")
    write_file(r, "areas/projects/beta/rules.md", "# beta rules\n\n## Retry\n- beta retries twice\n")
    write_file(r, "sessions/s1.md", "# 会话摘要: s1\n\n- **项目**: alpha\n\n---\n\n1. **主题**: 数据库连接池调优\n")
    return r


def warm(root, pids, op="ping", request=None, seconds=60.0) -> dict:
    """The server's answer, starting it first (the first call starts it and answers None)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = client.call(root, op, request or {}, 5.0)
        if answer is not None:
            pid = client.call(root, "ping", {}, 5.0)["pid"]
            if pid not in pids:
                pids.append(pid)
            return answer
        time.sleep(0.05)
    raise AssertionError("the warm server did not answer")


def gone(pid, seconds=20.0) -> bool:
    """The server process exited (reaped here when this test process started it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:       # not our child: is it still there?
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
        time.sleep(0.05)
    return False


def test_the_warm_server_answers_the_one_search(root, sockets, project):
    from code_memory.config import load_config
    from code_memory.fsutil import atomic_write_text
    from code_memory.search.unified import search_all

    assert client.call(root, "search", {"query": "retry"}, 2.0) is None          # starts it, never waits
    query = {"query": "retry backoff 连接池", "mode": "bm25", "project": "alpha", "signals": True}
    answer = warm(root, sockets, "search", query)
    local = search_all(load_config(), query["query"], memtool=None, mode="bm25", project="alpha", signals=True)
    assert answer["warm"] and answer["ok"]
    assert [h["id"] for h in answer["results"]] == [h["id"] for h in local["results"]]
    assert [h["signals"] for h in answer["results"]] == [h["signals"] for h in local["results"]]
    top = answer["results"][0]["signals"]
    assert set(top) == {"bm25", "bm25_norm", "terms_matched", "terms_total", "coverage", "cosine"}
    terms = answer["query_terms_list"]
    chinese = [t for t in terms if t not in ("retry", "backoff")]
    assert terms[:2] == ["retry", "backoff"] and chinese
    by_path = {h["rel_path"]: h["signals"] for h in answer["results"]}
    assert by_path["areas/projects/alpha/rules.md"]["terms_matched"] == ["retry", "backoff"]
    assert by_path["sessions/s1.md"]["terms_matched"] == chinese and by_path["sessions/s1.md"]["cosine"] is None
    assert by_path["sessions/s1.md"]["coverage"] == round(len(chinese) / len(terms), 6)
    assert 0 < top["bm25_norm"] <= 1 and top["bm25"] > 0
    assert "areas/projects/beta/rules.md" not in by_path                          # the project's scope holds

    # what the server refuses: a wide scope, unknown fields, ops outside its table
    refused = client.call(root, "search", {"query": "retry", "scope": "all"}, 5.0)
    assert refused["error"] == "INVALID_ARGUMENT" and "project-scoped" in refused["message"]
    assert client.call(root, "search", {"query": "retry", "path": "/etc"}, 5.0)["error"] == "INVALID_ARGUMENT"
    assert client.call(root, "search", {"query": " "}, 5.0)["error"] == "INVALID_ARGUMENT"
    assert client.call(root, "search", {"query": "x", "sources": 3}, 5.0)["error"] == "INVALID_ARGUMENT"
    assert client.call(root, "read_file", {"path": "/etc/passwd"}, 5.0) is None

    # fresh without a walk: code-memory's writes, an edit in place by hand, a deletion
    atomic_write_text(os.path.join(root, "sessions", "s2.md"), "# s2\n\n## x\nwarmjournalword\n")
    with open(os.path.join(root, "areas/projects/alpha/rules.md"), "a", encoding="utf-8") as fh:
        fh.write("- handeditword in place\n")
    os.unlink(os.path.join(root, "sessions", "s1.md"))
    found = client.call(root, "search", {"query": "warmjournalword handeditword 连接池", "mode": "bm25",
                                         "project": "alpha"}, 5.0)
    assert sorted(h["rel_path"] for h in found["results"]) == ["areas/projects/alpha/rules.md", "sessions/s2.md"]

    # the CLI asks the same server (and says so), with its own resolved scope
    out = run_script("memory-search.py", "warmjournalword", "--mode", "bm25", cwd=project)
    cli = json.loads(out.stdout)
    assert cli["warm"] and [h["rel_path"] for h in cli["results"]] == ["sessions/s2.md"]
    bad = run_script("memory-search.py", "retry", "--top-k", "0", cwd=project)
    assert bad.returncode != 0 and json.loads(bad.stdout)["error"] == "INVALID_ARGUMENT"
    assert client.call(root, "shutdown", {}, 5.0)["bye"] and gone(sockets[0])


def test_the_client_is_cheap_to_import_and_starts_one_server(root, sockets):
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import code_memory.search.client; "
             "print(' '.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-S", "-c", probe, SCRIPTS], capture_output=True, text=True).stdout.split()
    assert not {"json", "re", "hashlib", "socket", "subprocess"} & set(loaded)
    # many callers at once while none runs: one server
    results = []
    threads = [threading.Thread(target=lambda: results.append(
        subprocess.run([sys.executable, "-S", "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                        "from code_memory.search.client import call; print(call(sys.argv[2], 'ping', {}, 2.0))",
                        SCRIPTS, root], capture_output=True, text=True))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.returncode == 0 for r in results)
    first = warm(root, sockets)
    assert client.call(root, "ping", {}, 5.0)["pid"] == first["pid"]
    servers = subprocess.run(["pgrep", "-f", f"search_server --root {os.path.realpath(root)}$"],
                             capture_output=True, text=True).stdout.split()
    assert servers == [str(first["pid"])]


def test_a_stale_or_orphaned_server_is_replaced(root, sockets, monkeypatch):
    first = warm(root, sockets)
    # an upgrade: the caller's code differs → the old server exits, a new one starts
    monkeypatch.setattr(client, "_version", "1.0.upgraded")
    assert client.call(root, "ping", {}, 5.0) is None
    assert gone(first["pid"])
    monkeypatch.setattr(client, "_version", None)
    monkeypatch.setattr(client, "_started", set())
    second = warm(root, sockets)
    assert second["pid"] != first["pid"] and second["version"] == client.code_version()
    # the root moved away: the server exits; nothing is started for a root that is not there
    moved = root + ".moved"
    os.rename(root, moved)
    assert client.call(root, "ping", {}, 5.0) is None
    assert gone(second["pid"])
    assert not os.path.exists(root)
    # a new root at the same path gets a server of its own
    os.rename(moved, root)
    monkeypatch.setattr(client, "_started", set())
    third = warm(root, sockets, "search", {"query": "retry", "mode": "bm25", "project": "alpha"})
    assert third["results"]


def test_a_corrupt_index_concurrent_writers_and_a_full_disk(root, sockets, project):
    from code_memory.config import load_config
    from code_memory.search.server import WarmRoot, op_search

    query = {"query": "retry backoff", "mode": "bm25", "project": "alpha"}
    warm(root, sockets, "search", query)
    index = os.path.join(root, ".index", "search.sqlite")
    with open(index, "r+b") as fh:                       # overwritten in place while the server has it open
        fh.write(b"not a database" * 4096)
    healed = client.call(root, "search", query, 20.0)
    assert healed["ok"] and healed["results"]

    errors, answered = [], []

    def ask():
        for _ in range(15):
            answer = client.call(root, "search", query, 10.0)
            if answer is not None:
                (answered if answer.get("ok") and answer["results"] else errors).append(answer)

    reader = threading.Thread(target=ask)
    reader.start()
    writer = run_script("memory-search.py", "index", "--full", "--no-vectors", cwd=project)
    reader.join()
    assert writer.returncode == 0 and errors == [] and answered

    # a full disk while the server catches up: the search answers from the index as it is
    assert client.call(root, "shutdown", {}, 5.0)["bye"] and gone(sockets[0])
    warm_root = WarmRoot(os.path.realpath(root), lambda r: load_config(root_override=r))
    warm_root.open()
    pages = warm_root.handle.db.conn.execute("PRAGMA page_count").fetchone()[0]
    warm_root.handle.db.conn.execute(f"PRAGMA max_page_count = {pages}")
    write_file(root, "sessions/big.md", "# big\n\n## y\n" + "fullword filler text\n" * 2000)
    warm_root.dirty.add(os.path.join(os.path.realpath(root), "sessions", "big.md"))
    warm_root.prepare()                                   # what the server does before every op
    answer = op_search(warm_root, {"query": "retry fullword", "mode": "bm25", "project": "alpha"})
    warm_root.shut()
    assert answer["ok"] and answer["results"] and "full" in answer["degraded"]["index"]


def test_no_server_through_a_socket_directory_that_is_not_ours(root, sockets, tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    monkeypatch.setenv(client.SOCKET_DIR_ENV, str(shared))
    assert client.call(root, "ping", {}, 1.0) is None and client.start(root) is False
    assert os.listdir(shared) == []
    link = tmp_path / "link"
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    link.symlink_to(private)
    monkeypatch.setenv(client.SOCKET_DIR_ENV, str(link))
    assert client.call(root, "ping", {}, 1.0) is None and client.start(root) is False


def _fake_server(root) -> socket.socket:
    path = client.socket_path(root)
    if os.path.exists(path):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(8)
    return listener


def test_a_hung_or_garbled_server_costs_the_caller_its_timeout_only(root, sockets):
    hung = _fake_server(root)                # accepts connections, never answers
    try:
        started = time.monotonic()
        assert client.call(root, "search", {"query": "x"}, 0.3) is None
        assert time.monotonic() - started < 3.0
    finally:
        hung.close()
    garbled = _fake_server(root)
    try:
        def answer_badly():
            conn, _ = garbled.accept()
            with conn:
                conn.recv(65536)
                conn.sendall(b"{not json\n")
        thread = threading.Thread(target=answer_badly)
        thread.start()
        assert client.call(root, "search", {"query": "x"}, 5.0) is None
        thread.join()
    finally:
        garbled.close()
    assert not client._started               # a server that answers (badly) is not replaced by the client


def test_the_prompt_recall_hook_asks_the_warm_server_and_fails_open(lived_in, project, sockets, tmp_path):
    """The prompt-recall hook as registered, through the server: silent (and the server started)
    when none runs, the recalled decision once it is warm — without the search engine, jieba or a
    model in the hook's process —, bad requests refused, a server killed mid-session costs the
    prompt nothing but its recall."""
    from test_recall import prompt_payload

    root = lived_in.root
    asked = "为什么选 JWT 而不是服务端 session？网关那边怎么校验"
    assert run_hook("prompt-recall", prompt_payload(project, asked, "sess-w1")).silent     # none running yet
    pid = warm(root, sockets)["pid"]                                                      # … it was started
    assert "DECISION-MARKER-7" in run_hook("prompt-recall", prompt_payload(project, asked, "sess-w1")).context

    hook = os.path.join(SCRIPTS, "code-memory-hook.py")
    probe = ("import atexit, runpy, sys; atexit.register(lambda: sys.stderr.write(' '.join(sorted(sys.modules)))); "
             "sys.argv = [sys.argv[1], 'prompt-recall']; runpy.run_path(sys.argv[0], run_name='__main__')")
    ran = subprocess.run([sys.executable, "-S", "-c", probe, hook], capture_output=True, text=True,
                         input=json.dumps(prompt_payload(project, asked, "sess-w2")))
    assert "DECISION-MARKER-7" in ran.stdout
    loaded = set(ran.stderr.split())
    assert "code_memory.search.client" in loaded
    assert not {"jieba", "fastembed", "code_memory.search.engine", "code_memory.search.recall"} & loaded

    # the op validates what it is sent; a request past the size limit is dropped, the server lives on
    for bad in ({"prompt": "jwt", "path": "/etc"}, {"prompt": 3}, {"prompt": "jwt", "max_items": True},
                {"prompt": "jwt", "exclude_keys": [1]}, {"prompt": "jwt", "mode": "vector"},
                {"prompt": "jwt", "candidates": -1}):
        assert client.call(root, "recall", bad, 5.0)["error"] == "INVALID_ARGUMENT", bad
    assert client.call(root, "recall", {"prompt": "jwt " * 300_000}, 5.0) is None
    assert client.call(root, "ping", {}, 5.0)["pid"] == pid

    # killed mid-session: its socket is left behind; the next prompt is silent at once and starts a new one
    os.kill(pid, 9)
    assert gone(pid) and os.path.exists(client.socket_path(root))
    started = time.monotonic()
    assert run_hook("prompt-recall", prompt_payload(project, asked, "sess-w3")).silent
    assert time.monotonic() - started < 10.0            # no wait for the dead server (generous: a busy machine)
    assert warm(root, sockets)["pid"] != pid
    assert "DECISION-MARKER-7" in run_hook("prompt-recall", prompt_payload(project, asked, "sess-w3")).context

    # a directory that is not a memory root gets no server, and nothing written into it
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "notes.md").write_text("# jwt\n\njwt gateway\n")
    assert client.start(str(plain)) is False and client.call(str(plain), "ping", {}, 1.0) is None
    from code_memory.search.server import serve
    assert serve(str(plain), {}, lambda r: None) == 1
    out = run_script("memory-search.py", "jwt", "--root", str(plain), "--mode", "bm25", cwd=project)
    assert json.loads(out.stdout)["ok"] and sorted(os.listdir(plain)) == ["notes.md"]
