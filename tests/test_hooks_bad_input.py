"""Bad input never turns into output, a traceback, a non-zero exit or damaged memory.

Every shim gets: empty stdin, non-JSON, JSON that is not an object, objects missing fields, unknown
tool names, odd paths (spaces, newlines, unicode), a 5 MB tool_response, and a memory root that
cannot be written or does not exist."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from support.hook_runner import HOOKS_DIR, hook_env, payload, run_hook

SHIMS = sorted(f[:-3] for f in os.listdir(HOOKS_DIR) if f.endswith(".sh") and f != "lib.sh")
PAYLOAD_FOR = {"session-start": "session-start", "rules-injector": "pre-read", "rules-gate": "pre-edit",
               "schema-injector": "subagent-start", "subagent-rules": "subagent-start", "pre-compact": "pre-compact",
               "extract-memory": "post-edit", "avoidance-gate": "post-edit", "session-summary": "session-end",
               "prompt-recall": "user-prompt", "todo-check": "stop"}




def errors_logged(paths):
    log = os.path.join(paths.logs, "hooks.log")
    if not os.path.exists(log):
        return []
    with open(log, encoding="utf-8") as fh:
        return [r for r in map(json.loads, fh) if r["level"] == "error"]


def snapshot(root):
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            if "/logs/" in path or name.endswith(".lock"):
                continue
            with open(path, "rb") as fh:
                out[os.path.relpath(path, root)] = fh.read()
    return out


def test_every_shim_is_covered():
    assert set(SHIMS) <= set(PAYLOAD_FOR), "a new shim needs a payload here"
    assert len(SHIMS) >= 7


@pytest.mark.parametrize("shim", SHIMS)
@pytest.mark.parametrize("raw", [b"", b"   \n", b"not json {", b"[]", b'"text"', b"null", b"{}",
                                 b'{"hook_event_name": 5, "tool_input": "x", "cwd": ["a"]}',
                                 b"\xff\xfe\x00garbage", b'{"session_id": "s", "tool_input": {"file_path": 7}}'],
                         ids=["empty", "blank", "non-json", "array", "string", "null", "empty-object",
                              "wrong-types", "binary", "bad-file-path"])
def test_garbage_in_nothing_out(shim, raw, initialized_root):
    result = run_hook(shim, raw)
    assert result.returncode == 0 and result.stdout == "" and "Traceback" not in result.stderr
    assert errors_logged(initialized_root) == []


@pytest.mark.parametrize("shim", SHIMS)
def test_missing_fields_and_unknown_tools(shim, initialized_root, project):
    os.makedirs(initialized_root.project_dir("alpha"))
    with open(os.path.join(initialized_root.project_dir("alpha"), "rules.md"), "w") as fh:
        fh.write("- a rule\n")
    full = payload(PAYLOAD_FOR[shim], project)
    for missing in ("session_id", "cwd", "tool_input", "tool_name", "hook_event_name", "transcript_path"):
        data = {k: v for k, v in full.items() if k != missing}
        result = run_hook(shim, data)
        assert result.returncode == 0, (missing, result.stderr)
        if result.stdout:  # only a complete-enough payload may produce a (valid) answer
            assert isinstance(result.json, dict)
            assert result.specific.get("permissionDecision") != "deny" or missing not in ("tool_name",)
    for tool in ("Bash", "Grep", "mcp__x__y", "", "read"):
        data = dict(full, tool_name=tool)
        if "tool_name" in full:
            assert run_hook(shim, data).silent, tool
    assert errors_logged(initialized_root) == []


@pytest.mark.parametrize("name", ["with space.py", "new\nline.py", "ünï cødé 数据.py", "quote\"and\\back.py",
                                  "%2F percent.py"])
def test_odd_paths(name, initialized_root, project):
    os.makedirs(initialized_root.project_dir("alpha"))
    with open(os.path.join(initialized_root.project_dir("alpha"), "rules.md"), "w", encoding="utf-8") as fh:
        fh.write("- ODD-RULE\n")
    sub = os.path.join(project, "dir with space", "ünï")
    os.makedirs(sub)
    path = os.path.join(sub, name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("x = 1\n")
    edit = payload("pre-edit", project, tool_input={"file_path": path, "old_string": "x", "new_string": "y"})
    assert run_hook("rules-gate", edit).decision == "deny"
    read = payload("pre-read", project, tool_input={"file_path": path})
    assert "ODD-RULE" in run_hook("rules-injector", read).context
    assert run_hook("rules-injector", read).silent
    assert run_hook("rules-gate", edit).silent
    post = payload("post-edit", project, tool_input={"file_path": path})
    assert run_hook("extract-memory", post).silent
    notes = [n for n in os.listdir(initialized_root.daily) if n.endswith(".md")]
    with open(os.path.join(initialized_root.daily, notes[0]), encoding="utf-8") as fh:
        text = fh.read()
    entry = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(entry) == 1 and "[alpha]" in entry[0]  # a newline in a name never splits the line
    assert errors_logged(initialized_root) == []


@pytest.mark.parametrize("shim", ["extract-memory", "rules-gate", "rules-injector", "session-summary"])
def test_five_megabyte_payload(shim, initialized_root, project):
    data = payload(PAYLOAD_FOR[shim], project)
    data["tool_response"] = {"filePath": os.path.join(project, "a.py"), "originalFile": "x" * (5 * 1024 * 1024),
                             "structuredPatch": [{"lines": ["+y"] * 1000}]}
    data.setdefault("tool_input", {})["content"] = "z" * (5 * 1024 * 1024)
    result = run_hook(shim, data, env={"CODE_MEMORY_HOOKS__SUMMARIZE_ON_END": "false"})
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert errors_logged(initialized_root) == []


def _make_unwritable(paths):
    """A memory root every write into fails (also for root, who ignores permission bits): the
    directories hooks write into are files."""
    for directory in (paths.daily, paths.sessions):
        os.rmdir(directory) if os.path.isdir(directory) and not os.listdir(directory) else None
        with open(directory, "w") as fh:
            fh.write("")


@pytest.mark.parametrize("shim", SHIMS)
def test_unwritable_memory_root(shim, initialized_root, project):
    with open(initialized_root.memory_md, "a", encoding="utf-8") as fh:
        fh.write("- remembered line\n")
    _make_unwritable(initialized_root)
    before = snapshot(initialized_root.root)
    result = run_hook(shim, payload(PAYLOAD_FOR[shim], project))
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert result.specific.get("permissionDecision") != "deny" and (result.json or {}).get("decision") != "block"
    assert snapshot(initialized_root.root) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores permission bits; test_unwritable_memory_root covers it")
@pytest.mark.parametrize("shim", SHIMS)
def test_read_only_memory_root(shim, initialized_root, project):
    before = snapshot(initialized_root.root)
    for dirpath, dirs, _files in os.walk(initialized_root.root):
        for d in dirs:
            os.chmod(os.path.join(dirpath, d), 0o555)
    os.chmod(initialized_root.root, 0o555)
    try:
        result = run_hook(shim, payload(PAYLOAD_FOR[shim], project))
    finally:
        for dirpath, _dirs, _files in os.walk(initialized_root.root):
            os.chmod(dirpath, 0o755)
    assert result.returncode == 0 and result.specific.get("permissionDecision") != "deny"
    assert snapshot(initialized_root.root) == before


@pytest.mark.parametrize("shim", SHIMS)
def test_missing_memory_root(shim, project, tmp_path):
    nowhere = str(tmp_path / "blocked" / "memory")
    with open(tmp_path / "blocked", "w") as fh:  # a file where the root's parent should be
        fh.write("")
    result = run_hook(shim, payload(PAYLOAD_FOR[shim], project), env={"CODE_MEMORY_ROOT": nowhere})
    assert result.silent
    absent = str(tmp_path / "absent" / "memory")
    result = run_hook(shim, payload(PAYLOAD_FOR[shim], project), env={"CODE_MEMORY_ROOT": absent,
                                                                      "CODE_MEMORY_HOOKS__AUTO_INIT": "false"})
    assert result.silent and not os.path.exists(absent)


def test_session_start_fails_open_when_python_is_missing_or_the_package_broken(initialized_root, project, tmp_path):
    """session-start.sh hands its process to Python (exec): a missing interpreter, or an entry
    script that cannot import the package, still ends with exit 0 and no output."""
    start = payload("session-start", project)
    missing = run_hook("session-start", start, env={"CODE_MEMORY_PYTHON": str(tmp_path / "no-python")})
    assert missing.returncode == 0 and missing.stdout == ""
    shutil.copytree(HOOKS_DIR, tmp_path / "hooks")
    (tmp_path / "scripts").mkdir()                                  # the entry script without its package
    shutil.copy(os.path.join(HOOKS_DIR, "..", "scripts", "code-memory-hook.py"), tmp_path / "scripts")
    broken = subprocess.run([str(tmp_path / "hooks" / "session-start.sh")], input=json.dumps(start).encode(),
                            capture_output=True, env=hook_env(None), timeout=60)
    assert broken.returncode == 0 and broken.stdout == b"" and b"Traceback" not in broken.stderr
