"""No write leaves the memory root (issue 14, deliverable 4): a symlink anywhere under the root that
leads outside is refused by fsutil's writers — through the hooks, the summarizer's writers and the
CLI — and listed by ``code-memory status``; a root that is itself a symlink is fine."""

from __future__ import annotations

import json
import os

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.fsutil import append_jsonl, atomic_write_text, create_new_text, file_lock, locked_append
from code_memory.memory.daily import append_daily_edit
from code_memory.paths import MemoryPaths
from conftest import run_script
from support.hook_runner import payload, run_hook

LINKED = ["daily", "sessions", "areas", "areas/projects", "evolution", "logs", ".index", "MEMORY.md",
          "daily/2026-03-02.md", "areas/projects/alpha", "areas/projects/alpha/rules.md"]


def is_file(rel):
    return rel.endswith(".md")


def outside_target(tmp_path, rel):
    target = tmp_path / "elsewhere" / rel.replace("/", "_")
    if is_file(rel):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("outside\n")
    else:
        target.mkdir(parents=True)
    return target


def snapshot(folder):
    out = {}
    for base, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(base, name)
            with open(path, "rb") as fh:
                out[path] = fh.read()
    return out


@pytest.mark.parametrize("rel", LINKED)
def test_every_fsutil_writer_refuses_a_symlink_leading_outside(memory_root, tmp_path, rel):
    MemoryPaths(memory_root)
    link = os.path.join(memory_root, rel)
    os.makedirs(os.path.dirname(link), exist_ok=True)
    target = outside_target(tmp_path, rel)
    os.symlink(target, link)
    before = snapshot(tmp_path / "elsewhere")
    if is_file(rel):            # the file itself leads outside
        writers = [lambda: atomic_write_text(link, "data"), lambda: locked_append(link, "data\n"),
                   lambda: append_jsonl(link, {"a": 1}), lambda: file_lock(link).__enter__()]
    else:                       # a directory on the way leads outside
        inside = os.path.join(link, "x.md")
        writers = [lambda: atomic_write_text(inside, "data"), lambda: create_new_text(inside + ".new", "data"),
                   lambda: locked_append(inside, "data\n"), lambda: append_jsonl(inside + ".jsonl", {"a": 1}),
                   lambda: file_lock(inside + ".lock").__enter__()]
    for write in writers:
        with pytest.raises(CodeMemoryError) as info:
            write()
        assert info.value.code == "MEMORY_PATH_TRAVERSAL" and "symlink" in info.value.message
    assert snapshot(tmp_path / "elsewhere") == before


def test_a_root_that_is_itself_a_symlink_is_fine(tmp_path):
    real = tmp_path / "real-root"
    real.mkdir()
    os.symlink(real, tmp_path / "root-link")
    paths = MemoryPaths(str(tmp_path / "root-link"))
    note = append_daily_edit(paths, __import__("datetime").datetime(2026, 3, 2, 10, 0), "alpha", "a.py")
    assert os.path.exists(real / "daily" / os.path.basename(note))


def test_hooks_and_status_with_a_daily_symlink_leading_outside(initialized_root, project, tmp_path):
    elsewhere = tmp_path / "elsewhere-daily"
    elsewhere.mkdir()
    os.rename(initialized_root.daily, str(tmp_path / "old-daily")) if os.path.exists(initialized_root.daily) else None
    os.symlink(elsewhere, initialized_root.daily)
    edit = payload("post-edit", project, tool_name="Write",
                   tool_input={"file_path": os.path.join(project, "src", "a.py"), "content": "x"},
                   tool_response={"filePath": os.path.join(project, "src", "a.py")})
    result = run_hook("extract-memory", edit)
    assert result.silent and os.listdir(elsewhere) == []             # fails open, writes nothing outside
    status = json.loads(run_script("code-memory.py", "status").stdout)
    assert status["symlinks_outside"] == [{"path": "daily", "target": str(elsewhere)}]
    code = run_script("code-memory.py", "kv", "set", "/user/x", '{"a": 1}', "--source",
                      '{"kind": "user", "name": "t", "retrieved_at": "2026-03-02T10:00:00Z", "locator": "l"}')
    assert code.returncode == 0                                       # other writes go on


def test_secret_shapes_in_edited_file_names_never_reach_the_daily_note(initialized_root, project):
    """The hook-written daily line: a file named after a token is redacted before it is written —
    every shape the redactor recognises on its own (without a label such as ``password=``)."""
    from code_memory.redact import redact
    from support.secrets_corpus import SHAPES

    values = [v for _n, _t, v, _l in SHAPES
              if "/" not in v and " " not in v and "\n" not in v and 16 <= len(v) <= 200 and redact(v) != v]
    for value in values:
        target = os.path.join(project, "cfg", f"{value}.txt")
        edit = payload("post-edit", project, tool_name="Write", tool_input={"file_path": target, "content": "x"},
                       tool_response={"filePath": target})
        assert run_hook("extract-memory", edit).returncode == 0
    text = "".join(open(os.path.join(initialized_root.daily, n), encoding="utf-8").read()
                   for n in os.listdir(initialized_root.daily) if n.endswith(".md"))
    leaked = [v for v in values if v in text]
    assert len(values) >= 25 and leaked == [] and "[REDACTED" in text


def test_secret_shapes_in_session_notes_never_reach_signals_jsonl(initialized_root):
    """signals.jsonl keeps the text of a line that raised a signal: every shape in the corpus, on a
    line that is a signal ("build failed …"), in a session note written by hand (one note per shape:
    a session keeps one signal, and one line of text, per problem)."""
    from code_memory.evolution import signals
    from support.secrets_corpus import SECRET_VALUES, SECRETS

    os.makedirs(initialized_root.sessions, exist_ok=True)
    for i, (_name, text, _value) in enumerate(SECRETS):
        with open(initialized_root.session_note(f"sess-secrets-{i}"), "w", encoding="utf-8") as fh:
            fh.write(f"# 会话摘要: sess-secrets-{i}\n\n- **项目**: alpha\n- **时间**: 2026-03-01 18:00\n\n---\n\n"
                     f"1. **关键知识点**:\n   - build failed: {text}\n")
    done = signals.extract(initialized_root, signals.Settings(), force=True)
    assert len(done["extracted"]) >= 25 and all(item["signals"] >= 1 for item in done["extracted"])
    with open(initialized_root.signals_log, encoding="utf-8") as fh:
        logged = fh.read()
    assert not [v for v in SECRET_VALUES if v in logged] and "[REDACTED" in logged
