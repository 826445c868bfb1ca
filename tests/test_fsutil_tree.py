import datetime as dt
import json
import multiprocessing
import os

import pytest

from code_memory import fsutil, markdown
from code_memory.errors import CodeMemoryError
from code_memory.memory import daily as daily_notes
from code_memory.memory import tree
from code_memory.memory.facts import add_fact, load_facts, parse_facts, set_status
from code_memory.paths import MemoryPaths, resolve_inside


def _appender(path, n, tag):
    for i in range(n):
        fsutil.append_jsonl(path, {"tag": tag, "i": i, "pad": "x" * 3000})


def test_locked_append_never_tears_lines(tmp_path):
    path = str(tmp_path / "log.jsonl")
    procs = [multiprocessing.Process(target=_appender, args=(path, 200, t)) for t in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    assert len(lines) == 1200
    assert all(json.loads(line)["pad"] == "x" * 3000 for line in lines)


def test_atomic_write_leaves_no_temp_files(tmp_path):
    path = tmp_path / "a" / "b.txt"
    fsutil.atomic_write_text(str(path), "one")
    fsutil.atomic_write_text(str(path), "two")
    assert path.read_text() == "two"
    assert os.listdir(path.parent) == ["b.txt"]


def test_init_root_creates_tree_and_never_overwrites(paths):
    report = tree.init_root(paths)
    assert "MEMORY.md" in report["created"]
    with open(paths.memory_md, "a", encoding="utf-8") as fh:
        fh.write("mine\n")
    report = tree.init_root(paths)
    assert "MEMORY.md" in report["existing"]
    assert open(paths.memory_md, encoding="utf-8").read().endswith("mine\n")
    for d in ("daily", "sessions", "areas/projects", "areas/patterns", "areas/tools", "evolution", "kv", "rules"):
        assert os.path.isdir(os.path.join(paths.root, d)), d
    area = tree.ensure_area(paths, "projects", "demo")
    assert sorted(os.listdir(area)) == ["facts.json", "rules.md", "summary.md"]


def test_daily_edits_merge_same_minute_and_project(paths):
    t = dt.datetime(2026, 11, 22, 14, 30, 5)
    daily_notes.append_daily_edit(paths, t, "alpha", "a.py")
    daily_notes.append_daily_edit(paths, t.replace(second=50), "alpha", "b.py")
    daily_notes.append_daily_edit(paths, t.replace(second=55), "alpha", "a.py")
    daily_notes.append_daily_edit(paths, t, "beta", "c.py")
    daily_notes.append_daily_edit(paths, t.replace(minute=31), "alpha", "d.py")
    daily_notes.append_daily_edit(paths, t.replace(minute=31), "alpha", "weird\nname.py")
    text = open(paths.daily_note("2026-11-22"), encoding="utf-8").read()
    assert "- 14:30 [alpha] a.py, b.py\n" in text
    assert "- 14:30 [beta] c.py\n" in text
    assert "- 14:31 [alpha] d.py, weird\\nname.py\n" in text
    assert text.startswith("# 2026-11-22")


def test_sections_and_daily_blocks(paths):
    tree.init_root(paths)
    md = open(paths.memory_md, encoding="utf-8").read()
    md2 = markdown.append_to_section(md, tree.PITFALLS_HEADING, ["- never force-push main"])
    assert markdown.section_lines(md2, tree.PITFALLS_HEADING)[1] == "- never force-push main"
    assert md2.index("never force-push") < md2.index(tree.BEST_PRACTICES_HEADING)
    daily_notes.replace_daily_block(paths, "2026-11-22", "### 10:00 session s1", "### 10:00 session s1\n- v1")
    daily_notes.replace_daily_block(paths, "2026-11-22", "### 10:00 session s1", "### 10:00 session s1\n- v2")
    text = open(paths.daily_note("2026-11-22"), encoding="utf-8").read()
    assert text.count("session s1") == 1 and "- v2" in text and "- v1" not in text


def test_facts_lifecycle(tmp_path):
    path = str(tmp_path / "facts.json")
    f1 = add_fact(path, "WebSocket heartbeat every 30 s", evidence="manual", category="configuration")
    assert add_fact(path, "WebSocket heartbeat every 30 s")["id"] == f1["id"]
    f2 = add_fact(path, "WebSocket heartbeat every 20 s", supersedes=f1["id"])
    facts = {f["id"]: f for f in load_facts(path)}
    assert facts[f1["id"]]["status"] == "superseded" and facts[f1["id"]]["supersededBy"] == f2["id"]
    set_status(path, f2["id"], "archived")
    assert {f["status"] for f in load_facts(path)} == {"superseded", "archived"}
    with pytest.raises(CodeMemoryError):
        parse_facts("{nope", "x/facts.json")


def test_resolve_inside_blocks_escapes(tmp_path):
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    (root / "d" / "f.md").write_text("x")
    outside = tmp_path / "secret.md"
    outside.write_text("s")
    os.symlink(outside, root / "link.md")
    assert resolve_inside("d/f.md", [str(root)]).endswith("f.md")
    for bad in ("../secret.md", str(outside), "link.md", "d/../../secret.md", "a\x00b"):
        with pytest.raises(CodeMemoryError) as exc:
            resolve_inside(bad, [str(root)])
        assert exc.value.code == "MEMORY_PATH_TRAVERSAL"


def test_safe_names():
    p = MemoryPaths("/r")
    assert p.session_note("../../etc/passwd").startswith("/r/sessions/")
    assert "/" not in os.path.basename(p.project_dir("a/b/../c"))
    assert p.project_dir("项目").endswith("项目")


def _area_writer(root, n, areas, start):
    from code_memory.paths import MemoryPaths
    p = MemoryPaths(root)
    start.wait()
    for a in range(areas):
        directory = tree.ensure_area(p, "projects", f"race{a}")   # all creators race on each new area
        tree.update_file(os.path.join(directory, "rules.md"), lambda text: text + f"- rule {n}\n")


def test_creating_an_area_never_wipes_a_concurrent_update(tmp_path):
    root, areas, writers = str(tmp_path / "mem"), 40, 6
    start = multiprocessing.Event()
    procs = [multiprocessing.Process(target=_area_writer, args=(root, n, areas, start)) for n in range(writers)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join()
    for a in range(areas):
        text = open(os.path.join(root, f"areas/projects/race{a}/rules.md"), encoding="utf-8").read()
        assert text.startswith(f"# race{a}")
        assert sorted(line for line in text.split("\n") if line.startswith("- rule")) == \
            sorted(f"- rule {n}" for n in range(writers)), (a, text)


def test_create_new_text_never_overwrites(tmp_path):
    path = str(tmp_path / "d" / "f.md")
    assert fsutil.create_new_text(path, "first") is True
    assert fsutil.create_new_text(path, "second") is False
    assert open(path).read() == "first"
    assert os.listdir(tmp_path / "d") == ["f.md"]
