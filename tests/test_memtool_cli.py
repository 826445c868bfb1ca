"""The memtool command line: global options, content sources, output and error contract, exit
codes 0–5 (docs/stores.md § memtool)."""

from __future__ import annotations

import json
import os

from memtool_support import run_memtool


def test_full_cycle_through_the_cli(tmp_path):
    db = str(tmp_path / "m.db")
    status, out, _ = run_memtool("init", db=db)
    assert status == 0 and out["ok"] is True and out["fts5"] is True and out["journal_mode"] == "wal"
    status, out, _ = run_memtool("put", "--type", "feature", "--task-id", "T1", "--key", "contract",
                                 "--content", "POST /api/v1/login", "--tag", "auth,login", db=db)
    assert status == 0 and out["action"] == "created" and out["version"] == 1
    item_id = out["id"]
    status, out, _ = run_memtool("put", "--id", item_id, "--content", "POST /api/v2/login", db=db)
    assert out["version"] == 2
    status, out, _ = run_memtool("get", "--id", item_id, db=db)
    assert status == 0 and out["item"]["content"] == "POST /api/v2/login"
    assert list(out["item"])[:12] == ["id", "type", "task_id", "step_id", "key", "content", "tags", "source",
                                      "weight", "version", "created_at", "updated_at"]
    status, out, _ = run_memtool("get", "--type", "feature", "--key", "contract", "--task-id", "T1", db=db)
    assert out["item"]["id"] == item_id
    status, out, _ = run_memtool("search", "--query", "login", "--task-id", "T1", db=db)
    assert status == 0 and set(out) >= {"ok", "fts5", "items"} and out["fts5"] is True
    assert [it["id"] for it in out["items"]] == [item_id]
    status, out, _ = run_memtool("list", "--tag", "auth", "--limit", "5", db=db)
    assert out["count"] == 1
    status, out, _ = run_memtool("delete", "--id", item_id, db=db)
    assert status == 0 and out["deleted"] is True
    status, out, _ = run_memtool("delete", "--id", item_id, db=db)
    assert status == 3 and out == {"ok": False, "error": "NOT_FOUND",
                                   "message": f"No memory item found with id: {item_id}",
                                   "hint": "Check the id, or use search to find the item", "id": item_id}


def test_db_from_env_and_default_under_the_memory_root(tmp_path, memory_root):
    env_db = str(tmp_path / "env.db")
    status, out, _ = run_memtool("put", "--type", "run", "--content", "x", env={"MEMTOOL_DB": env_db})
    assert status == 0 and os.path.exists(env_db)
    work = tmp_path / "work"
    work.mkdir()
    status, out, _ = run_memtool("init", cwd=str(work))   # the database the MCP server uses
    assert status == 0 and out["db"] == os.path.join(memory_root, "memtool.db") and "notice" not in out
    status, out, _ = run_memtool("init", "--root", str(tmp_path / "r2"), cwd=str(work))
    assert out["db"] == str(tmp_path / "r2" / "memtool.db")
    # --db wins over the environment, and may follow the command
    other = str(tmp_path / "other.db")
    status, out, _ = run_memtool("init", "--db", other, env={"MEMTOOL_DB": env_db})
    assert out["db"] == other


def test_an_old_local_memtool_db_is_named_not_silently_ignored(tmp_path, memory_root):
    """memtool's old default was ./memtool.db: such a file is not used unless named, and every
    answer says so (JSON ``notice`` and stderr) with the commands to use or move it."""
    work = tmp_path / "work"
    work.mkdir()
    local = str(work / "memtool.db")
    status, out, _ = run_memtool("put", "--type", "run", "--content", "old local item", "--db", local)
    assert status == 0 and "notice" not in out                        # named: used, no notice
    status, out, err = run_memtool("list", cwd=str(work))
    assert status == 4 and out["error"] == "DB_ERROR"                  # the shared one does not exist yet
    status, out, err = run_memtool("put", "--type", "run", "--content", "shared item", cwd=str(work))
    assert status == 0 and out["item"]["content"] == "shared item"
    assert local in out["notice"] and f"--db {local}" in out["notice"] and "export | memtool import" in out["notice"]
    assert local in err
    export = run_memtool("export", "--db", local)[1]
    assert export["content"] == "old local item"
    status, out, _ = run_memtool("list", cwd=str(work), env={"MEMTOOL_DB": str(tmp_path / "x.db")})
    assert "notice" not in out                                         # chosen by the environment: no notice


def test_content_from_file_and_stdin(tmp_path):
    db = str(tmp_path / "m.db")
    note = tmp_path / "note.md"
    note.write_text("## Contract\n- from a file\n", encoding="utf-8")
    status, out, _ = run_memtool("put", "--type", "feature", "--key", "c", "--file", str(note), db=db)
    assert out["item"]["content"] == "## Contract\n- from a file\n"
    status, out, _ = run_memtool("put", "--type", "run", "--key", "stacktrace", "--source", "log", db=db,
                                 input="Traceback: boom\n")
    assert out["item"]["content"] == "Traceback: boom\n" and out["item"]["source"] == "log"
    # an update by id with empty stdin keeps the content and changes the rest
    status, out, _ = run_memtool("put", "--id", out["id"], "--confidence", "high", db=db, input="")
    assert out["item"]["content"] == "Traceback: boom\n" and out["item"]["confidence_level"] == "high"
    status, out, _ = run_memtool("put", "--type", "run", "--content", "a", "--file", str(note), db=db)
    assert status == 2 and out["error"] == "PARAM_ERROR"
    status, out, _ = run_memtool("put", "--type", "run", "--file", str(tmp_path / "missing"), db=db)
    assert status == 2 and "Cannot read" in out["message"]
    status, out, _ = run_memtool("put", "--type", "run", db=db, input="")
    assert status == 2 and out["message"] == "Content is empty"


def test_error_contract_and_exit_codes(tmp_path):
    db = str(tmp_path / "m.db")
    status, out, _ = run_memtool("put", "--content", "x", db=db)
    assert status == 2 and out == {"ok": False, "error": "PARAM_ERROR",
                                   "message": "Required parameter --type is missing",
                                   "hint": "Use --type project|feature|run"}
    status, out, _ = run_memtool("frobnicate", db=db)
    assert status == 2 and out["error"] == "PARAM_ERROR"
    status, out, _ = run_memtool("list", "--limit", "many", db=db)
    assert status == 2 and out["error"] == "PARAM_ERROR"
    status, out, _ = run_memtool("list", db=str(tmp_path / "absent.db"))
    assert status == 4 and out["error"] == "DB_ERROR" and not os.path.exists(tmp_path / "absent.db")
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is not a database at all" * 100)
    status, out, _ = run_memtool("list", db=str(broken))
    assert status == 4 and out["error"] == "DB_ERROR" and out["hint"]
    status, out, _ = run_memtool("put", "--type", "run", "--content", "x", db=str(tmp_path / "no" / "dir.db"))
    assert status == 4 and out["error"] == "DB_ERROR"


def test_fts_unavailable_is_exit_5_on_init_and_a_warning_on_search(tmp_path):
    db = str(tmp_path / "m.db")
    env = {"MEMTOOL_FTS": "off"}
    status, out, _ = run_memtool("init", db=db, env=env)
    assert status == 5 and out["ok"] is True and out["fts5"] is False
    assert out["warning"]["error"] == "FTS_UNAVAILABLE"
    run_memtool("put", "--type", "run", "--content", "redis timeout", db=db, env=env)
    status, out, _ = run_memtool("search", "--query", "timeout", db=db, env=env)
    assert status == 0 and out["fts5"] is False and out["warning"] == "FTS_UNAVAILABLE"
    assert len(out["items"]) == 1


def test_text_format(tmp_path):
    db = str(tmp_path / "m.db")
    run_memtool("put", "--type", "run", "--key", "logs", "--content", "line one\nline two", db=db)
    status, out, _ = run_memtool("--format", "text", "list", db=db)
    assert status == 0 and "run:logs" in out and "line one line two" in out
    status, out, _ = run_memtool("get", "--type", "run", "--key", "logs", "--format", "text", db=db)
    assert out.rstrip().endswith("line one\nline two") and "version: 1" in out
    status, out, err = run_memtool("get", "--id", "zzz", "--format", "text", db=db)
    assert status == 3 and out == "" and err.startswith("error NOT_FOUND")   # errors: stderr in text mode


def test_export_and_import_through_the_cli(tmp_path):
    db = str(tmp_path / "m.db")
    for i in range(3):
        run_memtool("put", "--type", "run", "--key", f"k{i}", "--content", f"item {i}", db=db)
    status, out, _ = run_memtool("export", db=db)
    lines = out.splitlines() if isinstance(out, str) else [json.dumps(out)]
    assert status == 0 and len(lines) == 3 and all(json.loads(line)["type"] == "run" for line in lines)
    dump = tmp_path / "dump.jsonl"
    status, out, _ = run_memtool("export", "--output", str(dump), db=db)
    assert out["exported"] == 3 and dump.read_text(encoding="utf-8").splitlines() == lines
    copy = str(tmp_path / "copy.db")
    status, out, _ = run_memtool("import", "--input", str(dump), db=copy)
    assert status == 0 and out["created"] == 3
    status, out, _ = run_memtool("import", db=copy, input=dump.read_text(encoding="utf-8"))
    assert out["updated"] == 3
    status, out, _ = run_memtool("export", db=copy)
    assert out.splitlines() == lines
    status, out, _ = run_memtool("import", db=copy, input='{"type": "run"}\n')
    assert status == 2 and out["line"] == 1
