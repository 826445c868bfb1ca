"""memtool at its boundaries: secrets in every field and through every writer (CLI put, import,
MCP memory_store), malformed input, oversize content, a corrupt database and its recovery, a
read-only database, and the MCP update that must keep the item's type."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from code_memory.memtool.store import MemoryStore
from conftest import SCRIPTS
from support.secrets_corpus import SHAPES

MEMTOOL = os.path.join(SCRIPTS, "memtool.py")


def memtool(db, *args, stdin=None):
    proc = subprocess.run([sys.executable, MEMTOOL, "--db", db, *args], input=stdin, capture_output=True, timeout=120)
    out = json.loads(proc.stdout.decode() or "{}") if proc.stdout.strip().startswith(b"{") else {}
    return proc.returncode, out, proc.stderr


def dump(db) -> str:
    conn = sqlite3.connect(db)
    try:
        return "\n".join(str(row) for table in ("memory_items", "memory_tags", "memory_terms")
                         for row in conn.execute(f"SELECT * FROM {table}"))
    finally:
        conn.close()


@pytest.mark.parametrize("name,text,value,_line", SHAPES[::7], ids=[s[0] for s in SHAPES[::7]])
def test_secrets_never_reach_the_database_through_any_field(tmp_path, name, text, value, _line):
    db = str(tmp_path / "m.db")
    line = text.replace("\n", " ")                                         # names are one line
    tag = ["--tag", f"t {line}"] if len(line) < 190 else []                 # longer tags are refused whole
    status, out, _err = memtool(db, "put", "--type", "run", "--content", f"note {text}", "--key", f"k {line}",
                                "--task-id", "T1", *tag, "--source", f"log {text}")
    assert status == 0, out
    lines = [json.dumps({"id": f"imp{i}", "type": "run", "content": f"imported {text}", "key": line,
                         "source": text, "tags": [line] if len(line) < 190 else []}) for i in range(3)]
    status, out, _err = memtool(db, "import", stdin="\n".join(lines).encode())
    assert status == 0 and out["imported"] == 3, out
    assert value not in dump(db)


@pytest.mark.parametrize("args,stdin", [
    (["put", "--type", "run", "--content", "x", "--key", "a\x1b[2Jb"], None),
    (["put", "--type", "run", "--content", "x", "--tag", "a\u202eb"], None),
    (["put", "--type", "run", "--file", "-"], b"bad \xff\xfe bytes"),
    (["put", "--type", "run", "--file", "-"], b"x" * (1 << 20) + b"more"),
    (["import"], b'{"id": "a1", "type": "run", "content": "\\ud800"}'),
    (["import"], ("[" * 100_000 + "]" * 100_000).encode()),
    (["import"], b'{"id": "a1", "type": "run", "content": "ok", "key": "k\\u2028"}'),
])
def test_malformed_input_is_a_param_error(tmp_path, args, stdin):
    status, out, err = memtool(str(tmp_path / "m.db"), *args, stdin=stdin)
    assert status == 2 and out["error"] == "PARAM_ERROR", (out, err[-300:])
    assert b"Traceback" not in err


def test_a_corrupt_database_gets_a_hint_that_works(tmp_path):
    db = str(tmp_path / "m.db")
    for i in range(60):
        memtool(db, "put", "--type", "project", "--key", f"k{i}", "--content", f"fact number {i} about the gateway")
    memtool(db, "init")                          # checkpoint: everything in the main file
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    with open(db, "r+b") as fh:
        fh.write(b"\x00" * 100)                  # the header is gone: "file is not a database"
    status, out, _err = memtool(db, "list")
    assert status == 4 and "memtool recover" in out["hint"]
    status, out, _err = memtool(db, "export")
    assert status == 4
    recovered = str(tmp_path / "m.recovered.db")
    status, out, _err = memtool(db, "recover", "--output", recovered)
    assert status == 0 and out["recovered"] == 60, out
    status, out, _err = memtool(recovered, "list", "--limit", "100")
    assert status == 0 and out["count"] == 60
    status, out, _err = memtool(db, "recover", "--output", recovered)           # never overwrites
    assert status == 2


def test_reads_work_on_a_read_only_directory(tmp_path):
    if os.geteuid() == 0 and not os.path.exists("/usr/bin/setpriv"):
        pytest.skip("root ignores permissions and setpriv is missing")
    import pathlib
    import tempfile
    base = pathlib.Path(tempfile.mkdtemp(prefix="memtool-ro-", dir="/tmp"))   # reachable by another user
    os.chmod(base, 0o755)
    ro = base / "ro"
    ro.mkdir()
    db = str(ro / "m.db")
    memtool(db, "put", "--type", "project", "--key", "k", "--content", "the pool size is 20")
    os.chmod(db, 0o444)
    os.chmod(ro, 0o555)
    try:
        cmd = [sys.executable, MEMTOOL, "--db", db]
        if os.geteuid() == 0:                    # root ignores permission bits: read as nobody
            cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
        for args in (["search", "pool"], ["list"], ["get", "--type", "project", "--key", "k"]):
            proc = subprocess.run(cmd + args, capture_output=True, timeout=120, env={**os.environ, "HOME": "/tmp"})
            out = json.loads(proc.stdout)
            assert proc.returncode == 0 and out["ok"], (args, out, proc.stderr[-300:])
        proc = subprocess.run(cmd + ["put", "--type", "project", "--content", "x"], capture_output=True, timeout=120,
                              env={**os.environ, "HOME": "/tmp"})
        assert json.loads(proc.stdout)["error"] == "DB_ERROR"
    finally:
        os.chmod(ro, 0o755)
        os.chmod(db, 0o644)
        import shutil
        shutil.rmtree(base, ignore_errors=True)


def test_assess_knowledge_needs_real_term_overlap(tmp_path):
    store = MemoryStore(str(tmp_path / "m.db"))
    for i in range(12):
        store.put(type="project", content=f"the service is what it is and it was there {i}")
    out = __import__("code_memory.memtool.metacognition", fromlist=["x"]).assess_knowledge(
        store, "how is the kubernetes ingress configured")
    assert out["confidence"] == "none"
    store.put(type="project", content="kubernetes ingress is configured with nginx annotations")
    out = __import__("code_memory.memtool.metacognition", fromlist=["x"]).assess_knowledge(
        store, "how is the kubernetes ingress configured")
    assert out["stats"]["total_memories"] == 1
    store.close()


def test_tokenizing_happens_outside_the_write_transaction(tmp_path, monkeypatch):
    from code_memory.memtool import store as store_mod
    store = MemoryStore(str(tmp_path / "m.db"))
    seen = []
    real = store_mod.build_content_search
    monkeypatch.setattr(store_mod, "build_content_search", lambda text: (seen.append(store.conn.in_transaction),
                                                                         real(text))[1])
    store.put(type="run", content="连接池 " * 1000)
    item = store.put(type="run", key="k", content="first")
    store.put(item_id=item["id"], content="第二版 second")
    assert seen and not any(seen)
    store.close()
