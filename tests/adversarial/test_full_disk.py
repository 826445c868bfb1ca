"""Reads on a full disk (issue 22, deliverable 6): the memory root on a 4 MB tmpfs filled to the last
block, mounted in a private user and mount namespace (``unshare -rm``, so no root is needed and
nothing outside the test sees it). Search (with no index yet, and with one that has changes to
take in), get, the key-value read, the SessionStart and rules-injector hooks and a search from
inside a session all answer from what is there — never INTERNAL_ERROR."""

from __future__ import annotations

import json
import os
import pathlib
import shlex
import shutil
import subprocess
import sys

import pytest

from conftest import FAKE_CLAUDE, REPO, SCRIPTS, write_file

MARK = "FULL-DISK-STILL-READS"
HOOKS = os.path.join(REPO, "hooks")


def _namespaces_work() -> str | None:
    if not shutil.which("unshare"):
        return "unshare is not installed"
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt 2>&1 || "
                            "mount -t tmpfs -o size=1m tmpfs \"$TMPDIR\""], capture_output=True, text=True,
                           env={**os.environ, "TMPDIR": "/tmp"})
    return None if probe.returncode == 0 else f"no private mount namespace here ({probe.stdout.strip()[:120]})"


@pytest.fixture(scope="module")
def namespaces():
    reason = _namespaces_work()
    if reason:
        pytest.skip(reason)


def payload(event: str, cwd: str, **extra) -> str:
    return json.dumps({"session_id": "s-full", "transcript_path": "/nonexistent.jsonl", "cwd": cwd,
                       "hook_event_name": event, **extra})


@pytest.mark.parametrize("indexed", [False, True], ids=["no-index-yet", "stale-index"])
def test_reads_answer_on_a_full_disk(namespaces, initialized_root, project, tmp_path, indexed):
    paths, alpha = initialized_root, pathlib.Path(project)
    write_file(paths.project_dir("alpha"), "rules.md",
               f"# alpha\n\n## Deploy\n\n- {MARK}: blue-green deploys need a health check\n")
    write_file(paths.root, "MEMORY.md",                               # what SessionStart injects
               f"\n## 避坑经验 (Pitfalls)\n\n- {MARK}: restart the cache after a deploy\n", mode="a")
    mnt = tmp_path / "full"
    mnt.mkdir()
    py, cm = shlex.quote(sys.executable), shlex.quote(os.path.join(SCRIPTS, "code-memory.py"))
    new_rule = shlex.quote(os.path.join(str(mnt), "areas", "projects", "alpha", "more.md"))
    runs = {
        "search": f"{py} {cm} search {MARK} --mode bm25",
        "get": f"{py} {cm} get --path areas/projects/alpha/rules.md",
        "kv-read": f"{py} {cm} kv read",
        "session-search": f"{py} {shlex.quote(FAKE_CLAUDE)} {py} {cm} search {MARK} --mode bm25",
        "session-start": f"printf %s {shlex.quote(payload('SessionStart', str(alpha), source='startup'))}"
                         f" | {shlex.quote(os.path.join(HOOKS, 'session-start.sh'))}",
        "rules-injector": f"printf %s {shlex.quote(payload('PreToolUse', str(alpha), tool_name='Read', tool_input={'file_path': str(alpha / 'a.py')}))}"
                          f" | {shlex.quote(os.path.join(HOOKS, 'rules-injector.sh'))}",
    }
    script = ["set -u", f"mount -t tmpfs -o size=4m tmpfs {shlex.quote(str(mnt))}",
              f"cp -a {shlex.quote(paths.root)}/. {shlex.quote(str(mnt))}/",
              f"cd {shlex.quote(str(alpha))}"]
    if indexed:      # an index from before, and a file it has not seen yet
        script += [f"{py} {cm} index --no-vectors >/dev/null", f"printf '# more\\n\\n- {MARK} two\\n' > {new_rule}"]
    script += [f"dd if=/dev/zero of={shlex.quote(str(mnt))}/filler bs=64k >/dev/null 2>&1",
               f"dd if=/dev/zero of={shlex.quote(str(mnt))}/filler2 bs=1k >/dev/null 2>&1",
               f"df -k {shlex.quote(str(mnt))} | tail -1 | awk '{{print \"== free\"; print $4}}'"]
    script += [f"echo '== {name}'; {command} 2>/dev/null; echo" for name, command in runs.items()]
    env = {**os.environ, "CODE_MEMORY_ROOT": str(mnt), "CODE_MEMORY_PYTHON": sys.executable,
           "CODE_MEMORY_EMBEDDING__ENABLED": "false"}
    done = subprocess.run(["unshare", "-rm", "bash", "-c", "\n".join(script)], capture_output=True, text=True,
                          env=env, timeout=300)
    answers, name = {}, None
    for line in done.stdout.splitlines():
        if line.startswith("== "):
            name = line[3:]
        elif line.strip() and name:
            answers[name] = answers.get(name, "") + line
    assert answers.get("free") == "0", done.stdout[-2000:] + done.stderr[-2000:]
    for name in ("search", "get", "kv-read", "session-search"):
        out = json.loads(answers[name])
        assert out["ok"] is True, (name, out)
        if "search" in name:
            assert MARK in json.dumps(out["results"]) and "disk is full" in json.dumps(out["index"]), out
    for hook in ("session-start", "rules-injector"):
        assert MARK in json.loads(answers[hook])["hookSpecificOutput"]["additionalContext"], (hook, answers.get(hook))
