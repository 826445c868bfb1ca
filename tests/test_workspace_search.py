"""Workspace memory in the index: isolation of search/get, status, index, recovery, privacy."""

import json
import os
import shutil

import pytest

from support.hook_runner import payload, run_hook
from support.workspaces import cm, register

MARK_A = "ALPHAMARKER7"
MARK_B = "BRAVOMARKER8"


@pytest.fixture
def spaces(tmp_path, memory_root):
    """alpha and bravo registered, each with one decision carrying its marker; no vectors."""
    roots = register(memory_root, tmp_path, embedding={"enabled": False})
    cm("init")
    for name, mark in (("alpha", MARK_A), ("bravo", MARK_B)):
        code, _ = cm("remember", f"deploy uses blue green switch {mark}", "--type", "decision",
                     "--reason", "zero downtime", "--at", "2026-02-01 09:30", cwd=str(roots[name]))
        assert code == 0
    return roots


def paths_of(answer):
    return [hit["path"] for hit in answer["results"]]


def test_search_sees_only_its_workspace(spaces):
    code, out = cm("search", "blue green deploy", "--mode", "bm25", cwd=str(spaces["alpha"]))
    assert code == 0 and out["workspace"] == "alpha"
    assert paths_of(out) and all("/alpha/" in p for p in paths_of(out))
    assert MARK_A in json.dumps(out) and MARK_B not in json.dumps(out)
    code, out = cm("search", MARK_B, "--mode", "bm25", cwd=str(spaces["alpha"]))
    assert out["results"] == []
    code, out = cm("search", MARK_B, "--mode", "bm25", cwd=str(spaces["bravo"]))
    assert [h["workspace"] for h in out["results"]] == ["bravo"]
    # outside every workspace: global memory only
    code, out = cm("search", "blue green deploy", "--mode", "bm25", cwd=str(spaces["alpha"].parent))
    assert out["results"] == [] and "workspace" not in out


def test_scope_all_is_cli_only_read_only_and_needs_force(spaces):
    code, out = cm("search", "blue green", "--scope", "all", cwd=str(spaces["alpha"]))
    assert code == 2 and out["error"] == "INVALID_ARGUMENT" and "--force" in out["hint"]
    code, out = cm("search", "blue green", "--mode", "bm25", "--scope", "all", "--force", cwd=str(spaces["alpha"]))
    assert code == 6 and out["error"] == "MEMORY_SCOPE_DENIED" and "terminal" in out["message"]   # no terminal
    code, out = cm("search", "blue green", "--mode", "bm25", "--scope", "all", "--force", cwd=str(spaces["alpha"]),
                   terminal="n")
    assert code == 6 and out["error"] == "MEMORY_SCOPE_DENIED"                                   # the user said no
    code, out = cm("search", "blue green", "--mode", "bm25", "--scope", "all", "--force", cwd=str(spaces["alpha"]),
                   terminal="y")
    assert code == 0 and {h["workspace"] for h in out["results"]} == {"alpha", "bravo"}
    for env in ({"CLAUDECODE": "1"}, {"CLAUDE_CODE_SESSION_ID": "s-1"}, {"CLAUDE_CODE_ENTRYPOINT": "cli"}):
        code, out = cm("search", "blue green", "--scope", "all", "--force", cwd=str(spaces["alpha"]), env=env,
                       terminal="y")
        assert code == 6 and "inside a Claude Code session" in out["message"]
    code, out = cm("remember", "x", "--scope", "all", cwd=str(spaces["alpha"]))
    assert code == 2 and out["error"] == "INVALID_ARGUMENT"           # remember has no scope at all


def test_get_is_confined_to_the_session_workspace(spaces, tmp_path):
    a_file = str(spaces["alpha"] / "memory" / "2026-02-01.md")
    b_file = str(spaces["bravo"] / "memory" / "2026-02-01.md")
    code, out = cm("get", "--path", a_file, "--from", "3", "--lines", "2", cwd=str(spaces["alpha"]))
    assert code == 0 and out["text"].startswith("## 2026-02-01 09:30 — 决策") and MARK_A in out["text"]
    code, out = cm("get", "--path", b_file, cwd=str(spaces["alpha"]))
    assert code == 6 and out["error"] == "MEMORY_PATH_TRAVERSAL" and MARK_B not in json.dumps(out)
    code, out = cm("get", "--path", b_file, "--scope", "all", "--force", cwd=str(spaces["alpha"]), terminal="y")
    assert code == 0 and MARK_B in out["text"]
    for attempt in (str(spaces["alpha"] / "memory" / ".." / ".." / "bravo" / "memory" / "2026-02-01.md"),
                    "../../../../etc/passwd", "/etc/passwd"):
        code, out = cm("get", "--path", attempt, cwd=str(spaces["alpha"]))
        assert code == 6 and out["error"] == "MEMORY_PATH_TRAVERSAL", attempt
    os.symlink(b_file, spaces["alpha"] / "memory" / "link.md")
    code, out = cm("get", "--path", str(spaces["alpha"] / "memory" / "link.md"), cwd=str(spaces["alpha"]))
    assert code == 6 and out["error"] == "MEMORY_PATH_TRAVERSAL"
    code, out = cm("get", "--path", str(spaces["alpha"] / "memory" / "2030-01-01.md"), cwd=str(spaces["alpha"]))
    assert code == 3 and out["error"] == "MEMORY_FILE_NOT_FOUND"
    code, out = cm("get", "--path", a_file, "--workspace", "nope", cwd=str(spaces["alpha"]))
    assert code == 3 and out["error"] == "MEMORY_WORKSPACE_NOT_FOUND"


def test_status_index_and_dirty_files(spaces, memory_root):
    code, out = cm("workspace", "status", "--all")
    assert out["store"]["exists"] is False and out["actions"]["recommended"] == "code-memory workspace index --all"
    assert out["probes"] == {"sqliteOk": True, "ftsOk": True}
    code, out = cm("workspace", "index", "--all", "--no-vectors")
    assert code == 0 and out["workspaces"] == ["alpha", "bravo"]
    code, out = cm("workspace", "status", cwd=str(spaces["bravo"]))
    assert [w["id"] for w in out["workspaces"]] == ["bravo"]
    assert out["workspaces"][0]["indexedFiles"] == 1 and out["workspaces"][0]["indexedChunks"] >= 1
    assert out["store"]["indexedWorkspaces"] == 2 and out["actions"]["recommended"] is None
    cm("remember", "a new event", "--at", "2026-02-03 10:00", cwd=str(spaces["alpha"]))
    code, out = cm("workspace", "status", "--all")
    assert out["dirty"] == {"workspaces": ["alpha"], "count": 1,
                            "files": [str(spaces["alpha"] / "memory" / "2026-02-03.md")]}
    assert out["actions"]["recommended"] == "code-memory workspace index --workspace alpha"
    # indexing one workspace leaves the others (and the memory root) alone
    code, out = cm("workspace", "index", "--workspace", "alpha", "--no-vectors")
    assert out["refresh"]["added"] == 1 and "deleted" not in out["refresh"]
    code, out = cm("workspace", "status", "--all")
    assert out["dirty"]["count"] == 0 and out["store"]["indexedFiles"] == 3
    code, out = cm("search", MARK_B, "--mode", "bm25", "--no-refresh", cwd=str(spaces["bravo"]))
    assert out["results"], "indexing alpha alone dropped bravo's documents"


def test_unregistered_workspace_leaves_the_index(spaces, memory_root):
    cm("workspace", "index", "--all", "--no-vectors")
    code, out = cm("workspace", "remove", "bravo")
    assert code == 0
    code, out = cm("search", MARK_B, "--mode", "bm25", "--scope", "all", "--force", terminal="y")
    assert out["results"] == []


def test_recovery_after_deleting_the_index(spaces, memory_root):
    cm("workspace", "index", "--all", "--no-vectors")
    shutil.rmtree(os.path.join(memory_root, ".index"))
    code, out = cm("search", MARK_A, "--mode", "bm25", cwd=str(spaces["alpha"]))
    assert code == 0 and out["index"]["rebuilt"] == "index was missing"
    assert [h["workspace"] for h in out["results"]] == ["alpha"]
    with open(os.path.join(memory_root, ".index", "search.sqlite"), "wb") as fh:
        fh.write(b"this is not sqlite" * 100)
    code, out = cm("search", MARK_A, "--mode", "bm25", cwd=str(spaces["alpha"]))
    assert code == 0 and "corrupted" in out["index"]["rebuilt"] and out["results"]
    with open(os.path.join(memory_root, ".index", "search.sqlite"), "wb") as fh:
        fh.write(b"this is not sqlite" * 100)
    code, out = cm("search", MARK_A, "--mode", "bm25", cwd=str(spaces["alpha"]),
                   env={"CODE_MEMORY_INDEX__AUTO_REBUILD": "false"})
    assert code == 4 and out["error"] == "MEMORY_INDEX_CORRUPTED"
    code, out = cm("workspace", "status", "--all")
    assert out["store"]["usable"] is False and out["actions"]["recommended"].endswith("--full")


def test_index_errors(spaces, memory_root, monkeypatch, capsys):
    from code_memory.cli.main import main
    from code_memory.search import index as index_module
    with monkeypatch.context() as patch:                 # (never undo the fixture's HOME / root)
        patch.chdir(spaces["alpha"])
        patch.setattr(index_module, "fts5_available", lambda: False)
        assert main(["workspace", "index", "--require-fts"]) == 5
    assert json.loads(capsys.readouterr().out)["error"] == "MEMORY_FTS_DISABLED"
    os.makedirs(os.path.join(memory_root, ".index", "search.sqlite"))      # a directory: cannot be opened
    code, out = cm("workspace", "index", "--all", "--no-vectors")
    assert code == 4 and out["error"] == "MEMORY_INDEX_FAILED"


def test_search_read_and_status_failures(spaces, monkeypatch, capsys):
    """I/O failures that cannot be provoked from outside the process (the tests run as root, so
    permissions do not stop a read) are injected at the one call each wraps; each becomes its error
    code and exit status, with no memory text and no traceback."""
    import sqlite3

    from code_memory.cli.main import main
    from code_memory.search import engine as search_module
    from code_memory.search import status as status_module

    def broken_disk(*_args, **_kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    def unreadable(*_args, **_kwargs):
        raise OSError(5, "Input/output error")

    a_file = str(spaces["alpha"] / "memory" / "2026-02-01.md")
    cases = (
        (["search", "blue green deploy", "--mode", "bm25"], search_module, "run_query", broken_disk,
         4, "MEMORY_SEARCH_FAILED"),
        (["get", "--path", a_file], search_module, "open_regular", unreadable, 7, "MEMORY_READ_FAILED"),
        (["status"], status_module, "open_index", broken_disk, 4, "MEMORY_STATUS_FAILED"),
        (["workspace", "status"], status_module, "open_index", broken_disk, 4, "MEMORY_STATUS_FAILED"),
    )
    for argv, module, name, failure, exit_status, error in cases:
        assert main(["index", "--no-vectors"]) == 0        # the index exists: the failure is the injected one
        capsys.readouterr()
        with monkeypatch.context() as patch:
            patch.chdir(spaces["alpha"])
            patch.setattr(module, name, failure, raising=False)
            assert main(argv) == exit_status, argv
        out = json.loads(capsys.readouterr().out)
        assert out["ok"] is False and out["error"] == error and out["message"], argv
        assert MARK_A not in json.dumps(out) and MARK_B not in json.dumps(out)


def test_logs_status_and_probes_never_hold_memory_text(spaces, memory_root):
    """A full run over both stores, then every log (and status/validate output) is searched."""
    marker = "PRIVACYMARKER93"
    alpha = str(spaces["alpha"])
    cm("remember", f"secret plan {marker}", "--type", "decision", "--reason", marker, "--at", "2026-01-01 08:00",
       cwd=alpha)
    cm("kv", "set", f"/user/{marker}", json.dumps({"summary": marker}), "chat")
    cm("kv", "read")
    cm("kv", "compact")
    cm("kv", "check")
    cm("workspace", "index", "--all", "--no-vectors")
    code, found = cm("search", marker, "--mode", "bm25", cwd=alpha)
    assert marker in json.dumps(found)                               # the marker is really there
    cm("get", "--path", os.path.join(alpha, "memory", "2026-01-01.md"), cwd=alpha)
    outputs = [cm("workspace", "status", "--all")[1], cm("workspace", "validate", "--all")[1], cm("status")[1]]
    cm("workspace", "compact", "--apply", "--older-than", "1", cwd=alpha)
    context = run_hook("session-start", payload("session-start", alpha)).context
    assert marker in context                                         # the kv block carried it to Claude
    for output in outputs:
        assert marker not in json.dumps(output, ensure_ascii=False)
    logs = os.path.join(memory_root, "logs")
    seen = []
    for dirpath, _dirs, files in os.walk(logs):
        for name in files:
            seen.append(name)
            with open(os.path.join(dirpath, name), "rb") as fh:
                assert marker.encode() not in fh.read(), name
    assert {"workspace.log", "kv.log", "hooks.log"} <= set(seen)
