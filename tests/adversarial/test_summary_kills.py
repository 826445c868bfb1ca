"""kill -9 while the summarizer writes (issue 14, deliverable 8): the session note, the daily entry,
MEMORY.md, rules, the recent-work index and the search index are never torn and never lose what they
held; a run to the end afterwards leaves one entry for the session."""

from __future__ import annotations

import glob
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

from conftest import SCRIPTS, run_script
from support.transcripts import TranscriptWriter

KILLS = 12
PITFALL = "- 金额一律用 Decimal，不要用 float (KEEP-PITFALL)"
RULE = "- 数据库访问一律参数化 (KEEP-RULE)"
EDIT_LINE = "- 09:00 [shop] keep.py"


def check_whole(root: str) -> None:
    for path in glob.glob(os.path.join(root, "**", "*"), recursive=True):
        if os.path.isdir(path) or os.path.basename(path).startswith(".") or path.endswith(".tmp"):
            continue
        with open(path, "rb") as fh:
            data = fh.read()
        if path.endswith(".md"):
            data.decode("utf-8")
        elif path.endswith(".json"):
            json.loads(data.decode("utf-8"))
        elif path.endswith(".jsonl"):
            for line in data.decode("utf-8").splitlines():
                if line.strip():
                    json.loads(line)
    for db in glob.glob(os.path.join(root, "**", "*.sqlite"), recursive=True) + \
            glob.glob(os.path.join(root, "**", ".*", "*.sqlite"), recursive=True):
        conn = sqlite3.connect(db)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", db
        finally:
            conn.close()


def test_kill_9_loops_during_summary_writes(initialized_root, tmp_path):
    paths = initialized_root
    project = tmp_path / "work" / "shop"
    (project / ".git").mkdir(parents=True)
    with open(paths.memory_md, encoding="utf-8") as fh:
        memory = fh.read()
    with open(paths.memory_md, "w", encoding="utf-8") as fh:
        fh.write(memory.replace("## 踩坑记录\n", f"## 踩坑记录\n{PITFALL}\n", 1) if "## 踩坑记录" in memory
                 else memory + f"\n## 踩坑记录\n{PITFALL}\n")
    rules = os.path.join(paths.project_dir("shop"), "rules.md")
    os.makedirs(os.path.dirname(rules), exist_ok=True)
    with open(rules, "w", encoding="utf-8") as fh:
        fh.write(f"# shop — rules\n\n## 编码规范\n{RULE}\n")
    day = time.strftime("%Y-%m-%d")
    os.makedirs(paths.daily, exist_ok=True)
    with open(paths.daily_note(day), "w", encoding="utf-8") as fh:
        fh.write(f"# {day}\n\n{EDIT_LINE}\n\n")
    assert run_script("memory-search.py", "index", "--no-vectors").returncode == 0
    transcript = str(tmp_path / "t.jsonl")
    with TranscriptWriter(transcript, session_id="sess-kill", cwd=str(project)) as t:
        for n in range(40):
            t.user(f"step {n}: make the cache expire after {n} minutes in {project}/cache.py " + "x" * 200)
            t.tool("Edit", {"file_path": f"{project}/cache.py", "old_string": "a", "new_string": "b"})
            t.say(f"Done step {n}. Next: add a test for expiry {n}. " * 3)
    cmd = [sys.executable, os.path.join(SCRIPTS, "session-summary.py"), "--transcript", transcript, "--backend", "none"]
    started = time.monotonic()                      # one full run: how long the writes take here
    subprocess.run(cmd, capture_output=True, timeout=120, check=True)
    full = time.monotonic() - started
    rng = random.Random(14)
    killed = attempts = 0
    while killed < KILLS and attempts < 3 * KILLS:   # a run that ended first is a run that was not tested
        attempts += 1
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 0.95) * full)  # after the interpreter started, before it ends
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            killed += 1
        else:
            full *= 0.7                              # this machine got faster than the first run: aim earlier
        proc.wait()
        check_whole(paths.root)
        with open(paths.memory_md, encoding="utf-8") as fh:
            assert PITFALL in fh.read()
        with open(rules, encoding="utf-8") as fh:
            assert RULE in fh.read()
        with open(paths.daily_note(day), encoding="utf-8") as fh:
            assert EDIT_LINE in fh.read()
    assert killed >= KILLS // 2                     # most runs really died mid-way
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    check_whole(paths.root)
    assert os.path.exists(paths.session_note("sess-kill"))
    notes = ""
    for note in glob.glob(os.path.join(paths.daily, "*.md")):
        with open(note, encoding="utf-8") as fh:
            notes += fh.read()
    assert notes.count("### 会话 sess-kill") == 1 and EDIT_LINE in notes   # one entry, whatever the kills did
